"""Shared drawing and rendering helpers of the gate negatives: sizes, colours, fonts, the photographic finish,
shape fields (grids, distances, domes, smooth noise) and the overlays medical viewers put on images."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIRS = [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation2"),
             Path("/usr/share/fonts/truetype/lato")]
FONTS = sorted(str(p) for d in FONT_DIRS if d.exists() for p in d.glob("*.ttf"))

WORDS = ("patient report chest analysis result normal findings the of and to in is for on with as by "
         "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor date name age "
         "invoice total amount hospital clinic department summary table figure page section 2024 12.5 mg").split()


def _size(rng, lo=192, hi=640):
    s = int(rng.integers(lo, hi))
    aspect = float(rng.uniform(0.7, 1.6)) if rng.random() < 0.92 else float(rng.choice([0.4, 2.4, 3.0]))
    return (max(16, int(s * aspect)), s) if rng.random() < 0.5 else (s, max(16, int(s * aspect)))


def _col(rng, lo=0, hi=256):
    return tuple(int(v) for v in rng.integers(lo, hi, 3))


def _font(rng, size):
    return ImageFont.truetype(FONTS[int(rng.integers(len(FONTS)))], int(size)) if FONTS else ImageFont.load_default()


def _finish(img: Image.Image, rng) -> Image.Image:
    if rng.random() < 0.4:
        img = img.filter(ImageFilter.GaussianBlur(float(rng.uniform(0.3, 2.5))))
    if rng.random() < 0.3:
        a = np.asarray(img).astype(np.float32)
        a = np.clip(a + rng.normal(0, rng.uniform(2, 15), a.shape), 0, 255).astype(np.uint8)
        img = Image.fromarray(a)
    return img


def _ell(d, cx, cy, rx, ry, fill):
    d.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=fill)


# Everything below builds a physical-ish map first (X-ray attenuation or CT Hounsfield units)
# and renders it the way the modality does (exponential attenuation, windowing, correlated
# noise, blur, overlays), so the negatives carry the textures of real medical images rather
# than flat fills.


def _grid(h, w):
    yy, xx = np.mgrid[0:h, 0:w]
    return yy.astype(np.float32), xx.astype(np.float32)


def _dist(yy, xx, cx, cy, rx, ry, ang=0.0, p=2.0):
    """Generalised-ellipse distance: below 1 inside."""
    c, s = math.cos(ang), math.sin(ang)
    dx, dy = xx - cx, yy - cy
    u, v = (dx * c + dy * s) / max(rx, 1e-3), (-dx * s + dy * c) / max(ry, 1e-3)
    return np.abs(u) ** p + np.abs(v) ** p


def _dome(d):
    """Relative path length through an ellipsoid (1 at the centre, 0 outside)."""
    return np.sqrt(np.clip(1 - d, 0, 1))


def _smooth(rng, h, w, cells=6):
    small = rng.uniform(-1, 1, (int(cells), int(cells))).astype(np.float32)
    return np.asarray(Image.fromarray(small, "F").resize((w, h), Image.BICUBIC))


def _overlay_text(img: Image.Image, rng, fill=None, corners=True):
    d = ImageDraw.Draw(img)
    w, h = img.size
    fill = fill if fill is not None else int(rng.integers(180, 256))
    f = _font(rng, max(9, int(min(w, h) * rng.uniform(0.025, 0.05))))
    if corners:
        for k in range(int(rng.integers(1, 4))):
            x = 6 if rng.random() < 0.5 else int(w * rng.uniform(0.55, 0.75))
            y = 6 + 14 * k if rng.random() < 0.6 else int(h - 20 - 14 * k)
            txt = rng.choice(["W:1500 L:-600", "W:400 L:40", "SE:3 IM:42", "120 kV", "5.0 mm", "DFOV 36.0cm",
                              " ".join(rng.choice(WORDS, 2)), f"{int(rng.integers(1, 99))}/{int(rng.integers(100, 400))}"])
            d.text((x, y), str(txt), fill=fill, font=f)
    return img


def _rot(rng, img: Image.Image, deg) -> Image.Image:
    return img.rotate(float(rng.uniform(-deg, deg)), resample=Image.BILINEAR, fillcolor=int(np.asarray(img)[:4, :4].mean()))


def _finish_medical(img: Image.Image, rng, invert=0.15) -> Image.Image:
    if rng.random() < invert:
        img = Image.fromarray(255 - np.asarray(img))
    return _finish(img, rng)


def _vessel_tree(layer, rng, root, depth, length, width, ang=None):
    """Branching vessels drawn into a float layer (1 inside a vessel)."""
    img = Image.new("L", (layer.shape[1], layer.shape[0]), 0)
    d = ImageDraw.Draw(img)
    angles = [rng.uniform(0, 2 * math.pi) for _ in range(int(rng.integers(4, 9)))] if ang is None else [ang]
    stack = [(root[0], root[1], a, length, width, depth) for a in angles]
    while stack:
        x, y, a, L, wd, dep = stack.pop()
        x1, y1 = x + L * math.cos(a), y + L * math.sin(a)
        d.line([(x, y), (x1, y1)], fill=255, width=max(1, int(round(wd))))
        if dep > 1 and L > 2:
            for _ in range(2 if rng.random() < 0.85 else 3):
                stack.append((x1, y1, a + rng.uniform(-0.75, 0.75), L * rng.uniform(0.6, 0.85), wd * 0.75, dep - 1))
    layer += np.asarray(img, np.float32) / 255.0
