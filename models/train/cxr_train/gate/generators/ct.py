"""Axial CT ('ct_slice'): chest in lung / soft-tissue / bone window, abdomen, head, built in Hounsfield units
(near-black lungs with bright branching vessels and dots, dependent density, ground glass, ribs, vertebra,
scapulae, table arc, circular field of view, correlated noise and blur); cropped to the body, zoomed on a region,
2x2 panels, viewer text; 10 % the first flat style. The lung texture, windowing and rendering are shared with
ct_reformat.py."""
from __future__ import annotations

import math

import numpy as np
from PIL import Image
from scipy import ndimage

from cxr_train.gate.generators.canvas import _dist, _finish_medical, _grid, _overlay_text, _smooth, _vessel_tree
from cxr_train.gate.generators.flat import ct_flat


def _lung_texture(rng, mask, scale):
    """Lung parenchyma in HU: air with dependent density, vessels seen end-on and along."""
    h, w = mask.shape
    hu = -870 + 30 * _smooth(rng, h, w, 10) + 15 * rng.normal(0, 1, (h, w))
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return hu
    ves = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(3, 12))):
        i = int(rng.integers(len(ys)))
        _vessel_tree(ves, rng, (xs[i], ys[i]), int(rng.integers(3, 6)), scale * rng.uniform(0.03, 0.09), scale * rng.uniform(0.004, 0.012))
    dots = rng.random((h, w)) < rng.uniform(0.003, 0.015)
    ves += ndimage.maximum_filter(dots.astype(np.float32), size=int(rng.integers(2, 4)))
    ves = ndimage.gaussian_filter(np.clip(ves, 0, 1), 0.6)
    hu = hu + ves * rng.uniform(400, 900)
    if rng.random() < 0.35:  # ground glass / consolidation patches
        patch = np.clip(_smooth(rng, h, w, rng.integers(4, 10)) - rng.uniform(0.2, 0.6), 0, None)
        hu = hu + patch / max(1e-3, patch.max()) * rng.uniform(300, 900)
    if rng.random() < 0.2:  # emphysema-like holes
        holes = ndimage.gaussian_filter((rng.random((h, w)) < 0.003).astype(np.float32), 2) > 0.02
        hu[holes] = -990
    return hu


def _ct_window(rng, hu, kind):
    if kind == "head":
        L, W = (rng.uniform(30, 45), rng.uniform(70, 120)) if rng.random() < 0.7 else (rng.uniform(300, 600), rng.uniform(1500, 3000))
    else:
        r = rng.random()
        if r < 0.5:
            L, W = rng.uniform(-700, -450), rng.uniform(1000, 1700)  # lung
        elif r < 0.85:
            L, W = rng.uniform(20, 60), rng.uniform(300, 500)  # soft tissue / mediastinum
        else:
            L, W = rng.uniform(250, 600), rng.uniform(1200, 2500)  # bone / wide
    return np.clip((hu - (L - W / 2)) / W, 0, 1)


def _ct_axial_hu(rng, s, kind):
    yy, xx = _grid(s, s)
    hu = np.full((s, s), -1000, np.float32)
    cx, cy = s / 2 + rng.uniform(-0.04, 0.04) * s, s / 2 + rng.uniform(-0.04, 0.06) * s
    if kind == "head":
        rx, ry = s * rng.uniform(0.3, 0.4), s * rng.uniform(0.36, 0.45)
        pert = 1 + 0.02 * _smooth(rng, s, s, 5)
        hu[_dist(yy, xx, cx, cy, rx, ry) * pert < 1] = 20
        hu[_dist(yy, xx, cx, cy, rx * 0.95, ry * 0.96) * pert < 1] = rng.uniform(800, 1500)
        brain = _dist(yy, xx, cx, cy, rx * 0.88, ry * 0.9) * pert < 1
        gyri = _smooth(rng, s, s, rng.integers(15, 30))
        hu[brain] = (32 + 6 * (gyri > 0.2) + 4 * rng.normal(0, 1, (s, s)))[brain]
        for sgn in (-1, 1):  # ventricles
            m = _dist(yy, xx, cx + sgn * rx * 0.12, cy - ry * 0.05, rx * 0.07, ry * 0.28, ang=sgn * 0.25) < 1
            hu[m] = 5
        return hu, (cx, cy, rx, ry)
    rx, ry = s * rng.uniform(0.34, 0.47), s * rng.uniform(0.23, 0.36)
    pw = rng.uniform(2.0, 2.8)
    pert = 1 + 0.05 * _smooth(rng, s, s, 5)
    body = _dist(yy, xx, cx, cy, rx, ry, p=pw) * pert < 1
    hu[body] = -100 + 10 * rng.normal(0, 1, int(body.sum()))
    fat = rng.uniform(0.04, 0.16)
    inner = _dist(yy, xx, cx, cy, rx * (1 - fat), ry * (1 - fat * 1.2), p=pw) * pert < 1
    hu[inner] = 45
    if kind == "chest":
        lungs = np.zeros((s, s), bool)
        for sgn in (-1, 1):
            lungs |= _dist(yy, xx, cx + sgn * rx * rng.uniform(0.36, 0.46), cy + ry * rng.uniform(-0.06, 0.06),
                           rx * rng.uniform(0.3, 0.42), ry * rng.uniform(0.55, 0.75), ang=sgn * rng.uniform(-0.25, 0.25),
                           p=rng.uniform(1.8, 2.5)) * (1 + 0.06 * _smooth(rng, s, s, 6)) < 1
        heart = _dist(yy, xx, cx + rx * rng.uniform(0.02, 0.18), cy - ry * rng.uniform(0.0, 0.3), rx * rng.uniform(0.18, 0.3),
                      ry * rng.uniform(0.25, 0.42), ang=rng.uniform(-0.5, 0.2)) < 1
        if rng.random() < 0.3:  # upper slice: no heart, trachea and great vessels
            heart[:] = False
        medi = (np.abs(xx - cx) < rx * rng.uniform(0.06, 0.12)) & (yy < cy + ry * 0.6)
        lungs &= ~heart & ~medi & inner
        hu[lungs] = _lung_texture(rng, lungs, s)[lungs]
        hu[heart & inner] = 40 + rng.uniform(0, 120) * (rng.random() < 0.4)
        if not heart.any():
            hu[_dist(yy, xx, cx, cy - ry * 0.1, s * 0.025, s * 0.022) < 1] = -1000  # trachea
        ao = rng.uniform(40, 250)
        hu[_dist(yy, xx, cx + rx * 0.12, cy + ry * 0.3, s * 0.03, s * 0.03) < 1] = ao
        hu[_dist(yy, xx, cx + rx * 0.05, cy - ry * 0.45, s * 0.035, s * 0.035) < 1] = ao
    else:  # abdomen
        hu[_dist(yy, xx, cx - rx * 0.35, cy - ry * 0.1, rx * 0.45, ry * 0.6, ang=0.3) < 1] = rng.uniform(50, 110)  # liver
        hu[_dist(yy, xx, cx + rx * 0.55, cy + ry * 0.2, rx * 0.18, ry * 0.3) < 1] = rng.uniform(40, 110)  # spleen
        for sgn in (-1, 1):
            hu[_dist(yy, xx, cx + sgn * rx * 0.35, cy + ry * 0.45, rx * 0.12, ry * 0.2) < 1] = rng.uniform(30, 200)
        for _ in range(int(rng.integers(5, 25))):  # bowel loops
            bx, by = cx + rng.uniform(-0.5, 0.6) * rx, cy + rng.uniform(-0.5, 0.4) * ry
            r0 = s * rng.uniform(0.015, 0.04)
            m = _dist(yy, xx, bx, by, r0, r0 * rng.uniform(0.6, 1.2)) < 1
            hu[m & inner] = rng.choice([-1000, 20, 250])
        if rng.random() < 0.4:  # lung bases
            for sgn in (-1, 1):
                m = (_dist(yy, xx, cx + sgn * rx * 0.5, cy + ry * 0.35, rx * 0.25, ry * 0.3) < 1) & inner
                hu[m] = _lung_texture(rng, m, s)[m]
    vy = cy + ry * rng.uniform(0.5, 0.68)
    vr = s * rng.uniform(0.045, 0.07)
    hu[_dist(yy, xx, cx, vy, vr, vr * 0.9) < 1] = rng.uniform(700, 1100)
    hu[_dist(yy, xx, cx, vy, vr * 0.8, vr * 0.72) < 1] = rng.uniform(150, 350)
    hu[_dist(yy, xx, cx, vy + vr * 1.5, vr * 0.45, vr * 0.4) < 1] = 15
    hu[(np.abs(xx - cx) < vr * 0.25) & (yy > vy + vr * 1.9) & (yy < vy + vr * 3.2) & inner] = 800
    for sgn in (-1, 1):
        m = (_seg_mask(yy, xx, (cx + sgn * vr * 0.6, vy + vr * 1.2), (cx + sgn * vr * 2.2, vy + vr * 1.0), vr * 0.2)) & inner
        hu[m] = 800
    nrib = int(rng.integers(8, 20))
    ribr = s * rng.uniform(0.008, 0.016)
    for k in range(nrib):  # ribs around the chest wall, none over the spine
        aa = 2 * math.pi * (k + rng.uniform(0.2, 0.8)) / nrib
        if abs(aa - math.pi / 2) < 0.35:
            continue
        rxx, ryy = cx + math.cos(aa) * rx * (1 - fat) * 0.93, cy + math.sin(aa) * ry * (1 - fat * 1.2) * 0.9
        hu[_dist(yy, xx, rxx, ryy, ribr * rng.uniform(1, 2.2), ribr, ang=aa + math.pi / 2) < 1] = rng.uniform(500, 1000)
    if kind == "chest" and rng.random() < 0.8:
        hu[_dist(yy, xx, cx, cy - ry * (1 - fat * 1.2) * 0.92, rx * 0.06, ry * 0.05) < 1] = 600  # sternum
        for sgn in (-1, 1):  # scapulae
            m = (_seg_mask(yy, xx, (cx + sgn * rx * 0.4, cy + ry * 0.82), (cx + sgn * rx * 0.85, cy + ry * 0.35), s * 0.008)) & body
            hu[m] = 700
    return hu, (cx, cy, rx, ry)


def _seg_mask(yy, xx, p0, p1, r):
    (x0, y0), (x1, y1) = p0, p1
    vx, vy = x1 - x0, y1 - y0
    t = np.clip(((xx - x0) * vx + (yy - y0) * vy) / (vx * vx + vy * vy + 1e-6), 0, 1)
    return (xx - x0 - t * vx) ** 2 + (yy - y0 - t * vy) ** 2 < r * r


def _ct_table(rng, hu, body):
    cx, cy, rx, ry = body
    s = hu.shape[0]
    yy, xx = _grid(s, s)
    yt = cy + ry * rng.uniform(1.02, 1.25)
    R = s * rng.uniform(0.8, 3.0)
    rad = np.hypot(xx - cx, yy - (yt - R))
    for k in range(int(rng.integers(1, 3))):
        m = (np.abs(rad - R - k * s * 0.03) < s * rng.uniform(0.003, 0.012)) & (np.abs(xx - cx) < rx * rng.uniform(0.8, 1.4))
        hu[m] = rng.uniform(-200, 500)


def _ct_render(rng, hu, kind, fov=True):
    """HU map -> 8-bit image: correlated noise, partial-volume blur, circular field of view, window."""
    h, w = hu.shape
    hu = hu + ndimage.gaussian_filter(rng.normal(0, rng.uniform(15, 60), hu.shape), rng.uniform(0.5, 1.2))
    hu = ndimage.gaussian_filter(hu, rng.uniform(0.4, 1.2))
    if fov and rng.random() < 0.5:
        yy, xx = _grid(h, w)
        hu[np.hypot(xx - w / 2, yy - h / 2) > min(h, w) * rng.uniform(0.46, 0.56)] = -3000
    img = _ct_window(rng, hu, kind)
    return Image.fromarray((img * 255).astype(np.uint8))


def _ct_present(rng, img: Image.Image, body=None) -> Image.Image:
    """How CT images get uploaded: cropped to the body, in a viewer, several panels, text."""
    w, h = img.size
    r = rng.random()
    if body is not None and r < 0.35:  # cropped to the body (as in figures and data sets)
        cx, cy, rx, ry = body
        m = rng.uniform(1.0, 1.15)
        img = img.crop((int(cx - rx * m), int(cy - ry * m * rng.uniform(1.0, 1.4)), int(cx + rx * m), int(cy + ry * m * 1.1)))
    elif body is not None and r < 0.5:  # zoomed on a region (spine, one lung, mediastinum), enlarged
        cx, cy, rx, ry = body
        f = rng.uniform(0.3, 0.6)
        zx, zy = cx + rng.uniform(-0.6, 0.6) * rx, cy + rng.uniform(-0.5, 0.6) * ry
        half = min(w, h) * f / 2
        img = img.crop((int(zx - half), int(zy - half), int(zx + half), int(zy + half)))
        img = img.resize((int(2 * half / f), int(2 * half / f)), Image.BICUBIC)
    if rng.random() < 0.5:
        img = _overlay_text(img, rng)
    if rng.random() < 0.1:  # viewer screenshot: image on a dark canvas with side text
        W, H = int(img.size[0] * rng.uniform(1.1, 1.5)), int(img.size[1] * rng.uniform(1.0, 1.2))
        can = Image.new("L", (W, H), int(rng.integers(0, 40)))
        can.paste(img, (int((W - img.size[0]) * rng.uniform(0, 1)), int((H - img.size[1]) * rng.uniform(0, 1))))
        img = _overlay_text(can, rng)
    return img


def ct_axial(rng) -> Image.Image:
    """Axial CT slice (chest in lung or soft-tissue window, abdomen, head) with real-CT noise,
    circular field of view, table, vessels; sometimes the first flat style or a 2x2 panel."""
    if rng.random() < 0.1:
        return ct_flat(rng)
    kind = str(rng.choice(["chest", "chest", "chest", "abdomen", "head"]))
    if rng.random() < 0.12:  # 2x2 panel of slices
        s = int(rng.integers(128, 220))
        tiles = []
        for _ in range(4):
            hu, body = _ct_axial_hu(rng, s, kind)
            tiles.append(np.asarray(_ct_render(rng, hu, kind)))
        img = Image.fromarray(np.concatenate([np.concatenate(tiles[:2], 1), np.concatenate(tiles[2:], 1)], 0))
        return _finish_medical(_overlay_text(img, rng), rng, invert=0.05)
    s = int(rng.integers(224, 420))
    hu, body = _ct_axial_hu(rng, s, kind)
    if kind != "head" and rng.random() < 0.7:
        _ct_table(rng, hu, body)
    img = _ct_present(rng, _ct_render(rng, hu, kind), body)
    return _finish_medical(img, rng, invert=0.05)
