"""Nested cross-validation of model 5's choices (issue 48 item 5): how optimistic the card's cross-validated figures are.

Model 5's figures are out of fold, but every choice behind them (the head's penalty and C, the per-label share of
model 4's head, the Platt calibration, the triage's source and point, cardiomegaly's combination, what ships, the
flag budget and the flag points) was made on the same out-of-fold figures. Here each outer fold (the same 5
patient-grouped folds, folds.fold_of) only scores: every choice is made again by m5-heads' and m5-choose's rules
on the other four folds alone, with an inner cross-validation over those four (the inner loop), the head refitted
on them with the chosen settings and applied to the held-out fold. The held-out folds' probabilities and flags are
pooled and scored like the card's. The projection refit is not re-run (model 4's projection output ships
unchanged, so no shipped figure rests on it).

Reads .cache/m5/*.jsonl (m5-dump, with model 4's files as the base). Writes the JSON given by --out.
Usage: OPENBLAS_NUM_THREADS=1 PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model5.nested --out models/cxr/nested-cv.json
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from cxr_train.common import cli_parser
from cxr_train.model5.choose import (BUDGETS, MIX, OLD_ROWS, SHIP_ONE_VS_REST, SHIP_POSITIVES, SHIP_VS_NORMAL_LOWER,
                                     ext_nih, flag_stats, sig, triage_point)
from cxr_train.model5.data import FINDINGS, LABELS, Film, load
from cxr_train.model5.dump import BASE, M5
from cxr_train.model5.folds import K, fold_of
from cxr_train.model5.heads import CS, fit_all, model4_prior, trainable
from cxr_train.model5.stats import auroc, auroc_ci, platt, threshold_at_rate

CANDIDATES = [lab for lab in FINDINGS if lab != "cardiomegaly"] + ["cardiomegaly_ctr", "lung_opacity"]
base_of = lambda lab: "cardiomegaly" if lab == "cardiomegaly_ctr" else lab  # noqa: E731


class Table:
    """The films as arrays, and model 4's logits per label (the mix's other half)."""

    def __init__(self, films: list[Film]):
        self.films = films
        self.n = len(films)
        self.x = np.stack([f.x for f in films]).astype(np.float64)
        self.folds = np.array([fold_of(f.group) for f in films])
        self.train = np.array([trainable(f) for f in films])
        self.sel = ext_nih(films)
        self.ext = np.array([f.set == "external" for f in films])
        self.abn = np.array([f.labels["abnormal"] == 1 for f in films])
        self.y = {lab: np.array([f.labels.get(lab) == 1 for f in films]) for lab in LABELS}
        self.known = {lab: np.array([f.labels.get(lab) is not None for f in films]) for lab in LABELS}
        self.nih_norm = np.array([f.nih and f.labels["abnormal"] == 0 and not (f.set == "extra" and f.split == "test") for f in films])
        self.groups = [f.group for f in films]
        old = json.loads((BASE / "manifest.json").read_text())["heads"][0]["labels"]
        self.z4 = {}
        for lab in LABELS:
            rows = OLD_ROWS.get(lab, (lab,))
            if all(r in old for r in rows):
                self.z4[lab] = np.mean([np.array([f.logits[old.index(r)] for f in films]) for r in rows], axis=0)
        self.old_abn = np.array([f.logits[0] for f in films])
        cy = [f.labels.get("cardiomegaly") for f in films]
        self.card_ok = np.array([f.ctr_ok and f.ctr is not None and cy[i] is not None and not (f.set == "extra" and f.split == "test")
                                 for i, f in enumerate(films)])
        ap = np.array([1.0 if (f.view == "AP" or (f.view is None and (f.p_ap or 0) >= 0.5)) else 0.0 for f in films])
        self.card_x = np.stack([np.array([f.ctr if f.ctr is not None else 0.0 for f in films]), ap], 1)


_FITS: dict = {}
FIT_CACHE = M5 / "nested-fits"


def fit_without(t: Table, excluded: frozenset, c: float, prior_name: str, priors: dict) -> tuple[np.ndarray, np.ndarray]:
    """The head fitted on every trainable film outside the folds `excluded`. Cached (in memory and in
    .cache/m5/nested-fits): the fit without folds {j, k} serves outer fold k's inner fold j and outer fold j's inner
    fold k alike (75 fits instead of 130). Each fit starts from the nearest one already made with the same settings:
    the objective is convex, so the start changes only how many L-BFGS steps it takes, not where it ends."""
    key = (excluded, c, prior_name)
    if key in _FITS:
        return _FITS[key]
    path = FIT_CACHE / f"{prior_name}-{c}-{'-'.join(str(k) for k in sorted(excluded)) or 'none'}.npz"
    if path.exists():
        d = np.load(path)
        _FITS[key] = (d["w"], d["b"])
        return _FITS[key]
    near = [k for k in _FITS if k[1:] == (c, prior_name)]
    start = _FITS[min(near, key=lambda k: len(k[0] ^ excluded))] if near else None
    films = [f for f, fk, tr in zip(t.films, t.folds, t.train) if tr and fk not in excluded]
    t0 = time.time()
    _FITS[key] = fit_all(films, c, priors[prior_name], start)
    FIT_CACHE.mkdir(parents=True, exist_ok=True)
    np.savez(path, w=_FITS[key][0], b=_FITS[key][1])
    print(f"  fit {len(_FITS)}: without folds {sorted(excluded)}, {prior_name} C={c} ({time.time() - t0:.1f} s)", flush=True)
    return _FITS[key]


def predict(t: Table, wb: tuple[np.ndarray, np.ndarray], rows: np.ndarray) -> np.ndarray:
    z = np.full((t.n, len(LABELS)), np.nan)
    z[rows] = t.x[rows] @ wb[0].T + wb[1]
    return z


def inner_oof(t: Table, outer: frozenset, ids: list[int], c: float, prior_name: str, priors: dict) -> np.ndarray:
    """Out-of-fold logits over the folds `ids` (the films of the folds in `outer` are never fitted on)."""
    z = np.full((t.n, len(LABELS)), np.nan)
    for k in ids:
        te = t.folds == k
        z[te] = predict(t, fit_without(t, outer | {k}, c, prior_name, priors), te)[te]
    return z


def mean_ovr(t: Table, z: np.ndarray, m: np.ndarray) -> float:
    vals = [auroc(t.y[lab][m].astype(int), z[m, j]) for j, lab in enumerate(LABELS) if lab in FINDINGS and t.y[lab][m].sum() >= 10]
    return float(np.mean([v for v in vals if v is not None]))


def card_fit(t: Table, z_card: np.ndarray, fit_on: np.ndarray, variant: str) -> LogisticRegression:
    """Cardiomegaly from the measured CTR and the projection (+ the head's logit): m5-choose's regression."""
    x = card_x(t, z_card, variant)
    tr = fit_on & t.card_ok
    return LogisticRegression(C=1.0, max_iter=1000, class_weight="balanced").fit(x[tr], t.y["cardiomegaly"][tr].astype(int))


def card_x(t: Table, z_card: np.ndarray, variant: str) -> np.ndarray:
    return t.card_x if variant == "ctr+ap" else np.concatenate([t.card_x, np.nan_to_num(z_card)[:, None]], 1)


def card_scores(t: Table, z_card: np.ndarray, model: LogisticRegression, apply_to: np.ndarray, variant: str) -> np.ndarray:
    """The regression's score where a plausible CTR was measured; -inf (no call) elsewhere."""
    out = np.full(t.n, -np.inf)
    te = apply_to & t.card_ok
    out[te] = model.decision_function(card_x(t, z_card, variant)[te])
    return out


def choose(t: Table, pool: np.ndarray, ids: list[int], zs: dict) -> dict:
    """m5-heads' and m5-choose's choices, made on the pool's films alone from their inner out-of-fold logits."""
    s = pool & t.sel
    cfg = max(zs, key=lambda k: mean_ovr(t, zs[k], s))
    z = {lab: zs[cfg][:, j].copy() for j, lab in enumerate(LABELS)}
    mix = {}
    for lab in LABELS:
        if lab not in t.z4 or t.y[lab][s].sum() < 5:
            continue
        s4, s5 = float(t.z4[lab][s].std()), float(z[lab][s].std())
        scores = {a: auroc(t.y[lab][s].astype(int), (a * t.z4[lab] / s4 + (1 - a) * z[lab] / s5)[s]) for a in MIX}
        a = max(MIX, key=lambda k: scores[k])
        mix[lab] = (a, s4, s5)
        z[lab] = a * t.z4[lab] / s4 + (1 - a) * z[lab] / s5
    cal = {lab: platt(z[lab][pool & t.ext & t.known[lab]], t.y[lab][pool & t.ext & t.known[lab]].astype(float)) for lab in LABELS}
    p = {lab: sig(cal[lab][0] * z[lab] + cal[lab][1]) for lab in LABELS}
    y_abn = t.abn.astype(int)
    tri_head = auroc(y_abn[s], z["abnormal"][s]) >= auroc(y_abn[s], t.old_abn[s])
    # Cardiomegaly: the variant by inner out-of-fold AUROC.
    res = {}
    for variant in ("ctr+ap", "ctr+ap+logit"):
        oof = np.full(t.n, -np.inf)
        for k in ids:
            te = pool & (t.folds == k)
            model = card_fit(t, z["cardiomegaly"], pool & (t.folds != k), variant)
            oof[te] = card_scores(t, z["cardiomegaly"], model, te, variant)[te]
        res[variant] = (auroc(t.y["cardiomegaly"][s].astype(int), np.where(np.isinf(oof[s]), -50, oof[s])), oof)
    card_variant = max(res, key=lambda v: res[v][0])
    card_model = card_fit(t, z["cardiomegaly"], pool, card_variant)
    oof = res[card_variant][1]
    measured = ~np.isinf(oof)
    mc = pool & t.ext & t.known["cardiomegaly"] & measured
    cal["cardiomegaly_ctr"] = platt(oof[mc], t.y["cardiomegaly"][mc].astype(float))
    a_c, c_c = cal["cardiomegaly_ctr"]
    p["cardiomegaly_ctr"] = np.where(measured, sig(a_c * np.where(measured, oof, 0) + c_c), 0.0)
    # What ships.
    ships = []
    for lab in CANDIDATES:
        y = t.y[base_of(lab)]
        pt = auroc(y[s].astype(int), p[lab][s])
        vs = s & (y | ~t.abn)
        _, nlo, _ = auroc_ci(y[vs].astype(int), p[lab][vs], [g for g, m in zip(t.groups, vs) if m])
        if int(y[s].sum()) >= SHIP_POSITIVES and pt is not None and pt >= SHIP_ONE_VS_REST and nlo is not None and nlo >= SHIP_VS_NORMAL_LOWER:
            ships.append(lab)
    # The flag budget: thresholds chosen on the other inner folds, the largest budget within the limits.
    ok_budgets, thresholds, oof_flags = [], {}, {}
    for b in BUDGETS:
        flagged, t_all = {}, {}
        for lab in ships:
            neg_abn, neg_norm = s & t.abn & ~t.y[base_of(lab)], pool & t.nih_norm & ~t.y[base_of(lab)]
            tf = np.zeros(t.n)
            for k in ids:
                o = t.folds != k
                tf[t.folds == k] = max(threshold_at_rate(p[lab][neg_abn & o], b), threshold_at_rate(p[lab][neg_norm & o], b / 2))
            t_all[lab] = max(threshold_at_rate(p[lab][neg_abn], b), threshold_at_rate(p[lab][neg_norm], b / 2))
            flagged[base_of(lab)] = (p[lab] >= tf) & pool
        st = flag_stats(t.films, flagged, s) if ships else {"flagsPerNormal": 0, "flagsPerAbnormal": 0, "labelsPerAbnormal": 1}
        thresholds[b] = t_all
        oof_flags[b] = {lab: flagged[base_of(lab)] for lab in ships}
        if st["flagsPerNormal"] <= 0.4 and st["flagsPerAbnormal"] <= 2 * st["labelsPerAbnormal"]:
            ok_budgets.append(b)
    budget = max(ok_budgets) if ok_budgets else min(BUDGETS)
    tri_src = z["abnormal"] if tri_head else t.old_abn
    tri_cal = cal["abnormal"] if tri_head else platt(t.old_abn[s], y_abn[s].astype(float))
    ptri = sig(tri_cal[0] * tri_src + tri_cal[1])
    called = np.zeros(t.n, dtype=bool)
    for k in ids:
        o = pool & (t.folds != k)
        called[t.folds == k] = ptri[t.folds == k] >= triage_point(ptri[s & o & t.abn], ptri[s & o & ~t.abn])
    return {"oof": {"p": p, "flags": oof_flags[budget], "tri": ptri, "called": called},
            "config": cfg, "mix": mix, "platt": cal, "triageHead": bool(tri_head), "triagePlatt": tri_cal,
            "triagePoint": triage_point(ptri[s & t.abn], ptri[s & ~t.abn]), "cardVariant": card_variant, "cardModel": card_model,
            "ships": ships, "budget": budget, "thresholds": thresholds[budget]}


def apply(t: Table, ch: dict, pool: np.ndarray, test: np.ndarray, z_fit: np.ndarray) -> dict:
    """The choices applied to the held-out fold: probabilities, flags and the triage call."""
    z = {lab: z_fit[:, j].copy() for j, lab in enumerate(LABELS)}
    for lab, (a, s4, s5) in ch["mix"].items():
        z[lab] = a * t.z4[lab] / s4 + (1 - a) * z[lab] / s5
    p = {lab: sig(ch["platt"][lab][0] * z[lab] + ch["platt"][lab][1]) for lab in LABELS}
    sc = card_scores(t, z["cardiomegaly"], ch["cardModel"], test, ch["cardVariant"])
    a, c = ch["platt"]["cardiomegaly_ctr"]
    p["cardiomegaly_ctr"] = np.where(np.isinf(sc), 0.0, sig(a * np.where(np.isinf(sc), 0, sc) + c))
    tri = sig(ch["triagePlatt"][0] * (z["abnormal"] if ch["triageHead"] else t.old_abn) + ch["triagePlatt"][1])
    flags = {lab: p[lab] >= ch["thresholds"][lab] for lab in ch["ships"]}
    return {"p": p, "tri": tri, "called": tri >= ch["triagePoint"], "flags": flags}


def score(t: Table, p: dict, tri: np.ndarray, called: np.ndarray, flags: dict, shipped: list[str]) -> dict:
    """The card's cross-validated figures from pooled held-out predictions (external ChestX-ray14 films)."""
    s = t.sel
    out: dict = {"findings": {}}
    for lab in CANDIDATES:
        y = t.y[base_of(lab)]
        pt, lo, hi = auroc_ci(y[s].astype(int), p[lab][s], [g for g, m in zip(t.groups, s) if m])
        vs = s & (y | ~t.abn)
        pn, nlo, nhi = auroc_ci(y[vs].astype(int), p[lab][vs], [g for g, m in zip(t.groups, vs) if m])
        f = {"oneVsRest": pt, "ci": [lo, hi], "vsNormal": pn, "vsNormalCi": [nlo, nhi]}
        if lab in flags:
            f["flaggedWith"] = float(flags[lab][s & y].mean())
            f["flaggedAbnormalWithout"] = float(flags[lab][s & t.abn & ~y].mean())
        out["findings"][lab] = f
    out["meanOneVsRestShipped"] = float(np.mean([out["findings"][lab]["oneVsRest"] for lab in shipped]))
    named = {base_of(k): v for k, v in flags.items()}
    out["flags"] = flag_stats(t.films, named, s) if named else None
    y_abn = t.abn.astype(int)
    pt, lo, hi = auroc_ci(y_abn[s], tri[s], [g for g, m in zip(t.groups, s) if m])
    adult = t.ext & ~t.sel & t.abn & np.array([not f.nih for f in t.films])
    out["triage"] = {"auroc": pt, "ci": [lo, hi], "sensitivity": float(called[s & t.abn].mean()),
                     "specificity": float(1 - called[s & ~t.abn].mean()), "adultInfectionCalled": float(called[adult].mean())}
    return out


def run_cv(t: Table, outer: frozenset, ids: list[int], priors: dict) -> dict:
    """One level of cross-validation over the folds `ids` (the folds in `outer` held out): the choices."""
    zs = {(name, c): inner_oof(t, outer, ids, c, name, priors) for name in priors for c in CS[name]}
    pool = ~np.isin(t.folds, list(outer))
    return choose(t, pool, ids, zs)


def parser():
    ap = cli_parser(__doc__)
    ap.add_argument("--out", type=Path, required=True)
    return ap


def main() -> None:
    args = parser().parse_args()
    t0 = time.time()
    t = Table(load())
    priors = {"none": None, "model4": model4_prior()}
    print(f"{t.n} films, {int(t.sel.sum())} external ChestX-ray14", flush=True)
    # The card's procedure (every choice on the 5 folds' out-of-fold figures), re-run here as the baseline.
    ch_all = run_cv(t, frozenset(), list(range(K)), priors)
    print(f"single-level choices made ({time.time() - t0:.0f} s): {ch_all['config']}, ships {ch_all['ships']}", flush=True)
    shipped = ch_all["ships"]
    o = ch_all["oof"]
    single = score(t, o["p"], o["tri"], o["called"], o["flags"], shipped)
    # Nested: each outer fold only scores.
    p_out = {lab: np.zeros(t.n) for lab in LABELS + ["cardiomegaly_ctr"]}
    tri_out, called_out = np.zeros(t.n), np.zeros(t.n, dtype=bool)
    flags_out = {lab: np.zeros(t.n, dtype=bool) for lab in CANDIDATES}
    per_fold = []
    for k in range(K):
        pool, test = t.folds != k, t.folds == k
        ch = run_cv(t, frozenset({k}), [j for j in range(K) if j != k], priors)
        z_fit = predict(t, fit_without(t, frozenset({k}), ch["config"][1], ch["config"][0], priors), test)
        res = apply(t, ch, pool, test, z_fit)
        for lab in p_out:
            p_out[lab][test] = res["p"][lab][test]
        tri_out[test], called_out[test] = res["tri"][test], res["called"][test]
        for lab in CANDIDATES:
            if lab in res["flags"]:
                flags_out[lab][test] = res["flags"][lab][test]
        per_fold.append({"fold": k, "config": list(ch["config"]), "ships": ch["ships"], "budget": ch["budget"],
                         "cardVariant": ch["cardVariant"], "triageHead": ch["triageHead"],
                         "mix": {lab: v[0] for lab, v in ch["mix"].items()}})
        print(f"outer fold {k} ({time.time() - t0:.0f} s): {per_fold[-1]}", flush=True)
    nested = score(t, p_out, tri_out, called_out, {lab: flags_out[lab] for lab in shipped}, shipped)
    result = {
        "films": t.n, "externalNih": int(t.sel.sum()),
        "singleLevelChoices": {"config": list(ch_all["config"]), "ships": ch_all["ships"], "budget": ch_all["budget"],
                               "cardVariant": ch_all["cardVariant"], "triageHead": ch_all["triageHead"],
                               "mix": {lab: v[0] for lab, v in ch_all["mix"].items()}},
        "nestedPerFold": per_fold,
        "singleLevel": single,
        "nested": nested,
        "seconds": round(time.time() - t0),
    }
    args.out.write_text(json.dumps(result, indent=1) + "\n")
    for name, r in (("single level", single), ("nested", nested)):
        print(name, json.dumps({k: v for k, v in r.items() if k != "findings"}))
        for lab, f in r["findings"].items():
            print(" ", lab, {k: round(v, 3) for k, v in f.items() if k in ("oneVsRest", "vsNormal", "flaggedWith", "flaggedAbnormalWithout")})


if __name__ == "__main__":
    main()
