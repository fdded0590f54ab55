"""Radiographs of other body parts ('other_body_part'): hand, knee / long bones, skull, spine, pelvis, shoulder,
mammogram, dental panoramic; 12 % in the first flat style."""
from __future__ import annotations

import math

import numpy as np
from PIL import Image

from cxr_train.gate.generators.canvas import _dist, _dome, _finish_medical, _grid, _rot, _size, _smooth
from cxr_train.gate.generators.flat import body_part_flat
from cxr_train.gate.generators.xray import _blob, _polyline_tube, _tube, _vertebra, _xray


def _xr_hand(rng, h, w):
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    side = 1 if rng.random() < 0.5 else -1
    cx, pcy = w * rng.uniform(0.45, 0.55), h * rng.uniform(0.55, 0.65)
    prx, pry = w * rng.uniform(0.15, 0.2), h * rng.uniform(0.13, 0.17)
    soft, bone = rng.uniform(0.5, 0.9), rng.uniform(1.2, 2.2)
    _blob(A, yy, xx, cx, pcy, prx, pry, soft * prx / 40, p=2.4)
    _tube(A, yy, xx, (cx, pcy), (cx + rng.uniform(-10, 10), h * 1.2), prx * 0.75, soft * prx / 55, wall=1)
    spread = rng.uniform(0.05, 0.22)
    fr = w * rng.uniform(0.028, 0.04)
    for k in range(5):
        if k < 4:
            bx, by = cx - side * prx * (0.75 - k * 0.5), pcy - pry * 0.85
            ang = side * (-1.5 + k) * spread + rng.uniform(-0.05, 0.05)
            L = h * (0.3, 0.34, 0.32, 0.25)[k] * rng.uniform(0.85, 1.1)
            mc = (cx - side * prx * (0.45 - k * 0.3), pcy + pry * 0.7)
        else:
            bx, by = cx + side * prx * 0.9, pcy + pry * 0.05
            ang = side * rng.uniform(0.6, 1.1)
            L = h * 0.22 * rng.uniform(0.85, 1.1)
            mc = (cx + side * prx * 0.55, pcy + pry * 0.85)
        dx, dy = math.sin(ang), -math.cos(ang)
        tip = (bx + dx * L, by + dy * L)
        _tube(A, yy, xx, (bx, by), tip, fr, soft * fr / 16, wall=1)
        _tube(A, yy, xx, mc, (bx, by), fr * 0.5, bone * 0.6)
        segs = (0, 0.42, 0.72, 0.95) if k < 4 else (0, 0.55, 0.95)
        for a0, a1 in zip(segs[:-1], segs[1:]):
            p0 = (bx + dx * L * (a0 + 0.03), by + dy * L * (a0 + 0.03))
            p1 = (bx + dx * L * (a1 - 0.02), by + dy * L * (a1 - 0.02))
            _tube(A, yy, xx, p0, p1, fr * 0.45 * (1 - 0.25 * a0), bone * 0.6)
    for _ in range(8):  # carpals
        _blob(A, yy, xx, cx + rng.uniform(-0.7, 0.7) * prx, pcy + pry * rng.uniform(0.9, 1.4), fr * 0.7, fr * 0.6,
              bone * 0.35, shell=0.4)
    for k, off in enumerate((-0.4, 0.4)):  # radius, ulna
        _tube(A, yy, xx, (cx + off * prx, pcy + pry * 1.55), (cx + off * prx * 0.8, h * 1.1), fr * (0.9 if k == 0 else 0.7), bone * 0.7)
    return A


def _xr_limb(rng, h, w):
    """Knee (AP or lateral), elbow-like joint, or long-bone shaft."""
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    cx, jy = w * rng.uniform(0.42, 0.58), h * rng.uniform(0.35, 0.65)
    srad = w * rng.uniform(0.18, 0.3)
    soft, bone = rng.uniform(0.6, 1.0), rng.uniform(1.0, 2.0)
    _tube(A, yy, xx, (cx + rng.uniform(-20, 20), -h * 0.1), (cx, jy), srad, soft * srad / 60, wall=1)
    _tube(A, yy, xx, (cx, jy), (cx + rng.uniform(-20, 20), h * 1.1), srad * rng.uniform(0.75, 0.95), soft * srad / 60, wall=1)
    br = srad * rng.uniform(0.3, 0.42)
    gap = h * rng.uniform(0.01, 0.03)
    kind = rng.choice(["knee_ap", "knee_lat", "shaft"])
    if kind == "shaft":
        n = 1 if rng.random() < 0.5 else 2
        for k in range(n):
            off = (k - (n - 1) / 2) * br * 1.6
            _tube(A, yy, xx, (cx + off + rng.uniform(-8, 8), -10), (cx + off + rng.uniform(-8, 8), h + 10), br * (1 if k == 0 else 0.7), bone)
        if rng.random() < 0.4:  # fracture line
            fy = h * rng.uniform(0.3, 0.7)
            A[int(fy):int(fy) + 3] *= 0.6
        return A
    _tube(A, yy, xx, (cx + rng.uniform(-10, 10), -10), (cx, jy - gap - br), br, bone)
    _tube(A, yy, xx, (cx, jy + gap + br * 0.9), (cx + rng.uniform(-10, 10), h + 10), br * 0.9, bone)
    if kind == "knee_ap":
        for sgn in (-1, 1):
            _blob(A, yy, xx, cx + sgn * br * 0.8, jy - gap - br * 0.7, br * 0.9, br * 0.8, bone * 0.8, shell=0.25)
            _blob(A, yy, xx, cx + sgn * br * 0.9, jy + gap + br * 0.5, br * 1.0, br * 0.55, bone * 0.8, p=2.6, shell=0.25)
        _tube(A, yy, xx, (cx + br * 1.6, jy + br * 1.2), (cx + br * 1.5, h + 10), br * 0.35, bone * 0.8)
        _blob(A, yy, xx, cx, jy - gap - br * 0.9, br * 0.7, br * 0.8, bone * 0.5, shell=0.3)
    else:
        _blob(A, yy, xx, cx - br * 0.1, jy - gap - br * 0.6, br * 1.3, br * 1.0, bone * 0.9, shell=0.25)
        _blob(A, yy, xx, cx, jy + gap + br * 0.5, br * 1.2, br * 0.55, bone * 0.8, p=2.6, shell=0.25)
        _blob(A, yy, xx, cx - br * 1.9, jy - br * 0.5, br * 0.45, br * 0.8, bone * 0.7, shell=0.3)  # patella
    return A


def _xr_skull(rng, h, w):
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    cx, cy = w * rng.uniform(0.45, 0.55), h * rng.uniform(0.42, 0.52)
    lateral = rng.random() < 0.5
    rx, ry = (w * rng.uniform(0.36, 0.44), h * rng.uniform(0.3, 0.38)) if lateral else (w * rng.uniform(0.3, 0.38), h * rng.uniform(0.36, 0.44))
    bone = rng.uniform(1.5, 2.5)
    _blob(A, yy, xx, cx, cy, rx * 1.05, ry * 1.05, 0.5)
    _blob(A, yy, xx, cx, cy, rx, ry, bone, shell=rng.uniform(0.05, 0.1))
    A += 0.15 * _smooth(rng, h, w, 20) * _dome(_dist(yy, xx, cx, cy, rx, ry))  # diploe texture
    if lateral:
        face = cx - rx * 0.75
        _blob(A, yy, xx, face, cy + ry * 0.75, rx * 0.35, ry * 0.45, bone * 0.5, shell=0.3)
        _polyline_tube(A, yy, xx, [(face - rx * 0.1, cy + ry * 1.1), (face + rx * 0.4, cy + ry * 1.35), (cx + rx * 0.05, cy + ry * 0.9)], rx * 0.06, bone * 0.9)
        _blob(A, yy, xx, cx - rx * 0.05, cy + ry * 0.25, rx * 0.08, ry * 0.06, -bone * 0.3)  # sella
        for k in range(4):
            _blob(A, yy, xx, cx + rx * 0.2, cy + ry * (1.25 + 0.22 * k), rx * 0.1, ry * 0.08, bone * 0.6, p=3, shell=0.3)
    else:
        for sgn in (-1, 1):
            _blob(A, yy, xx, cx + sgn * rx * 0.38, cy + ry * 0.15, rx * 0.2, ry * 0.14, -0.8 * bone)
            _blob(A, yy, xx, cx + sgn * rx * 0.38, cy + ry * 0.15, rx * 0.22, ry * 0.16, 0.6 * bone, shell=0.15)
        _blob(A, yy, xx, cx, cy + ry * 0.45, rx * 0.12, ry * 0.14, -0.5 * bone)
        _polyline_tube(A, yy, xx, [(cx - rx * 0.75, cy + ry * 0.5), (cx - rx * 0.55, cy + ry * 1.05), (cx, cy + ry * 1.2),
                                   (cx + rx * 0.55, cy + ry * 1.05), (cx + rx * 0.75, cy + ry * 0.5)], rx * 0.06, bone * 0.9)
        for k in range(12):
            _blob(A, yy, xx, cx + (k - 5.5) * rx * 0.07, cy + ry * (0.78 + 0.002 * (k - 5.5) ** 2), rx * 0.03, ry * 0.06, bone * 0.6, p=3)
    A[A < 0] = 0
    return A


def _xr_spine(rng, h, w):
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    ap = rng.random() < 0.5
    cx = w * rng.uniform(0.42, 0.58)
    _blob(A, yy, xx, cx, h / 2, w * rng.uniform(0.35, 0.55), h * 0.9, rng.uniform(0.8, 1.4), p=4)
    n = int(rng.integers(4, 8))
    vh = h / n * 0.36
    vw = w * rng.uniform(0.1, 0.16)
    bone = rng.uniform(0.8, 1.6)
    curve = rng.uniform(-0.12, 0.12) * w
    for k in range(n + 1):
        t = (k + 0.5) / n
        x = cx + curve * math.sin(t * math.pi)
        _vertebra(A, yy, xx, x, h * t, vw, vh, bone, ap, ang=rng.uniform(-0.08, 0.08))
        if ap and rng.random() < 0.7:  # transverse processes
            for sgn in (-1, 1):
                _tube(A, yy, xx, (x + sgn * vw * 0.8, h * t - vh * 0.2), (x + sgn * vw * 1.7, h * t - vh * 0.1), vh * 0.18, bone * 0.5)
        elif not ap:  # posterior elements
            _tube(A, yy, xx, (x + vw * 1.1, h * t), (x + vw * 2.0, h * t + vh * 0.6), vh * 0.25, bone * 0.5)
    return A


def _xr_pelvis(rng, h, w):
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    cx = w * rng.uniform(0.45, 0.55)
    soft, bone = rng.uniform(0.8, 1.4), rng.uniform(0.8, 1.5)
    _blob(A, yy, xx, cx, h * 0.55, w * 0.55, h * 0.7, soft, p=3)
    top = h * rng.uniform(0.1, 0.3)
    for sgn in (-1, 1):
        _blob(A, yy, xx, cx + sgn * w * 0.24, top + h * 0.18, w * 0.19, h * 0.17, bone * 0.6, ang=sgn * 0.5, shell=0.12)
        _blob(A, yy, xx, cx + sgn * w * 0.24, top + h * 0.18, w * 0.19, h * 0.17, bone * 0.25, ang=sgn * 0.5)
        fh = (cx + sgn * w * 0.26, top + h * 0.45)
        _blob(A, yy, xx, fh[0], fh[1], w * 0.065, w * 0.065, bone * 0.9, shell=0.3)
        gt = (cx + sgn * w * 0.37, top + h * 0.53)
        _tube(A, yy, xx, fh, gt, w * 0.04, bone * 0.8)
        _tube(A, yy, xx, gt, (cx + sgn * w * 0.33, h * 1.2), w * 0.055, bone)
        _blob(A, yy, xx, cx + sgn * w * 0.12, top + h * 0.56, w * 0.08, h * 0.07, bone * 0.6, shell=0.25)
    _blob(A, yy, xx, cx, top + h * 0.2, w * 0.09, h * 0.14, bone * 0.7, shell=0.2)
    for k in range(2):
        _vertebra(A, yy, xx, cx, top - h * (0.06 + 0.14 * k), w * 0.09, h * 0.05, bone, True)
    for _ in range(int(rng.integers(3, 12))):  # bowel gas
        _blob(A, yy, xx, cx + rng.uniform(-0.3, 0.3) * w, rng.uniform(0, 0.5) * h, w * rng.uniform(0.02, 0.06), h * rng.uniform(0.02, 0.05), -soft * 0.5)
    A[A < 0] = 0
    return A


def _xr_shoulder(rng, h, w):
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    soft, bone = rng.uniform(0.8, 1.3), rng.uniform(0.9, 1.6)
    _blob(A, yy, xx, w * 0.35, h * 0.6, w * 0.75, h * 0.6, soft, p=2.5)
    hx, hy, hr = w * rng.uniform(0.6, 0.7), h * rng.uniform(0.3, 0.42), w * rng.uniform(0.09, 0.13)
    _blob(A, yy, xx, hx, hy, hr, hr, bone, shell=0.25)
    _tube(A, yy, xx, (hx - hr * 0.2, hy + hr * 0.6), (hx - hr * 0.1, h * 1.1), hr * 0.55, bone)
    _tube(A, yy, xx, (w * 0.02, h * rng.uniform(0.05, 0.2)), (hx - hr * 0.2, hy - hr * 1.3), h * 0.025, bone * 0.8)  # clavicle
    _blob(A, yy, xx, hx - hr * 1.6, hy + hr * 1.5, w * 0.16, h * 0.22, bone * 0.35, ang=0.3, shell=0.15)  # scapula
    lung = _dome(_dist(yy, xx, -w * 0.05, h * 0.75, w * 0.42, h * 0.6)) * rng.uniform(0.3, 0.8) * soft
    A -= lung
    for k in range(int(rng.integers(2, 6))):
        y0 = h * (0.3 + 0.14 * k)
        _polyline_tube(A, yy, xx, [(-w * 0.05, y0), (w * 0.25, y0 - h * 0.03), (w * 0.42, y0 + h * 0.08)], h * 0.014, bone * 0.5)
    A[A < 0] = 0
    return A


def _xr_mammo(rng, h, w):
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    cy = h * rng.uniform(0.4, 0.6)
    d = _dist(yy, xx, 0, cy, w * rng.uniform(0.55, 0.85), h * rng.uniform(0.38, 0.5), p=rng.uniform(1.8, 2.4))
    t = _dome(d)
    tex = np.clip(_smooth(rng, h, w, rng.integers(6, 20)) + 0.5 * _smooth(rng, h, w, 40) + rng.uniform(-0.3, 0.5), 0, None)
    A += (d < 1) * (0.6 + 0.3 * t) + t * tex * rng.uniform(0.4, 1.2)
    if rng.random() < 0.6:  # pectoral muscle (MLO)
        A += ((xx / (w * rng.uniform(0.2, 0.4)) + yy / (h * rng.uniform(0.3, 0.6))) < 1) * rng.uniform(0.5, 1.0)
    for _ in range(int(rng.integers(0, 8))):  # calcifications
        _blob(A, yy, xx, rng.uniform(0.05, 0.5) * w, rng.uniform(0.2, 0.8) * h, 2, 2, 2.0)
    return A


def _xr_dental(rng, h, w):
    yy, xx = _grid(h, w)
    A = np.zeros((h, w), np.float32)
    cx, cy = w / 2, h * rng.uniform(0.45, 0.55)
    bone = rng.uniform(0.8, 1.4)
    _blob(A, yy, xx, cx, cy, w * 0.48, h * 0.45, 0.6, p=3)
    _polyline_tube(A, yy, xx, [(w * 0.1, h * 0.15), (w * 0.15, h * 0.7), (cx, h * 0.92), (w * 0.85, h * 0.7), (w * 0.9, h * 0.15)], h * 0.06, bone)
    for row, sgn in ((cy - h * 0.1, -1), (cy + h * 0.1, 1)):
        for k in range(14):
            x = w * (0.2 + 0.6 * k / 13)
            y = row + sgn * h * 0.004 * (k - 6.5) ** 2 * 0.2
            _blob(A, yy, xx, x, y + sgn * h * 0.06, w * 0.022, h * 0.14, bone * rng.uniform(0.8, 1.6), p=2.5)
    for sgn in (-1, 1):
        _blob(A, yy, xx, cx + sgn * w * 0.2, h * 0.2, w * 0.1, h * 0.1, -0.3)
    A[A < 0] = 0
    return A


BODY_PARTS = {"hand": _xr_hand, "limb": _xr_limb, "skull": _xr_skull, "spine": _xr_spine, "pelvis": _xr_pelvis,
              "shoulder": _xr_shoulder, "mammogram": _xr_mammo, "dental": _xr_dental}


def body_part(rng) -> Image.Image:
    """Radiograph of another body part (hand, knee, long bone, skull, spine, pelvis, shoulder,
    mammogram, dental panoramic), shaded by attenuation; sometimes the first flat style."""
    if rng.random() < 0.12:
        return body_part_flat(rng)
    kind = str(rng.choice(list(BODY_PARTS)))
    if kind == "dental":
        h = int(rng.integers(160, 280))
        w = int(h * rng.uniform(1.7, 2.0))
    else:
        w, h = _size(rng, 224, 400)
    A = BODY_PARTS[kind](rng, h, w)
    img = _xray(rng, A)
    if rng.random() < 0.5:
        img = _rot(rng, img, 15)
    if rng.random() < 0.5:
        img = img.transpose(Image.FLIP_LEFT_RIGHT)
    return _finish_medical(img, rng)
