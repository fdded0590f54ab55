"""The committed recipe of a shipped model: every hyper-parameter in one JSON file, read by every step.

The `--recipe` option is defined here once; the run and every step that reads the recipe take it from
`RECIPE_ARGS` (argparse parents), so its default cannot drift between them.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

RECIPES = Path(__file__).resolve().parents[1] / "recipes"
DEFAULT_RECIPE = RECIPES / "model3.json"

RECIPE_ARGS = argparse.ArgumentParser(add_help=False)
RECIPE_ARGS.add_argument("--recipe", type=Path, default=DEFAULT_RECIPE, help="recipe JSON (default: recipes/model3.json, the shipped build)")


def load_recipe(path: Path) -> dict:
    rc = json.loads(Path(path).read_text())
    rc.pop("_comment", None)
    return rc
