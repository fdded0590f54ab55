"""Model 2's classifier head on cached backbone features, its training loop and metrics helpers.

The head is a 1x1 conv (1376 -> hidden) + ReLU + 1x1 conv (hidden -> labels) applied at every
position of the 7x7 feature map; the image logit is the mean over positions. Because the last
layer is linear, that mean equals the per-position logits averaged, so the per-position logits
ARE the class activation maps: one graph gives scores and heatmaps.
"""
from __future__ import annotations

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

FEAT_CH = 1376


class Head(nn.Module):
    """hidden = 0: a linear head (logistic regression on the pooled, standardised features)."""

    def __init__(self, n_labels: int, hidden: int = 256, drop: float = 0.3):
        super().__init__()
        self.mean = nn.Parameter(torch.zeros(1, FEAT_CH, 1, 1), requires_grad=False)
        self.std = nn.Parameter(torch.ones(1, FEAT_CH, 1, 1), requires_grad=False)
        self.c1 = nn.Conv2d(FEAT_CH, hidden, 1) if hidden else None
        self.drop = nn.Dropout2d(drop) if hidden else nn.Dropout(drop)
        self.c2 = nn.Conv2d(hidden or FEAT_CH, n_labels, 1)

    def cams(self, f: torch.Tensor) -> torch.Tensor:
        x = (f - self.mean) / self.std
        if self.c1 is not None:
            return self.c2(self.drop(F.relu(self.c1(x))))
        return self.c2(x)

    def forward(self, f: torch.Tensor) -> torch.Tensor:
        if self.c1 is None and self.training:
            # Linear head: the mean over positions commutes with the 1x1 conv; dropout on the pooled vector.
            x = self.drop(((f - self.mean) / self.std).mean((2, 3)))
            return F.linear(x, self.c2.weight[:, :, 0, 0], self.c2.bias)
        return self.cams(f).mean((2, 3))


def stratum_weights(strata: list[str]) -> np.ndarray:
    """Every source x label stratum weighs the same in total (balanced sampling, as weights)."""
    uniq, inv, counts = np.unique(strata, return_inverse=True, return_counts=True)
    w = 1.0 / counts[inv]
    return (w / w.mean()).astype(np.float32)


def masked_bce(logits: torch.Tensor, y: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    known = (y >= 0).float()
    loss = F.binary_cross_entropy_with_logits(logits, y.clamp_min(0), reduction="none")
    per_label = (loss * known * w[:, None]).sum(0) / ((known * w[:, None]).sum(0) + 1e-6)
    return per_label.mean()


def fit_head(
    feats: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    epochs: int = 12,
    lr: float = 1e-3,
    seed: int = 0,
    hidden: int = 256,
    batch: int = 256,
    wd: float = 0.05,
    log=None,
    val=None,
) -> Head:
    """feats (N,1376,7,7) float16, y (N,L) in {-1,0,1}, w (N,) sample weights."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    head = Head(y.shape[1], hidden)
    # Feature standardisation from a sample of the training features (folded into the graph).
    sample = torch.from_numpy(feats[rng.choice(len(feats), min(2000, len(feats)), replace=False)].astype(np.float32))
    head.mean.data = sample.mean((0, 2, 3), keepdim=True)
    head.std.data = sample.std((0, 2, 3), keepdim=True) + 1e-3
    opt = torch.optim.AdamW([p for p in head.parameters() if p.requires_grad], lr=lr, weight_decay=wd)
    steps = epochs * (len(feats) // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    yt, wt = torch.from_numpy(y.astype(np.float32)), torch.from_numpy(w)
    if not hidden:
        # Linear head: train on the pooled features (1x1 spatial map), 49x less work per step.
        feats = pooled(feats)
    for ep in range(epochs):
        head.train()
        order = rng.permutation(len(feats))
        tot = 0.0
        for s in range(0, len(order) - batch + 1, batch):
            b = np.sort(order[s : s + batch])
            f = torch.from_numpy(feats[b].astype(np.float32))
            loss = masked_bce(head(f), yt[b], wt[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item()
        if log:
            msg = {"epoch": ep, "loss": round(tot / max(1, len(order) // batch), 4)}
            if val is not None:
                msg.update(val(head))
            log(msg)
    head.eval()
    return head


def pooled(feats: np.ndarray, chunk: int = 2048) -> np.ndarray:
    """(N,C,H,W) -> (N,C,1,1) float32 mean over positions, in chunks (the cache is a memmap)."""
    out = np.empty((len(feats), feats.shape[1], 1, 1), np.float32)
    for s in range(0, len(feats), chunk):
        out[s : s + chunk, :, 0, 0] = np.asarray(feats[s : s + chunk], dtype=np.float32).mean((2, 3))
    return out


def predict(head: Head, feats: np.ndarray, batch: int = 512) -> np.ndarray:
    out = []
    with torch.no_grad():
        for s in range(0, len(feats), batch):
            out.append(head(torch.from_numpy(feats[s : s + batch].astype(np.float32))).numpy())
    return np.concatenate(out) if out else np.zeros((0, head.c2.out_channels), np.float32)


def auroc(y: np.ndarray, s: np.ndarray) -> float:
    """AUROC (ties count half); NaN without both classes."""
    from sklearn.metrics import roc_auc_score

    y = np.asarray(y).astype(bool)
    if y.all() or not y.any():
        return float("nan")
    return float(roc_auc_score(y, s))


def bootstrap_ci(y: np.ndarray, s: np.ndarray, groups: np.ndarray | None = None, n: int = 1000, seed: int = 0):
    """95 % percentile interval of the AUROC, resampling groups (patients) when given."""
    rng = np.random.default_rng(seed)
    y, s = np.asarray(y), np.asarray(s)
    if groups is None:
        groups = np.arange(len(y))
    ug, inv = np.unique(groups, return_inverse=True)
    members = [np.flatnonzero(inv == k) for k in range(len(ug))]
    vals = []
    for _ in range(n):
        pick = rng.integers(0, len(ug), len(ug))
        idx = np.concatenate([members[k] for k in pick])
        a = auroc(y[idx], s[idx])
        if not np.isnan(a):
            vals.append(a)
    if not vals:
        return float("nan"), float("nan")
    return float(np.percentile(vals, 2.5)), float(np.percentile(vals, 97.5))
