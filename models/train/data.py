"""In-memory dataset from the decode cache, radiograph-appropriate augmentation,
and the deterministic eval-time preprocessing (same box filter as common.resize_area)."""
from __future__ import annotations

import json
import math

import numpy as np
import torch
import torch.nn.functional as F

from common import CACHE_DIR, CLASSES, INPUT_SIZE, SUBTYPES, area_weights
from net import NORM_MEAN, NORM_STD

# Sampling weights per (source, label) stratum. Pediatric normals are the scarce,
# hard negatives for pneumonia, so they are over-sampled relative to adult normals.
STRATUM_WEIGHT = {
    ("covid-radiography-db", "normal"): 0.25,
    ("kermany-pediatric", "normal"): 0.20,
    ("kermany-pediatric", "pneumonia"): 0.30,
    ("covid-radiography-db", "covid19"): 0.25,
}


def load_cache():
    if not (CACHE_DIR / "meta.json").exists():
        raise SystemExit("decode cache missing: run models/train/build_cache.py first")
    images = np.load(CACHE_DIR / "images_u8.npy", mmap_mode="r")
    rows = json.loads((CACHE_DIR / "rows.json").read_text())
    meta = json.loads((CACHE_DIR / "meta.json").read_text())
    return np.ascontiguousarray(images), rows, meta


def labels_of(rows):
    y = np.array([CLASSES.index(r["label"]) for r in rows], dtype=np.int64)
    sub = np.array([SUBTYPES.index(r["subtype"]) if r["subtype"] else -1 for r in rows], dtype=np.int64)
    return y, sub


def split_idx(rows, split: str) -> np.ndarray:
    return np.array([i for i, r in enumerate(rows) if r["split"] == split], dtype=np.int64)


def sample_weights(rows, idx) -> np.ndarray:
    strata = [(rows[i]["source"], rows[i]["label"]) for i in idx]
    counts: dict = {}
    for s in strata:
        counts[s] = counts.get(s, 0) + 1
    w = np.array([STRATUM_WEIGHT[s] / counts[s] for s in strata], dtype=np.float64)
    return w / w.sum()


class Resizer:
    """Box-filter resize 224 -> INPUT_SIZE as two matmuls (float64 weights like common.py)."""

    def __init__(self, n_in: int = 224, size: int = INPUT_SIZE):
        self.wy = torch.from_numpy(area_weights(n_in, size)).float()
        self.wx = torch.from_numpy(area_weights(n_in, size)).float()

    def __call__(self, x: torch.Tensor) -> torch.Tensor:  # (B,1,H,W) float 0..255
        return self.wy @ x @ self.wx.T


def normalise(x255: torch.Tensor) -> torch.Tensor:
    return (x255 / 255.0 - NORM_MEAN) / NORM_STD


def eval_batch(images_u8: np.ndarray, resizer: Resizer) -> torch.Tensor:
    """Deterministic path used for val/test: exact box filter in float64, then float32."""
    x = torch.from_numpy(images_u8.astype(np.float64))[:, None]
    wy = torch.from_numpy(area_weights(images_u8.shape[1], INPUT_SIZE))
    wx = torch.from_numpy(area_weights(images_u8.shape[2], INPUT_SIZE))
    return normalise((wy @ x @ wx.T).float())


def augment(x224: torch.Tensor, g: torch.Generator, resizer: Resizer) -> torch.Tensor:
    """x224: (B,1,224,224) float 0..255 -> normalised (B,1,S,S).

    Geometric: rotation +-8 deg, scale 0.9-1.12, shift +-6 %, no flip (the heart is on
    the left; a flipped film is a different, rarer anatomy). Photometric: gamma,
    contrast, brightness, mild noise; detector and post-processing vary across sites."""
    b = x224.shape[0]
    r = lambda lo, hi: lo + (hi - lo) * torch.rand(b, generator=g)
    ang = r(-8, 8) * math.pi / 180
    sc = r(0.9, 1.12)
    tx, ty = r(-0.06, 0.06), r(-0.06, 0.06)
    cos, sin = torch.cos(ang) / sc, torch.sin(ang) / sc
    theta = torch.stack([torch.stack([cos, -sin, tx], 1), torch.stack([sin, cos, ty], 1)], 1)
    grid = F.affine_grid(theta, list(x224.shape), align_corners=False)
    x = F.grid_sample(x224, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
    x = resizer(x) / 255.0
    gamma = torch.exp(r(-0.25, 0.25))[:, None, None, None]
    x = x.clamp(0, 1) ** gamma
    m = x.mean((2, 3), keepdim=True)
    x = (x - m) * r(0.8, 1.25)[:, None, None, None] + m + r(-0.08, 0.08)[:, None, None, None]
    x = x + torch.randn(x.shape, generator=g) * r(0, 0.02)[:, None, None, None]
    x = x.clamp(0, 1)
    return (x - NORM_MEAN) / NORM_STD
