"""Metric helpers for evaluate.py (numpy only)."""
from __future__ import annotations

import numpy as np

from calibration import auc


def bootstrap_auc(y: np.ndarray, s: np.ndarray, n: int = 1000, seed: int = 7) -> tuple[float, float, float]:
    rng = np.random.default_rng(seed)
    point = auc(y, s)
    vals = []
    for _ in range(n):
        i = rng.integers(0, len(y), len(y))
        if y[i].min() != y[i].max():
            vals.append(auc(y[i], s[i]))
    lo, hi = np.percentile(vals, [2.5, 97.5]) if vals else (np.nan, np.nan)
    return point, float(lo), float(hi)


def sens_spec(y: np.ndarray, p: np.ndarray, t: float) -> tuple[float, float]:
    pos = p >= t
    y = y.astype(bool)
    sens = float((pos & y).sum() / max(y.sum(), 1)) if y.any() else float("nan")
    spec = float((~pos & ~y).sum() / max((~y).sum(), 1)) if (~y).any() else float("nan")
    return sens, spec


def ece(conf: np.ndarray, correct: np.ndarray, bins: int = 15) -> float:
    """Expected calibration error with equal-width confidence bins."""
    edges = np.linspace(0, 1, bins + 1)
    e = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf > lo) & (conf <= hi) if lo > 0 else (conf >= lo) & (conf <= hi)
        if m.any():
            e += m.mean() * abs(correct[m].mean() - conf[m].mean())
    return float(e)


def reliability(conf: np.ndarray, correct: np.ndarray, bins: int = 10):
    edges = np.linspace(0, 1, bins + 1)
    mids, accs, counts = [], [], []
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (conf >= lo) & (conf < hi) if hi < 1 else (conf >= lo) & (conf <= hi)
        if m.any():
            mids.append(float(conf[m].mean()))
            accs.append(float(correct[m].mean()))
            counts.append(int(m.sum()))
    return mids, accs, counts


def fmt(v: float, d: int = 3) -> str:
    return "n/a" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{v:.{d}f}"


def pct(v: float, d: int = 1) -> str:
    return "n/a" if v is None or (isinstance(v, float) and np.isnan(v)) else f"{100 * v:.{d}f}%"
