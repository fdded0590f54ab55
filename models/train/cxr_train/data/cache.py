"""Decode cxr-224 and cxr-extra once into .cache/v2/ for model 2 (anatomy + findings).

Writes
  rows.json        one row per image: dataset, path, source, split, group, age_group, labels (see cxr_train/data/labels.py)
  images.npy       object array of native-size uint8 images (224, 256 or 64 px)
  seg.npz          128x128 images and masks for the anatomy net: img u8 (N,128,128), lung u8, heart u8,
                   has_heart bool, row index into rows.json, mask source

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.data.cache [--cxr224 DIR] [--extra DIR]
"""
from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

import numpy as np
from PIL import Image

from cxr_train.common import REPO_ROOT, cli_parser, data_version, resize_area
from cxr_train.data.labels import row_targets

CACHE = REPO_ROOT / ".cache" / "v2"
SHARED = (REPO_ROOT / ".." / "shared" / "datasets").resolve()
SEG = 128


def read_csv(p: Path) -> list[dict]:
    with open(p, newline="") as f:
        return list(csv.DictReader(f))


def load_gray(p: Path) -> np.ndarray:
    with Image.open(p) as im:
        return np.asarray(im.convert("L")).copy()


def mask_to(mask: np.ndarray, size: int) -> np.ndarray:
    """Area resize + threshold at 50 %, as the dataset README asks (never a smoothing filter alone)."""
    return (resize_area((mask > 127).astype(np.uint8) * 255, size) >= 127.5).astype(np.uint8)


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--cxr224", type=Path, default=SHARED / "cxr-224")
    ap.add_argument("--extra", type=Path, default=SHARED / "cxr-extra")
    return ap


def main() -> None:
    args = parser().parse_args()
    CACHE.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    rows: list[dict] = []
    images: list[np.ndarray] = []
    for r in read_csv(args.cxr224 / "manifest.csv"):
        rows.append({"dataset": "cxr-224", **r, "targets": row_targets("cxr-224", r)})
        images.append(load_gray(args.cxr224 / r["path"]))
    for r in read_csv(args.extra / "manifest.csv"):
        rows.append({"dataset": "cxr-extra", "label": r["dataset_label"], **r, "targets": row_targets("cxr-extra", r)})
        images.append(load_gray(args.extra / r["path"]))
    print(f"decoded {len(rows)} images in {time.time() - t0:.0f}s", flush=True)
    index = {(r["dataset"], r["path"]): i for i, r in enumerate(rows)}

    # Anatomy masks: lung (QU-Ex on both datasets, SCR left+right on JSRT) and heart (SCR, JSRT only).
    per_image: dict[int, dict] = {}
    for m in read_csv(args.extra / "masks.csv"):
        if m["kind"] not in ("lung", "left_lung", "right_lung", "heart"):
            continue
        i = index[(m["image_dataset"], m["image_path"])]
        mask = load_gray(args.extra / m["mask_path"])
        e = per_image.setdefault(i, {"source": m["source"]})
        key = "heart" if m["kind"] == "heart" else "lung"
        e[key] = np.maximum(e.get(key, np.zeros_like(mask)), mask)
    order = sorted(per_image)
    n = len(order)
    seg_img = np.zeros((n, SEG, SEG), np.uint8)
    lung = np.zeros((n, SEG, SEG), np.uint8)
    heart = np.zeros((n, SEG, SEG), np.uint8)
    has_heart = np.zeros(n, bool)
    lung_full: list[np.ndarray] = []
    heart_full: list[np.ndarray] = []
    for k, i in enumerate(order):
        e = per_image[i]
        seg_img[k] = np.clip(np.rint(resize_area(images[i], SEG)), 0, 255).astype(np.uint8)
        lung[k] = mask_to(e["lung"], SEG)
        lung_full.append((e["lung"] > 127).astype(np.uint8))
        if "heart" in e:
            heart[k] = mask_to(e["heart"], SEG)
            heart_full.append((e["heart"] > 127).astype(np.uint8))
            has_heart[k] = True
        else:
            heart_full.append(np.zeros((1, 1), np.uint8))
    np.savez_compressed(
        CACHE / "seg.npz",
        img=seg_img,
        lung=lung,
        heart=heart,
        has_heart=has_heart,
        row=np.array(order),
        source=np.array([per_image[i]["source"] for i in order]),
    )
    # Native-resolution reference masks for the Dice / CTR figures on the test split.
    np.save(CACHE / "masks_full.npy", np.array([lung_full, heart_full], dtype=object), allow_pickle=True)
    obj = np.empty(len(images), dtype=object)
    obj[:] = images
    np.save(CACHE / "images.npy", obj, allow_pickle=True)
    with open(CACHE / "rows.json", "w") as f:
        json.dump(rows, f)
    meta = {"cxr224": data_version(args.cxr224), "extra": data_version(args.extra), "n": len(rows), "masks": n}
    (CACHE / "meta.json").write_text(json.dumps(meta))
    print(f"done: {len(rows)} images, {n} with masks ({int(has_heart.sum())} with heart) in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
