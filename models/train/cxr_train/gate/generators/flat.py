"""The first, flat style of the medical look-alikes (filled shapes, no physical map), kept for a share of
'other_body_part' (12 %) and 'ct_slice' (10 %) so the gate still sees the simple versions."""
from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from cxr_train.gate.generators.canvas import WORDS, _ell, _finish, _font, _size


def _bone(d, p0, p1, width, fill):
    d.line([p0, p1], fill=fill, width=int(width))
    r = width * 0.7
    for p in (p0, p1):
        d.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=fill)


def body_part_flat(rng) -> Image.Image:
    """The first, flat-shaded radiograph-like images of other body parts: hand, limb/knee, skull, pelvis, spine."""
    w, h = _size(rng, 256, 560)
    bg = int(rng.integers(0, 40))
    img = Image.new("L", (w, h), bg)
    d = ImageDraw.Draw(img)
    soft, bone = int(rng.integers(60, 120)), int(rng.integers(170, 250))
    kind = rng.choice(["hand", "limb", "skull", "pelvis", "spine"])
    cx, cy = w / 2, h / 2
    if kind == "hand":
        pw, ph = w * 0.35, h * 0.3
        d.rounded_rectangle([cx - pw / 2, cy, cx + pw / 2, cy + ph], radius=20, fill=soft)
        for k in range(5):
            ang = math.radians(-40 + k * 20 + rng.uniform(-5, 5)) if k else math.radians(-75)
            base = (cx - pw / 2 + pw * (k + 0.5) / 5, cy + ph * 0.3)
            L = h * rng.uniform(0.25, 0.4) * (0.7 if k == 0 else 1)
            tip = (base[0] + L * math.sin(ang + math.pi / 2) * 0 + L * math.sin(ang), base[1] - L * math.cos(ang))
            d.line([base, tip], fill=soft, width=int(w * 0.06))
            segs = np.linspace(0, 1, 5)
            for a0, a1 in zip(segs[:-1], segs[1:]):
                p0 = (base[0] + (tip[0] - base[0]) * a0, base[1] + (tip[1] - base[1]) * a0)
                p1 = (base[0] + (tip[0] - base[0]) * (a1 - 0.04), base[1] + (tip[1] - base[1]) * (a1 - 0.04))
                _bone(d, p0, p1, w * 0.022, bone)
        _bone(d, (cx - pw * 0.2, cy + ph), (cx - pw * 0.2, h), w * 0.05, bone)
        _bone(d, (cx + pw * 0.2, cy + ph), (cx + pw * 0.2, h), w * 0.04, bone)
    elif kind == "limb":
        d.rounded_rectangle([cx - w * 0.22, 0, cx + w * 0.22, h], radius=40, fill=soft)
        _bone(d, (cx + rng.uniform(-10, 10), 0), (cx, cy - h * 0.04), w * 0.12, bone)
        _bone(d, (cx, cy + h * 0.04), (cx + rng.uniform(-10, 10), h), w * 0.11, bone)
        if rng.random() < 0.6:
            _bone(d, (cx + w * 0.13, cy + h * 0.08), (cx + w * 0.12, h), w * 0.04, bone)
        _ell(d, cx + w * 0.02, cy - h * 0.1, w * 0.04, h * 0.05, min(255, bone + 10))  # patella
    elif kind == "skull":
        rx, ry = w * rng.uniform(0.3, 0.42), h * rng.uniform(0.35, 0.45)
        _ell(d, cx, cy, rx, ry, bone)
        _ell(d, cx, cy, rx * 0.88, ry * 0.9, soft + 20)
        for sgn in (-1, 1):
            _ell(d, cx + sgn * rx * 0.35, cy + ry * 0.1, rx * 0.18, ry * 0.12, bg + 30)
        d.rectangle([cx - rx * 0.5, cy + ry * 0.55, cx + rx * 0.5, cy + ry * 0.7], fill=bone)
    elif kind == "pelvis":
        d.rectangle([0, h * 0.1, w, h], fill=soft)
        for sgn in (-1, 1):
            d.polygon([(cx + sgn * w * 0.05, cy - h * 0.1), (cx + sgn * w * 0.42, cy - h * 0.35),
                       (cx + sgn * w * 0.38, cy + h * 0.05), (cx + sgn * w * 0.1, cy + h * 0.2)], fill=bone)
            _ell(d, cx + sgn * w * 0.3, cy + h * 0.15, w * 0.07, w * 0.07, bone)
            _bone(d, (cx + sgn * w * 0.3, cy + h * 0.2), (cx + sgn * w * 0.33, h), w * 0.08, bone)
            _ell(d, cx + sgn * w * 0.15, cy + h * 0.25, w * 0.06, h * 0.07, soft)
        d.rectangle([cx - w * 0.06, cy - h * 0.3, cx + w * 0.06, cy + h * 0.05], fill=bone)
    else:  # lateral spine
        d.rectangle([w * 0.15, 0, w * 0.85, h], fill=soft)
        n = int(rng.integers(5, 9))
        for k in range(n):
            y0 = h * (k + 0.1) / n
            x0 = cx - w * 0.12 + math.sin(k / n * math.pi) * w * 0.08
            d.rounded_rectangle([x0, y0, x0 + w * 0.22, y0 + h * 0.75 / n], radius=6, fill=bone)
    img = img.rotate(float(rng.uniform(-20, 20)), fillcolor=bg)
    if rng.random() < 0.15:
        img = Image.fromarray(255 - np.asarray(img))
    return _finish(img.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.5, 3)))), rng)


def ct_flat(rng) -> Image.Image:
    """The first, flat-shaded axial CT-like slice: chest (dark lungs), abdomen or head, often with text."""
    s = int(rng.integers(256, 560))
    img = Image.new("L", (s, s), int(rng.integers(0, 25)))
    d = ImageDraw.Draw(img)
    cx, cy = s / 2 + rng.uniform(-s * 0.05, s * 0.05), s / 2 + rng.uniform(-s * 0.05, s * 0.05)
    kind = rng.choice(["chest", "chest", "abdomen", "head"])
    if kind == "head":
        rx, ry = s * rng.uniform(0.3, 0.42), s * rng.uniform(0.36, 0.46)
        _ell(d, cx, cy, rx, ry, int(rng.integers(200, 255)))
        _ell(d, cx, cy, rx * 0.9, ry * 0.92, int(rng.integers(90, 130)))
        _ell(d, cx, cy, rx * 0.12, ry * 0.25, int(rng.integers(30, 60)))
    else:
        rx, ry = s * rng.uniform(0.38, 0.47), s * rng.uniform(0.25, 0.36)
        _ell(d, cx, cy, rx, ry, int(rng.integers(80, 110)))  # skin/fat ring
        _ell(d, cx, cy, rx * 0.92, ry * 0.9, int(rng.integers(110, 150)))  # muscle/organs
        if kind == "chest":
            for sgn in (-1, 1):
                _ell(d, cx + sgn * rx * 0.45, cy - ry * 0.05, rx * rng.uniform(0.3, 0.4), ry * rng.uniform(0.55, 0.7),
                     int(rng.integers(5, 40)))
            _ell(d, cx + rx * 0.08, cy - ry * 0.25, rx * 0.2, ry * 0.3, int(rng.integers(120, 160)))  # heart
            for _ in range(int(rng.integers(10, 40))):  # vessels
                a = rng.uniform(0, 2 * math.pi)
                _ell(d, cx + math.cos(a) * rx * rng.uniform(0.2, 0.7), cy + math.sin(a) * ry * 0.5, 2, 2, int(rng.integers(80, 140)))
        else:
            _ell(d, cx - rx * 0.35, cy - ry * 0.1, rx * 0.45, ry * 0.55, int(rng.integers(130, 160)))  # liver
        _ell(d, cx, cy + ry * 0.65, rx * 0.12, ry * 0.2, int(rng.integers(220, 255)))  # vertebra
        _ell(d, cx, cy + ry * 0.5, rx * 0.04, ry * 0.07, int(rng.integers(40, 80)))  # canal
        for k in range(int(rng.integers(6, 14))):  # ribs
            a = math.pi * (0.15 + 0.7 * k / 13) + (math.pi if rng.random() < 0.5 else 0)
            _ell(d, cx + math.cos(a) * rx * 0.9, cy + math.sin(a) * ry * 0.88, 4, 3, int(rng.integers(200, 255)))
        d.arc([cx - rx * 1.3, cy + ry * 1.05, cx + rx * 1.3, cy + ry * 1.6], 200, 340, fill=int(rng.integers(120, 200)), width=3)
    if rng.random() < 0.6:
        f = _font(rng, rng.integers(9, 15))
        for k in range(int(rng.integers(1, 5))):
            d.text((6, 6 + 14 * k), " ".join(rng.choice(WORDS, 2)), fill=230, font=f)
    return _finish(img, rng)
