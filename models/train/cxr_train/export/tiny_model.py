"""Write a tiny random ONNX classifier with a different label set (18 sigmoid findings,
3-channel 64x64 input, no gate) plus its manifest, for the "any model" test.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.export.tiny_model [--out tests/fixtures/tiny-model]
"""
from __future__ import annotations

import argparse
from pathlib import Path

import torch
import torch.nn as nn

from cxr_train.common import REPO_ROOT, cli_parser, sha256_file, write_json

LABELS = ["atelectasis", "cardiomegaly", "consolidation", "edema", "effusion", "emphysema", "fibrosis", "hernia",
          "infiltration", "mass", "nodule", "pleural_thickening", "pneumonia", "pneumothorax", "fracture",
          "lung_lesion", "support_devices", "no_finding"]


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 4, 4)
        self.fc = nn.Linear(8, len(LABELS))

    def forward(self, x):
        f = torch.relu(self.conv(x))
        return self.fc(f.mean((2, 3))), torch.einsum("bkhw,ck->bchw", f, self.fc.weight)


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--model-dir", type=Path, default=REPO_ROOT / "tests" / "fixtures" / "tiny-model")
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.manual_seed(0)
    args.model_dir.mkdir(parents=True, exist_ok=True)
    path = args.model_dir / "model.onnx"
    torch.onnx.export(Tiny().eval(), torch.zeros(1, 3, 64, 64), str(path), opset_version=17, input_names=["pixels"],
                      output_names=["scores", "maps"], dynamic_axes={"pixels": {0: "n"}, "scores": {0: "n"}, "maps": {0: "n"}})
    write_json(args.model_dir / "manifest.json", {
        "schemaVersion": 1, "modelName": "tiny-18-findings", "modelVersion": "0.0.1-test", "file": "model.onnx",
        "sha256": sha256_file(path), "trainingData": "none (random weights, test fixture)",
        "input": {"name": "pixels", "layout": "NCHW", "channels": 3, "height": 64, "width": 64, "colour": "rgb",
                  "resize": "area-stretch", "scale": 1 / 255, "mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225]},
        "heads": [{"name": "findings", "output": "scores", "activation": "sigmoid", "labels": LABELS, "temperature": 1.5}],
        "cams": {"output": "maps", "channels": LABELS},
        "uncertainMargin": 0.5,
        "findings": [{"label": lab, "display": lab.replace("_", " ").capitalize(), "source": {"head": "findings", "label": lab},
                      "threshold": 0.5, "heatmap": lab, "summary": lab == "no_finding"} for lab in LABELS],
    })
    print("wrote", args.model_dir)


if __name__ == "__main__":
    main()
