"""Ultrasound sector images ('ultrasound')."""
from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw
from scipy import ndimage

from cxr_train.gate.generators.canvas import _dist, _finish_medical, _grid, _overlay_text, _size, _smooth


def ultrasound(rng) -> Image.Image:
    """B-mode ultrasound: fan-shaped sector of speckle on black, with text and scale marks."""
    w, h = _size(rng, 224, 448)
    yy, xx = _grid(h, w)
    ax, ay = w / 2 + rng.uniform(-0.05, 0.05) * w, -h * rng.uniform(0, 0.2)
    r = np.hypot(xx - ax, yy - ay)
    th = np.arctan2(xx - ax, yy - ay)
    half = rng.uniform(0.4, 0.8)
    r0, r1 = h * rng.uniform(0.05, 0.2), h * rng.uniform(0.8, 1.0)
    linear = rng.random() < 0.25
    sector = ((np.abs(xx - ax) < w * 0.35) & (yy > h * 0.08) & (yy < h * 0.92)) if linear else ((np.abs(th) < half) & (r > r0) & (r < r1))
    sp = rng.rayleigh(1.0, (h, w)).astype(np.float32)
    sp = ndimage.gaussian_filter(sp, (rng.uniform(0.5, 1.2), rng.uniform(1.5, 3.5)))
    tissue = 0.5 + 0.5 * _smooth(rng, h, w, rng.integers(4, 10))
    for _ in range(int(rng.integers(0, 4))):  # cysts / vessels / bladder
        m = _dist(yy, xx, rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.8) * h, w * rng.uniform(0.04, 0.15), h * rng.uniform(0.03, 0.12)) < 1
        tissue[m] = 0.03
    for _ in range(int(rng.integers(0, 4))):  # bright interfaces
        y0 = rng.uniform(0.2, 0.8) * h
        tissue[np.abs(yy - y0 - 0.1 * h * np.sin(xx / w * rng.uniform(1, 5))) < 2] = 1.5
    a = sp * tissue * (1 - 0.5 * np.clip(r / (h * 1.2), 0, 1)) * sector
    img = Image.fromarray((np.clip(a / max(1e-3, np.quantile(a[sector], 0.99)) if sector.any() else a, 0, 1) * 255).astype(np.uint8))
    d = ImageDraw.Draw(img)
    for k in range(int(rng.integers(4, 12))):  # depth scale dots
        y = h * (0.1 + 0.07 * k)
        d.ellipse([w * 0.93, y, w * 0.93 + 3, y + 3], fill=220)
    return _finish_medical(_overlay_text(img, rng), rng, invert=0.02)
