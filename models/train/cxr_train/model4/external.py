"""Step m4-external: every candidate output scored on films from other hospitals; the shipping decision.

Reads the dump of the product's pipeline on cxr-external-val (.cache/m4/external.jsonl), the projection
and cardiomegaly fits, and model 3's internal figures (models/cxr/metrics.json as model 3 wrote it, kept in
.cache/m4/internal-metrics.json on first run). For every candidate: AUROC against normal films and against
every other film, per source, with 95 % bootstrap intervals over patients. Then, for what ships, a Platt
calibration (fitted on every ChestX-ray14 film: the finding against the rest) and an operating point (Youden's
on the deciding population; the triage flag: the highest sensitivity at specificity >= 0.70) chosen on these
films (so their figures here are optimistic; the hidden half of the same collections is where the product is
measured). Writes .cache/m4/external.json.

The shipping rule, written before the first run (SHIP_RULE below): a finding ships when its AUROC against
normal films of the same collection has a lower 95 % bound >= 0.70 with >= 15 positives, and the internal
test figure does not contradict it (internal AUROC >= 0.60 where one exists). COVID-19 is judged on COVID-19
vs other adult pneumonia by the same bound.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model4.external [--seed 4] [--resamples 2000]
"""
from __future__ import annotations

import json
import shutil

import numpy as np
from sklearn.linear_model import LogisticRegression

from cxr_train.common import MODEL_DIR, cli_parser, write_json
from cxr_train.heads.calibration import youden_threshold
from cxr_train.heads.head import auroc, bootstrap_ci
from cxr_train.model4.data import NIH_NAME, external_rows, logit_of, projection_ap
from cxr_train.model4.dump import M4

SHIP_RULE = ("external AUROC against normal films of the same collection: lower end of the 95 % bootstrap interval "
             "(patients resampled) >= 0.70 with >= 15 positives, and no internal contradiction (internal test AUROC "
             ">= 0.60 where the model card has one); COVID-19 judged on COVID-19 vs other adult pneumonia")
MIN_LOWER, MIN_POSITIVES, MIN_INTERNAL = 0.70, 15, 0.60
DISPLAY = {
    "abnormal": "Abnormal (triage)", "pneumonia": "Pneumonia / lung opacity", "covid19": "COVID-19 pattern",
    "atelectasis": "Atelectasis", "cardiomegaly": "Enlarged cardiac silhouette", "pleural_effusion": "Pleural effusion",
    "infiltration": "Infiltration", "mass": "Mass", "nodule": "Nodule", "pneumothorax": "Pneumothorax",
    "consolidation": "Consolidation", "edema": "Edema", "emphysema": "Emphysema", "fibrosis": "Fibrosis",
    "pleural_thickening": "Pleural thickening", "hernia": "Hernia",
}


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


class Scorer:
    """The candidates' scores on a film (None: not scored, e.g. refused, or no plausible CTR)."""

    def __init__(self, labels: list[str], projection: dict, cardio: dict):
        self.labels, self.proj, self.cardio = labels, projection, cardio["ctrCombine"]

    def score(self, out: dict | None, label: str) -> float | None:
        if out is None:
            return None
        if label == "cardiomegaly_ctr":
            if out["ctr"] is None:
                return None
            c = self.cardio
            ap = 1.0 if projection_ap(out, self.proj) >= 0.5 else 0.0
            return float(c["ctrWeight"] * out["ctr"] + c["apWeight"] * ap + c["bias"])
        return logit_of(out, self.labels, label)


def populations(rows: list[dict], label: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """name -> (positive mask, negative mask) over rows."""
    src = np.array([r["source"] for r in rows])
    lab = np.array([r["label"] for r in rows])
    nih = src == "nih-cxr14"
    normal_nih = nih & (lab == "normal")
    covid_sets = ~nih
    if label == "abnormal":
        return {"ChestX-ray14 abnormal vs normal films": (nih & (lab == "abnormal"), normal_nih)}
    if label == "pneumonia":
        inf = covid_sets & np.isin(lab, ["pneumonia", "covid19"])
        return {"adult infection vs normal films (COVID-19 collections)": (inf, covid_sets & (lab == "normal")),
                "adult infection vs ChestX-ray14 normal films": (inf, normal_nih)}
    if label == "covid19":
        return {"COVID-19 vs other adult pneumonia": (lab == "covid19", lab == "pneumonia")}
    name = NIH_NAME["cardiomegaly" if label == "cardiomegaly_ctr" else label]
    has = np.array([name in r["findings_set"] for r in rows])
    return {f"{name} vs normal films": (nih & has, normal_nih), f"{name} vs every other film": (nih & has, nih & ~has)}


def figure(rows, scores, pos, neg, seed, resamples, threshold_z=None) -> dict:
    ok = np.array([s is not None for s in scores])
    sel = (pos | neg) & ok
    y = pos[sel].astype(int)
    s = np.array([scores[i] for i in np.flatnonzero(sel)], dtype=np.float64)
    groups = np.array([rows[i]["patient"] for i in np.flatnonzero(sel)])
    out = {"positives": int(y.sum()), "negatives": int(len(y) - y.sum()), "notScored": int(((pos | neg) & ~ok).sum())}
    if y.sum() == 0 or y.sum() == len(y):
        return {**out, "auc": None, "aucCi95": [None, None]}
    lo, hi = bootstrap_ci(y, s, groups, n=resamples, seed=seed)
    out.update(auc=auroc(y, s), aucCi95=[lo, hi])
    if threshold_z is not None:
        called = s >= threshold_z
        out["sensitivity"] = float(called[y == 1].mean())
        out["specificity"] = float((~called[y == 0]).mean())
    return out


def platt(z: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """p = sigmoid(z / T + b): the manifest's per-label calibration, fitted on these films."""
    m = LogisticRegression(C=1e4, max_iter=1000).fit(z[:, None], y)
    return 1.0 / float(m.coef_[0][0]), float(m.intercept_[0])


def triage_threshold(y: np.ndarray, p: np.ndarray, min_specificity: float = 0.70) -> float:
    """The triage flag's operating point: the highest sensitivity at specificity >= min_specificity, placed midway
    between neighbouring scores (a triage flag that misses abnormal films is no flag)."""
    neg = np.sort(p[y == 0])
    k = int(np.ceil(min_specificity * len(neg))) - 1
    t = neg[k]
    above = p[p > t]
    return float((t + above.min()) / 2) if above.size else float(t)


def called_rates(rows: list[dict], scores: list, zthr: float) -> dict:
    """Per source and label: how many films the output calls at its operating point."""
    out: dict = {}
    for r, s in zip(rows, scores):
        e = out.setdefault(r["source"], {}).setdefault(r["label"], {"n": 0, "called": 0})
        e["n"] += 1
        e["called"] += int(s is not None and s >= zthr)
    return out


def internal_auc(internal: dict, label: str) -> float | None:
    f = (internal.get("findings") or {}).get(label) or {}
    return f.get("auc")


def decide(label: str, fig: dict, internal: dict) -> tuple[bool, str]:
    lo = fig["aucCi95"][0]
    if fig["positives"] < MIN_POSITIVES:
        return False, f"{fig['positives']} positives (< {MIN_POSITIVES})"
    if lo is None or lo < MIN_LOWER:
        return False, f"lower 95 % bound {lo:.2f} (< {MIN_LOWER})" if lo is not None else "no figure"
    ia = internal_auc(internal, "cardiomegaly" if label == "cardiomegaly_ctr" else label)
    if ia is not None and ia < MIN_INTERNAL:
        return False, f"internal test AUROC {ia:.2f} contradicts (< {MIN_INTERNAL})"
    return True, f"lower 95 % bound {lo:.2f} with {fig['positives']} positives"


def parser():
    ap = cli_parser(__doc__)
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--resamples", type=int, default=2000)
    return ap


def main() -> None:
    args = parser().parse_args()
    internal_path = M4 / "internal-metrics.json"
    if not internal_path.exists():
        shutil.copy(MODEL_DIR / "metrics.json", internal_path)
    internal = json.loads(internal_path.read_text())
    manifest = json.loads((MODEL_DIR / "manifest.json").read_text())
    head = manifest["heads"][0]
    labels = head["labels"]
    projection = json.loads((M4 / "projection.json").read_text())
    cardio = json.loads((M4 / "cardiomegaly.json").read_text())
    scorer = Scorer(labels, projection, cardio)
    rows = external_rows()
    outs = [r["out"] for r in rows]
    candidates = ["abnormal", "pneumonia", "covid19", *NIH_NAME.keys(), "cardiomegaly_ctr"]
    result: dict = {"shipRule": SHIP_RULE, "films": len(rows), "patients": len({r["patient"] for r in rows}),
                    "refusedByGate": sum(o is None for o in outs), "candidates": {}}
    for label in candidates:
        scores = [scorer.score(o, label) for o in outs]
        pops = populations(rows, label)
        figs = {name: figure(rows, scores, p, n, args.seed, args.resamples) for name, (p, n) in pops.items()}
        deciding = next(iter(pops))
        ships, why = decide(label, figs[deciding], internal)
        entry = {"display": DISPLAY["cardiomegaly" if label == "cardiomegaly_ctr" else label], "deciding": deciding,
                 "populations": figs, "ships": ships, "why": why, "internalAuc": internal_auc(internal, label)}
        if ships:
            pos, neg = pops[deciding]
            sel = (pos | neg) & np.array([s is not None for s in scores])
            z = np.array([scores[i] for i in np.flatnonzero(sel)])
            y = pos[sel].astype(int)
            if label == "cardiomegaly_ctr":
                t, b = 1.0, 0.0  # cardiomegaly.py fitted it as a logit already
            elif label == "abnormal":
                # Kept from model 3 (ChestX-ray14 test split, 46 % abnormal): these films are 82 % abnormal, a
                # prevalence no department has, and a probability calibrated on them would overstate it.
                i = labels.index(label)
                t, b = head["temperature"][i], head["bias"][i]
            else:
                # Calibrated on every ChestX-ray14 film (finding vs the rest): the probability a clinical film has it.
                every = list(pops.values())[-1]
                cal = (every[0] | every[1]) & np.array([s is not None for s in scores])
                t, b = platt(np.array([scores[i] for i in np.flatnonzero(cal)]), every[0][cal].astype(int))
            p = sigmoid(z / t + b)
            thr = triage_threshold(y, p) if label == "abnormal" else youden_threshold(y, p)
            zthr = float((np.log(thr / (1 - thr)) - b) * t)
            entry.update(temperature=t, bias=b, threshold=thr)
            entry["populations"] = {name: figure(rows, scores, pp, nn, args.seed, args.resamples, zthr)
                                    for name, (pp, nn) in pops.items()}
        if ships:
            entry["calledBySource"] = called_rates(rows, scores, zthr)
        result["candidates"][label] = entry
        f = entry["populations"][deciding]
        print(f"{label:20s} {deciding:48s} auc {f['auc']}  ci {f['aucCi95']}  pos {f['positives']}  ships {ships}: {why}",
              flush=True)
    write_json(M4 / "external.json", result)


if __name__ == "__main__":
    main()
