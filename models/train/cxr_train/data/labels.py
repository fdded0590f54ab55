"""Model 2's candidate findings and how each dataset row maps onto them.

A target is 1 (present), 0 (absent) or -1 (unknown: the loss and every metric skip it). Where a
source cannot say, the target is unknown rather than guessed, so no finding is learned from a
source's presence alone (cxr-extra README: "map them on purpose, not by default").
"""
from __future__ import annotations

# ChestX-ray14 findings learned from the NIH rows (Pneumonia is folded into "pneumonia" below).
NIH = [
    "Atelectasis",
    "Cardiomegaly",
    "Effusion",
    "Infiltration",
    "Mass",
    "Nodule",
    "Pneumothorax",
    "Consolidation",
    "Edema",
    "Emphysema",
    "Fibrosis",
    "Pleural_Thickening",
    "Hernia",
]
NIH_KEYS = {n: n.lower() for n in NIH}
NIH_KEYS["Pleural_Thickening"] = "pleural_thickening"
NIH_KEYS["Effusion"] = "pleural_effusion"

# Output order of the classifier head.
LABELS = ["abnormal", "pneumonia", "covid19", "viral_given_pneumonia"] + [NIH_KEYS[n] for n in NIH]

DISPLAY = {
    "abnormal": "Abnormal (not normal)",
    "pneumonia": "Pneumonia / lung opacity",
    "covid19": "COVID-19 pattern",
    "pneumonia_bacterial": "Bacterial pneumonia (pediatric hint)",
    "pneumonia_viral": "Viral pneumonia (pediatric hint)",
    "atelectasis": "Atelectasis",
    "cardiomegaly": "Cardiomegaly",
    "pleural_effusion": "Pleural effusion",
    "infiltration": "Infiltration",
    "mass": "Mass",
    "nodule": "Nodule",
    "pneumothorax": "Pneumothorax",
    "consolidation": "Consolidation",
    "edema": "Edema",
    "emphysema": "Emphysema",
    "fibrosis": "Fibrosis",
    "pleural_thickening": "Pleural thickening",
    "hernia": "Hernia",
}


def _flag(v: str) -> int:
    return 1 if v == "1" else 0


def row_targets(dataset: str, r: dict) -> list[int]:
    t = {k: -1 for k in LABELS}
    if dataset == "cxr-224":
        label = r["label"]
        t["abnormal"] = 0 if label == "normal" else 1
        # COVID-19 is an infection with lung opacity: positive for the any-age pneumonia/opacity finding.
        t["pneumonia"] = 0 if label == "normal" else 1
        t["covid19"] = 1 if label == "covid19" else 0
        if label == "pneumonia" and r["subtype"]:
            t["viral_given_pneumonia"] = 1 if r["subtype"] == "viral" else 0
        if label == "normal" and r["source"] == "covid-radiography-db":
            # RSNA-challenge normals are ChestX-ray14 films read as normal by radiologists.
            for n in NIH:
                t[NIH_KEYS[n]] = 0
    else:
        src, label = r["source"], r["dataset_label"]
        if src.startswith("nih-"):
            no_finding = _flag(r["no_finding"])
            t["abnormal"] = 0 if no_finding else 1
            pneu = _flag(r["Pneumonia"])
            # Consolidation / infiltration without the Pneumonia label may still be an infection: unknown.
            if pneu:
                t["pneumonia"] = 1
            elif not (_flag(r["Consolidation"]) or _flag(r["Infiltration"])):
                t["pneumonia"] = 0
            t["covid19"] = 0  # ChestX-ray14 was collected 1992-2015, before COVID-19
            for n in NIH:
                t[NIH_KEYS[n]] = _flag(r[n])
        elif src == "covid-qu-ex":
            t["abnormal"] = 0 if label == "normal" else 1
            t["pneumonia"] = 0 if label == "normal" else 1
            t["covid19"] = 1 if label == "covid19" else 0
            if label == "normal":
                for n in NIH:
                    t[NIH_KEYS[n]] = 0
        elif src == "jsrt":
            t["covid19"] = 0  # films from the 1990s
            t["nodule"] = 1 if label == "nodule" else 0
            if label == "nodule":
                t["abnormal"] = 1
    return [t[k] for k in LABELS]


def stratum(r: dict) -> str:
    """Sampling / weighting stratum: source x the source's own label."""
    return f"{r['source']}:{r['label']}"
