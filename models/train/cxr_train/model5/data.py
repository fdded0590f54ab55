"""The films model 5 learns from, as one table: features, labels (None where a collection does not say), groups.

`group` is the patient: cxr-external-val's films are only ever fitted on under patient-grouped k-fold
cross-validation (folds.fold_of), with a patient's films in cxr-nih-more kept on the same side.
"""
from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from cxr_train.model4.dump import EXTERNAL, EXTRA
from cxr_train.model5.dump import M5, NIH_MORE

# ChestX-ray14's 14 names → the head's labels (the model's 13 finding outputs), and the two summaries.
NIH_LABEL = {
    "Atelectasis": "atelectasis", "Cardiomegaly": "cardiomegaly", "Effusion": "pleural_effusion",
    "Infiltration": "infiltration", "Mass": "mass", "Nodule": "nodule", "Pneumothorax": "pneumothorax",
    "Consolidation": "consolidation", "Edema": "edema", "Emphysema": "emphysema", "Fibrosis": "fibrosis",
    "Pleural_Thickening": "pleural_thickening", "Hernia": "hernia",
}
FINDINGS = list(NIH_LABEL.values())
# Airspace opacity: the ChestX-ray14 labels that name it (the radiographic sign; the cause is not the model's).
OPACITY_NAMES = ("Consolidation", "Infiltration", "Pneumonia")
LABELS = ["abnormal", *FINDINGS, "lung_opacity"]


@dataclass
class Film:
    set: str  # external | extra | more
    source: str
    path: str
    group: str  # the leakage group: patient
    split: str  # extra: train/val/test; others: ""
    x: np.ndarray
    labels: dict[str, int | None]
    nih: bool
    view: str | None
    age: int | None
    ctr: float | None
    ctr_ok: bool
    p_ap: float | None
    logits: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(0))


def _read(path: Path) -> dict[str, dict]:
    out = {}
    for line in open(path):
        r = json.loads(line)
        out[r["path"]] = r
    return out


def _nih_labels(names: set[str]) -> dict[str, int | None]:
    lab: dict[str, int | None] = {v: int(k in names) for k, v in NIH_LABEL.items()}
    lab["abnormal"] = int(bool(names - {"No Finding", ""}))
    lab["lung_opacity"] = int(bool(names & set(OPACITY_NAMES)))
    return lab


def _other_labels(abnormal: int, opacity: int | None) -> dict[str, int | None]:
    lab: dict[str, int | None] = {v: None for v in NIH_LABEL.values()}
    lab["abnormal"] = abnormal
    lab["lung_opacity"] = opacity
    return lab


def _film(set_: str, source: str, path: str, group: str, split: str, rec: dict, labels, view, age) -> Film:
    raw = rec["raw"]
    p_ap = raw.get("projection")
    return Film(set_, source, path, group, split, np.asarray(raw["pooled"], dtype=np.float32), labels,
                source.startswith("nih"), view if view in ("AP", "PA") else None, age,
                rec.get("ctr"), rec.get("ctrMeasured") is not None and rec.get("ctrUnreliable") is None,
                None if p_ap is None else float(1 / (1 + np.exp(-p_ap[0]))), np.asarray(raw["logits"], dtype=np.float32))


def _age(s: str) -> int | None:
    try:
        return int(float(s))
    except ValueError:
        return None


def load() -> list[Film]:
    films: list[Film] = []
    d = _read(M5 / "external.jsonl")
    for r in csv.DictReader(open(EXTERNAL / "labels.csv")):
        rec = d.get(r["path"])
        if not rec or not rec.get("accepted"):
            continue
        if r["source"] == "nih-cxr14":
            lab = _nih_labels(set(r["findings"].split("|")))
        else:
            ab = {"normal": 0, "covid19": 1, "pneumonia": 1, "abnormal": 1}[r["label"]]
            lab = _other_labels(ab, None if r["label"] == "abnormal" else ab)
        films.append(_film("external", r["source"], r["path"], r["patient"], "", rec, lab, r["view"], None))
    d = _read(M5 / "nih-more.jsonl")
    for r in csv.DictReader(open(NIH_MORE / "labels.csv")):
        rec = d.get(r["path"])
        if rec and rec.get("accepted"):
            films.append(_film("more", "nih-more", r["path"], r["patient"], "", rec,
                               _nih_labels(set(r["findings"].split("|"))), r["view"], _age(r["age"])))
    d = _read(M5 / "extra.jsonl")
    for r in csv.DictReader(open(EXTRA / "manifest.csv")):
        rec = d.get(r["path"])
        # cxr-nih-more holds every nih-cxr14-talo film again (same files): read them once, from there.
        if not rec or not rec.get("accepted") or r["source"] == "nih-cxr14-talo":
            continue
        if r["source"].startswith("nih"):
            lab = _nih_labels({k for k in NIH_LABEL if r[k] == "1"} | {k for k in ("Pneumonia",) if r[k] == "1"})
            group = "nih:" + r["patient_id"]
        else:
            inf = int(r["dataset_label"] != "normal")
            lab = _other_labels(inf, inf)
            group = "quex:" + r["group_id"]
        films.append(_film("extra", r["source"], r["path"], group, r["split"], rec, lab, r["view"], _age(r["age"])))
    return films
