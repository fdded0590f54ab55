"""Deterministic image checks of the input gate; mirrored by worker/src/pipeline/check-image.ts.

They run on the decoded image before and after preprocessing and catch what needs no
model: too small, extreme aspect ratio, colour content, (near-)uniform images."""
from __future__ import annotations

import numpy as np

MIN_SIDE = 128  # px; smaller images cannot carry diagnostic detail
MAX_ASPECT = 2.0  # long side / short side; chest films are about 0.8-1.25
CHROMA_LEVEL = 38  # max(R,G,B)-min(R,G,B) at or above this counts as a coloured pixel (~0.15)
MAX_COLOUR_FRACTION = 0.05  # red arrows or a coloured label on a film stay below 5 %
BLANK_STD = 6.0  # std of the preprocessed 0..255 image below this: refuse (no content)
LOW_CONTRAST_STD = 20.0  # below this: accept with flag 'low_contrast'

REASONS = {
    "too_small": "The image is too small to analyse (shortest side under {min_side} pixels).",
    "aspect_ratio": "The image has an extreme aspect ratio for a chest radiograph.",
    "colour": "The image appears to be a colour photograph or illustration, not a chest radiograph.",
    "blank": "The image is almost uniform and too low in quality to analyse.",
    "not_cxr": "The image does not look like a frontal chest radiograph.",
}


def colour_fraction(pixels: np.ndarray) -> float:
    """Fraction of clearly coloured pixels; 0 for gray images. pixels: HxWxC uint8."""
    if pixels.ndim == 2 or pixels.shape[2] < 3:
        return 0.0
    rgb = pixels[:, :, :3].astype(np.int16)
    chroma = rgb.max(2) - rgb.min(2)
    return float((chroma >= CHROMA_LEVEL).mean())


def pre_checks(pixels: np.ndarray) -> str | None:
    """Checks on the decoded pixels; returns a reason code or None."""
    h, w = pixels.shape[:2]
    if min(h, w) < MIN_SIDE:
        return "too_small"
    if max(h, w) / min(h, w) > MAX_ASPECT:
        return "aspect_ratio"
    if colour_fraction(pixels) > MAX_COLOUR_FRACTION:
        return "colour"
    return None


def post_checks(x255: np.ndarray) -> tuple[str | None, list[str]]:
    """Checks on the preprocessed float image (0..255, INPUT_SIZE square).
    std is the population standard deviation, computed in float64."""
    sd = float(np.asarray(x255, dtype=np.float64).std())
    if sd < BLANK_STD:
        return "blank", []
    return None, (["low_contrast"] if sd < LOW_CONTRAST_STD else [])
