"""The one entry point from the two data sets to model 3's shipped files.

Every hyper-parameter comes from recipes/model3.json; each step is seeded and resumable (a step whose
output exists is skipped, the long ones resume from their checkpoints), so a run cut off by the end
of a session is continued by running this again.

Usage: OPENBLAS_NUM_THREADS=1 /usr/bin/python3 models/train/run_model3.py [--from STEP] [--until STEP] [--version 3.0.0]
Steps, in order: cache, recover, anatomy, b13-train, b13-aug, b13-val, finetune, b13-eval, features, finalize,
evaluate, evaluate-anatomy, export, shortcuts, card, fixtures.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from recipe import load_recipe

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CACHE = ROOT / ".cache" / "v2"


def py(script: str, *args: str) -> list[str]:
    return [sys.executable, str(HERE / script), *args]


def steps(rc: dict, version: str) -> list[tuple[str, list[str], Path | None]]:
    an = rc["anatomy"]
    anatomy_args = ["--epochs", str(an["epochs"]), "--steps", str(an["steps"]), "--lr", str(an["lr"]), "--init", an["init"], "--opacify", str(an["opacify"]), "--run", str(ROOT / Path(rc["anatomy_for_eval"]).parent), "--seed", str(rc["seed"])]
    if an.get("stop_after"):
        anatomy_args += ["--stop-after", str(an["stop_after"])]
    if an["freeze_bn"]:
        anatomy_args.append("--freeze-bn")
    return [
        ("cache", py("cache_v2.py"), CACHE / "meta.json"),
        ("recover", py("recover_onnx.py"), CACHE / "recovered" / "gate.pt"),
        ("anatomy", py("train_anatomy.py", *anatomy_args), None),
        ("b13-train", py("finetune_cache.py", "--part", "train"), CACHE / "b13" / "train_ctr.npy"),
        ("b13-aug", py("finetune_cache.py", "--part", "aug"), CACHE / "b13" / "aug_ctr.npy"),
        ("b13-val", py("finetune_cache.py", "--part", "val"), CACHE / "b13" / "val_ctr.npy"),
        ("finetune", py("finetune_train.py"), None),
        ("b13-eval", py("finetune_cache.py", "--part", "eval"), CACHE / "b13" / "eval_ctr.npy"),
        ("features", py("finetune_features.py"), None),
        ("finalize", py("finalize_v2.py"), None),
        ("evaluate", py("evaluate_v2.py"), None),
        ("evaluate-anatomy", py("evaluate_anatomy.py", "--run", str(ROOT / Path(rc["anatomy_for_eval"]).parent)), None),
        ("export", py("export_v2.py", "--version", version), None),
        ("shortcuts", py("shortcut_checks.py"), None),
        ("card", py("model_card_v2.py"), None),
        ("fixtures", py("make_fixtures_v2.py"), None),
    ]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--recipe", type=Path, default=HERE / "recipes" / "model3.json")
    ap.add_argument("--from", dest="start", default="cache")
    ap.add_argument("--until", default="fixtures")
    ap.add_argument("--version", default="3.0.0")
    args = ap.parse_args()
    rc = load_recipe(args.recipe)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": str(rc["threads"])}
    todo = steps(rc, args.version)
    names = [s[0] for s in todo]
    for name, cmd, done_marker in todo[names.index(args.start) : names.index(args.until) + 1]:
        if done_marker is not None and done_marker.exists():
            print(f"== {name}: done already ({done_marker.relative_to(ROOT)})", flush=True)
            continue
        print(f"== {name}: {' '.join(cmd[1:])}", flush=True)
        subprocess.run(cmd, cwd=ROOT, env=env, check=True)


if __name__ == "__main__":
    main()
