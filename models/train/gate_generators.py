"""Generators of non-radiograph images for the input gate (all synthetic or from Debian
packages on disk; nothing is downloaded). Each generator takes a numpy Generator and
returns a PIL image; a given seed always gives the same image.

Kinds (GENERATORS): synthetic photos, noise, gradients, documents, UI screenshots, natural
pictures, and the medical look-alikes, rendered from a physical map rather than flat fills:
- ct_slice: axial CT (chest in lung / soft-tissue / bone window, abdomen, head) built in
  Hounsfield units: near-black lungs with bright branching vessels and dots, dependent
  density, ground glass, ribs, vertebra, scapulae, table arc, circular field of view,
  correlated noise and blur; cropped to the body, zoomed on a region, 2x2 panels, viewer
  text; 10 % the first flat style.
- ct_reformat: coronal and sagittal chest CT reformats (the CT views most like a frontal film).
- other_body_part: radiographs (exponential attenuation of bone shafts with cortex, soft
  tissue, edge enhancement, collimation, lead markers) of hand, knee / long bones, skull,
  spine, pelvis, shoulder, mammogram, dental panoramic; 12 % the first flat style.
- abdomen_radiograph: frontal abdominal films (lumbar spine, pelvis, lower ribs, bowel gas).
- lateral_chest: lateral chest films. The product analyses frontal films only, so a lateral
  chest film is refused with 'not_cxr' ("does not look like a frontal chest radiograph").
- mri_slice, ultrasound.
Radiograph-like and CT kinds are sometimes inverted, so polarity alone never means "chest"."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter, ImageFont
from scipy import ndimage

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


# ------------------------------------------------------------------ shaded medical images
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


def _box(h, w, pts, pad):
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, x1 = max(0, int(min(xs) - pad)), min(w, int(max(xs) + pad) + 2)
    y0, y1 = max(0, int(min(ys) - pad)), min(h, int(max(ys) + pad) + 2)
    return (slice(y0, y1), slice(x0, x1)) if x1 > x0 and y1 > y0 else None


def _tube(A, yy, xx, p0, p1, r, k=1.0, wall=0.3, marrow=0.45):
    """Adds a bone shaft (cortex denser than marrow) or, with wall=1, a solid soft-tissue
    cylinder between p0 and p1 to the attenuation map A."""
    sl = _box(A.shape[0], A.shape[1], [p0, p1], r)
    if sl is None or r < 0.5:
        return
    y, x = yy[sl], xx[sl]
    (x0, y0), (x1, y1) = p0, p1
    vx, vy = x1 - x0, y1 - y0
    t = np.clip(((x - x0) * vx + (y - y0) * vy) / (vx * vx + vy * vy + 1e-6), 0, 1)
    d2 = (x - x0 - t * vx) ** 2 + (y - y0 - t * vy) ** 2
    outer = np.sqrt(np.clip(r * r - d2, 0, None))
    ri = r * (1 - wall)
    inner = np.sqrt(np.clip(ri * ri - d2, 0, None))
    A[sl] += k * (outer - inner * (1 - marrow)) / r


def _blob(A, yy, xx, cx, cy, rx, ry, k=1.0, ang=0.0, p=2.0, shell=0.0):
    """Adds an ellipsoid (or, with shell > 0, a hollow shell of that relative thickness)."""
    rr = max(rx, ry)
    sl = _box(A.shape[0], A.shape[1], [(cx, cy)], rr)
    if sl is None:
        return
    y, x = yy[sl], xx[sl]
    t = _dome(_dist(y, x, cx, cy, rx, ry, ang, p))
    if shell > 0:
        t = t - (1 - shell) * _dome(_dist(y, x, cx, cy, rx * (1 - shell), ry * (1 - shell), ang, p))
    A[sl] += k * t


def _polyline_tube(A, yy, xx, pts, r, k=1.0, wall=0.3, marrow=0.45):
    for a, b in zip(pts[:-1], pts[1:]):
        _tube(A, yy, xx, a, b, r, k, wall, marrow)


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


def _marker(img: Image.Image, rng):
    """An R/L lead marker, as on radiographs."""
    d = ImageDraw.Draw(img)
    w, h = img.size
    s = int(min(w, h) * rng.uniform(0.04, 0.08))
    x, y = int(rng.uniform(0.03, 0.85) * w), int(rng.uniform(0.03, 0.2) * h)
    if rng.random() < 0.5:
        d.rectangle([x - 2, y - 2, x + s, y + s], fill=int(rng.integers(0, 60)))
    d.text((x, y), str(rng.choice(["R", "L", "RT", "LT", "AP", "PA"])), fill=int(rng.integers(200, 256)), font=_font(rng, s))
    return img


def _xray(rng, A: np.ndarray) -> Image.Image:
    """Attenuation map -> processed radiograph (bright = dense), with collimation, markers, noise."""
    img = 1 - np.exp(-A * rng.uniform(0.7, 1.4))
    img = img / max(1e-3, float(np.quantile(img, 0.995)))
    img = np.clip(img, 0, 1) ** rng.uniform(0.55, 1.5)
    if rng.random() < 0.6:  # edge enhancement of processed digital films
        img = img + rng.uniform(0.2, 1.2) * (img - ndimage.gaussian_filter(img, rng.uniform(2, 10)))
    if rng.random() < 0.3:  # scatter fog / latitude compression
        img = img * rng.uniform(0.6, 0.9) + rng.uniform(0.05, 0.2)
    img = ndimage.gaussian_filter(img, rng.uniform(0.3, 1.4))
    img = img + ndimage.gaussian_filter(rng.normal(0, rng.uniform(0.01, 0.05), img.shape), 0.6)
    h, w = img.shape
    if rng.random() < 0.3:  # collimation: outside bright (unexposed) or black (masked)
        x0, x1 = int(w * rng.uniform(0, 0.12)), int(w * rng.uniform(0.88, 1))
        y0, y1 = int(h * rng.uniform(0, 0.12)), int(h * rng.uniform(0.88, 1))
        v = rng.choice([0.0, rng.uniform(0.7, 1.0)])
        m = np.ones_like(img, dtype=bool)
        m[y0:y1, x0:x1] = False
        img[m] = v
    out = Image.fromarray((np.clip(img, 0, 1) * 255).astype(np.uint8))
    if rng.random() < 0.5:
        out = _marker(out, rng)
    if rng.random() < 0.2:
        out = _overlay_text(out, rng)
    return out


def _rot(rng, img: Image.Image, deg) -> Image.Image:
    return img.rotate(float(rng.uniform(-deg, deg)), resample=Image.BILINEAR, fillcolor=int(np.asarray(img)[:4, :4].mean()))


def _finish_medical(img: Image.Image, rng, invert=0.15) -> Image.Image:
    if rng.random() < invert:
        img = Image.fromarray(255 - np.asarray(img))
    return _finish(img, rng)


# ---- radiographs of other body parts


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


def _vertebra(A, yy, xx, cx, cy, vw, vh, bone, ap, ang=0.0):
    _blob(A, yy, xx, cx, cy, vw, vh, bone, ang=ang, p=4, shell=0.2)
    _blob(A, yy, xx, cx, cy, vw, vh, bone * 0.3, ang=ang, p=4)
    if ap:
        for sgn in (-1, 1):
            _blob(A, yy, xx, cx + sgn * vw * 0.6, cy - vh * 0.2, vw * 0.18, vh * 0.3, bone * 0.5, shell=0.5)
        _blob(A, yy, xx, cx, cy + vh * 0.3, vw * 0.1, vh * 0.35, bone * 0.4)


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


def abdomen_radiograph(rng) -> Image.Image:
    """Frontal abdominal film: the radiograph most often confused with a chest film."""
    w, h = _size(rng, 224, 400)
    if max(w, h) / min(w, h) > 1.4 and rng.random() < 0.8:
        w, h = min(w, h), int(min(w, h) * rng.uniform(1.0, 1.3))
    img = _xray(rng, _xr_abdomen(rng, h, w))
    if rng.random() < 0.3:
        img = _rot(rng, img, 8)
    return _finish_medical(img, rng)


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
                pts = [(x, h * (0.04 + 0.8 * t) + off), (x - w * 0.12, h * (0.06 + 0.8 * t) + off + h * 0.02), (x - w * 0.22, h * (0.1 + 0.8 * t) + off + h * 0.07), (x - w * 0.3, h * (0.1 + 0.8 * t) + off + h * 0.14)]
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


# ---- CT


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


# ---- MRI and ultrasound


def mri_slice(rng) -> Image.Image:
    """MR slice: brain (axial/sagittal) or body/knee-like, with Rician background noise."""
    s = int(rng.integers(192, 400))
    yy, xx = _grid(s, s)
    a = np.zeros((s, s), np.float32)
    cx, cy = s / 2 + rng.uniform(-0.05, 0.05) * s, s / 2 + rng.uniform(-0.05, 0.05) * s
    kind = rng.choice(["brain", "brain", "body", "joint"])
    if kind == "brain":
        rx, ry = s * rng.uniform(0.3, 0.4), s * rng.uniform(0.36, 0.45)
        scalp = _dist(yy, xx, cx, cy, rx, ry) < 1
        a[scalp] = rng.uniform(0.6, 1.0)
        a[_dist(yy, xx, cx, cy, rx * 0.94, ry * 0.95) < 1] = rng.uniform(0.0, 0.1)  # skull: dark
        brain = _dist(yy, xx, cx, cy, rx * 0.9, ry * 0.92) < 1
        gm, wm, csf = rng.uniform(0.35, 0.6), rng.uniform(0.5, 0.8), rng.choice([rng.uniform(0.05, 0.15), rng.uniform(0.8, 1.0)])
        g = _smooth(rng, s, s, rng.integers(20, 40))
        a[brain] = np.where(g > 0, wm, gm)[brain]
        a[brain & (np.abs(g) < 0.05)] = csf
        for sgn in (-1, 1):
            a[_dist(yy, xx, cx + sgn * rx * 0.12, cy - ry * 0.05, rx * 0.07, ry * 0.28, ang=sgn * 0.25) < 1] = csf
    else:
        rx, ry = s * rng.uniform(0.3, 0.46), s * rng.uniform(0.25, 0.42)
        body = _dist(yy, xx, cx, cy, rx, ry, p=2.3) < 1
        a[body] = rng.uniform(0.7, 1.0)  # fat bright
        inner = _dist(yy, xx, cx, cy, rx * 0.9, ry * 0.88, p=2.3) < 1
        a[inner] = rng.uniform(0.25, 0.45)
        for _ in range(int(rng.integers(3, 10))):
            m = _dist(yy, xx, cx + rng.uniform(-0.6, 0.6) * rx, cy + rng.uniform(-0.6, 0.6) * ry, s * rng.uniform(0.03, 0.12),
                      s * rng.uniform(0.03, 0.12), ang=rng.uniform(0, 3)) < 1
            a[m & inner] = rng.uniform(0.0, 1.0)
    a = ndimage.gaussian_filter(a, rng.uniform(0.5, 1.5))
    sig = rng.uniform(0.01, 0.06)
    a = np.hypot(a + rng.normal(0, sig, a.shape), rng.normal(0, sig, a.shape))
    a = a * (1 + 0.3 * _smooth(rng, s, s, 3))  # coil shading
    img = Image.fromarray((np.clip(a / max(1e-3, np.quantile(a, 0.995)), 0, 1) * 255).astype(np.uint8))
    if rng.random() < 0.5:
        img = _overlay_text(img, rng)
    return _finish_medical(img, rng, invert=0.05)


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


# The first eight keep their order (build_gate_data derives seeds from the position).
GENERATORS = {
    "photo_synthetic": photo,
    "noise": noise,
    "gradient": gradient,
    "document": document,
    "screenshot": screenshot,
    "ct_slice": ct_axial,
    "other_body_part": body_part,
    "natural_image": natural,
    "ct_reformat": ct_reformat,
    "abdomen_radiograph": abdomen_radiograph,
    "lateral_chest": lateral_chest,
    "mri_slice": mri_slice,
    "ultrasound": ultrasound,
}
