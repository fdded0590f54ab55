"""Decode every dataset image once into .cache/cxr/ (uint8 224x224 array + row index).

Usage: /usr/bin/python3 models/train/build_cache.py [--data ../shared/datasets/cxr-224]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from PIL import Image

from common import CACHE_DIR, DEFAULT_DATA, data_version, read_manifest


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = ap.parse_args()
    data = args.data.resolve()
    rows = read_manifest(data)
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    version = data_version(data)
    meta_path = CACHE_DIR / "meta.json"
    if meta_path.exists() and json.loads(meta_path.read_text()).get("data_version") == version:
        print("cache up to date:", version)
        return
    t0 = time.time()
    imgs = np.lib.format.open_memmap(CACHE_DIR / "images_u8.npy", mode="w+", dtype=np.uint8, shape=(len(rows), 224, 224))
    for i, r in enumerate(rows):
        with Image.open(data / r["path"]) as im:
            a = np.asarray(im.convert("L"))
        if a.shape != (224, 224):
            raise SystemExit(f"unexpected size {a.shape} for {r['path']}")
        imgs[i] = a
        if i % 2000 == 0:
            print(f"{i}/{len(rows)} {time.time() - t0:.0f}s", flush=True)
    imgs.flush()
    with open(CACHE_DIR / "rows.json", "w") as f:
        json.dump(rows, f)
    meta_path.write_text(json.dumps({"data_version": version, "data_dir": str(data), "n": len(rows)}))
    print(f"done {len(rows)} images in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
