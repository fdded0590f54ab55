"""Generate the input-gate negatives, preprocessed exactly like real uploads.

Splits are disjoint by generator seed (train 0.., val 1e6.., test 2e6..) and, for
natural images, by source picture (test uses pictures never seen in training).
Usage: /usr/bin/python3 models/train/build_gate_data.py [--train 1500 --val 200 --test 500]
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from common import CACHE_DIR, resize_area, to_gray_u8
from gate_checks import pre_checks
from gate_generators import GENERATORS, NATURAL_TEST, NATURAL_TRAIN

SPLIT_OFFSET = {"train": 0, "val": 1_000_000, "test": 2_000_000}


def render(kind: str, split: str, i: int):
    t = list(GENERATORS).index(kind)
    rng = np.random.default_rng(SPLIT_OFFSET[split] + t * 100_000 + i)
    gen = GENERATORS[kind]
    img = gen(rng, NATURAL_TEST if split == "test" else NATURAL_TRAIN) if kind == "natural_image" else gen(rng)
    return img


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--train", type=int, default=1500)
    ap.add_argument("--val", type=int, default=200)
    ap.add_argument("--test", type=int, default=500)
    ap.add_argument("--splits", default="train,val,test")
    args = ap.parse_args()
    out = CACHE_DIR.parent / "gate"
    out.mkdir(parents=True, exist_ok=True)
    for split in args.splits.split(","):
        n = getattr(args, split)
        xs, kinds, reasons = [], [], []
        t0 = time.time()
        for kind in GENERATORS:
            for i in range(n):
                img = render(kind, split, i)
                px = np.asarray(img)
                reasons.append(pre_checks(px) or "")
                xs.append(resize_area(to_gray_u8(px)).astype(np.float16))
                kinds.append(kind)
        np.savez(out / f"{split}.npz", x=np.stack(xs), kind=np.array(kinds), pre=np.array(reasons))
        print(split, len(xs), f"{time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
