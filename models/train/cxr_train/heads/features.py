"""Run the trained anatomy net over every cached film, then the frozen backbone over each lung crop.

Writes .cache/v2/features/
  anatomy.npz   per image: lung box (or NaN), predicted CTR (or NaN), lung/heart pixel counts
  eval.npy      (N, 1376, 7, 7) float16 features of the deterministic crop (every image)
  aug.npy       (M, 1376, 7, 7) float16 features of jittered, photometrically augmented crops
  aug_index.npy (M,) row index of each augmented view (train split only)

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.heads.features [--size 224] [--aug-extra 2] [--aug-224 0]
"""
from __future__ import annotations

import argparse
import json
import time
import zlib
from pathlib import Path

import numpy as np
import torch

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.anatomy.ops import cardiothoracic_ratio, crop_resize, lung_box
from cxr_train.data.augment import photometric
from cxr_train.data.cache import CACHE
from cxr_train.common import cli_parser, resize_area
from cxr_train.heads.backbone import Backbone
from cxr_train.anatomy.train import RUN as ANATOMY_RUN
from cxr_train.anatomy.train import normalise

OUT = CACHE / "features"


def anatomy_pass(net, images) -> dict:
    n = len(images)
    boxes = np.full((n, 4), np.nan, np.float32)
    ctr = np.full(n, np.nan, np.float32)
    with torch.no_grad():
        for s in range(0, n, 256):
            batch = np.stack([resize_area(im, 128) for im in images[s : s + 256]])
            # Same rounding as the worker: the 128 px gate/anatomy input is float, not re-quantised.
            logits = net(normalise(torch.from_numpy(batch).float()[:, None])).numpy()
            for k in range(len(batch)):
                lung, heart = logits[k, 0] > 0, logits[k, 1] > 0
                b = lung_box(lung)
                if b is not None:
                    boxes[s + k] = b
                c = cardiothoracic_ratio(lung, heart)
                if c is not None:
                    ctr[s + k] = c
    return {"boxes": boxes, "ctr": ctr}


def jitter(box, rng) -> tuple:
    """A slightly different lung box: each side moves by up to 6 % of the box."""
    if box is None or np.isnan(box[0]):
        box = (0.0, 0.0, 1.0, 1.0)
    w, h = box[2] - box[0], box[3] - box[1]
    d = rng.uniform(-0.06, 0.06, 4) * np.array([w, h, w, h])
    b = np.clip(np.array(box) + d, 0, 1)
    if b[2] - b[0] < 0.2 or b[3] - b[1] < 0.2:
        return tuple(box)
    return tuple(b)


def run_backbone(backbone, crops: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return backbone(torch.from_numpy(crops).float()[:, None]).numpy().astype(np.float16)


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--size", type=int, default=224)
    ap.add_argument("--aug-extra", type=int, default=2, help="augmented views per cxr-extra training image")
    ap.add_argument("--aug-224", type=int, default=0, help="augmented views per cxr-224 training image")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--only", choices=["eval", "aug", "all"], default="all", help="which views to (re)compute")
    ap.add_argument("--anatomy-weights", type=Path, default=ANATOMY_RUN / "best.pt", help="anatomy net weights")
    ap.add_argument("--splits", default="train,val,test", help="recompute backbone features for these splits only (the rest are kept)")
    ap.add_argument("--cxr224-train-fraction", type=float, default=0.5, help="share of cxr-224 training groups to use (CPU budget)")
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(2)
    OUT.mkdir(parents=True, exist_ok=True)
    rows = json.loads((CACHE / "rows.json").read_text())
    images = np.load(CACHE / "images.npy", allow_pickle=True)
    t0 = time.time()
    net = AnatomyNet()
    net.load_state_dict(torch.load(args.anatomy_weights)["net"])
    net.eval()
    backbone = Backbone().eval()
    n, s = len(rows), args.size
    if args.only in ("aug", "all"):
        augment_views(args, rows, images, net, backbone, t0)
    if args.only == "aug":
        return

    def keep(r):
        """Every val/test film and every cxr-extra film; a group-deterministic share of the cxr-224 training films."""
        return r["dataset"] == "cxr-extra" or r["split"] != "train" or (zlib.crc32(r["group_id"].encode()) % 1000) < 1000 * args.cxr224_train_fraction

    done = np.array([keep(r) for r in rows])
    np.save(OUT / "eval_done.npy", done)
    todo = np.flatnonzero(done)
    part = anatomy_pass(net, [images[i] for i in todo])
    an = {"boxes": np.full((n, 4), np.nan, np.float32), "ctr": np.full(n, np.nan, np.float32)}
    an["boxes"][todo], an["ctr"][todo] = part["boxes"], part["ctr"]
    np.savez(OUT / "anatomy.npz", **an)
    print(f"anatomy pass {time.time() - t0:.0f}s; no lung box for {int(np.isnan(part['boxes'][:, 0]).sum())} of {len(todo)}", flush=True)
    splits = args.splits.split(",")
    if len(splits) == 3:
        feats = np.lib.format.open_memmap(OUT / "eval.npy", mode="w+", dtype=np.float16, shape=(n, 1376, s // 32, s // 32))
    else:
        feats = np.load(OUT / "eval.npy", mmap_mode="r+")
        todo = np.array([i for i in todo if rows[i]["split"] in splits])
    for a in range(0, len(todo), 64):
        idx = todo[a : a + 64]
        crops = np.stack([crop_resize(images[i], None if np.isnan(an["boxes"][i, 0]) else an["boxes"][i], s) for i in idx])
        feats[idx] = run_backbone(backbone, crops)
        if a % 1280 == 0:
            print(f"eval {a}/{len(todo)} {time.time() - t0:.0f}s", flush=True)
    feats.flush()
    print(f"done in {time.time() - t0:.0f}s", flush=True)


def augment_views(args, rows, images, net, backbone, t0) -> None:
    """Jittered, photometrically augmented crops of the training films (boxes from the anatomy net)."""
    s = args.size
    rng = np.random.default_rng(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    aug_index = []
    for i, r in enumerate(rows):
        if r["split"] == "train":
            aug_index += [i] * (args.aug_extra if r["dataset"] == "cxr-extra" else args.aug_224)
    aug_index = np.array(aug_index)
    rng.shuffle(aug_index)
    uniq = np.unique(aug_index)
    boxes = dict(zip(uniq.tolist(), anatomy_pass(net, [images[i] for i in uniq])["boxes"]))
    np.save(OUT / "aug_index.npy", aug_index)
    aug = np.lib.format.open_memmap(OUT / "aug.npy", mode="w+", dtype=np.float16, shape=(len(aug_index), 1376, s // 32, s // 32))
    for a in range(0, len(aug_index), 64):
        idx = aug_index[a : a + 64]
        crops = np.stack([crop_resize(images[i], jitter(boxes[int(i)], rng), s) for i in idx])
        crops = photometric(torch.from_numpy(crops).float()[:, None], g)[:, 0].numpy()
        aug[a : a + len(idx)] = run_backbone(backbone, crops)
        if a % 1280 == 0:
            print(f"aug {a}/{len(aug_index)} {time.time() - t0:.0f}s", flush=True)
    aug.flush()
    print(f"augmented views done in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
