"""Is a measured cardiothoracic ratio plausible? numpy only.

On opacified films (mostly AP portable, with lines) the heart mask takes the whole mediastinum
from the thoracic inlet down and spreads into opacified lung, even below the diaphragm, while the
lung masks retract from the opacities: the CTR then reads 0.8-0.9 for a normal heart
(shared/notes/ctr-on-opacified-films.md). These checks look only at the 128x128 lung and heart
masks and say why the ratio cannot be trusted.

Mirrored line for line by worker/src/pipeline/check-ctr.ts; tests/pipeline/ctr-checks.test.ts
holds the two together on tests/fixtures/ctr-checks.json (made by cxr_train/export/ctr_fixtures.py).
The thresholds ship in manifest.json as anatomy.ctrChecks (every key optional there).
"""
from __future__ import annotations

import numpy as np

# Picked with model 2's anatomy net on 163 validation/test films; tune on validation data.
DEFAULT_CTR_CHECKS = {
    "minHeartTop": 0.0,  # heart top at least this fraction of the lung height below the apices
    "maxHeartBelowBases": 0.1,  # heart bottom at most this fraction of the lung height below the bases
    "minLungArea": 0.1,  # lung pixels / grid pixels
    "minLungSymmetry": 0.5,  # smaller / larger lung field (split at the middle of their width)
    "minLungFill": 0.3,  # lung pixels / the lung fields' bounding box (low: outlines retract)
    "maxHeartToLung": 0.8,  # heart pixels / lung pixels
    "maxCtr": 0.78,  # the ratio itself
}

REASONS = {
    "heart_at_inlet": "the heart outline reaches up to the thoracic inlet",
    "heart_below_bases": "the heart outline extends below the lung bases",
    "lungs_small": "the lung fields found are too small",
    "lungs_asymmetric": "the two lung fields differ too much in size",
    "lungs_retracted": "the lung outlines are retracted, as over opaque lung",
    "heart_oversized": "the heart outline is too large against the lung fields",
    "heart_too_wide": "the heart outline is implausibly wide for the thorax",
}


def ctr_measures(lung: np.ndarray, heart: np.ndarray) -> dict | None:
    """The figures the checks compare; None when either mask is empty."""
    lung = np.asarray(lung).astype(bool)
    heart = np.asarray(heart).astype(bool)
    ly, lx = np.nonzero(lung)
    hy, _ = np.nonzero(heart)
    if len(lx) == 0 or len(hy) == 0:
        return None
    x0, x1, y0, y1 = int(lx.min()), int(lx.max()), int(ly.min()), int(ly.max())
    lung_h = y1 - y0 + 1
    n = len(lx)
    # Left of the middle of the lung fields' width: pixel centre x + 0.5 < (x0 + x1 + 1) / 2.
    left = int(np.count_nonzero(2 * lx < x0 + x1))
    right = n - left
    return {
        "heartTop": (int(hy.min()) - y0) / lung_h,
        "heartBelowBases": (int(hy.max()) - y1) / lung_h,
        "lungArea": n / lung.size,
        "lungSymmetry": min(left, right) / max(left, right),
        "lungFill": n / ((x1 - x0 + 1) * lung_h),
        "heartToLung": int(heart.sum()) / n,
    }


def check_ctr(lung: np.ndarray, heart: np.ndarray, ctr: float, checks: dict | None = None) -> dict | None:
    """None when the masks look measurable, else {code, reason} of the first failed check."""
    c = {**DEFAULT_CTR_CHECKS, **(checks or {})}
    m = ctr_measures(lung, heart)

    def fail(code: str) -> dict:
        return {"code": code, "reason": REASONS[code]}

    if m is None:
        return fail("lungs_small")
    if m["heartTop"] < c["minHeartTop"]:
        return fail("heart_at_inlet")
    if m["heartBelowBases"] > c["maxHeartBelowBases"]:
        return fail("heart_below_bases")
    if m["lungArea"] < c["minLungArea"]:
        return fail("lungs_small")
    if m["lungSymmetry"] < c["minLungSymmetry"]:
        return fail("lungs_asymmetric")
    if m["lungFill"] < c["minLungFill"]:
        return fail("lungs_retracted")
    if m["heartToLung"] > c["maxHeartToLung"]:
        return fail("heart_oversized")
    if ctr > c["maxCtr"]:
        return fail("heart_too_wide")
    return None
