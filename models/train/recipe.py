"""The committed recipe of a shipped model: every hyper-parameter in one JSON file, read by every step."""
from __future__ import annotations

import json
from pathlib import Path


def load_recipe(path: Path) -> dict:
    rc = json.loads(Path(path).read_text())
    rc.pop("_comment", None)
    return rc
