"""Export model 2: anatomy.onnx (segmentation + input gate) and model.onnx (lung-crop classifier
with CAMs), and write manifest.json from the calibration and the shipping decisions.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.export.model [--out models/cxr] [--version 2.0.0]
Reads .cache/v2/anatomy/best.pt, .cache/v2/heads/head.pt, .cache/v2/heads/calibration.json
(cxr_train/heads/finalize.py), models/cxr/evaluation.json (cxr_train/evaluate/findings.py; without it every candidate
ships, which is only for development builds) and the input gate of the v1 model file.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch
import torch.nn as nn

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.anatomy.ops import BOX_MARGIN, MIN_HEART_PIXELS, MIN_LUNG_FRACTION
from cxr_train.data.cache import CACHE
from cxr_train.common import MODEL_DIR, cli_parser, sha256_file, versions, write_json
from cxr_train.anatomy.ctr_checks import DEFAULT_CTR_CHECKS
from cxr_train.gate.checks import BLANK_STD, CHROMA_LEVEL, LOW_CONTRAST_STD, MAX_ASPECT, MAX_COLOUR_FRACTION, MIN_SIDE
from cxr_train.heads.head import Head
from cxr_train.data.labels import DISPLAY, LABELS
from cxr_train.heads.backbone import MID_BLOCK, Backbone
from cxr_train.gate.net import GateNet

GATE_WEIGHTS = CACHE.parent / "gate" / "gate_v2.pt"
RECOVERED_GATE = CACHE / "recovered" / "gate.pt"  # model 2's gate read back from its anatomy.onnx (cxr_train/export/recover.py)
TOP_WEIGHTS = CACHE / "heads" / "top.pt"  # model 3: fine-tuned blocks 14-18 (cxr_train/heads/finetune/features.py)
CTR_REFERENCE = 0.5


class AnatomyExport(nn.Module):
    def __init__(self, anatomy: AnatomyNet, gate: GateNet):
        super().__init__()
        self.anatomy, self.gate = anatomy, gate

    def forward(self, x):
        return self.anatomy(x), self.gate(x)


class ClassifierExport(nn.Module):
    """Input normalised as (x255 - 128) / 128, which is the manifest's scale/mean/std."""

    def __init__(self, backbone: Backbone, head: Head):
        super().__init__()
        self.features, self.head = backbone.features, head

    def forward(self, x):
        mid = None
        for i, layer in enumerate(self.features):
            x = layer(x)
            if i == MID_BLOCK:
                mid = x
        f = torch.cat([nn.functional.avg_pool2d(mid, 2), x], 1)
        cams = self.head.cams(f)
        return cams.mean((2, 3)), cams


def load_parts(head_path: Path, anatomy_path: Path):
    anatomy = AnatomyNet()
    anatomy.load_state_dict(torch.load(anatomy_path)["net"])
    gate = GateNet()
    if RECOVERED_GATE.exists():  # model 3 keeps model 2's gate unchanged
        gate.load_state_dict(torch.load(RECOVERED_GATE)["gate"])
    elif GATE_WEIGHTS.exists():
        gate.load_state_dict(torch.load(GATE_WEIGHTS)["gate"])
    else:  # the v1 gate, unchanged
        v1 = torch.load(MODEL_DIR / "model.pt")
        gate.load_state_dict({k[5:]: v for k, v in v1.items() if k.startswith("gate.")})
    ck = torch.load(head_path)
    head = Head(len(ck["labels"]), ck["hidden"])
    head.load_state_dict(ck["head"])
    from cxr_train.heads.finetune.net import shipped_backbone

    backbone = shipped_backbone(TOP_WEIGHTS)
    return AnatomyExport(anatomy.eval(), gate.eval()).eval(), ClassifierExport(backbone.eval(), head.eval()).eval()


def export(model: nn.Module, path: Path, size: int, outputs: list[str]) -> None:
    x = torch.zeros(1, 1, size, size)
    torch.onnx.export(model, x, str(path), input_names=["image"], output_names=outputs, opset_version=17, do_constant_folding=True)


def input_spec(size: int, mean: float, std: float, crop: bool) -> dict:
    spec = {
        "name": "image",
        "layout": "NCHW",
        "channels": 1,
        "height": size,
        "width": size,
        "colour": "gray-bt601",
        "resize": "area-stretch",
        "scale": 1 / 255,
        "mean": [mean],
        "std": [std],
    }
    if crop:
        spec["crop"] = "lung-box"
    return spec


def findings_of(calib: dict, evaluation: dict | None) -> tuple[list[dict], list[dict]]:
    shipped = set(evaluation["shipped"]) if evaluation else {f["label"] for f in calib["findings"]}
    out, missing = [], []
    for f in calib["findings"]:
        if f["label"] not in shipped:
            missing.append({"label": f["label"], "display": DISPLAY[f["label"]]})
            continue
        out.append({k: v for k, v in f.items() if v is not None})
    return out, missing


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--model-dir", type=Path, default=MODEL_DIR)
    ap.add_argument("--version", default="2.0.0")
    ap.add_argument("--head-weights", type=Path, default=CACHE / "heads" / "head.pt")
    ap.add_argument("--calibration", type=Path, default=CACHE / "heads" / "calibration.json")
    ap.add_argument("--anatomy-weights", type=Path, default=CACHE / "anatomy3" / "best.pt")
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(2)
    args.model_dir.mkdir(parents=True, exist_ok=True)
    anatomy, classifier = load_parts(args.head_weights, args.anatomy_weights)
    export(anatomy, args.model_dir / "anatomy.onnx", 128, ["masks", "gate_logits"])
    export(classifier, args.model_dir / "model.onnx", 224, ["logits", "cams"])
    calib = json.loads(args.calibration.read_text())
    ev_path = args.model_dir / "evaluation.json"
    evaluation = json.loads(ev_path.read_text()) if ev_path.exists() else None
    findings, not_assessed = findings_of(calib, evaluation)
    meta = json.loads((CACHE / "meta.json").read_text())
    manifest = {
        "schemaVersion": 2,
        "modelName": "cxr-lungcrop-mobilenetv2",
        "modelVersion": args.version,
        "file": "model.onnx",
        "sha256": sha256_file(args.model_dir / "model.onnx"),
        "opset": 17,
        "trainingData": f"{meta['cxr224']} + {meta['extra']}",
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "training": {"versions": versions(), **calib.get("training", {})},
        "input": input_spec(224, 128 / 255, 128 / 255, crop=True),
        "outputs": ["logits", "cams"],
        "heads": [
            {
                "name": "main",
                "output": "logits",
                "activation": "sigmoid",
                "labels": LABELS,
                "temperature": calib["temperature"],
                "bias": calib["bias"],
            }
        ],
        "cams": {"output": "cams", "channels": LABELS},
        "uncertainMargin": calib["uncertainMargin"],
        "findings": findings,
        "notAssessed": not_assessed,
        "anatomy": {
            "file": "anatomy.onnx",
            "sha256": sha256_file(args.model_dir / "anatomy.onnx"),
            "input": input_spec(128, 0.5, 0.25, crop=False),
            "masks": {"output": "masks", "channels": ["lung", "heart"]},
            "boxMargin": BOX_MARGIN,
            "minLungFraction": MIN_LUNG_FRACTION,
            "minHeartPixels": MIN_HEART_PIXELS,
            "ctrReference": CTR_REFERENCE,
            # The CTR plausibility check's thresholds (cxr_train/anatomy/ctr_checks.py = worker check-ctr.ts), reported in the card.
            "ctrChecks": DEFAULT_CTR_CHECKS,
        },
        "gate": {
            "model": "anatomy",
            "output": "gate_logits",
            "activation": "softmax",
            "labels": ["chest_xray", "chest_xray_inverted", "other"],
            "acceptLabel": "chest_xray",
            "invertedLabel": "chest_xray_inverted",
            "rejectLabel": "other",
            "rejectThreshold": calib.get("gateRejectThreshold", 0.5),
            "checks": {
                "minSide": MIN_SIDE,
                "maxAspect": MAX_ASPECT,
                "chromaLevel": CHROMA_LEVEL,
                "maxColourFraction": MAX_COLOUR_FRACTION,
                "blankStd": BLANK_STD,
                "lowContrastStd": LOW_CONTRAST_STD,
            },
        },
        "torchWeights": {
            "anatomy": str(args.anatomy_weights.resolve().relative_to(CACHE.parents[1])), "top": ".cache/v2/heads/top.pt",
            "gate": ".cache/v2/recovered/gate.pt", "head": str(args.head_weights.resolve().relative_to(CACHE.parents[1])),
        },
    }
    write_json(args.model_dir / "manifest.json", manifest)
    print(f"exported {args.version}: {len(findings)} findings shipped, {len(not_assessed)} not assessed")


if __name__ == "__main__":
    main()
