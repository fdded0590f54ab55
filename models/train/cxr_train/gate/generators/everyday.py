"""Everyday non-medical pictures: synthetic photos, noise, gradients, documents, UI screenshots and natural
pictures from Debian packages (split by source picture so held-out negatives are new pictures)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter

from cxr_train.gate.generators.canvas import _col, _finish, _font, _size, WORDS

SKIMAGE = Path("/usr/lib/python3/dist-packages/skimage/data")


# Natural images, split by source picture so held-out negatives are new pictures.
NATURAL_TRAIN = ["astronaut.png", "brick.png", "camera.png", "cell.png", "clock_motion.png", "coffee.png",
                 "coins.png", "grass.png", "gravel.png", "horse.png", "hubble_deep_field.jpg", "ihc.png",
                 "moon.png", "motorcycle_left.png", "motorcycle_right.png", "page.png", "text.png", "logo.png", "color.png"]
NATURAL_TEST = ["chelsea.png", "rocket.jpg", "retina.jpg", "phantom.png", "microaneurysms.png", "block.png",
                "/usr/share/pixmaps/debian-logo.png", "/usr/share/pixmaps/chromium.png"]


def photo(rng) -> Image.Image:
    w, h = _size(rng)
    c1, c2 = np.array(_col(rng)), np.array(_col(rng))
    t = np.linspace(0, 1, h)[:, None, None]
    base = (c1 * (1 - t) + c2 * t) * np.ones((1, w, 1))
    img = Image.fromarray(base.astype(np.uint8))
    d = ImageDraw.Draw(img)
    for _ in range(int(rng.integers(5, 40))):
        x0, y0 = int(rng.integers(-w // 4, w)), int(rng.integers(-h // 4, h))
        x1, y1 = x0 + int(rng.integers(10, w // 2 + 11)), y0 + int(rng.integers(10, h // 2 + 11))
        k = rng.integers(3)
        if k == 0:
            d.ellipse([x0, y0, x1, y1], fill=_col(rng))
        elif k == 1:
            d.rectangle([x0, y0, x1, y1], fill=_col(rng))
        else:
            pts = [(int(rng.integers(0, w)), int(rng.integers(0, h))) for _ in range(int(rng.integers(3, 7)))]
            d.polygon(pts, fill=_col(rng))
    img = ImageEnhance.Color(img).enhance(float(rng.choice([0.0, 0.1, 0.3, 1.0, 1.5])))
    return _finish(img.filter(ImageFilter.GaussianBlur(float(rng.uniform(0, 4)))), rng)


def noise(rng) -> Image.Image:
    w, h = _size(rng)
    k = rng.integers(3)
    ch = 3 if rng.random() < 0.4 else 1
    if k == 0:
        a = rng.integers(0, 256, (h, w, ch))
    elif k == 1:
        a = rng.normal(rng.uniform(60, 200), rng.uniform(10, 80), (h, w, ch))
    else:  # smooth value noise: random low-res field upsampled
        s = int(rng.integers(3, 24))
        small = rng.uniform(0, 255, (s, s, ch)).astype(np.uint8)
        a = np.asarray(Image.fromarray(small.squeeze(-1) if ch == 1 else small).resize((w, h), Image.BICUBIC))
    a = np.clip(a, 0, 255).astype(np.uint8)
    return Image.fromarray(a.squeeze(-1) if a.ndim == 3 and a.shape[2] == 1 else a)


def gradient(rng) -> Image.Image:
    w, h = _size(rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:
        ang = rng.uniform(0, 2 * math.pi)
        t = (xx * math.cos(ang) + yy * math.sin(ang))
    else:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        t = np.hypot(xx - cx, yy - cy)
    t = (t - t.min()) / (t.max() - t.min() + 1e-6)
    if rng.random() < 0.3:
        t = np.floor(t * rng.integers(3, 12)) / 12
    c1, c2 = np.array(_col(rng)), np.array(_col(rng))
    if rng.random() < 0.5:
        c1, c2 = c1.mean() * np.ones(3), c2.mean() * np.ones(3)
    a = c1 * (1 - t[..., None]) + c2 * t[..., None]
    return _finish(Image.fromarray(a.astype(np.uint8)), rng)


def _text_lines(d, rng, x0, y0, x1, y1, colour, size):
    f = _font(rng, size)
    y = y0
    while y < y1 - size:
        words = " ".join(rng.choice(WORDS, int(rng.integers(2, 14))))
        d.text((x0, y), words.capitalize(), fill=colour, font=f)
        y += int(size * rng.uniform(1.3, 2.0))


def document(rng) -> Image.Image:
    w, h = _size(rng, 256, 720)
    bg = int(rng.integers(215, 256))
    img = Image.new("RGB", (w, h), (bg, bg, int(min(255, bg + rng.integers(-10, 5)))))
    d = ImageDraw.Draw(img)
    m = int(w * rng.uniform(0.04, 0.12))
    ink = tuple([int(rng.integers(0, 70))] * 3)
    y = m
    if rng.random() < 0.7:
        d.text((m, y), " ".join(rng.choice(WORDS, 3)).upper(), fill=ink, font=_font(rng, rng.integers(14, 30)))
        y += 40
    if rng.random() < 0.4:  # table
        rows, cols = int(rng.integers(3, 9)), int(rng.integers(2, 6))
        th = int(rng.integers(14, 26))
        for r in range(rows + 1):
            d.line([(m, y + r * th), (w - m, y + r * th)], fill=ink, width=1)
        for c in range(cols + 1):
            x = m + c * (w - 2 * m) // cols
            d.line([(x, y), (x, y + rows * th)], fill=ink, width=1)
        y += rows * th + 20
    _text_lines(d, rng, m, y, w - m, h - m, ink, int(rng.integers(9, 20)))
    if rng.random() < 0.3:
        img = img.rotate(float(rng.uniform(-4, 4)), fillcolor=(bg, bg, bg))
    return _finish(img, rng)


def screenshot(rng) -> Image.Image:
    w, h = _size(rng, 256, 800)
    dark = rng.random() < 0.35
    bg = _col(rng, 10, 50) if dark else _col(rng, 225, 256)
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    accent = _col(rng)
    bar = int(rng.integers(24, 60))
    d.rectangle([0, 0, w, bar], fill=accent if rng.random() < 0.6 else _col(rng, 30, 90))
    side = int(w * rng.uniform(0, 0.3))
    if side:
        d.rectangle([0, bar, side, h], fill=_col(rng, 20, 70) if dark else _col(rng, 200, 245))
        _text_lines(d, rng, 8, bar + 10, side - 4, h, (200, 200, 200) if dark else (60, 60, 60), 12)
    fg = (230, 230, 230) if dark else (30, 30, 30)
    for _ in range(int(rng.integers(2, 8))):  # cards, buttons, image placeholders
        x0, y0 = int(rng.integers(side, w - 40)), int(rng.integers(bar, h - 30))
        x1, y1 = min(w - 4, x0 + int(rng.integers(40, w // 2))), min(h - 4, y0 + int(rng.integers(20, h // 3)))
        fill = accent if rng.random() < 0.3 else (_col(rng, 40, 80) if dark else _col(rng, 235, 256))
        d.rounded_rectangle([x0, y0, x1, y1], radius=int(rng.integers(0, 12)), fill=fill, outline=_col(rng, 100, 200))
        _text_lines(d, rng, x0 + 6, y0 + 4, x1 - 4, y1, fg, int(rng.integers(10, 16)))
    return _finish(img, rng)


def natural(rng, sources: list[str]) -> Image.Image:
    name = sources[int(rng.integers(len(sources)))]
    path = Path(name) if name.startswith("/") else SKIMAGE / name
    with Image.open(path) as im:
        img = im.convert("RGB")
    w, h = img.size
    cw, ch = int(w * rng.uniform(0.35, 1)), int(h * rng.uniform(0.35, 1))
    x0, y0 = int(rng.integers(0, w - cw + 1)), int(rng.integers(0, h - ch + 1))
    img = img.crop((x0, y0, x0 + cw, y0 + ch))
    scale = rng.uniform(0.8, 2.5) * 256 / max(16, min(cw, ch))
    img = img.resize((max(8, int(cw * scale)), max(8, int(ch * scale))), Image.BILINEAR)
    if rng.random() < 0.5:
        img = img.convert("L")
    if rng.random() < 0.2:
        img = Image.fromarray(255 - np.asarray(img))
    return _finish(img, rng)
