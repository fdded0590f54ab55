"""Calibrate model 2 on the validation split and choose every threshold there (never the test split).

- per label: Platt scaling sigmoid(z / T + b) fitted on the validation rows whose target is known;
- per finding: the threshold maximising Youden's J on its deciding population (cxr_train.data.populations);
- cardiomegaly: combined with the anatomy stage's CTR by a 2-feature logistic regression fitted on
  the ChestX-ray14 train rows, its threshold on validation.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.heads.finalize [--tag head]
Writes .cache/v2/heads/calibration.json (read by cxr_train/export/model.py and cxr_train/evaluate/findings.py).
"""
from __future__ import annotations

import argparse
import json

import numpy as np
import torch
import torch.nn.functional as F

from cxr_train.common import cli_parser
from cxr_train.data.cache import CACHE
from cxr_train.heads.calibration import youden_threshold
from cxr_train.heads.head import Head, predict
from cxr_train.data.labels import DISPLAY, LABELS
from cxr_train.data.populations import DECIDING, populations
from cxr_train.heads.train import pooled_cache

RUN = CACHE / "heads"
FEATS = CACHE / "features"
UNCERTAIN_MARGIN = 0.7  # log-odds either side of a threshold that is called 'uncertain' (as in model 1)
SUMMARY = {"abnormal"}


def fit_platt(z: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    zt, yt = torch.from_numpy(z.astype(np.float64)), torch.from_numpy(y.astype(np.float64))
    log_a = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([log_a, b], lr=0.5, max_iter=300, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(zt * log_a.exp() + b, yt)
        loss.backward()
        return loss

    opt.step(closure)
    return float(1 / log_a.exp().item()), float(b.item())


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def logit(p):
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return np.log(p / (1 - p))


def calibrated(z: np.ndarray, temps, biases) -> np.ndarray:
    return sigmoid(z / np.array(temps) + np.array(biases))


def finding_probs(p: np.ndarray, ctr: np.ndarray, combine: dict | None) -> dict[str, np.ndarray]:
    """Calibrated label probabilities -> finding probabilities (as the worker composes them)."""
    col = {k: p[:, i] for i, k in enumerate(LABELS)}
    out = {k: v for k, v in col.items() if k != "viral_given_pneumonia"}
    out["pneumonia_viral"] = col["pneumonia"] * col["viral_given_pneumonia"]
    out["pneumonia_bacterial"] = col["pneumonia"] * (1 - col["viral_given_pneumonia"])
    if combine:
        comb = sigmoid(combine["logitWeight"] * logit(col["cardiomegaly"]) + combine["ctrWeight"] * np.nan_to_num(ctr) + combine["bias"])
        out["cardiomegaly"] = np.where(np.isnan(ctr), col["cardiomegaly"], comb)
    return out


def fit_ctr_combine(z_card: np.ndarray, ctr: np.ndarray, y: np.ndarray) -> dict:
    from sklearn.linear_model import LogisticRegression

    ok = ~np.isnan(ctr) & (y >= 0)
    x = np.stack([z_card[ok], ctr[ok]], 1)
    lr = LogisticRegression(C=1.0, class_weight="balanced").fit(x, y[ok])
    return {"logitWeight": float(lr.coef_[0, 0]), "ctrWeight": float(lr.coef_[0, 1]), "bias": float(lr.intercept_[0])}


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--tag", default="head")
    return ap


def main() -> None:
    args = parser().parse_args()
    rows = json.loads((CACHE / "rows.json").read_text())
    y = np.array([r["targets"] for r in rows])
    split = np.array([r["split"] for r in rows])
    va, tr = np.flatnonzero(split == "val"), np.flatnonzero(split == "train")
    zv = np.load(RUN / f"{args.tag}_val_logits.npy")
    temps, biases = [], []
    for k, lab in enumerate(LABELS):
        known = y[va, k] >= 0
        t, b = fit_platt(zv[known, k], y[va[known], k])
        temps.append(t)
        biases.append(b)
    ctr = np.load(FEATS / "anatomy.npz")["ctr"].astype(np.float64)
    # CTR combination for cardiomegaly, fitted on the ChestX-ray14 training rows.
    ck = torch.load(RUN / f"{args.tag}.pt")
    head = Head(len(LABELS), ck["hidden"])
    head.load_state_dict(ck["head"])
    head.eval()
    nih_tr = np.array([i for i in tr if rows[i]["source"].startswith("nih-")])
    ev = pooled_cache("eval") if ck["hidden"] == 0 else np.load(FEATS / "eval.npy", mmap_mode="r")
    ztr = predict(head, np.asarray(ev[nih_tr]))
    c = LABELS.index("cardiomegaly")
    z_card_tr = logit(calibrated(ztr, temps, biases)[:, c])
    combine = fit_ctr_combine(z_card_tr, ctr[nih_tr], y[nih_tr, c])
    pv = calibrated(zv, temps, biases)
    fp = finding_probs(pv, ctr[va], combine)
    pops = populations(rows, va)
    pos = {int(i): k for k, i in enumerate(va)}
    findings = []
    order = ["abnormal", "pneumonia", "covid19", "pneumonia_bacterial", "pneumonia_viral"] + LABELS[4:]
    for lab in order:
        deciding = DECIDING.get(lab, DECIDING["viral_given_pneumonia"])
        sel, target, _ = pops[deciding]
        s = fp[lab][[pos[int(i)] for i in sel]]
        if lab == "pneumonia_bacterial":
            target = 1 - target
        f = {"label": lab, "display": DISPLAY[lab], "threshold": youden_threshold(target, s), "population": deciding}
        if lab == "pneumonia_viral":
            f["source"] = {"head": "main", "label": "viral_given_pneumonia"}
            f["conditionalOn"] = {"head": "main", "label": "pneumonia"}
            f["heatmap"] = "pneumonia"
        elif lab == "pneumonia_bacterial":
            f["source"] = {"head": "main", "complementOf": "viral_given_pneumonia"}
            f["conditionalOn"] = {"head": "main", "label": "pneumonia"}
            f["heatmap"] = "pneumonia"
        else:
            f["source"] = {"head": "main", "label": lab}
            f["heatmap"] = lab
        if lab in SUMMARY:
            f["summary"] = True
        if lab in ("pneumonia_viral", "pneumonia_bacterial"):
            # Learned and validated on Kermany's children only: shown only when the patient's age says child.
            f["ageGroup"] = "pediatric"
        if lab == "cardiomegaly":
            f["ctrCombine"] = combine
            # A missing or flagged CTR never drives the call: the classifier alone, with its own threshold.
            f["thresholdWithoutCtr"] = youden_threshold(target, pv[[pos[int(i)] for i in sel], LABELS.index("cardiomegaly")])
        findings.append(f)
    out = {"temperature": temps, "bias": biases, "uncertainMargin": UNCERTAIN_MARGIN, "findings": findings, "ctrCombine": combine}
    (RUN / "calibration.json").write_text(json.dumps(out, indent=1))
    print(json.dumps({f["label"]: round(f["threshold"], 3) for f in findings}))
    print("ctrCombine", combine)


if __name__ == "__main__":
    main()
