"""The one pass over the test splits for model 2, plus the cross-validated figures for findings
with too few test positives, the shipping decision, per-source / per-age figures, anatomy
figures and the shortcut checks.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.evaluate.findings [--tag head] [--folds 5]
Writes models/cxr/evaluation.json (everything) and models/cxr/metrics.json (what the product shows).
"""
from __future__ import annotations

import argparse
import json
import time
import zlib

import numpy as np
import torch

from cxr_train.common import MODEL_DIR, cli_parser, write_json
from cxr_train.heads.finalize import calibrated, finding_probs, fit_ctr_combine
from cxr_train.heads.head import Head, auroc, bootstrap_ci, fit_head, predict
from cxr_train.data.labels import LABELS
from cxr_train.data.populations import DECIDING, populations
from cxr_train.heads.train import FEATS, RUN, load_all, training_set

MIN_TEST_POSITIVES = 20
SHIP_CI_LOW = 0.70
# A bootstrap interval over one or two positives says nothing: a finding whose deciding population has
# fewer positives than this is not shipped, whatever its interval (model 3: hernia had 1 in val+test).
MIN_SHIP_POSITIVES = 10


def finding_label(lab: str) -> str:
    return "viral_given_pneumonia" if lab in ("pneumonia_viral", "pneumonia_bacterial") else lab


def operating_point(target, prob, threshold):
    target, call = np.asarray(target).astype(bool), np.asarray(prob) >= threshold
    sens = float(call[target].mean()) if target.any() else float("nan")
    spec = float((~call[~target]).mean()) if (~target).any() else float("nan")
    return sens, spec


def figure(target, score, groups, seed=0) -> dict:
    a = auroc(target, score)
    lo, hi = bootstrap_ci(target, score, groups, n=1000, seed=seed)
    return {"n": int(len(target)), "positives": int(np.sum(target)), "auc": a, "aucCi95": [lo, hi]}


def fold_of(rows, k: int) -> np.ndarray:
    """Deterministic group-disjoint folds (an NIH patient's films share a group)."""
    return np.array([zlib.crc32(r["group_id"].encode()) % k for r in rows])


def cross_validate(rows, ev, aug, aug_index, y, folds: int, epochs: int, hidden: int, lr: float, wd: float, log) -> np.ndarray:
    """Out-of-fold calibrated-free logits for every row (train+val+test), the head retrained per fold."""
    fold = fold_of(rows, folds)
    has = (y >= 0).any(1)
    oof = np.full((len(rows), len(LABELS)), np.nan, np.float32)
    for k in range(folds):
        t0 = time.time()
        tr = np.flatnonzero((fold != k) & has)
        te = np.flatnonzero((fold == k) & has)
        f, yt, w = training_set(rows, ev, aug, aug_index, y, tr, True)
        head = fit_head(f, yt, w, epochs=epochs, seed=100 + k, hidden=hidden, lr=lr, wd=wd)
        del f
        oof[te] = predict(head, np.asarray(ev[te]))
        log({"cv_fold": k, "sec": round(time.time() - t0)})
    return oof


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--tag", default="head")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument(
        "--small",
        choices=["pooled", "cv"],
        default="pooled",
        help="figure for findings with under 20 test positives: 'pooled' = the shipped network on val+test together "
        "(model 3: its fine-tuned blocks saw only the train split, so a head-only cross-validation over train rows would leak); "
        "'cv' = model 2's head-only cross-validation over train+val+test",
    )
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(2)
    t_start = time.time()
    log = lambda m: print(json.dumps(m), flush=True)  # noqa: E731
    ck = torch.load(RUN / f"{args.tag}.pt")
    rows, ev, aug, aug_index, y = load_all(pooled_only=ck["hidden"] == 0)
    calib = json.loads((RUN / "calibration.json").read_text())
    head = Head(len(LABELS), ck["hidden"])
    head.load_state_dict(ck["head"])
    head.eval()
    ctr = np.load(FEATS / "anatomy.npz")["ctr"].astype(np.float64)
    split = np.array([r["split"] for r in rows])
    te = np.flatnonzero(split == "test")
    groups = np.array([r["group_id"] for r in rows])
    z_te = predict(head, np.asarray(ev[te]))
    p_te = calibrated(z_te, calib["temperature"], calib["bias"])
    fp_te = finding_probs(p_te, ctr[te], calib["ctrCombine"])
    pos = {int(i): k for k, i in enumerate(te)}
    pops = populations(rows, te)
    thresholds = {f["label"]: f["threshold"] for f in calib["findings"]}

    # 1. Every population on the test split.
    test_figs = {}
    for name, (sel, target, lab) in pops.items():
        kk = [pos[int(i)] for i in sel]
        score = p_te[kk, LABELS.index(lab)]
        fig = figure(target, score, groups[sel])
        flab = {"viral_given_pneumonia": "pneumonia_viral"}.get(lab, lab)
        if flab in fp_te:
            s = fp_te[flab][kk]
            fig["threshold"] = thresholds[flab]
            fig["sensitivity"], fig["specificity"] = operating_point(target, s, thresholds[flab])
            if flab == "cardiomegaly":
                fig["aucWithCtr"] = auroc(target, s)
        fig["output"] = lab
        test_figs[name] = fig
    log({"test": {k: round(v["auc"], 3) for k, v in test_figs.items()}})

    # 2. Cross-validation for the findings whose deciding test population has too few positives.
    need_cv = [lab for lab, pop in DECIDING.items() if test_figs.get(pop, {}).get("positives", 0) < MIN_TEST_POSITIVES]
    cv_figs = {}
    small_source = f"{args.folds}-fold patient-disjoint cross-validation over train+val+test"
    if need_cv and args.small == "pooled":
        small_source = "val+test pooled (the shipped network never trained on either split; val chose its epoch and calibration)"
        vt = np.flatnonzero(((split == "test") | (split == "val")) & (y >= 0).any(1))
        z_vt = predict(head, np.asarray(ev[vt]))
        p_vt = calibrated(z_vt, calib["temperature"], calib["bias"])
        fp_vt = finding_probs(p_vt, ctr[vt], calib["ctrCombine"])
        vpos = {int(i): k for k, i in enumerate(vt)}
        vt_pops = populations(rows, vt)
        for lab in need_cv:
            sel, target, out_lab = vt_pops[DECIDING[lab]]
            kk = [vpos[int(i)] for i in sel]
            score = fp_vt[lab][kk] if lab in fp_vt else p_vt[kk, LABELS.index(out_lab)]
            cv_figs[lab] = {**figure(target, score, groups[sel]), "population": DECIDING[lab] + ", val+test pooled"}
        log({"pooled": {k: round(v["auc"], 3) for k, v in cv_figs.items()}})
    elif need_cv:
        # The same recipe as the shipped head (cxr_train/heads/train.py's arguments, saved with it).
        targs = ck.get("args", {})
        oof = cross_validate(rows, ev, aug, aug_index, y, args.folds, targs.get("epochs", 12), ck["hidden"], targs.get("lr", 1e-3), targs.get("wd", 0.05), log)
        allidx = np.flatnonzero((y >= 0).any(1))
        cv_pops = populations(rows, allidx)
        fold = fold_of(rows, args.folds)
        for lab in need_cv:
            sel, target, out_lab = cv_pops[DECIDING[lab]]
            score = oof[sel, LABELS.index(out_lab)]
            if lab == "cardiomegaly":  # the shipped score combines the CTR: refit the combination per fold
                comb = np.empty(len(sel))
                for k in range(args.folds):
                    trk, tek = fold[sel] != k, fold[sel] == k
                    c = fit_ctr_combine(score[trk], ctr[sel][trk], target[trk])
                    cc = np.nan_to_num(ctr[sel][tek])
                    z = c["logitWeight"] * score[tek] + c["ctrWeight"] * cc + c["bias"]
                    comb[tek] = np.where(np.isnan(ctr[sel][tek]), score[tek], z)
                score = comb
            cv_figs[lab] = {**figure(target, score, groups[sel]), "population": DECIDING[lab] + ", all splits, out-of-fold"}
        log({"cv": {k: round(v["auc"], 3) for k, v in cv_figs.items()}})

    # 3. The shipping decision.
    decisions = {}
    for f in calib["findings"]:
        lab = f["label"]
        base = finding_label(lab)
        if base in cv_figs:
            fig, source = cv_figs[base], small_source
        else:
            fig, source = test_figs[DECIDING[base]], "test split"
        if lab == "cardiomegaly" and base not in cv_figs:
            fig = {**fig, "auc": fig.get("aucWithCtr", fig["auc"])}
        decisions[lab] = {
            "population": DECIDING[base],
            "figureFrom": source,
            "auc": fig["auc"],
            "aucCi95": fig["aucCi95"],
            "positives": fig["positives"],
            "n": fig["n"],
            "shipped": bool(fig["aucCi95"][0] >= SHIP_CI_LOW and fig["positives"] >= MIN_SHIP_POSITIVES),
        }
    shipped = [k for k, d in decisions.items() if d["shipped"]]
    log({"shipped": shipped})

    # 4. Per source and per age group, at the shipped thresholds.
    by_group = {}
    for i in te:
        r = rows[i]
        for key in (f"source={r['source']}", f"age_group={r['age_group']}"):
            g = by_group.setdefault(key, {"n": 0, "labels": {}})
            g["n"] += 1
            lab_counts = g["labels"].setdefault(r["label"], {"n": 0, "calledAbnormal": 0, "calledCovid19": 0, "calledPneumonia": 0})
            lab_counts["n"] += 1
            k = pos[int(i)]
            lab_counts["calledAbnormal"] += int(fp_te["abnormal"][k] >= thresholds["abnormal"])
            lab_counts["calledCovid19"] += int(fp_te["covid19"][k] >= thresholds["covid19"])
            lab_counts["calledPneumonia"] += int(fp_te["pneumonia"][k] >= thresholds["pneumonia"])
    for key, g in by_group.items():
        sel = np.array([i for i in te if f"source={rows[i]['source']}" == key or f"age_group={rows[i]['age_group']}" == key])
        kk = [pos[int(i)] for i in sel]
        tgt = y[sel, LABELS.index("abnormal")]
        known = tgt >= 0
        g["abnormalAuc"] = auroc(tgt[known], p_te[np.array(kk)[known], 0]) if known.any() else float("nan")

    evaluation = {
        "evaluatedAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "testImages": int(len(te)),
        "shipRule": f"lower end of the 95 % bootstrap AUROC interval >= {SHIP_CI_LOW} on the deciding population, with at least {MIN_SHIP_POSITIVES} positives "
        f"(test split; where the test split has under {MIN_TEST_POSITIVES} positives: {small_source})",
        "test": test_figs,
        "crossValidation": cv_figs,
        "decisions": decisions,
        "shipped": shipped,
        "byGroup": by_group,
        "seconds": round(time.time() - t_start),
    }
    write_json(MODEL_DIR / "evaluation.json", evaluation)
    print(f"evaluation written; shipped {len(shipped)}: {shipped}")


if __name__ == "__main__":
    main()
