"""What the worker derives from the anatomy masks: the lung-field crop box and the
cardiothoracic ratio. Mirrored by worker/src/pipeline/anatomy.ts (the parity test checks both).

Masks are the anatomy net's 128x128 logit maps thresholded at 0 (probability 0.5).
"""
from __future__ import annotations

import math

import numpy as np

from cxr_train.common import resize_area

GRID = 128
BOX_MARGIN = 0.08  # of the lung box's width/height on every side, so the costophrenic angles stay in
MIN_LUNG_FRACTION = 0.03  # fewer lung pixels than this: no usable lung field, classify the whole film
MIN_HEART_PIXELS = 40


def lung_box(lung: np.ndarray) -> tuple[float, float, float, float] | None:
    """Lung-field box with margin in 0..1 image coordinates (x0, y0, x1, y1), or None."""
    ys, xs = np.nonzero(lung)
    if len(xs) < MIN_LUNG_FRACTION * GRID * GRID:
        return None
    x0, x1 = xs.min(), xs.max() + 1
    y0, y1 = ys.min(), ys.max() + 1
    mx, my = BOX_MARGIN * (x1 - x0), BOX_MARGIN * (y1 - y0)
    return (
        max(0.0, (x0 - mx) / GRID),
        max(0.0, (y0 - my) / GRID),
        min(1.0, (x1 + mx) / GRID),
        min(1.0, (y1 + my) / GRID),
    )


def pixel_box(box, width: int, height: int) -> tuple[int, int, int, int]:
    """0..1 box -> integer pixel box (left, top, crop width, crop height) on a width x height film."""
    left = min(width - 1, int(math.floor(box[0] * width)))
    top = min(height - 1, int(math.floor(box[1] * height)))
    right = max(left + 1, min(width, int(math.ceil(box[2] * width))))
    bottom = max(top + 1, min(height, int(math.ceil(box[3] * height))))
    return left, top, right - left, bottom - top


def crop_resize(gray: np.ndarray, box, size: int) -> np.ndarray:
    """Crop the native-resolution film to the box and stretch it to size x size (box filter)."""
    h, w = gray.shape
    if box is None:
        return resize_area(gray, size)
    left, top, cw, ch = pixel_box(box, w, h)
    return resize_area(gray[top : top + ch, left : left + cw], size)


def cardiothoracic_ratio(lung: np.ndarray, heart: np.ndarray) -> float | None:
    """Maximal horizontal heart width / maximal inner thoracic width.

    Heart width: leftmost to rightmost heart pixel over the whole mask (the two borders may lie on
    different rows, as in the radiological definition). Thoracic width: the widest row of the lung
    fields, from the outer edge of one lung to the outer edge of the other (the inner rib margins).
    """
    if heart.sum() < MIN_HEART_PIXELS or lung.sum() < MIN_LUNG_FRACTION * lung.size:
        return None
    hx = np.nonzero(heart.any(0))[0]
    heart_w = hx.max() - hx.min() + 1
    thorax_w = 0
    for row in lung:
        xs = np.nonzero(row)[0]
        if len(xs):
            thorax_w = max(thorax_w, xs.max() - xs.min() + 1)
    if thorax_w == 0:
        return None
    return float(heart_w / thorax_w)
