"""Step m5-heads: the linear head refitted multi-label, chosen by patient-grouped 5-fold cross-validation.

For each label, a logistic regression on the head's input (standardised pooled features) over every film whose
collection says yes or no for it: cxr-nih-more, cxr-extra's ChestX-ray14 (kcr) train/val films, and
cxr-external-val. Folds are by patient (`folds.fold_of`) over all of them, so a patient with films in two sets stays
on one side. cxr-extra's test split is never fitted on. Out-of-fold logits of every film are kept for the choices
that follow (`choose.py`): regularisation here (mean one-vs-rest AUROC on the external ChestX-ray14 films), then
calibration and operating points.

Writes .cache/m5/heads.json (out-of-fold logits per C, the chosen C) and .cache/m5/head-final.npz (the fit on all).
Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model5.heads
"""
from __future__ import annotations

import json
import time

import numpy as np
from sklearn.metrics import roc_auc_score

from cxr_train.common import cli_parser
from cxr_train.model5.data import FINDINGS, LABELS, Film, load
from cxr_train.model5.dump import M5
from cxr_train.model5.folds import K, fold_of

# The grids, per prior: with penalty towards zero, stronger penalties won (0.001 over 0.003, 0.01 in a first run).
CS = {"none": (0.0003, 0.001), "model4": (0.0003, 0.001, 0.003)}
# Films from other hospitals count more: they are what the product meets (and what its figures are judged on).
EXTERNAL_WEIGHT = 2.0


def trainable(f: Film) -> bool:
    return not (f.set == "extra" and f.split == "test")


def model4_prior() -> np.ndarray:
    """Model 4's head rows for LABELS (its 1x1 conv; zeros for a label it lacks), in the same standardised space."""
    import onnx
    from onnx import numpy_helper

    from cxr_train.model5.dump import BASE

    m = onnx.load(BASE / "model.onnx")
    w = numpy_helper.to_array(next(i for i in m.graph.initializer if i.name == "head.c2.weight"))[:, :, 0, 0]
    old = json.loads((BASE / "manifest.json").read_text())["heads"][0]["labels"]
    return np.ascontiguousarray(np.stack([w[old.index(lab)] if lab in old else np.zeros(w.shape[1]) for lab in LABELS]).T, dtype=np.float64)


def fit_all(
    films: list[Film],
    c: float,
    prior: np.ndarray | None = None,
    start: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every label's logistic regression at once (full-batch L-BFGS), on the films whose collection gives that label.

    The objective per label is sklearn's: sum of weighted log-losses + ||w - prior||^2 / (2C) (prior: zeros, or
    model 4's head, so that a strong penalty keeps what model 3 learnt from cxr-extra's films); positives and negatives
    weighted to equal total weight, so a finding with 40 positives among 3,000 films still moves the fit.
    `start` (w rows per label, b), when given, is where L-BFGS begins instead of the prior and zero intercepts: the
    objective is convex, so it changes only how many steps the fit takes (the nested cross-validation reuses fits).
    """
    import torch

    x = torch.from_numpy(np.stack([f.x for f in films]).astype(np.float64))
    known = np.array([[f.labels.get(lab) is not None for lab in LABELS] for f in films])
    y = np.array([[f.labels.get(lab) or 0 for lab in LABELS] for f in films], dtype=np.float64)
    w = np.array([EXTERNAL_WEIGHT if f.set == "external" else 1.0 for f in films])[:, None] * known
    pos = np.maximum(1.0, (w * y).sum(0))
    neg = np.maximum(1.0, (w * (1 - y)).sum(0))
    w = w * np.where(y == 1, 0.5 * (pos + neg) / pos, 0.5 * (pos + neg) / neg)
    yt, wt = torch.from_numpy(y), torch.from_numpy(w)
    w0 = torch.zeros(x.shape[1], len(LABELS), dtype=torch.float64) if prior is None else torch.from_numpy(prior)
    W = (w0.clone() if start is None else torch.from_numpy(np.ascontiguousarray(start[0].T))).requires_grad_(True)
    b = (torch.zeros(len(LABELS), dtype=torch.float64) if start is None else torch.from_numpy(start[1].copy())).requires_grad_(True)
    opt = torch.optim.LBFGS([W, b], lr=1, max_iter=200, tolerance_grad=1e-5, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        z = x @ W + b
        loss = (wt * torch.nn.functional.binary_cross_entropy_with_logits(z, yt, reduction="none")).sum()
        d = W - w0
        loss = loss + (d * d).sum() / (2 * c)
        loss.backward()
        return loss

    opt.step(closure)
    return W.detach().numpy().T.copy(), b.detach().numpy().copy()


def one_vs_rest(films: list[Film], z: np.ndarray, label: str) -> float | None:
    """AUROC of `label` against every other external ChestX-ray14 film (other abnormal films included)."""
    idx = [i for i, f in enumerate(films) if f.set == "external" and f.nih]
    y = np.array([films[i].labels[label] for i in idx])
    if y.sum() < 10 or y.sum() == len(y):
        return None
    return float(roc_auc_score(y, z[idx]))


def parser():
    ap = cli_parser(__doc__)
    ap.add_argument("--prior", choices=("none", "model4"), default="none", help="what the penalty pulls the weights towards")
    return ap


def main() -> None:
    args = parser().parse_args()
    prior = model4_prior() if args.prior == "model4" else None
    suffix = "" if args.prior == "none" else f"-{args.prior}"
    films = load()
    train = [f for f in films if trainable(f)]
    folds = np.array([fold_of(f.group) for f in films])
    print(f"{len(films)} films ({len(train)} trainable), {films[0].x.shape[0]} features")
    oof: dict[str, dict[str, list[float]]] = {}
    scores: dict[str, dict[str, float | None]] = {}
    cs = CS[args.prior]
    for c in cs:
        t0 = time.time()
        zc = {lab: np.full(len(films), np.nan) for lab in LABELS}
        for k in range(K):
            tr = [f for f, fk in zip(films, folds) if fk != k and trainable(f)]
            te = np.where(folds == k)[0]
            xt = np.stack([films[i].x for i in te]).astype(np.float64)
            w, b = fit_all(tr, c, prior)
            for j, lab in enumerate(LABELS):
                zc[lab][te] = xt @ w[j] + b[j]
        oof[str(c)] = {lab: zc[lab].tolist() for lab in LABELS}
        scores[str(c)] = {lab: one_vs_rest(films, zc[lab], lab) for lab in LABELS}
        ok = [v for lab, v in scores[str(c)].items() if v is not None and lab in FINDINGS]
        print(f"C={c}: mean one-vs-rest AUROC {np.mean(ok):.3f} over {len(ok)} findings ({time.time() - t0:.0f} s)",
              {k: None if v is None else round(v, 3) for k, v in scores[str(c)].items()}, flush=True)
    best = max(cs, key=lambda c: np.mean([v for lab, v in scores[str(c)].items() if v is not None and lab in FINDINGS]))
    print(f"chosen C={best}")
    ws, bs = fit_all(train, best, prior)
    np.savez(M5 / f"head-final{suffix}.npz", w=ws, b=bs, labels=np.array(LABELS))
    (M5 / f"heads{suffix}.json").write_text(json.dumps({
        "labels": LABELS, "C": best, "Cs": list(cs), "scores": scores, "oof": oof[str(best)],
        "paths": [f"{f.set}:{f.path}" for f in films], "folds": folds.tolist(), "externalWeight": EXTERNAL_WEIGHT, "prior": args.prior,
    }))
    print(f"wrote heads{suffix}.json and head-final{suffix}.npz")


if __name__ == "__main__":
    main()
