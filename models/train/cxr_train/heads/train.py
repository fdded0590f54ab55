"""Train model 2's classifier head on the cached lung-crop features (train split, plus augmented
views), monitor the validation populations, save the head and its validation scores.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.heads.train [--epochs 12] [--hidden 256] [--no-aug]
Writes .cache/v2/heads/head.pt, val_logits.npy, train.log
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np
import torch

from cxr_train.common import cli_parser
from cxr_train.data.cache import CACHE
from cxr_train.heads.head import auroc, fit_head, pooled, predict, stratum_weights
from cxr_train.data.labels import LABELS, stratum
from cxr_train.data.populations import DECIDING, populations

FEATS = CACHE / "features"
RUN = CACHE / "heads"


def pooled_cache(name: str) -> np.ndarray:
    """(N,1376,1,1) mean over positions of a feature file, cached beside it. A linear head sees
    exactly this (the mean commutes with it), so training and cross-validation read 49x less."""
    src, dst = FEATS / f"{name}.npy", FEATS / f"{name}_pooled.npy"
    if not dst.exists() or dst.stat().st_mtime < src.stat().st_mtime:
        np.save(dst, pooled(np.load(src, mmap_mode="r")))
    return np.load(dst)


def load_all(pooled_only: bool = False):
    rows = json.loads((CACHE / "rows.json").read_text())
    if pooled_only:
        ev, aug = pooled_cache("eval"), pooled_cache("aug")
    else:
        ev = np.load(FEATS / "eval.npy", mmap_mode="r")
        aug = np.load(FEATS / "aug.npy", mmap_mode="r")
    aug_index = np.load(FEATS / "aug_index.npy")
    y = np.array([r["targets"] for r in rows], dtype=np.int64)
    # Rows without features (cxr-224 training films left out for CPU time) carry no target at all.
    done = np.load(FEATS / "eval_done.npy")
    y[~done] = -1
    return rows, ev, aug, aug_index, y


def training_set(rows, ev, aug, aug_index, y, train_idx: np.ndarray, use_aug: bool):
    """Features, targets, weights for the given rows (eval view + their augmented views)."""
    parts_f = [np.asarray(ev[np.sort(train_idx)])]
    rows_used = list(np.sort(train_idx))
    if use_aug:
        keep = np.isin(aug_index, train_idx)
        sel = np.flatnonzero(keep)
        parts_f.append(np.asarray(aug[sel]))
        rows_used += list(aug_index[sel])
    rows_used = np.array(rows_used)
    f = np.concatenate(parts_f)
    w = stratum_weights([stratum(rows[i]) for i in rows_used])
    return f, y[rows_used], w


def val_metrics(rows, feats_val, val_idx):
    pops = populations(rows, val_idx)
    pos = {int(i): k for k, i in enumerate(val_idx)}

    def fn(head):
        logits = predict(head, feats_val)
        out = {}
        for label, pop in DECIDING.items():
            if pop not in pops:
                continue
            sel, target, lab = pops[pop]
            out[label] = round(auroc(target, logits[[pos[int(i)] for i in sel], LABELS.index(lab)]), 3)
        return out

    return fn


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--weight-decay", type=float, default=0.05)
    ap.add_argument("--no-aug", action="store_true")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--tag", default="head")
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(2)
    RUN.mkdir(parents=True, exist_ok=True)
    rows, ev, aug, aug_index, y = load_all(pooled_only=args.hidden == 0)
    split = np.array([r["split"] for r in rows])
    has = (y >= 0).any(1)
    tr, va = np.flatnonzero((split == "train") & has), np.flatnonzero(split == "val")
    t0 = time.time()
    f, yt, w = training_set(rows, ev, aug, aug_index, y, tr, not args.no_aug)
    fv = np.asarray(ev[va])
    log = open(RUN / "train.log", "a")

    def emit(m):
        m["sec"] = round(time.time() - t0)
        line = json.dumps({"tag": args.tag, **m})
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    emit({"start": vars(args), "n_train_views": len(f)})
    head = fit_head(f, yt, w, epochs=args.epochs, lr=args.lr, seed=args.seed, hidden=args.hidden, wd=args.weight_decay, log=emit, val=val_metrics(rows, fv, va))
    torch.save({"head": head.state_dict(), "hidden": args.hidden, "labels": LABELS, "args": vars(args)}, RUN / f"{args.tag}.pt")
    np.save(RUN / f"{args.tag}_val_logits.npy", predict(head, fv))
    emit({"saved": f"{args.tag}.pt"})


if __name__ == "__main__":
    main()
