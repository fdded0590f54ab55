"""The committed recipe of a shipped model: every hyper-parameter in one JSON file, read by every step.

The `--recipe` option is defined here once; the run and every step that reads the recipe take it from
`RECIPE_ARGS` (argparse parents), so its default cannot drift between them.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from cxr_train.common import cli_parser

RECIPES = Path(__file__).resolve().parents[1] / "recipes"
DEFAULT_RECIPE = RECIPES / "model3.json"

RECIPE_ARGS = argparse.ArgumentParser(add_help=False)
RECIPE_ARGS.add_argument("--recipe", type=Path, default=DEFAULT_RECIPE, help="recipe JSON (default: recipes/model3.json, the shipped build)")


def load_recipe(path: Path) -> dict:
    rc = json.loads(Path(path).read_text())
    rc.pop("_comment", None)
    return rc


def flatten(rc: dict, prefix: str = "") -> dict:
    """{"anatomy": {"lr": 0.001}} -> {"anatomy.lr": 0.001}"""
    out: dict = {}
    for k, v in rc.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def markdown_table(rc: dict) -> str:
    """The recipe as the markdown table models/README.md shows (a test keeps the two equal)."""
    rows = ["| recipe key | value |", "|---|---|"]
    rows += [f"| `{k}` | `{json.dumps(v)}` |" for k, v in flatten(rc).items()]
    return "\n".join(rows)


def parser() -> argparse.ArgumentParser:
    return cli_parser("Print a recipe as the markdown table of models/README.md.", parents=[RECIPE_ARGS])


def main() -> None:
    print(markdown_table(load_recipe(parser().parse_args().recipe)))


if __name__ == "__main__":
    main()
