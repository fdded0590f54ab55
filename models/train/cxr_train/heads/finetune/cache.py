"""Cache block-13 activations of lung crops for model 3's fine-tuning (blocks 0-13 stay frozen).

Writes .cache/v2/b13/
  <part>.npy        (N, 96, 14, 14) float16 block-13 activations of 224 px lung crops
  <part>_index.npy  (N,) row index (into .cache/v2/rows.json) of each view
  <part>_boxes.npy  (N, 4) lung box used (NaN: whole film), <part>_ctr.npy (N,) CTR from the same masks
Parts: `train` (deterministic crop of every selected training film), `aug` (jittered, photometrically
augmented crops; recipe aug_views_extra per cxr-extra film, aug_views_224 per cxr-224 film), `val` (the val films
cropped by the training anatomy net: epoch selection while the new anatomy net still trains), `eval` (deterministic
crops of the val and test films, made with the anatomy net that ships: calibration, thresholds, test figures).

Resumable: each part is written in chunks and a rerun continues after the last finished chunk.
Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.heads.finetune.cache --part train|aug|eval [--recipe models/train/recipes/model3.json]
"""
from __future__ import annotations

import argparse
import json
import time
import zlib
from pathlib import Path

import numpy as np
import torch

from cxr_train.common import cli_parser
from cxr_train.anatomy.net import AnatomyNet
from cxr_train.anatomy.ops import crop_resize
from cxr_train.data.augment import photometric
from cxr_train.data.cache import CACHE
from cxr_train.heads.features import anatomy_pass, jitter
from cxr_train.heads.finetune.net import LowerBlocks, folded_backbone
from cxr_train.recipe import RECIPE_ARGS, load_recipe

OUT = CACHE / "b13"
CHUNK = 256


def selected(rows: list[dict], frac224: float) -> np.ndarray:
    """Every cxr-extra film and a group-deterministic share of the cxr-224 films (CPU time)."""
    keep = [r["dataset"] == "cxr-extra" or r["split"] != "train" or (zlib.crc32(r["group_id"].encode()) % 1000) < 1000 * frac224 for r in rows]
    return np.array(keep)


def plan(part: str, rows: list[dict], rc: dict, rng) -> np.ndarray:
    sel = selected(rows, rc["cxr224_train_fraction"])
    split = np.array([r["split"] for r in rows])
    if part == "eval":
        return np.flatnonzero(sel & (split != "train"))
    if part == "val":
        return np.flatnonzero(sel & (split == "val"))
    train = np.flatnonzero(sel & (split == "train"))
    if part == "train":
        return train
    idx = []
    for i in train:
        idx += [i] * (rc["aug_views_extra"] if rows[i]["dataset"] == "cxr-extra" else rc["aug_views_224"])
    idx = np.array(idx)
    rng.shuffle(idx)
    return idx


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__, parents=[RECIPE_ARGS])
    ap.add_argument("--part", choices=["train", "aug", "val", "eval"], required=True)
    ap.add_argument("--anatomy-weights", type=Path, help="anatomy weights (default: the recipe's for this part)")
    return ap


def main() -> None:
    args = parser().parse_args()
    rc = load_recipe(args.recipe)
    torch.set_num_threads(rc["threads"])
    OUT.mkdir(parents=True, exist_ok=True)
    rows = json.loads((CACHE / "rows.json").read_text())
    images = np.load(CACHE / "images.npy", allow_pickle=True)
    rng = np.random.default_rng(rc["seed"])
    g = torch.Generator().manual_seed(rc["seed"])
    idx = plan(args.part, rows, rc, rng)
    anatomy_path = args.anatomy_weights or Path(rc["anatomy_for_eval" if args.part == "eval" else "anatomy_for_training"])
    net = AnatomyNet()
    net.load_state_dict(torch.load(anatomy_path if anatomy_path.is_absolute() else CACHE.parents[1] / anatomy_path)["net"])
    net.eval()
    lower = LowerBlocks(folded_backbone()).eval()
    n = len(idx)
    p = OUT / args.part
    np.save(f"{p}_index.npy", idx)
    uniq = np.unique(idx)
    t0 = time.time()
    an_path = Path(f"{p}_anatomy.npz")
    if an_path.exists():
        an = dict(np.load(an_path))
    else:
        a = anatomy_pass(net, [images[i] for i in uniq])
        an = {"rows": uniq, "boxes": a["boxes"], "ctr": a["ctr"]}
        np.savez(an_path, **an)
    where = {int(r): k for k, r in enumerate(an["rows"])}
    print(f"{args.part}: {n} views, anatomy {time.time() - t0:.0f}s", flush=True)
    size = rc["crop"]
    mode = "r+" if Path(f"{p}.npy").exists() else "w+"
    feats = np.lib.format.open_memmap(f"{p}.npy", mode=mode, dtype=np.float16, shape=(n, 96, size // 16, size // 16))
    boxes = np.full((n, 4), np.nan, np.float32)
    progress = Path(f"{p}.done")
    start = int(progress.read_text()) if progress.exists() and mode == "r+" else 0
    for a in range(0, n, CHUNK):
        ids = idx[a : a + CHUNK]
        # Draw the augmentation for every chunk, also the ones already done, so a resumed run is identical.
        crops = []
        for k, i in enumerate(ids):
            b = an["boxes"][where[int(i)]]
            b = None if np.isnan(b[0]) else tuple(b)
            if args.part == "aug":
                b = jitter(b, rng)
            boxes[a + k] = b if b is not None else np.nan
            crops.append(crop_resize(images[i], b, size))
        x = torch.from_numpy(np.stack(crops)).float()[:, None]
        if args.part == "aug":
            x = photometric(x, g)
        if a < start:
            continue
        with torch.no_grad():
            for s in range(0, len(x), 64):
                feats[a + s : a + s + 64] = lower(x[s : s + 64]).contiguous().numpy().astype(np.float16)
        feats.flush()
        progress.write_text(str(a + CHUNK))
        print(f"{args.part} {min(a + CHUNK, n)}/{n} {time.time() - t0:.0f}s {(min(a + CHUNK, n) - start) / (time.time() - t0):.1f}/s", flush=True)
    np.save(f"{p}_boxes.npy", boxes)
    np.save(f"{p}_ctr.npy", np.array([an["ctr"][where[int(i)]] for i in idx], np.float32))
    print(f"{args.part} done in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
