"""Generate the input-gate negatives, preprocessed exactly like real uploads.

Splits are disjoint by generator seed (split offsets 0 / 1e8 / 2e8, kind stride 1e6, so no
seed is shared between splits or kinds) and, for natural images, by source picture (test uses
pictures never seen in training). Each split is written to .cache/gate/<split>.npz:
x (N,128,128 float16, 0..255 as the worker preprocesses), kind, pre (deterministic pre-check
reason or ''), post (post-check reason or '').
Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.gate.build_data [--train 1200 --val 300 --test 500] [--jobs 1]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from cxr_train.common import CACHE_DIR, cli_parser, resize_area, to_gray_u8
from cxr_train.gate.checks import post_checks, pre_checks
from cxr_train.gate.generators import GENERATORS, NATURAL_TEST, NATURAL_TRAIN

SPLIT_OFFSET = {"train": 0, "val": 100_000_000, "test": 200_000_000}
KIND_STRIDE = 1_000_000  # at most this many images per kind and split


def render(kind: str, split: str, i: int):
    t = list(GENERATORS).index(kind)
    rng = np.random.default_rng(SPLIT_OFFSET[split] + t * KIND_STRIDE + i)
    gen = GENERATORS[kind]
    img = gen(rng, NATURAL_TEST if split == "test" else NATURAL_TRAIN) if kind == "natural_image" else gen(rng)
    return img


def one(job):
    kind, split, i = job
    px = np.asarray(render(kind, split, i))
    x = resize_area(to_gray_u8(px))
    return x.astype(np.float16), pre_checks(px) or "", post_checks(x)[0] or ""


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--train", type=int, default=1200)
    ap.add_argument("--val", type=int, default=300)
    ap.add_argument("--test", type=int, default=500)
    ap.add_argument("--splits", default="train,val,test")
    ap.add_argument("--kinds", default=",".join(GENERATORS))
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (results do not depend on it)")
    return ap


def main() -> None:
    args = parser().parse_args()
    out = CACHE_DIR.parent / "gate"
    out.mkdir(parents=True, exist_ok=True)
    kinds_all = args.kinds.split(",")
    for split in args.splits.split(","):
        n = getattr(args, split)
        t0 = time.time()
        jobs = [(kind, split, i) for kind in kinds_all for i in range(n)]
        if args.jobs > 1:
            from multiprocessing import Pool

            with Pool(args.jobs) as pool:
                res = pool.map(one, jobs, chunksize=16)
        else:
            res = [one(j) for j in jobs]
        np.savez(out / f"{split}.npz", x=np.stack([r[0] for r in res]), kind=np.array([j[0] for j in jobs]),
                 pre=np.array([r[1] for r in res]), post=np.array([r[2] for r in res]))
        print(split, len(jobs), f"{time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
