"""X-ray rendering shared by the radiograph kinds: attenuation maps built from tubes and blobs (bone shafts with
cortex, soft tissue), then exponential attenuation, edge enhancement, collimation and lead markers."""
from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw
from scipy import ndimage

from cxr_train.gate.generators.canvas import _dist, _dome, _font, _overlay_text


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


def _vertebra(A, yy, xx, cx, cy, vw, vh, bone, ap, ang=0.0):
    _blob(A, yy, xx, cx, cy, vw, vh, bone, ang=ang, p=4, shell=0.2)
    _blob(A, yy, xx, cx, cy, vw, vh, bone * 0.3, ang=ang, p=4)
    if ap:
        for sgn in (-1, 1):
            _blob(A, yy, xx, cx + sgn * vw * 0.6, cy - vh * 0.2, vw * 0.18, vh * 0.3, bone * 0.5, shell=0.5)
        _blob(A, yy, xx, cx, cy + vh * 0.3, vw * 0.1, vh * 0.35, bone * 0.4)
