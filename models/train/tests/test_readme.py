"""models/README.md states hyper-parameters in two tables; each must say what the code and the recipe do."""
import re
from pathlib import Path

import pytest

from cxr_train.recipe import DEFAULT_RECIPE, load_recipe, markdown_table

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def block(start: str, end: str) -> str:
    m = re.search(re.escape(start) + r"\n(.*?)\n" + re.escape(end), README, re.S)
    assert m, f"models/README.md has no {start} block"
    return m.group(1)


def test_the_recipe_table_is_the_committed_recipe():
    assert block("<!-- recipe: model3.json -->", "<!-- /recipe -->") == markdown_table(load_recipe(DEFAULT_RECIPE))


def test_the_head_table_states_the_defaults_and_the_shipped_command():
    pytest.importorskip("torch", reason="cxr_train.heads.train imports torch")
    from cxr_train.heads import train

    defaults = train.parser().parse_args([])
    shipped_cmd = re.search(r"-m cxr_train\.heads\.train (.*?)\s+#", README).group(1).split()
    shipped = train.parser().parse_args(shipped_cmd)
    rows = [r for r in block("<!-- head defaults: cxr_train.heads.train -->", "<!-- /head defaults -->").splitlines()[2:]]
    assert len(rows) == 4
    for row in rows:
        flag, default, model2 = (c.strip() for c in row.strip("|").split("|"))
        dest = flag.strip("`").lstrip("-").replace("-", "_")
        assert float(default) == getattr(defaults, dest), flag
        assert float(model2.split()[0]) == getattr(shipped, dest), flag
