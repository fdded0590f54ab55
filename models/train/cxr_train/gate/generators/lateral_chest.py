"""Lateral chest films ('lateral_chest'). The product analyses frontal films only, so a lateral chest film is
refused with 'not_cxr' ("does not look like a frontal chest radiograph")."""
from __future__ import annotations

import math

import numpy as np
from PIL import Image
from scipy import ndimage

from cxr_train.gate.generators.canvas import _dome, _finish_medical, _grid, _rot, _smooth, _vessel_tree
from cxr_train.gate.generators.xray import _blob, _polyline_tube, _tube, _vertebra, _xray


def _lateral_chest_A(rng, h, w):
    """Lateral chest film (patient facing image left): one lucent lung field between sternum and
    spine, heart anterior-inferior, domes of the diaphragm, raised arms over the upper field."""
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    ant, post = w * rng.uniform(0.1, 0.22), w * rng.uniform(0.78, 0.92)
    soft, bone = rng.uniform(1.4, 2.2), rng.uniform(0.6, 1.1)
    mid = (ant + post) / 2
    half = (post - ant) / 2
    tt = yy / h
    prof = half * (0.75 + 0.25 * np.clip(tt * 3, 0, 1)) * (1 + 0.03 * _smooth(rng, h, w, 4))
    body = _dome(((xx - mid - 0.04 * w * tt) / prof) ** 2)
    A += soft * body
    apex, dome_a, dome_p = h * rng.uniform(0.08, 0.2), h * rng.uniform(0.55, 0.68), h * rng.uniform(0.72, 0.85)
    la, lp = ant + w * rng.uniform(0.04, 0.08), post - w * rng.uniform(0.14, 0.2)
    u = np.clip((xx - la) / (lp - la), 0, 1)
    floor = dome_a + (dome_p - dome_a) * u ** 1.5 - h * 0.06 * np.sin(u * math.pi)
    inside = (xx > la) & (xx < lp) & (yy > apex + h * 0.15 * (1 - np.sin(u * math.pi)) ** 2) & (yy < floor)
    lungt = ndimage.gaussian_filter(inside.astype(np.float32), 3) * (0.8 + 0.2 * _smooth(rng, h, w, 8))
    A -= soft * rng.uniform(0.55, 0.8) * lungt
    if rng.random() < 0.6:  # second hemidiaphragm, slightly offset
        off = h * rng.uniform(0.02, 0.05)
        A += soft * 0.15 * ((yy > floor - off) & inside)
    hx, hy = la + (lp - la) * rng.uniform(0.25, 0.4), dome_a * rng.uniform(0.85, 0.95)
    _blob(A, yy, xx, hx, hy, (lp - la) * rng.uniform(0.28, 0.38), h * rng.uniform(0.14, 0.2), soft * 0.7, ang=rng.uniform(-0.6, -0.2))
    _tube(A, yy, xx, (la + (lp - la) * 0.55, apex - h * 0.1), (la + (lp - la) * 0.6, h * 0.38), w * 0.025, -soft * 0.2, wall=1)  # trachea
    _blob(A, yy, xx, la + (lp - la) * 0.55, h * 0.42, (lp - la) * 0.12, h * 0.08, soft * 0.25)  # hilum
    vz = np.zeros((h, w), np.float32)
    _vessel_tree(vz, rng, (la + (lp - la) * 0.55, h * 0.42), int(rng.integers(5, 9)), (lp - la) * 0.35, 2.5)
    A += soft * 0.12 * ndimage.gaussian_filter(vz, 1.0) * lungt
    sx = post - w * rng.uniform(0.06, 0.1)
    n = 12
    for k in range(n):
        t = (k + 0.5) / n
        x = sx - w * 0.05 * math.sin(t * math.pi)
        _vertebra(A, yy, xx, x - w * 0.04, h * (0.04 + 0.8 * t), w * 0.045, h * 0.03, bone * 0.8, False)
        if rng.random() < 0.8:  # posterior ribs, both sides superimposed
            for off in (0, rng.uniform(0.01, 0.03) * h):
                pts = [(x, h * (0.04 + 0.8 * t) + off), (x - w * 0.12, h * (0.06 + 0.8 * t) + off + h * 0.02),
                       (x - w * 0.22, h * (0.1 + 0.8 * t) + off + h * 0.07), (x - w * 0.3, h * (0.1 + 0.8 * t) + off + h * 0.14)]
                _polyline_tube(A, yy, xx, pts, h * 0.008, bone * rng.uniform(0.08, 0.2), wall=0.5)
    _tube(A, yy, xx, (ant + w * 0.02, h * 0.2), (ant + w * 0.05, h * 0.55), w * 0.015, bone * 0.9)  # sternum
    if rng.random() < 0.5:  # raised arms
        for off in (0, w * rng.uniform(0.02, 0.06)):
            p0 = (mid + off + w * rng.uniform(-0.1, 0.1), h * 0.3)
            p1 = (p0[0] - w * rng.uniform(0.1, 0.3), -h * 0.1)
            _tube(A, yy, xx, p0, p1, w * 0.09, soft * 0.3, wall=1)
            _tube(A, yy, xx, p0, p1, w * 0.03, bone)
    if rng.random() < 0.5:  # stomach bubble
        _blob(A, yy, xx, la + (lp - la) * 0.3, dome_a + h * 0.06, w * 0.06, h * 0.04, -soft * 0.3)
    A[A < 0] = 0
    return A


def lateral_chest(rng) -> Image.Image:
    """Lateral chest radiograph. The product analyses frontal films only, so laterals are refused
    ('not_cxr': not a frontal chest radiograph)."""
    h = int(rng.integers(224, 400))
    w = int(h * rng.uniform(0.8, 1.05))
    img = _xray(rng, _lateral_chest_A(rng, h, w))
    if rng.random() < 0.4:
        img = img.transpose(Image.FLIP_LEFT_RIGHT)
    if rng.random() < 0.3:
        img = _rot(rng, img, 6)
    return _finish_medical(img, rng)
