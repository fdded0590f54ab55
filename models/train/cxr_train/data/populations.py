"""The evaluation populations of model 2: which images, which target, which output.

Every figure in the model card is one of these on one split. A population is chosen so that
the comparison is within a source wherever the data allow, because across sources the source
itself predicts the label (cxr-extra README, "Known biases").
"""
from __future__ import annotations

import numpy as np

from cxr_train.data.labels import LABELS, NIH, NIH_KEYS


def _is_nih(r):
    return r["source"].startswith("nih-")


def populations(rows: list[dict], idx: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray, str]]:
    """name -> (row indices, binary target, output label whose score is ranked)."""
    out: dict[str, tuple[np.ndarray, np.ndarray, str]] = {}

    def add(name, pick, target, label):
        sel = np.array([i for i in idx if pick(rows[i])], dtype=np.int64)
        if len(sel):
            out[name] = (sel, np.array([target(rows[i]) for i in sel], dtype=np.int64), label)

    t = lambda k: (lambda r: r["targets"][LABELS.index(k)])  # noqa: E731
    add("ChestX-ray14 normal vs abnormal", _is_nih, t("abnormal"), "abnormal")
    infection = lambda r: (r["source"] == "covid-qu-ex" and r["label"] != "normal") or (_is_nih(r) and r["Pneumonia"] == "1")  # noqa: E731
    adult_normal = lambda r: (_is_nih(r) and r["no_finding"] == "1") or (r["source"] == "covid-qu-ex" and r["label"] == "normal")  # noqa: E731
    add("adult infection vs adult normal", lambda r: infection(r) or adult_normal(r), lambda r: int(infection(r)), "pneumonia")
    add("adult infection vs adult normal, ChestX-ray14 only", lambda r: _is_nih(r) and (infection(r) or adult_normal(r)),
        lambda r: int(infection(r)), "pneumonia")
    add(
        "COVID-19 vs non-COVID infection (QU-Ex)",
        lambda r: r["source"] == "covid-qu-ex" and r["label"] in ("covid19", "non_covid_infection"),
        lambda r: int(r["label"] == "covid19"),
        "covid19",
    )
    add("nodule vs no nodule (JSRT)", lambda r: r["source"] == "jsrt", lambda r: int(r["label"] == "nodule"), "nodule")
    for n in NIH:
        k = NIH_KEYS[n]
        add(f"{k} (ChestX-ray14)", _is_nih, lambda r, n=n: int(r[n] == "1"), k)
    # In-distribution (cxr-224): shares the age/source shortcut, reported for comparison only.
    add("cxr-224 abnormal vs normal", lambda r: r["dataset"] == "cxr-224", t("abnormal"), "abnormal")
    add("cxr-224 COVID-19 vs rest", lambda r: r["dataset"] == "cxr-224", t("covid19"), "covid19")
    add(
        "cxr-224 pediatric pneumonia vs pediatric normal",
        lambda r: r["source"] == "kermany-pediatric",
        lambda r: int(r["label"] == "pneumonia"),
        "pneumonia",
    )
    add(
        "pediatric viral vs bacterial pneumonia (Kermany)",
        lambda r: r["source"] == "kermany-pediatric" and r["label"] == "pneumonia" and r["subtype"] != "",
        lambda r: int(r["subtype"] == "viral"),
        "viral_given_pneumonia",
    )
    return out


# The population that decides whether a finding ships (its figure must have CI low >= 0.70).
DECIDING = {
    "abnormal": "ChestX-ray14 normal vs abnormal",
    "pneumonia": "adult infection vs adult normal",
    "covid19": "COVID-19 vs non-COVID infection (QU-Ex)",
    "viral_given_pneumonia": "pediatric viral vs bacterial pneumonia (Kermany)",
    **{NIH_KEYS[n]: f"{NIH_KEYS[n]} (ChestX-ray14)" for n in NIH},
}
