"""Generators of non-radiograph images for the input gate (all synthetic or from Debian
packages on disk; nothing is downloaded). Each generator takes a numpy Generator and
returns a PIL image; a given seed always gives the same image."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter, ImageFont

FONT_DIRS = [Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/truetype/liberation2"),
             Path("/usr/share/fonts/truetype/lato")]
FONTS = sorted(str(p) for d in FONT_DIRS if d.exists() for p in d.glob("*.ttf"))
WORDS = ("patient report chest analysis result normal findings the of and to in is for on with as by "
         "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor date name age "
         "invoice total amount hospital clinic department summary table figure page section 2024 12.5 mg").split()

SKIMAGE = Path("/usr/lib/python3/dist-packages/skimage/data")
# Natural images, split by source picture so held-out negatives are new pictures.
NATURAL_TRAIN = ["astronaut.png", "brick.png", "camera.png", "cell.png", "clock_motion.png", "coffee.png",
                 "coins.png", "grass.png", "gravel.png", "horse.png", "hubble_deep_field.jpg", "ihc.png",
                 "moon.png", "motorcycle_left.png", "motorcycle_right.png", "page.png", "text.png", "logo.png", "color.png"]
NATURAL_TEST = ["chelsea.png", "rocket.jpg", "retina.jpg", "phantom.png", "microaneurysms.png", "block.png",
                "/usr/share/pixmaps/debian-logo.png", "/usr/share/pixmaps/chromium.png"]


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


def _ell(d, cx, cy, rx, ry, fill):
    d.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=fill)


def ct_slice(rng) -> Image.Image:
    """Axial CT-like slice: chest (dark lungs), abdomen or head, often with annotation text."""
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


def _bone(d, p0, p1, width, fill):
    d.line([p0, p1], fill=fill, width=int(width))
    r = width * 0.7
    for p in (p0, p1):
        d.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=fill)


def body_part(rng) -> Image.Image:
    """Radiograph-like images of other body parts: hand, limb/knee, skull, pelvis, spine."""
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


GENERATORS = {
    "photo_synthetic": photo,
    "noise": noise,
    "gradient": gradient,
    "document": document,
    "screenshot": screenshot,
    "ct_slice": ct_slice,
    "other_body_part": body_part,
    "natural_image": natural,
}
