"""Frontal abdominal films ('abdomen_radiograph'): lumbar spine, pelvis, lower ribs, bowel gas."""
from __future__ import annotations

import math

import numpy as np
from PIL import Image

from cxr_train.gate.generators.canvas import _finish_medical, _grid, _rot, _size
from cxr_train.gate.generators.xray import _blob, _polyline_tube, _tube, _vertebra, _xray


def _xr_abdomen(rng, h, w):
    """Frontal abdominal film (KUB): lumbar spine, pelvis below, lower ribs above, bowel gas."""
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    cx = w * rng.uniform(0.45, 0.55)
    bw = w * rng.uniform(0.38, 0.5)
    soft, bone = rng.uniform(1.0, 1.8), rng.uniform(0.7, 1.3)
    _blob(A, yy, xx, cx, h * 0.5, bw, h * 0.85, soft, p=rng.uniform(2.5, 4))
    _blob(A, yy, xx, cx - bw * 0.4, h * rng.uniform(0.05, 0.2), bw * 0.5, h * 0.25, soft * 0.25)  # liver
    for sgn in (-1, 1):  # psoas
        _tube(A, yy, xx, (cx + sgn * w * 0.05, h * 0.15), (cx + sgn * w * 0.15, h * 0.8), w * 0.05, soft * 0.1, wall=1)
    top = -h * rng.uniform(0, 0.1)
    n = int(rng.integers(4, 6))
    vh = h * 0.045
    for k in range(n):
        y = top + h * 0.08 + k * h * 0.13
        _vertebra(A, yy, xx, cx, y, w * 0.065, vh, bone, True)
        for sgn in (-1, 1):
            _tube(A, yy, xx, (cx + sgn * w * 0.06, y - vh * 0.2), (cx + sgn * w * rng.uniform(0.1, 0.14), y - vh * 0.1), vh * 0.22, bone * 0.4)
    if rng.random() < 0.8:  # lower ribs
        for sgn in (-1, 1):
            for k in range(int(rng.integers(1, 4))):
                y0 = top + h * (0.02 + 0.07 * k)
                pts = [(cx + sgn * w * 0.07, y0), (cx + sgn * bw * 0.6, y0 + h * 0.06), (cx + sgn * bw * 0.9, y0 + h * 0.16 + k * h * 0.02)]
                _polyline_tube(A, yy, xx, pts, h * 0.012, bone * 0.5)
    pel = top + h * rng.uniform(0.7, 0.85)
    for sgn in (-1, 1):
        _blob(A, yy, xx, cx + sgn * w * 0.24, pel, w * 0.18, h * 0.14, bone * 0.5, ang=sgn * 0.5, shell=0.12)
        _blob(A, yy, xx, cx + sgn * w * 0.24, pel, w * 0.18, h * 0.14, bone * 0.2, ang=sgn * 0.5)
    _blob(A, yy, xx, cx, pel, w * 0.08, h * 0.11, bone * 0.5, shell=0.2)
    gas = rng.uniform(0.2, 0.7)
    for _ in range(int(rng.integers(6, 40))):
        ang = rng.uniform(0, 2 * math.pi)
        rad = rng.uniform(0.1, 0.9)
        gx, gy = cx + math.cos(ang) * bw * rad * 0.85, h * 0.5 + math.sin(ang) * h * 0.3 * rad
        if rng.random() < 0.5:
            L = w * rng.uniform(0.03, 0.12)
            a2 = rng.uniform(0, math.pi)
            _tube(A, yy, xx, (gx, gy), (gx + L * math.cos(a2), gy + L * math.sin(a2)), w * rng.uniform(0.012, 0.03), -soft * gas * 0.3, wall=1)
        else:
            _blob(A, yy, xx, gx, gy, w * rng.uniform(0.01, 0.04), h * rng.uniform(0.01, 0.03), -soft * gas * 0.4)
    A[A < 0] = 0
    return A


def abdomen_radiograph(rng) -> Image.Image:
    """Frontal abdominal film: the radiograph most often confused with a chest film."""
    w, h = _size(rng, 224, 400)
    if max(w, h) / min(w, h) > 1.4 and rng.random() < 0.8:
        w, h = min(w, h), int(min(w, h) * rng.uniform(1.0, 1.3))
    img = _xray(rng, _xr_abdomen(rng, h, w))
    if rng.random() < 0.3:
        img = _rot(rng, img, 8)
    return _finish_medical(img, rng)
