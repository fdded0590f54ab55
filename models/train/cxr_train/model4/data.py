"""Reading the dumps and the label files the model-4 steps share."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from cxr_train.model4.dump import EXTERNAL, EXTRA, M4

# ChestX-ray14's names for the model's own outputs (the 13 finding outputs; `abnormal` is any of the 14).
NIH_NAME = {
    "atelectasis": "Atelectasis", "cardiomegaly": "Cardiomegaly", "pleural_effusion": "Effusion",
    "infiltration": "Infiltration", "mass": "Mass", "nodule": "Nodule", "pneumothorax": "Pneumothorax",
    "consolidation": "Consolidation", "edema": "Edema", "emphysema": "Emphysema", "fibrosis": "Fibrosis",
    "pleural_thickening": "Pleural_Thickening", "hernia": "Hernia",
}


def read_dump(path: Path) -> dict[str, dict]:
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            out[r["path"]] = r
    return out


def external_rows(dump_path: Path = M4 / "external.jsonl") -> list[dict]:
    """Every external film with its labels and its dump record (None when the gate refused it)."""
    d = read_dump(dump_path)
    rows = []
    for r in csv.DictReader(open(EXTERNAL / "labels.csv")):
        rec = d.get(r["path"])
        r["findings_set"] = set(f for f in r["findings"].split("|") if f) if r["source"] == "nih-cxr14" else set()
        r["out"] = rec if rec and rec.get("accepted") else None
        r["projection_label"] = r["view"] if r["view"] in ("AP", "PA") else None
        rows.append(r)
    return rows


def extra_rows(dump_path: Path = M4 / "extra-nih.jsonl") -> list[dict]:
    d = read_dump(dump_path)
    rows = []
    for r in csv.DictReader(open(EXTRA / "manifest.csv")):
        rec = d.get(r["path"])
        if rec and rec.get("accepted"):
            r["out"] = rec
            rows.append(r)
    return rows


def logit_of(rec: dict, labels: list[str], label: str) -> float:
    return float(rec["raw"]["logits"][labels.index(label)])


def pooled(rows: list[dict]) -> np.ndarray:
    return np.array([r["out"]["raw"]["pooled"] for r in rows], dtype=np.float64)


# Inputs the projection output can be fitted on: the classifier's lung crop, the whole film, or both.
FEATURE_SETS = ("crop", "film")  # one graph each: the exporter puts the output in that graph


def features(rows: list[dict], kind: str) -> np.ndarray:
    parts = []
    if "crop" in kind:
        parts.append(pooled(rows))
    if "film" in kind:
        parts.append(np.array([r["out"]["raw"]["film_features"] for r in rows], dtype=np.float64))
    return np.concatenate(parts, axis=1)


def projection_ap(out: dict, proj: dict) -> float:
    """p(AP) of the fitted projection output (projection.json) on one dumped film."""
    x = features([{"out": out}], proj["features"])[0]
    return float(1.0 / (1.0 + np.exp(-(np.dot(x, proj["weights"]) + proj["bias"]))))
