"""The one entry point from the data sets to the shipped files: model 3's chain, then model 4's steps.

Every hyper-parameter comes from recipes/model3.json; each step is seeded and resumable (a step whose
output exists is skipped, the long ones resume from their checkpoints), so a run cut off by the end
of a session is continued by running this again.

Usage (from the repository root):
    OPENBLAS_NUM_THREADS=1 PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.run [--recipe models/train/recipes/model3.json]
        [--from STEP] [--until STEP] [--version 3.0.0]
Steps, in order: cache, recover, anatomy, b13-train, b13-aug, b13-val, finetune, b13-eval, features, finalize,
evaluate, evaluate-anatomy, export, shortcuts, card, fixtures, then model 4 (cxr_train.model4: model 3's network judged
on films from other hospitals): m4-dump, m4-projection, m4-cardiomegaly, m4-external, m4-export, m4-card, m4-recover, m4-fixtures, then model 5
(cxr_train.model5: the head refitted for specificity): m5-dump, m5-heads, m5-heads-prior, m5-choose, m5-export,
m5-card, m5-recover, m5-fixtures.
Model 4 from the committed model-3 network alone: `--from m4-dump --until m4-fixtures`; model 5 from the committed
model-4 files: `--from m5-dump --version 5.0.0`.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from cxr_train.common import cli_parser, REPO_ROOT as ROOT
from cxr_train.recipe import RECIPE_ARGS, load_recipe

TRAIN_DIR = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "v2"
STEP_NAMES = ("cache", "recover", "anatomy", "b13-train", "b13-aug", "b13-val", "finetune", "b13-eval", "features", "finalize",
              "evaluate", "evaluate-anatomy", "export", "shortcuts", "card", "fixtures",
              "m4-dump", "m4-projection", "m4-cardiomegaly", "m4-external", "m4-export", "m4-card", "m4-recover", "m4-fixtures",
              "m5-dump", "m5-heads", "m5-heads-prior", "m5-choose", "m5-export", "m5-likely", "m5-card", "m5-recover",
              "m5-fixtures")


def step(module: str, *args: str) -> list[str]:
    """One step as its own process (its own memory and threads), run as `python3 -m cxr_train.<module>`."""
    return [sys.executable, "-m", f"cxr_train.{module}", *args]


def steps(rc: dict, recipe: Path, version: str) -> list[tuple[str, list[str], Path | None]]:
    an = rc["anatomy"]
    anatomy_args = [
        "--epochs", str(an["epochs"]), "--steps", str(an["steps"]), "--lr", str(an["lr"]), "--init", an["init"],
        "--opacify", str(an["opacify"]), "--run", str(ROOT / Path(rc["anatomy_for_eval"]).parent), "--seed", str(rc["seed"]),
    ]
    if an.get("stop_after"):
        anatomy_args += ["--stop-after", str(an["stop_after"])]
    if an["freeze_bn"]:
        anatomy_args.append("--freeze-bn")
    # The steps that read the recipe get the run's recipe, so a variant recipe reaches every one of them.
    rx = ["--recipe", str(recipe)]
    return [
        ("cache", step("data.cache"), CACHE / "meta.json"),
        ("recover", step("export.recover"), CACHE / "recovered" / "gate.pt"),
        ("anatomy", step("anatomy.train", *anatomy_args), None),
        ("b13-train", step("heads.finetune.cache", "--part", "train", *rx), CACHE / "b13" / "train_ctr.npy"),
        ("b13-aug", step("heads.finetune.cache", "--part", "aug", *rx), CACHE / "b13" / "aug_ctr.npy"),
        ("b13-val", step("heads.finetune.cache", "--part", "val", *rx), CACHE / "b13" / "val_ctr.npy"),
        ("finetune", step("heads.finetune.train", *rx), None),
        ("b13-eval", step("heads.finetune.cache", "--part", "eval", *rx), CACHE / "b13" / "eval_ctr.npy"),
        ("features", step("heads.finetune.features", *rx), None),
        ("finalize", step("heads.finalize"), None),
        ("evaluate", step("evaluate.findings"), None),
        ("evaluate-anatomy", step("evaluate.anatomy", "--run", str(ROOT / Path(rc["anatomy_for_eval"]).parent)), None),
        ("export", step("export.model", "--version", version), None),
        ("shortcuts", step("evaluate.shortcuts"), None),
        ("card", step("evaluate.card"), None),
        ("fixtures", step("export.parity_fixtures"), None),
        ("m4-dump", step("model4.dump"), None),
        ("m4-projection", step("model4.projection"), None),
        ("m4-cardiomegaly", step("model4.cardiomegaly"), None),
        ("m4-external", step("model4.external"), None),
        ("m4-export", step("model4.export", "--version", version), None),
        ("m4-card", step("model4.card"), None),
        # The reference pipeline needs torch weights: read back from the exported graph (model 3's, plus m4_* nodes).
        ("m4-recover", step("export.recover", "--classifier-onnx", str(ROOT / "models" / "cxr" / "model.onnx")), None),
        ("m4-fixtures", step("export.parity_fixtures"), None),
        ("m5-dump", step("model5.dump"), None),
        ("m5-heads", step("model5.heads"), ROOT / ".cache" / "m5" / "heads.json"),
        ("m5-heads-prior", step("model5.heads", "--prior", "model4"), ROOT / ".cache" / "m5" / "heads-model4.json"),
        ("m5-choose", step("model5.choose"), None),
        ("m5-export", step("model5.export", "--version", version), None),
        # Issue 48: each finding's "Likely" point, chosen for precision out of fold, into the exported manifest.
        ("m5-likely", step("model5.likely"), None),
        ("m5-card", step("model5.card"), None),
        ("m5-recover", step("export.recover", "--classifier-onnx", str(ROOT / "models" / "cxr" / "model.onnx")), None),
        ("m5-fixtures", step("export.parity_fixtures"), None),
    ]


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__, parents=[RECIPE_ARGS])
    ap.add_argument("--from", dest="start", choices=STEP_NAMES, default=STEP_NAMES[0], help="first step to run")
    ap.add_argument("--until", choices=STEP_NAMES, default=STEP_NAMES[-1], help="last step to run")
    ap.add_argument("--version", default="4.0.0")
    return ap


def main() -> None:
    args = parser().parse_args()
    rc = load_recipe(args.recipe)
    path = os.pathsep.join(p for p in (str(TRAIN_DIR), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONPATH": path, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": str(rc["threads"])}
    todo = steps(rc, args.recipe.resolve(), args.version)
    names = [s[0] for s in todo]
    assert tuple(names) == STEP_NAMES, names
    for name, cmd, done_marker in todo[names.index(args.start) : names.index(args.until) + 1]:
        if done_marker is not None and done_marker.exists():
            print(f"== {name}: done already ({done_marker.relative_to(ROOT)})", flush=True)
            continue
        print(f"== {name}: {' '.join(cmd[1:])}", flush=True)
        subprocess.run(cmd, cwd=ROOT, env=env, check=True)


if __name__ == "__main__":
    main()
