"""Shortcut checks for the model card, on the test split:

1. how well the image's source can be predicted from the pooled features the head's last layer reads (5-fold
   logistic regression; all test films, and normal films only, where the label cannot help);
2. the deciding AUROCs when the classifier sees only the lung fields (everything else set to the
   crop's median) and when the lung fields are blanked (lungs set to the median): a model that
   reads the lungs keeps its AUROC in the first case and loses it in the second;
3. model 1.0.0 (the shipped v1 weights, models/cxr/model.pt before this release) on the same
   populations, for comparison.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.evaluate.shortcuts [--v1 PATH]  -> models/cxr/shortcut-checks.json
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.anatomy.ops import crop_resize
from cxr_train.data.cache import CACHE
from cxr_train.common import MODEL_DIR, cli_parser, resize_area, write_json
from cxr_train.heads.finalize import calibrated
from cxr_train.heads.head import Head, auroc, predict
from cxr_train.data.labels import LABELS
from cxr_train.heads.finetune.net import shipped_backbone
from cxr_train.data.populations import DECIDING, populations
from cxr_train.anatomy.train import RUN as ANATOMY_RUN
from cxr_train.anatomy.train import normalise

FEATS = CACHE / "features"
HEADS = CACHE / "heads"


def hidden_pooled(head: Head, f: np.ndarray) -> np.ndarray:
    """What the head's last layer sees, pooled: the hidden layer, or for a linear head the
    standardised backbone features."""
    with torch.no_grad():
        x = (torch.from_numpy(f.astype(np.float32)) - head.mean) / head.std
        return (F.relu(head.c1(x)) if head.c1 is not None else x).mean((2, 3)).numpy()


def source_predictability(h: np.ndarray, src: np.ndarray) -> dict:
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import balanced_accuracy_score
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    names, counts = np.unique(src, return_counts=True)
    keep = np.isin(src, names[counts >= 10])  # a source with a handful of films cannot be cross-validated
    h, src = h[keep], src[keep]
    k = min(5, int(min(np.unique(src, return_counts=True)[1])))
    pred = cross_val_predict(LogisticRegression(max_iter=2000, C=0.1), h, src, cv=StratifiedKFold(k, shuffle=True, random_state=0))
    return {
        "n": int(len(src)), "sources": sorted(set(src.tolist())),
        "balancedAccuracy": float(balanced_accuracy_score(src, pred)), "chance": 1 / len(set(src.tolist())),
    }


def masked_crops(images, rows_idx, boxes, lungs, mode: str) -> np.ndarray:
    """Crops with either everything but the lungs ('lungs_only') or the lungs ('lungs_blanked') set to the median."""
    out = []
    for i, box, lung in zip(rows_idx, boxes, lungs):
        img = images[i].astype(np.float64)
        h, w = img.shape
        # Lung mask (128 grid) to the film's pixels by nearest neighbour.
        ys = np.minimum((np.arange(h) * 128) // h, 127)
        xs = np.minimum((np.arange(w) * 128) // w, 127)
        m = lung[np.ix_(ys, xs)]
        med = np.median(img)
        img = np.where(m, img, med) if mode == "lungs_only" else np.where(m, med, img)
        b = None if np.isnan(box[0]) else box
        out.append(crop_resize(img.astype(np.uint8), b, 224))
    return np.stack(out)


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--tag", default="head")
    ap.add_argument("--model1-weights", type=Path, default=CACHE / "v1-model.pt")
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(2)
    rows = json.loads((CACHE / "rows.json").read_text())
    images = np.load(CACHE / "images.npy", allow_pickle=True)
    ev = np.load(FEATS / "eval.npy", mmap_mode="r")
    boxes = np.load(FEATS / "anatomy.npz")["boxes"]
    calib = json.loads((HEADS / "calibration.json").read_text())
    ck = torch.load(HEADS / f"{args.tag}.pt")
    head = Head(len(LABELS), ck["hidden"])
    head.load_state_dict(ck["head"])
    head.eval()
    te = np.array([i for i, r in enumerate(rows) if r["split"] == "test"])
    out: dict = {}

    h = hidden_pooled(head, np.asarray(ev[te]))
    src = np.array([rows[i]["source"] for i in te])
    out["sourceFromFeatures"] = {"allTestFilms": source_predictability(h, src)}
    normal = np.array([rows[i]["label"] in ("normal", "no_nodule") for i in te])
    out["sourceFromFeatures"]["normalFilmsOnly"] = source_predictability(h[normal], src[normal])
    print(json.dumps(out), flush=True)

    # Lungs only / lungs blanked.
    anatomy = AnatomyNet()
    anatomy_run = CACHE / "anatomy3" if (CACHE / "anatomy3" / "best.pt").exists() else ANATOMY_RUN
    anatomy.load_state_dict(torch.load(anatomy_run / "best.pt")["net"])
    anatomy.eval()
    backbone = shipped_backbone()
    pops = populations(rows, te)
    pos = {int(i): k for k, i in enumerate(te)}
    probs = {}
    for mode in ("lungs_only", "lungs_blanked"):
        zs = []
        for s in range(0, len(te), 64):
            idx = te[s : s + 64]
            x128 = np.stack([resize_area(images[i], 128) for i in idx])
            with torch.no_grad():
                lungs = anatomy(normalise(torch.from_numpy(x128).float()[:, None])).numpy()[:, 0] > 0
                crops = masked_crops(images, idx, boxes[idx], lungs, mode)
                zs.append(head(backbone(torch.from_numpy(crops).float()[:, None])).numpy())
        probs[mode] = calibrated(np.concatenate(zs), calib["temperature"], calib["bias"])
        print(mode, "done", flush=True)
    normal_p = calibrated(predict(head, np.asarray(ev[te])), calib["temperature"], calib["bias"])
    table = {}
    for lab, pop in DECIDING.items():
        if pop not in pops:
            continue
        sel, target, out_lab = pops[pop]
        kk = [pos[int(i)] for i in sel]
        c = LABELS.index(out_lab)
        table[lab] = {
            "population": pop,
            "positives": int(target.sum()),
            "aucAsShipped": auroc(target, normal_p[kk, c]),
            "aucLungsOnly": auroc(target, probs["lungs_only"][kk, c]),
            "aucLungsBlanked": auroc(target, probs["lungs_blanked"][kk, c]),
        }
    out["lungMasking"] = table

    # Model 1 on the same populations.
    if args.model1_weights.exists():
        from cxr_train.gate.net import CxrNet

        v1 = torch.load(args.model1_weights)
        net = CxrNet(40)
        net.load_state_dict({k[4:]: v for k, v in v1.items() if k.startswith("net.")})
        net.eval()
        x = np.stack([resize_area(images[i], 128) for i in te])
        with torch.no_grad():
            logits, _ = net(torch.from_numpy(((x / 255 - 0.5) / 0.25).astype(np.float32))[:, None])
        p = torch.softmax(logits, 1).numpy()
        v1_scores = {"abnormal": 1 - p[:, 0], "pneumonia": p[:, 1] + p[:, 2], "covid19": p[:, 2]}
        out["modelV1"] = {
            lab: {"population": DECIDING[lab], "auc": auroc(pops[DECIDING[lab]][1], v1_scores[lab][[pos[int(i)] for i in pops[DECIDING[lab]][0]]])}
            for lab in v1_scores
        }
    write_json(MODEL_DIR / "shortcut-checks.json", out)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
