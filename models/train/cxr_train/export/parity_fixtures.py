"""Run the Python reference of the model 2 pipeline (cxr_train/export/reference_lung_crop.py) on the committed fixture
images and write the parity fixtures that tests/pipeline/parity.test.ts compares the TypeScript
pipeline against: per image the gate decision, both masks, the lung box, the CTR and the
calibrated probabilities.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.export.parity_fixtures [--model-dir models/cxr] [--out FILE]
  --out defaults to <model-dir>/parity-fixtures.json. For a development build, write elsewhere
  and point the test at it:
    PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.export.parity_fixtures --model-dir .cache/v2/dev-model --out .cache/v2/dev-parity-fixtures.json \
        --anatomy-weights .cache/v2/dev-weights/anatomy.pt --head-weights .cache/v2/dev-weights/head.pt
    MODEL_DIR=.cache/v2/dev-model PARITY_FIXTURES=.cache/v2/dev-parity-fixtures.json node --import tsx --test tests/pipeline/parity.test.ts
  --anatomy-weights / --head-weights / --gate-weights override the manifest's torchWeights (the
  weights must be those the ONNX files were exported from; cxr_train.export.reference_lung_crop.load_nets checks).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from cxr_train.common import MODEL_DIR, REPO_ROOT, cli_parser, write_json
from cxr_train.export.reference_lung_crop import analyse_file, load_model

FIX = REPO_ROOT / "tests" / "fixtures"
FOLDERS = ["cxr", "xray", "gate"]  # radiographs, the stable upload fixture, and the gate's cases (refusals, inverted)


def fixture_images() -> list[Path]:
    return [p for d in FOLDERS for p in sorted((FIX / d).iterdir()) if p.suffix.lower() in (".jpg", ".jpeg", ".png")]


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--model-dir", type=Path, default=MODEL_DIR)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--anatomy-weights", type=Path, default=None)
    ap.add_argument("--head-weights", type=Path, default=None)
    ap.add_argument("--gate-weights", type=Path, default=None)
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(2)
    model_dir = args.model_dir.resolve()
    out = args.out or model_dir / "parity-fixtures.json"
    manifest, nets = load_model(model_dir, anatomy_weights=args.anatomy_weights, head_weights=args.head_weights,
                                gate_weights=args.gate_weights)
    cases = []
    for f in fixture_images():
        r = analyse_file(f, manifest, nets)
        r["file"] = str(f.relative_to(REPO_ROOT))
        cases.append(r)
        an = r["anatomy"]
        print(json.dumps({"file": r["file"], "accepted": r["accepted"], "reason": r["reason"], "flags": r["flags"],
                          "lungBox": an and an["lungBox"], "ctr": an and an["ctr"]}))
    write_json(out, {
        "schemaVersion": 2,
        "modelSha256": manifest["sha256"],
        "anatomySha256": manifest["anatomy"]["sha256"],
        "modelVersion": manifest["modelVersion"],
        # probabilities: |diff|; ctr: |diff|; lungBoxCells: each side in anatomy grid cells;
        # maskDisagreement: fraction of the grid where the thresholded masks differ.
        "tolerance": {"probability": 1e-3, "ctr": 0.01, "lungBoxCells": 1, "maskDisagreement": 0.002},
        "note": "Written by models/train/cxr_train/export/parity_fixtures.py from the Python reference pipeline (PIL decode, PyTorch). "
                "Masks: 128x128 row-major bits, np.packbits, base64.",
        "cases": cases,
    })
    print(f"wrote {len(cases)} cases to {out}")


if __name__ == "__main__":
    main()
