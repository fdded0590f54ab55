"""Calibrate on val, choose thresholds on val, export ONNX, write manifest.json.

Usage: /usr/bin/python3 models/train/finalize.py [--run .cache/cxr/run] [--version 1.0.0]
Never reads the test split.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from calibration import fit_temperature_bias, youden_threshold
from common import CACHE_DIR, CLASSES, GATE_CLASSES, INPUT_SIZE, MODEL_DIR, SUBTYPES, sha256_file, versions, write_json
from data import eval_batch, labels_of, load_cache, split_idx
from gate_checks import BLANK_STD, CHROMA_LEVEL, LOW_CONTRAST_STD, MAX_ASPECT, MAX_COLOUR_FRACTION, MIN_SIDE
from net import NORM_MEAN, NORM_STD, CxrNet, ExportModel, GateNet
from pipeline import TorchRunner, finding_probs, softmax

OUTPUTS = ["logits", "subtype_logits", "cams", "gate_logits"]
UNCERTAIN_MARGIN = 0.7  # log-odds either side of a threshold that is called 'uncertain'
GATE_MAX_VAL_REFUSAL = 0.005


def build_export(run: Path, gate_path: Path) -> ExportModel:
    ck = torch.load(run / "best.pt")
    net = CxrNet(ck["width"])
    net.load_state_dict(ck["ema"])
    gate = GateNet()
    gate.load_state_dict(torch.load(gate_path)["gate"])
    return ExportModel(net, gate).eval(), ck


def run_batches(runner, x255: np.ndarray, bs: int = 256) -> dict[str, np.ndarray]:
    outs: dict[str, list] = {}
    for s in range(0, len(x255), bs):
        xb = ((x255[s : s + bs] / 255.0 - NORM_MEAN) / NORM_STD).astype(np.float32)[:, None]
        for k, v in runner(xb).items():
            if k != "cams":
                outs.setdefault(k, []).append(v)
    return {k: np.concatenate(v) for k, v in outs.items()}


def x255_of(images_u8: np.ndarray) -> np.ndarray:
    return ((eval_batch(images_u8, None).numpy()[:, 0] * NORM_STD + NORM_MEAN) * 255.0).astype(np.float64)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", type=Path, default=CACHE_DIR / "run")
    ap.add_argument("--gate", type=Path, default=CACHE_DIR.parent / "gate" / "gate.pt")
    ap.add_argument("--version", default="1.0.0")
    ap.add_argument("--out", type=Path, default=MODEL_DIR)
    ap.add_argument("--neg-val", type=Path, default=CACHE_DIR.parent / "gate" / "val.npz")
    args = ap.parse_args()
    torch.set_num_threads(2)
    model, ck = build_export(args.run, args.gate)
    runner = TorchRunner(model, OUTPUTS)
    images, rows, meta = load_cache()
    y, sub = labels_of(rows)
    va = split_idx(rows, "val")
    xv = np.concatenate([x255_of(images[va[s:s + 256]]) for s in range(0, len(va), 256)])
    out = run_batches(runner, xv)

    t_main, b_main = fit_temperature_bias(out["logits"], y[va])
    pm = sub[va] >= 0
    t_sub, b_sub = fit_temperature_bias(out["subtype_logits"][pm], sub[va][pm])
    manifest = {
        "schemaVersion": 1,
        "modelName": "cxr-compact-resnet",
        "modelVersion": args.version,
        "file": "model.onnx",
        "sha256": "",
        "opset": 17,
        "trainingData": meta["data_version"],
        "createdAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "training": {"bestEpoch": ck["epoch"], "valMetrics": ck["metrics"], "versions": versions()},
        "input": {"name": "image", "layout": "NCHW", "channels": 1, "height": INPUT_SIZE, "width": INPUT_SIZE,
                  "colour": "gray-bt601", "resize": "area-stretch", "scale": 1 / 255, "mean": [NORM_MEAN], "std": [NORM_STD]},
        "outputs": OUTPUTS,
        "heads": [
            {"name": "main", "output": "logits", "activation": "softmax", "labels": CLASSES,
             "temperature": t_main, "bias": b_main},
            {"name": "subtype", "output": "subtype_logits", "activation": "softmax", "labels": SUBTYPES,
             "temperature": t_sub, "bias": b_sub, "conditionalOn": {"head": "main", "label": "pneumonia"}},
        ],
        "cams": {"output": "cams", "channels": CLASSES + SUBTYPES},
        "uncertainMargin": UNCERTAIN_MARGIN,
        "findings": [
            {"label": "covid19", "display": "COVID-19", "source": {"head": "main", "label": "covid19"}, "heatmap": "covid19"},
            {"label": "pneumonia", "display": "Pneumonia", "source": {"head": "main", "label": "pneumonia"}, "heatmap": "pneumonia"},
            {"label": "pneumonia_bacterial", "display": "Bacterial pneumonia", "source": {"head": "subtype", "label": "bacterial"}, "heatmap": "bacterial"},
            {"label": "pneumonia_viral", "display": "Viral pneumonia", "source": {"head": "subtype", "label": "viral"}, "heatmap": "viral"},
            {"label": "abnormal", "display": "Abnormal (not normal)", "source": {"head": "main", "complementOf": "normal"}, "summary": True},
        ],
        "gate": {"output": "gate_logits", "activation": "softmax", "labels": GATE_CLASSES, "acceptLabel": "chest_xray",
                 "invertedLabel": "chest_xray_inverted", "rejectLabel": "other", "rejectThreshold": 0.5,
                 "checks": {"minSide": MIN_SIDE, "maxAspect": MAX_ASPECT, "chromaLevel": CHROMA_LEVEL,
                            "maxColourFraction": MAX_COLOUR_FRACTION, "blankStd": BLANK_STD, "lowContrastStd": LOW_CONTRAST_STD}},
    }
    probs = finding_probs(manifest, out)
    truth = {"covid19": y[va] == 2, "pneumonia": y[va] == 1, "abnormal": y[va] != 0,
             "pneumonia_bacterial": sub[va] == 0, "pneumonia_viral": sub[va] == 1}
    for f in manifest["findings"]:
        f["threshold"] = youden_threshold(truth[f["label"]], probs[f["label"]])

    # gate threshold: the lowest that refuses at most 0.5 % of val radiographs (never below 0.5)
    p_other = softmax(out["gate_logits"].astype(np.float64))[:, 2]
    q = float(np.quantile(p_other, 1 - GATE_MAX_VAL_REFUSAL))
    manifest["gate"]["rejectThreshold"] = float(min(0.95, max(0.5, q + 1e-6)))
    neg = np.load(args.neg_val)
    on = run_batches(runner, neg["x"].astype(np.float64))
    pn = softmax(on["gate_logits"].astype(np.float64))[:, 2]
    refused = (pn >= manifest["gate"]["rejectThreshold"]) | (neg["pre"] != "")
    manifest["gate"]["valCheck"] = {"radiographsRefused": float((p_other >= manifest["gate"]["rejectThreshold"]).mean()),
                                    "negativesRefused": float(refused.mean())}

    args.out.mkdir(parents=True, exist_ok=True)
    onnx_path = args.out / "model.onnx"
    dummy = torch.zeros(1, 1, INPUT_SIZE, INPUT_SIZE)
    torch.onnx.export(model, dummy, str(onnx_path), opset_version=17, input_names=["image"], output_names=OUTPUTS,
                      dynamic_axes={"image": {0: "batch"}, **{o: {0: "batch"} for o in OUTPUTS}}, do_constant_folding=True)
    import onnx

    onnx.checker.check_model(onnx.load(str(onnx_path)))
    torch.save(model.state_dict(), args.out / "model.pt")
    manifest["sha256"] = sha256_file(onnx_path)
    manifest["torchWeights"] = {"file": "model.pt", "width": ck["width"]}
    write_json(args.out / "manifest.json", manifest)
    print(json.dumps({k: manifest[k] for k in ("heads", "gate")}, indent=1))
    print(json.dumps({f["label"]: f["threshold"] for f in manifest["findings"]}))


if __name__ == "__main__":
    main()
