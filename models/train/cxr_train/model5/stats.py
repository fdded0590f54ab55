"""Figures with patient-bootstrap intervals, and operating points, shared by the model-5 steps."""
from __future__ import annotations

import numpy as np
from sklearn.metrics import roc_auc_score

SEED = 5


def auroc(y: np.ndarray, s: np.ndarray) -> float | None:
    return None if y.sum() == 0 or y.sum() == len(y) else float(roc_auc_score(y, s))


def auroc_ci(y: np.ndarray, s: np.ndarray, groups: list[str], n: int = 1000) -> tuple[float | None, float | None, float | None]:
    """AUROC with a 95 % interval from resampling patients (all films of a drawn patient come along)."""
    point = auroc(y, s)
    if point is None:
        return None, None, None
    rng = np.random.default_rng(SEED)
    by: dict[str, list[int]] = {}
    for i, g in enumerate(groups):
        by.setdefault(g, []).append(i)
    keys = list(by)
    vals = []
    for _ in range(n):
        idx = np.concatenate([by[keys[j]] for j in rng.integers(0, len(keys), len(keys))])
        a = auroc(y[idx], s[idx])
        if a is not None:
            vals.append(a)
    return point, float(np.percentile(vals, 2.5)), float(np.percentile(vals, 97.5))


def platt(z: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """p = sigmoid(a z + c), fitted by Newton steps on out-of-fold logits (lightly regularised towards a=1, c=0)."""
    a, c = 1.0, 0.0
    for _ in range(100):
        p = 1 / (1 + np.exp(-(a * z + c)))
        g = np.array([((p - y) * z).sum() + 1e-3 * (a - 1), (p - y).sum() + 1e-3 * c])
        wv = p * (1 - p)
        h = np.array([[(wv * z * z).sum() + 1e-3, (wv * z).sum()], [(wv * z).sum(), wv.sum() + 1e-3]])
        step = np.linalg.solve(h, g)
        a, c = a - step[0], c - step[1]
        if np.abs(step).max() < 1e-8:
            break
    # A calibration must keep the order: a slope at or below zero (a label the logit cannot rank) becomes a
    # small positive one, so its AUROC stays the logit's.
    return max(float(a), 1e-3), float(c)


def threshold_at_rate(p_neg: np.ndarray, rate: float) -> float:
    """The lowest threshold at which at most `rate` of these negatives are at or above it."""
    s = np.sort(p_neg)[::-1]
    k = int(np.floor(rate * len(s)))
    if k >= len(s):
        return float(s[-1])
    # Just above the (k+1)-th highest negative: k negatives (or fewer, on ties) remain flagged.
    return float(np.nextafter(s[k], 1.0))
