"""Step m4-projection: the AP/PA output, a logistic regression on pooled features of the shipped nets.

Trained on cxr-extra's ChestX-ray14 films with a recorded view (train split; the 64 px films are refused by the
gate and so never seen), the input (lung crop, whole film or both, standardised) and the regularisation chosen on
the val split, the test split scored once for the card. The external films' own view labels (where a
collection records one) are scored too. DICOM ViewPosition wins over this output in the product.
Writes .cache/m4/projection.json.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model4.projection [--seed 4]
"""
from __future__ import annotations

import numpy as np
from sklearn.linear_model import LogisticRegression

from cxr_train.common import cli_parser, write_json
from cxr_train.heads.head import auroc, bootstrap_ci
from cxr_train.model4.data import FEATURE_SETS, external_rows, extra_rows, features
from cxr_train.model4.dump import M4

CS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3)


class Linear:
    """Standardise (train mean/std), then a logistic regression; folded into one weight vector for export."""

    def __init__(self, x: np.ndarray, y: np.ndarray, c: float, seed: int):
        self.mean, self.std = x.mean(0), x.std(0) + 1e-6
        m = LogisticRegression(C=c, max_iter=5000, random_state=seed).fit((x - self.mean) / self.std, y)
        self.w = m.coef_[0] / self.std
        self.b = float(m.intercept_[0] - (m.coef_[0] * self.mean / self.std).sum())

    def score(self, x: np.ndarray) -> np.ndarray:
        return x @ self.w + self.b


def figure(y, s, groups, seed) -> dict:
    lo, hi = bootstrap_ci(y, s, groups, n=2000, seed=seed)
    pred = s >= 0
    return {"n": int(len(y)), "ap": int(y.sum()), "auc": auroc(y, s), "aucCi95": [lo, hi],
            "accuracy": float((pred == y.astype(bool)).mean())}


def parser():
    ap = cli_parser(__doc__)
    ap.add_argument("--seed", type=int, default=4)
    return ap


def main() -> None:
    args = parser().parse_args()
    rows = [r for r in extra_rows() if r["view"] in ("AP", "PA")]
    part = {s: [r for r in rows if r["split"] == s] for s in ("train", "val", "test")}
    y = {s: np.array([r["view"] == "AP" for r in part[s]], dtype=int) for s in part}
    ext = [r for r in external_rows() if r["out"] is not None and r["projection_label"]]
    ye = np.array([r["projection_label"] == "AP" for r in ext], dtype=int)
    ge = np.array([r["patient"] for r in ext])
    tried = []
    for kind in FEATURE_SETS:
        x = {s: features(part[s], kind) for s in part}
        for c in CS:
            m = Linear(x["train"], y["train"], c, args.seed)
            # The external figure is recorded for the ablation table; the choice is made on val.
            tried.append({"features": kind, "C": c, "valAuc": auroc(y["val"], m.score(x["val"])),
                          "externalAuc": auroc(ye, m.score(features(ext, kind)))})
            print(tried[-1], flush=True)
    best = max(tried, key=lambda t: t["valAuc"])
    kind = best["features"]
    x = {s: features(part[s], kind) for s in part}
    m = Linear(x["train"], y["train"], best["C"], args.seed)
    res = {"features": kind, "C": best["C"], "tried": tried, "trainFilms": int(len(y["train"]))}
    for s in ("val", "test"):
        res[s] = figure(y[s], m.score(x[s]), np.array([r["group_id"] for r in part[s]]), args.seed)
    res["external"] = figure(ye, m.score(features(ext, kind)), ge, args.seed)
    res["external"]["sources"] = sorted({r["source"] for r in ext})
    res["weights"] = [float(v) for v in m.w]
    res["bias"] = m.b
    print({k: v for k, v in res.items() if k not in ("weights", "tried")})
    write_json(M4 / "projection.json", res)


if __name__ == "__main__":
    main()
