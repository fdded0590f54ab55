"""Turn the fine-tuned model 3 into the files model 2's calibration, evaluation and export read.

Writes (same layout as cxr_train/heads/features.py + cxr_train/heads/train.py, so cxr_train/heads/finalize.py, cxr_train/evaluate/findings.py and
cxr_train/export/model.py run unchanged on model 3):
  .cache/v2/features/eval.npy, eval_done.npy   (N,1376,7,7) float16 features of every cached row's crop
  .cache/v2/features/aug.npy, aug_index.npy    the same for the augmented training views
  .cache/v2/features/anatomy.npz               lung box and CTR of every cached row from the anatomy net
                                               that ships (recipe: anatomy_for_eval)
  .cache/v2/heads/head.pt                      the trained linear head; .cache/v2/heads/top.pt the blocks 14-18

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.heads.finetune.features [--recipe ...] [--run .cache/v2/finetune]
"""
from __future__ import annotations

import argparse
import json

import numpy as np
import torch

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.data.cache import CACHE
from cxr_train.heads.features import anatomy_pass
from cxr_train.heads.finetune.net import TopNet, folded_backbone
from cxr_train.heads.finetune.train import B13, run_parser
from cxr_train.heads.head import Head
from cxr_train.data.labels import LABELS
from cxr_train.recipe import load_recipe

FEATS = CACHE / "features"
HEADS = CACHE / "heads"


def top_features(net: TopNet, arr, batch: int = 128) -> np.ndarray:
    out = np.zeros((len(arr), 1376, 7, 7), np.float16)
    with torch.no_grad():
        for s in range(0, len(arr), batch):
            out[s : s + batch] = net.features(torch.from_numpy(np.asarray(arr[s : s + batch], dtype=np.float32))).contiguous().numpy().astype(np.float16)
    return out


def parser() -> argparse.ArgumentParser:
    return run_parser(__doc__)


def main() -> None:
    args = parser().parse_args()
    rc = load_recipe(args.recipe)
    torch.set_num_threads(rc["threads"])
    FEATS.mkdir(parents=True, exist_ok=True)
    HEADS.mkdir(parents=True, exist_ok=True)
    rows = json.loads((CACHE / "rows.json").read_text())
    n = len(rows)
    ck = torch.load(args.run / "best.pt")
    net = TopNet(folded_backbone(), Head(len(LABELS), hidden=0))
    net.load_state_dict(ck["net"])
    net.eval()
    ev = np.lib.format.open_memmap(FEATS / "eval.npy", mode="w+", dtype=np.float16, shape=(n, 1376, 7, 7))
    done = np.zeros(n, bool)
    for part in ("train", "eval"):
        arr, index = np.load(B13 / f"{part}.npy", mmap_mode="r"), np.load(B13 / f"{part}_index.npy")
        for s in range(0, len(index), 1024):
            ev[index[s : s + 1024]] = top_features(net, arr[s : s + 1024])
        done[index] = True
        print(f"{part}: {len(index)} rows", flush=True)
    ev.flush()
    np.save(FEATS / "eval_done.npy", done)
    arr, index = np.load(B13 / "aug.npy", mmap_mode="r"), np.load(B13 / "aug_index.npy")
    aug = np.lib.format.open_memmap(FEATS / "aug.npy", mode="w+", dtype=np.float16, shape=(len(index), 1376, 7, 7))
    for s in range(0, len(index), 1024):
        aug[s : s + 1024] = top_features(net, arr[s : s + 1024])
    aug.flush()
    np.save(FEATS / "aug_index.npy", index)
    # CTR and lung boxes from the anatomy net that ships, for every cached row (the CTR combination is fitted on them).
    anatomy = AnatomyNet()
    anatomy.load_state_dict(torch.load(CACHE.parents[1] / rc["anatomy_for_eval"])["net"])
    anatomy.eval()
    images = np.load(CACHE / "images.npy", allow_pickle=True)
    todo = np.flatnonzero(done)
    part = anatomy_pass(anatomy, [images[i] for i in todo])
    an = {"boxes": np.full((n, 4), np.nan, np.float32), "ctr": np.full(n, np.nan, np.float32)}
    an["boxes"][todo], an["ctr"][todo] = part["boxes"], part["ctr"]
    np.savez(FEATS / "anatomy.npz", **an)
    split = np.array([r["split"] for r in rows])
    va = np.flatnonzero(split == "val")
    with torch.no_grad():
        zv = np.concatenate([net.head(torch.from_numpy(np.asarray(ev[va[s : s + 512]], dtype=np.float32))).numpy() for s in range(0, len(va), 512)])
    np.save(HEADS / "head_val_logits.npy", zv)
    state = {k[len("head.") :]: v for k, v in ck["net"].items() if k.startswith("head.")}
    torch.save({"head": state, "hidden": 0, "labels": LABELS, "args": {"finetune": rc["finetune"], "epoch": ck["epoch"]}}, HEADS / "head.pt")
    torch.save({"top": {k[len("top.") :]: v for k, v in ck["net"].items() if k.startswith("top.")}}, HEADS / "top.pt")
    print("features, anatomy and head written", flush=True)


if __name__ == "__main__":
    main()
