"""MRI slices ('mri_slice')."""
from __future__ import annotations

import numpy as np
from PIL import Image
from scipy import ndimage

from cxr_train.gate.generators.canvas import _dist, _finish_medical, _grid, _overlay_text, _smooth


def mri_slice(rng) -> Image.Image:
    """MR slice: brain (axial/sagittal) or body/knee-like, with Rician background noise."""
    s = int(rng.integers(192, 400))
    yy, xx = _grid(s, s)
    a = np.zeros((s, s), np.float32)
    cx, cy = s / 2 + rng.uniform(-0.05, 0.05) * s, s / 2 + rng.uniform(-0.05, 0.05) * s
    kind = rng.choice(["brain", "brain", "body", "joint"])
    if kind == "brain":
        rx, ry = s * rng.uniform(0.3, 0.4), s * rng.uniform(0.36, 0.45)
        scalp = _dist(yy, xx, cx, cy, rx, ry) < 1
        a[scalp] = rng.uniform(0.6, 1.0)
        a[_dist(yy, xx, cx, cy, rx * 0.94, ry * 0.95) < 1] = rng.uniform(0.0, 0.1)  # skull: dark
        brain = _dist(yy, xx, cx, cy, rx * 0.9, ry * 0.92) < 1
        gm, wm, csf = rng.uniform(0.35, 0.6), rng.uniform(0.5, 0.8), rng.choice([rng.uniform(0.05, 0.15), rng.uniform(0.8, 1.0)])
        g = _smooth(rng, s, s, rng.integers(20, 40))
        a[brain] = np.where(g > 0, wm, gm)[brain]
        a[brain & (np.abs(g) < 0.05)] = csf
        for sgn in (-1, 1):
            a[_dist(yy, xx, cx + sgn * rx * 0.12, cy - ry * 0.05, rx * 0.07, ry * 0.28, ang=sgn * 0.25) < 1] = csf
    else:
        rx, ry = s * rng.uniform(0.3, 0.46), s * rng.uniform(0.25, 0.42)
        body = _dist(yy, xx, cx, cy, rx, ry, p=2.3) < 1
        a[body] = rng.uniform(0.7, 1.0)  # fat bright
        inner = _dist(yy, xx, cx, cy, rx * 0.9, ry * 0.88, p=2.3) < 1
        a[inner] = rng.uniform(0.25, 0.45)
        for _ in range(int(rng.integers(3, 10))):
            m = _dist(yy, xx, cx + rng.uniform(-0.6, 0.6) * rx, cy + rng.uniform(-0.6, 0.6) * ry, s * rng.uniform(0.03, 0.12),
                      s * rng.uniform(0.03, 0.12), ang=rng.uniform(0, 3)) < 1
            a[m & inner] = rng.uniform(0.0, 1.0)
    a = ndimage.gaussian_filter(a, rng.uniform(0.5, 1.5))
    sig = rng.uniform(0.01, 0.06)
    a = np.hypot(a + rng.normal(0, sig, a.shape), rng.normal(0, sig, a.shape))
    a = a * (1 + 0.3 * _smooth(rng, s, s, 3))  # coil shading
    img = Image.fromarray((np.clip(a / max(1e-3, np.quantile(a, 0.995)), 0, 1) * 255).astype(np.uint8))
    if rng.random() < 0.5:
        img = _overlay_text(img, rng)
    return _finish_medical(img, rng, invert=0.05)
