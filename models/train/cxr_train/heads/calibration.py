"""Temperature (+ bias) scaling and operating-threshold selection, fitted on val only."""
from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F


def fit_temperature_bias(logits: np.ndarray, y: np.ndarray, with_bias: bool = True) -> tuple[float, list[float]]:
    """Minimise val NLL of softmax(z / T + b) (bias-corrected temperature scaling).
    The bias absorbs the class-prior shift from balanced sampling during training."""
    z = torch.from_numpy(logits.astype(np.float64))
    yt = torch.from_numpy(y)
    log_t = torch.zeros(1, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(z.shape[1], dtype=torch.float64, requires_grad=with_bias)
    params = [log_t, b] if with_bias else [log_t]
    opt = torch.optim.LBFGS(params, lr=0.5, max_iter=500, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = F.cross_entropy(z / log_t.exp() + (b - b.mean()), yt)
        loss.backward()
        return loss

    opt.step(closure)
    bb = (b - b.mean()).detach().numpy()
    return float(log_t.exp().item()), [float(v) for v in bb]


def roc_points(y: np.ndarray, s: np.ndarray):
    """ROC curve (fpr, tpr, thresholds), thresholds descending; score >= t is positive."""
    order = np.argsort(-s, kind="mergesort")
    s, y = s[order], y[order].astype(np.float64)
    distinct = np.r_[np.where(np.diff(s))[0], len(s) - 1]
    tps = np.cumsum(y)[distinct]
    fps = (1 + distinct) - tps
    P, N = y.sum(), len(y) - y.sum()
    return np.r_[0, fps / max(N, 1)], np.r_[0, tps / max(P, 1)], np.r_[np.inf, s[distinct]]


def auc(y: np.ndarray, s: np.ndarray) -> float:
    """ROC AUC via the rank statistic (ties count one half)."""
    y = y.astype(bool)
    n1, n0 = y.sum(), (~y).sum()
    if n1 == 0 or n0 == 0:
        return float("nan")
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s))
    ss = s[order]
    # average ranks for ties
    uniq, start, counts = np.unique(ss, return_index=True, return_counts=True)
    avg = start + (counts + 1) / 2.0
    ranks[order] = np.repeat(avg, counts)
    return float((ranks[y].sum() - n1 * (n1 + 1) / 2) / (n1 * n0))


def youden_threshold(y: np.ndarray, p: np.ndarray) -> float:
    """Threshold maximising sensitivity + specificity - 1 on val, placed midway between
    neighbouring scores so it does not sit on a val sample; clipped to [0.02, 0.98]."""
    fpr, tpr, th = roc_points(y, p)
    j = tpr - fpr
    k = int(np.argmax(j[1:])) + 1
    t = th[k]
    below = p[p < t]
    if below.size:
        t = (t + below.max()) / 2
    return float(np.clip(t, 0.02, 0.98))
