"""Coronal and sagittal chest CT reformats ('ct_reformat'), the CT views most like a frontal film."""
from __future__ import annotations

import math

import numpy as np
from PIL import Image
from scipy import ndimage

from cxr_train.gate.generators.canvas import _dist, _finish_medical, _grid, _overlay_text, _smooth
from cxr_train.gate.generators.ct import _ct_render, _lung_texture, _seg_mask


def _ct_coronal_hu(rng, h, w):
    """Coronal chest reformat: the CT view that looks most like a frontal chest film."""
    yy, xx = _grid(h, w)
    hu = np.full((h, w), -1000, np.float32)
    cx = w / 2 + rng.uniform(-0.03, 0.03) * w
    tt = yy / h
    top = rng.uniform(-0.15, 0.1)
    t = (tt - top) / (1 - top)
    neck, shoulder, chest, abd = w * rng.uniform(0.1, 0.16), w * rng.uniform(0.4, 0.48), w * rng.uniform(0.36, 0.45), w * rng.uniform(0.33, 0.42)
    knots = [-1, 0.05, 0.12, 0.25, 0.5, 0.8, 2]
    prof = [neck, neck, (neck + shoulder) / 2, shoulder, chest, abd, abd]
    hw = ndimage.gaussian_filter1d(np.interp(t[:, 0], knots, prof), h * 0.03)[:, None] * (1 + 0.03 * _smooth(rng, h, w, 4))
    body = np.abs(xx - cx) < hw
    hu[body] = -100
    fat = w * rng.uniform(0.015, 0.05)
    inner = np.abs(xx - cx) < hw - fat
    hu[inner] = 45
    apex, dome = rng.uniform(0.1, 0.22), rng.uniform(0.55, 0.75)
    lungs = np.zeros((h, w), bool)
    hcx = cx + w * rng.uniform(0.02, 0.06)
    hrx, hry = w * rng.uniform(0.12, 0.2), h * rng.uniform(0.1, 0.16)
    hcy = (top + (dome - 0.05) * (1 - top)) * h
    for sgn in (-1, 1):
        lat = hw - fat - w * rng.uniform(0.02, 0.05)
        med = w * rng.uniform(0.05, 0.09)
        ddome = rng.uniform(0.0, 0.06) * (1 if sgn < 0 else -1)
        xin = sgn * (xx - cx)
        u = np.clip((xin - med) / np.maximum(lat - med, 1), 0, 1)
        low = (dome + ddome) - 0.12 * np.sin(u * math.pi) * rng.uniform(0.3, 1.0)
        up = apex + 0.15 * (1 - np.sin(np.clip(u, 0, 1) * math.pi / 2 + 0.3)) ** 2
        lungs |= (xin > med) & (xin < lat) & (t > up) & (t < low + 0.08 * u)
    heart = _dist(yy, xx, hcx, hcy, hrx, hry, ang=rng.uniform(-0.4, 0.1)) < 1
    lungs &= ~heart & inner
    lungs = ndimage.binary_opening(lungs, iterations=2)
    hu[lungs] = _lung_texture(rng, lungs, max(h, w))[lungs]
    hu[heart] = 40 + rng.uniform(0, 150) * (rng.random() < 0.4)
    tx = cx + rng.uniform(-0.01, 0.01) * w
    tr = w * rng.uniform(0.012, 0.02)
    car = hcy - hry * rng.uniform(1.0, 1.5)
    hu[_seg_mask(yy, xx, (tx, -10), (tx, car), tr)] = -1000
    for sgn in (-1, 1):
        hu[_seg_mask(yy, xx, (tx, car), (tx + sgn * w * 0.08, car + h * 0.06), tr * 0.8)] = -1000
    hu[_dist(yy, xx, cx + w * 0.03, car - h * 0.02, w * 0.04, h * 0.03) < 1] = rng.uniform(40, 250)  # aortic arch
    below = (~lungs) & inner & (t > dome - 0.05) & ~heart
    hu[below & (xx < cx)] = rng.uniform(50, 100)  # liver
    hu[below & (xx >= cx)] = rng.uniform(30, 60)
    if rng.random() < 0.6:
        hu[(_dist(yy, xx, cx + w * 0.15, (dome + 0.08) * h, w * 0.06, h * 0.04) < 1) & below] = -1000  # stomach gas
    if rng.random() < 0.4:  # posterior plane: spine
        n = int(rng.integers(8, 14))
        vw = w * rng.uniform(0.02, 0.035)
        for k in range(n):
            y = h * (apex + (1 - apex) * k / n)
            m = _dist(yy, xx, cx, y, vw, h * 0.42 / n, p=3) < 1
            hu[m] = rng.uniform(200, 400)
            hu[m & ~(_dist(yy, xx, cx, y, vw * 0.85, h * 0.36 / n, p=3) < 1)] = rng.uniform(500, 900)
    ribr = min(h, w) * rng.uniform(0.007, 0.013)
    for sgn in (-1, 1):
        for k in range(int(rng.integers(6, 11))):
            y = h * (apex + 0.05 + 0.055 * k)
            x = cx + sgn * (float(hw[min(h - 1, int(y)), 0]) - fat * 1.3)
            hu[_dist(yy, xx, x, y, ribr * 1.5, ribr) < 1] = rng.uniform(500, 1000)
    hu[:int(max(0, (top + 0.02) * h))] = -1000
    return hu


def _ct_sagittal_hu(rng, h, w):
    yy, xx = _grid(h, w)
    hu = np.full((h, w), -1000, np.float32)
    tt = yy / h
    ant = w * (rng.uniform(0.1, 0.22) + 0.04 * np.sin(tt * math.pi))
    post = w * (rng.uniform(0.8, 0.92) - 0.03 * np.sin(tt * math.pi))
    body = (xx > ant) & (xx < post)
    hu[body] = -100
    fat = w * rng.uniform(0.015, 0.04)
    inner = (xx > ant + fat) & (xx < post - fat)
    hu[inner] = 45
    sx = post - w * rng.uniform(0.12, 0.2) - w * 0.04 * np.sin(tt * math.pi)
    apex, dome_a, dome_p = rng.uniform(0.08, 0.2), rng.uniform(0.5, 0.65), rng.uniform(0.65, 0.8)
    u = np.clip((xx - ant) / (sx - ant), 0, 1)
    floor = dome_a + (dome_p - dome_a) * u - 0.05 * np.sin(u * math.pi)
    lung = inner & (xx < sx - w * 0.02) & (tt > apex + 0.1 * (1 - np.sin(u * math.pi))) & (tt < floor)
    midline = rng.random() < 0.35
    if midline:
        sx0, ant0 = float(sx[int(h * dome_a * 0.9), 0]), float(ant[int(h * dome_a * 0.9), 0])
        heart = _dist(yy, xx, ant0 + (sx0 - ant0) * 0.35, h * dome_a * 0.9, (sx0 - ant0) * 0.3, h * 0.15) < 1
        lung &= ~heart
        hu[heart] = 40
    hu[lung] = _lung_texture(rng, lung, max(h, w))[lung]
    below = inner & (tt >= floor) & (xx < sx)
    hu[below] = rng.uniform(40, 100)
    n = int(rng.integers(10, 16))
    for k in range(n):
        y = h * (k + 0.5) / n
        x = float(sx[min(h - 1, int(y)), 0])
        m = _dist(yy, xx, x + w * 0.04, y, w * 0.04, h * 0.38 / n, p=4) < 1
        hu[m] = rng.uniform(250, 450)
        hu[m & ~(_dist(yy, xx, x + w * 0.04, y, w * 0.034, h * 0.32 / n, p=4) < 1)] = 900
        hu[_dist(yy, xx, x + w * 0.12, y + h * 0.2 / n, w * 0.03, h * 0.15 / n, ang=0.5) < 1] = 800
    hu[(xx > ant + fat * 0.3) & (xx < ant + fat * 0.3 + w * 0.02) & (tt > apex + 0.05) & (tt < dome_a - 0.05)] = 700  # sternum
    return hu


def ct_reformat(rng) -> Image.Image:
    """Coronal or sagittal chest CT reformat (lung or soft-tissue window): near-black lungs with
    bright branching vessels, sharp edges, no overlapping ribs; often padded or cropped."""
    h = int(rng.integers(224, 400))
    w = int(h * rng.uniform(0.8, 1.25))
    hu = _ct_coronal_hu(rng, h, w) if rng.random() < 0.7 else _ct_sagittal_hu(rng, h, w)
    img = _ct_render(rng, hu, "chest", fov=False)
    if rng.random() < 0.3:  # thin z-range padded into a square
        a = np.asarray(img)
        pad = int(h * rng.uniform(0.05, 0.25))
        a = np.pad(a, ((pad, pad), (0, 0)), constant_values=0)
        img = Image.fromarray(a)
    if rng.random() < 0.5:
        img = _overlay_text(img, rng)
    if rng.random() < 0.3:
        img = img.transpose(Image.FLIP_LEFT_RIGHT)
    return _finish_medical(img, rng, invert=0.05)
