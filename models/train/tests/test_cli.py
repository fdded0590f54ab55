"""Every step of cxr_train is a module with parser() and main(): it imports, answers --help before doing any work,
spells its flags in one style, and the run's chain calls modules that accept the flags it passes.
Nothing here trains or reads data."""
import importlib
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

for needed in ("torch", "torchvision", "onnx", "PIL", "scipy", "sklearn"):
    pytest.importorskip(needed, reason="the training package imports Debian's python3-torch, -torchvision, -onnx, -pil, -scipy, -sklearn")

import cxr_train  # noqa: E402
from cxr_train import run  # noqa: E402
from cxr_train.recipe import DEFAULT_RECIPE, load_recipe  # noqa: E402

TRAIN_DIR = Path(cxr_train.__file__).resolve().parents[1]
KEBAB = re.compile(r"^--[a-z0-9]+(-[a-z0-9]+)*$")


def step_modules() -> list:
    mods = [importlib.import_module(m.name) for m in pkgutil.walk_packages(cxr_train.__path__, "cxr_train.")]
    return [m for m in mods if hasattr(m, "main")]


def test_every_step_has_a_parser_and_kebab_case_flags():
    steps = step_modules()
    assert len(steps) >= 25
    for mod in steps:
        ap = mod.parser()
        assert ap.description, f"{mod.__name__}: --help shows the module docstring"
        for action in ap._actions:
            for flag in action.option_strings:
                assert flag == "-h" or KEBAB.match(flag), f"{mod.__name__}: {flag}"


def test_every_step_answers_help_before_doing_anything(monkeypatch, capsys):
    for mod in step_modules():
        monkeypatch.setattr(sys, "argv", [mod.__name__, "--help"])
        with pytest.raises(SystemExit) as done:
            mod.main()
        assert done.value.code == 0, mod.__name__
        assert "usage:" in capsys.readouterr().out, mod.__name__


def test_the_run_calls_modules_that_accept_its_flags():
    recipe = load_recipe(DEFAULT_RECIPE)
    todo = run.steps(recipe, DEFAULT_RECIPE, "3.0.0")
    assert tuple(name for name, _, _ in todo) == run.STEP_NAMES
    for name, cmd, _ in todo:
        assert cmd[1] == "-m", name
        args = importlib.import_module(cmd[2]).parser().parse_args(cmd[3:])
        if "--recipe" in cmd:
            assert args.recipe == DEFAULT_RECIPE, name
    # A variant recipe reaches every step that reads one (review finding D3).
    variant = DEFAULT_RECIPE.with_name("model3-long.json")
    readers = [cmd for _, cmd, _ in run.steps(recipe, variant, "3.0.0") if cmd[2].startswith("cxr_train.heads.finetune.")]
    assert len(readers) == 6 and all(cmd[cmd.index("--recipe") + 1] == str(variant) for cmd in readers)


def test_the_entry_point_runs_as_a_module_from_the_repository_root():
    env = {**os.environ, "PYTHONPATH": str(TRAIN_DIR)}
    out = subprocess.run([sys.executable, "-m", "cxr_train.run", "--help"], cwd=TRAIN_DIR.parents[1], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "--recipe" in out.stdout and "--from" in out.stdout
