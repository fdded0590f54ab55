"""Evaluate the shipped model ONCE on the held-out test split and write
models/cxr/{metrics.json, MODEL_CARD.md, plots/*.png}. No figure in the card is typed by hand.

Usage: /usr/bin/python3 models/train/evaluate.py [--data ../shared/datasets/cxr-224]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch

from calibration import auc
from common import CACHE_DIR, CLASSES, DEFAULT_DATA, MODEL_DIR, sha256_file, write_json
from data import labels_of, load_cache, split_idx
from finalize import OUTPUTS, run_batches, x255_of
from gate_checks import post_checks
from metrics import bootstrap_auc, ece, sens_spec
from model_card import plots, write_card
from net import CxrNet, ExportModel, GateNet
from pipeline import TorchRunner, call_of, finding_probs, gate_verdict, softmax


def load_shipped(model_dir: Path):
    manifest = json.loads((model_dir / "manifest.json").read_text())
    if sha256_file(model_dir / manifest["file"]) != manifest["sha256"]:
        raise SystemExit("model.onnx does not match the manifest sha256")
    model = ExportModel(CxrNet(manifest["torchWeights"]["width"]), GateNet())
    model.load_state_dict(torch.load(model_dir / "model.pt"))
    return manifest, TorchRunner(model.eval(), OUTPUTS)


def gate_eval(manifest, runner, x_cxr: np.ndarray) -> dict:
    """Gate on test radiographs (as is and inverted) and on held-out generated negatives."""
    def verdicts(x255: np.ndarray, pre: list[str]):
        out = run_batches(runner, x255)["gate_logits"]
        return [gate_verdict(manifest, p or None, x, g) for p, x, g in zip(pre, x255, out)]

    v = verdicts(x_cxr, [""] * len(x_cxr))
    vi = verdicts(255.0 - x_cxr, [""] * len(x_cxr))
    neg = np.load(CACHE_DIR.parent / "gate" / "test.npz")
    vn = verdicts(neg["x"].astype(np.float64), list(neg["pre"]))
    per_type = {}
    for kind in dict.fromkeys(neg["kind"].tolist()):
        m = [i for i, k in enumerate(neg["kind"]) if k == kind]
        reasons: dict = {}
        for i in m:
            r = vn[i][1] or "accepted"
            reasons[r] = reasons.get(r, 0) + 1
        per_type[kind] = {"n": len(m), "refused": float(np.mean([not vn[i][0] for i in m])), "byReason": reasons}
    reasons_cxr: dict = {}
    for ok, r, _ in v:
        if not ok:
            reasons_cxr[r] = reasons_cxr.get(r, 0) + 1
    return {
        "radiographs": {"n": len(v), "refused": float(np.mean([not a for a, _, _ in v])), "byReason": reasons_cxr,
                        "flaggedInverted": float(np.mean(["inverted" in f for _, _, f in v])),
                        "flaggedLowContrast": float(np.mean(["low_contrast" in f for _, _, f in v]))},
        "invertedRadiographs": {"n": len(vi), "flaggedInverted": float(np.mean([a and "inverted" in f for a, _, f in vi])),
                                "refused": float(np.mean([not a for a, _, _ in vi]))},
        "negatives": {"n": len(vn), "refused": float(np.mean([not a for a, _, _ in vn])), "perType": per_type},
        "accepted_mask": np.array([a for a, _, _ in v]),
    }


def finding_metrics(manifest, probs, truth, mask=None) -> dict:
    res = {}
    for f in manifest["findings"]:
        lab = f["label"]
        y, p = truth[lab], probs[lab]
        if mask is not None:
            y, p = y[mask], p[mask]
        if len(y) == 0 or y.min() == y.max():
            res[lab] = {"n": int(len(y)), "positives": int(y.sum()), "auc": None}
            continue
        a, lo, hi = bootstrap_auc(y, p, n=1000 if mask is None else 300)
        sens, spec = sens_spec(y, p, f["threshold"])
        calls = [call_of(float(q), f["threshold"], manifest["uncertainMargin"]) for q in p]
        res[lab] = {"n": int(len(y)), "positives": int(y.sum()), "auc": a, "aucCi95": [lo, hi], "threshold": f["threshold"],
                    "sensitivity": sens, "specificity": spec, "uncertainFraction": float(np.mean([c == "uncertain" for c in calls])),
                    "ece": ece(np.where(p >= 0.5, p, 1 - p), ((p >= 0.5) == y).astype(float))}
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--model", type=Path, default=MODEL_DIR)
    args = ap.parse_args()
    torch.set_num_threads(2)
    t0 = time.time()
    manifest, runner = load_shipped(args.model)
    images, rows, meta = load_cache()
    if meta["data_version"] != manifest["trainingData"]:
        raise SystemExit("decode cache and manifest disagree on the data version")
    y_all, sub_all = labels_of(rows)
    te = split_idx(rows, "test")
    y, sub = y_all[te], sub_all[te]
    x = np.concatenate([x255_of(images[te[s:s + 256]]) for s in range(0, len(te), 256)])
    out = run_batches(runner, x)
    probs = finding_probs(manifest, out)
    main_head = manifest["heads"][0]
    from pipeline import calibrated

    pm = calibrated(main_head, out["logits"])
    pred = pm.argmax(1)
    truth = {"covid19": y == 2, "pneumonia": y == 1, "abnormal": y != 0, "pneumonia_bacterial": sub == 0, "pneumonia_viral": sub == 1}
    conf = np.zeros((3, 3), dtype=int)
    for t_, p_ in zip(y, pred):
        conf[t_, p_] += 1
    one_vs_rest = {c: bootstrap_auc((y == i), pm[:, i]) for i, c in enumerate(CLASSES)}
    is_p = sub >= 0
    ps = calibrated(manifest["heads"][1], out["subtype_logits"])
    sub_auc = bootstrap_auc(sub[is_p] == 1, ps[is_p, 1])
    gate = gate_eval(manifest, runner, x)
    accepted = gate.pop("accepted_mask")
    groups = {}
    for key in ("source", "age_group"):
        for val in sorted({rows[i][key] for i in te}):
            m = np.array([rows[i][key] == val for i in te])
            groups[f"{key}={val}"] = {"n": int(m.sum()), "accuracy": float((pred[m] == y[m]).mean()),
                                      "findings": finding_metrics(manifest, probs, truth, m)}
    metrics = {
        "modelName": manifest["modelName"], "modelVersion": manifest["modelVersion"], "modelSha256": manifest["sha256"],
        "trainingData": manifest["trainingData"], "evaluatedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "testImages": int(len(te)), "classes": CLASSES, "numberOfFindings": len(manifest["findings"]),
        "findingLabels": [f["label"] for f in manifest["findings"]],
        "accuracy": float((pred == y).mean()),
        "accuracyOnGateAccepted": float((pred[accepted] == y[accepted]).mean()),
        "macroAuc": float(np.mean([one_vs_rest[c][0] for c in CLASSES])),
        "aucOneVsRest": {c: {"auc": v[0], "ci95": [v[1], v[2]]} for c, v in one_vs_rest.items()},
        "ece": ece(pm.max(1), (pred == y).astype(float)),
        "confusionMatrix": {"labels": CLASSES, "rowsTrueColsPredicted": conf.tolist()},
        "findings": finding_metrics(manifest, probs, truth),
        "subtypeWithinPneumonia": {"n": int(is_p.sum()), "aucViralVsBacterial": sub_auc[0], "ci95": [sub_auc[1], sub_auc[2]],
                                   "accuracy": float(((ps[is_p, 1] >= 0.5) == (sub[is_p] == 1)).mean())},
        "groups": groups,
        "gate": gate,
        "targets": {"macroAuc": 0.98, "accuracy": 0.95, "ece": 0.05, "gateNegativesRefused": 0.99, "gateRadiographsRefusedMax": 0.01},
    }
    metrics["targetsMet"] = {
        "macroAuc": metrics["macroAuc"] >= 0.98, "accuracy": metrics["accuracy"] >= 0.95, "ece": metrics["ece"] <= 0.05,
        "gateNegativesRefused": gate["negatives"]["refused"] >= 0.99, "gateRadiographsRefused": gate["radiographs"]["refused"] <= 0.01,
    }
    plot_files = plots(args.model / "plots", manifest, probs, truth, pm, pred, y)
    metrics["plots"] = plot_files
    write_json(args.model / "metrics.json", metrics)
    write_card(args.model / "MODEL_CARD.md", manifest, metrics, args.data)
    print(json.dumps({k: metrics[k] for k in ("accuracy", "macroAuc", "ece", "targetsMet")}, indent=1))
    print(f"evaluated in {time.time() - t0:.0f}s")


if __name__ == "__main__":
    main()
