"""Step m5-likely (issue 48): each shipped finding's "Likely" point, chosen for precision out of fold.

A flag at the operating point (m5-choose: a flag budget against every other film) is "Possible"; it reads "Likely"
only from a higher point chosen here for positive predictive value (PPV, the share of the flagged films that carry the
finding): the lowest probability, at or above the operating point and never below 50 %, at which at least TARGET_PPV
of the external ChestX-ray14 films at or above it carry the finding, with at least MIN_FLAGGED films there. Where no
point reaches the target, the point with the best PPV the films allow (ties: the lowest), and the card says so.

Honest figure: the point is chosen on the other folds' films and applied to the held-out fold (the same patient-grouped
folds as every model-5 choice), on the out-of-fold calibrated probabilities m5-choose wrote (.cache/m5/
oof-probabilities.npz); the shipped point is the one chosen on all films. Those films are ChestX-ray14's abnormal-rich
mix (about four abnormal films in five), so a PPV here is higher than on a department's unselected films.

Writes models/cxr/likely-points.json and `likelyThreshold` into models/cxr/manifest.json's findings.
Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model5.likely
"""
from __future__ import annotations

import json

import numpy as np

from cxr_train.common import MODEL_DIR, cli_parser
from cxr_train.model5.choose import ext_nih
from cxr_train.model5.data import load
from cxr_train.model5.dump import M5
from cxr_train.model5.folds import K

TARGET_PPV = 0.60
MIN_FLAGGED = 5
LIKELY_FROM = 0.5  # contracts/finding-call.ts: a probability below 50 % is never called likely


def likely_point(p: np.ndarray, y: np.ndarray, floor: float) -> tuple[float | None, bool]:
    """The lowest point >= floor with PPV >= TARGET_PPV over >= MIN_FLAGGED films; else the best PPV (met=False)."""
    cands = np.unique(p[p >= floor])
    best, best_ppv = None, -1.0
    for t in cands:  # ascending: the first that meets the target keeps the most sensitivity
        at = p >= t
        if at.sum() < MIN_FLAGGED:
            break
        ppv = float(y[at].mean())
        if ppv >= TARGET_PPV:
            return float(t), True
        if ppv > best_ppv:
            best, best_ppv = float(t), ppv
    return best, False


def figures(p: np.ndarray, y: np.ndarray, flagged: np.ndarray) -> dict:
    n = int(flagged.sum())
    tp = int((flagged & y).sum())
    return {"flagged": n, "truePositives": tp, "ppv": None if n == 0 else tp / n,
            "sensitivity": None if y.sum() == 0 else tp / int(y.sum())}


def main() -> None:
    cli_parser(__doc__).parse_args()
    oof = np.load(M5 / "oof-probabilities.npz")
    films = load()
    assert [f"{f.set}:{f.path}" for f in films] == list(oof["paths"]), "films changed since m5-choose: rerun it"
    folds = oof["folds"]
    sel = ext_nih(films)
    manifest = json.loads((MODEL_DIR / "manifest.json").read_text())
    out: dict = {"targetPpv": TARGET_PPV, "minFlagged": MIN_FLAGGED, "films": int(sel.sum()),
                 "abnormalFilms": int(sum(f.labels["abnormal"] == 1 for f, s in zip(films, sel) if s)),
                 "population": "external ChestX-ray14 films (cxr-external-val), patient-grouped 5-fold cross-validation",
                 "findings": {}}
    for f in manifest["findings"]:
        lab = f["label"]
        key = "cardiomegaly_ctr" if lab == "cardiomegaly" else lab
        if f.get("summary") or f.get("ageGroup") == "pediatric" or key not in oof.files:
            continue
        p = oof[key]
        y = np.array([x.labels.get(lab) == 1 for x in films])
        floor = max(LIKELY_FROM, f["threshold"])
        t_fold = np.full(len(films), np.inf)
        for k in range(K):
            o = sel & (folds != k)
            t, _ = likely_point(p[o], y[o], floor)
            t_fold[folds == k] = floor if t is None else t
        t_all, met = likely_point(p[sel], y[sel], floor)
        # Fewer than MIN_FLAGGED films at or above the floor: no PPV can be measured, the floor stays (targetMet false).
        t_all = floor if t_all is None else t_all
        possible = sel & (p >= f["threshold"])
        out["findings"][lab] = {
            "display": f["display"], "positives": int(y[sel].sum()), "threshold": f["threshold"],
            "likelyThreshold": t_all, "targetMet": met,
            # Out of fold: each fold's films called at the point chosen on the other four.
            "likelyOutOfFold": figures(p[sel], y[sel], (p >= t_fold)[sel]),
            # The rule before issue 48 (Likely from 50 %), and every flag (Possible or Likely), the same way.
            "likelyFrom50": figures(p[sel], y[sel], (p >= floor)[sel]),
            "flaggedAtOperatingPoint": figures(p[sel], y[sel], possible[sel]),
        }
        lo = out["findings"][lab]["likelyOutOfFold"]
        print(f"{lab}: likely from {t_all} (target met: {met}); out of fold PPV {lo['ppv']} on {lo['flagged']} films, "
              f"from 50 %: {out['findings'][lab]['likelyFrom50']['ppv']}")
        f["likelyThreshold"] = t_all
    (MODEL_DIR / "likely-points.json").write_text(json.dumps(out, indent=1) + "\n")
    (MODEL_DIR / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    print("wrote likely-points.json and manifest.json likelyThreshold")


if __name__ == "__main__":
    main()
