"""Copy a few test-split radiographs and held-out generated negatives to tests/fixtures/,
run the Python reference pipeline on them and write models/cxr/parity-fixtures.json,
which tests/pipeline/parity.test.ts compares the TypeScript pipeline against.

Usage: /usr/bin/python3 models/train/make_fixtures.py [--data ../shared/datasets/cxr-224]
"""
from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import numpy as np
import torch
from PIL import Image

from common import DEFAULT_DATA, MODEL_DIR, REPO_ROOT, read_manifest, write_json
from evaluate import load_shipped
from gate_generators import GENERATORS
from build_gate_data import render
from pipeline import analyse_file

FIX = REPO_ROOT / "tests" / "fixtures"
STRATA = [("covid-radiography-db", "normal"), ("kermany-pediatric", "normal"),
          ("kermany-pediatric", "pneumonia"), ("covid-radiography-db", "covid19")]


def pick_radiographs(data: Path) -> list[Path]:
    rows = [r for r in read_manifest(data) if r["split"] == "test"]
    out = []
    for source, label in STRATA:
        cand = sorted((r for r in rows if (r["source"], r["label"]) == (source, label)), key=lambda r: r["sha256"])
        n = 3 if label == "pneumonia" else 2
        for r in cand[:n]:
            src = data / r["path"]
            sub = f"-{r['subtype']}" if r["subtype"] else ""
            dst = FIX / "cxr" / f"{label}{sub}-{source.split('-')[0]}-{src.stem}.jpg"
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
            out.append(dst)
    return out


def make_negatives(first_cxr: Path) -> list[Path]:
    d = FIX / "gate"
    d.mkdir(parents=True, exist_ok=True)
    out = []

    def save(img: Image.Image, name: str) -> None:
        if max(img.size) > 320:
            img.thumbnail((320, 320))
        p = d / name
        img.save(p, quality=85) if name.endswith(".jpg") else img.save(p, optimize=True)
        out.append(p)

    for kind, ext in [("photo_synthetic", "jpg"), ("document", "png"), ("screenshot", "png"), ("ct_slice", "png"),
                      ("other_body_part", "png"), ("natural_image", "jpg")]:
        for i in range(40):  # first held-out seed whose size passes the shape checks
            img = render(kind, "test", i)
            w, h = img.size
            if max(w, h) / min(w, h) <= 1.6 and min(w, h) >= 200:
                break
        save(img, f"{kind}.{ext}")
    colour = render("photo_synthetic", "test", 1000).convert("RGB")
    save(Image.fromarray(np.asarray(colour)), "colour-photo.jpg")
    with Image.open(first_cxr) as im:
        g = np.asarray(im.convert("L"))
    save(Image.fromarray(255 - g), "inverted-radiograph.png")
    # std about a quarter of a radiograph's: above the blank cut-off, below the low-contrast flag
    save(Image.fromarray((g // 4 + 90).astype(np.uint8)), "low-contrast-radiograph.png")
    save(Image.new("L", (256, 256), 128), "uniform-gray.png")
    save(Image.fromarray(g).resize((96, 96)), "too-small.png")
    # wide (aspect > 2) but tall enough not to be "too small" after save()'s 320 px cap
    save(Image.fromarray(np.tile(g, (1, 3))).resize((320, 140)), "wide-banner.png")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--model", type=Path, default=MODEL_DIR)
    args = ap.parse_args()
    torch.set_num_threads(2)
    for sub in ("cxr", "gate"):
        shutil.rmtree(FIX / sub, ignore_errors=True)
    cxr = pick_radiographs(args.data.resolve())
    # the gate test compares the inverted film with the first fixture by name
    files = cxr + make_negatives(sorted(cxr)[0])
    manifest, runner = load_shipped(args.model)
    cases = []
    for f in files:
        r = analyse_file(f, manifest, runner)
        r["file"] = str(f.relative_to(REPO_ROOT))
        cases.append(r)
        print(json.dumps({k: r[k] for k in ("file", "accepted", "reason", "flags")}))
    write_json(args.model / "parity-fixtures.json", {
        "modelSha256": manifest["sha256"], "tolerance": 1e-4,
        "note": "Written by models/train/make_fixtures.py from the Python reference pipeline (PIL decode, PyTorch).",
        "cases": cases})


if __name__ == "__main__":
    main()
