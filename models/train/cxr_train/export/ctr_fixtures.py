"""Synthetic lung/heart masks and what cxr_train/anatomy/ctr_checks.py says of them -> tests/fixtures/ctr-checks.json.

The TypeScript twin (worker/src/pipeline/check-ctr.ts) must give the same measures and verdicts
(tests/pipeline/ctr-checks.test.ts). Run from the repository root:
    PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.export.ctr_fixtures
"""
from __future__ import annotations

import argparse
import base64
import json
from pathlib import Path

import numpy as np

from cxr_train.common import cli_parser
from cxr_train.anatomy.ctr_checks import DEFAULT_CTR_CHECKS, check_ctr, ctr_measures

GRID = 128
OUT = Path("tests/fixtures/ctr-checks.json")


def ellipse(cx: float, cy: float, rx: float, ry: float) -> np.ndarray:
    y, x = np.mgrid[0:GRID, 0:GRID]
    return (((x + 0.5 - cx) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1).astype(np.uint8)


def lungs(rx: float = 22, ry: float = 40, cy: float = 60, gap: float = 50, right_scale: float = 1.0) -> np.ndarray:
    return np.maximum(ellipse(64 - gap / 2, cy, rx, ry), ellipse(64 + gap / 2, cy, rx * right_scale, ry))


def ctr_of(lung: np.ndarray, heart: np.ndarray) -> float:
    """cxr_train.anatomy.ops.cardiothoracic_ratio without its minimum-size guards."""
    hx = np.nonzero(heart.any(0))[0]
    widths = [np.nonzero(r)[0].ptp() + 1 for r in lung if r.any()]
    return float((hx.max() - hx.min() + 1) / max(widths))


def pack(mask: np.ndarray) -> str:
    return base64.b64encode(np.packbits(mask.astype(np.uint8).ravel())).decode()


def cases() -> list[tuple[str, np.ndarray, np.ndarray, dict | None]]:
    normal_lung = lungs()
    normal_heart = ellipse(68, 80, 16, 14)
    retracted = lungs(rx=24, ry=44)
    retracted[25:95, :] &= (np.arange(GRID) % 5 == 0).astype(np.uint8)  # combed out: opaque stripes
    return [
        ("normal", normal_lung, normal_heart, None),
        ("heart reaching the inlet", normal_lung, np.maximum(normal_heart, ellipse(64, 30, 6, 18)), None),
        ("heart below the bases", normal_lung, ellipse(66, 100, 16, 12), None),
        ("small lungs", lungs(rx=10, ry=18), ellipse(64, 66, 6, 6), None),
        ("one lung missing", lungs(right_scale=0.3), normal_heart, None),
        ("retracted lungs", retracted, normal_heart, None),
        ("heart spreading into the lungs", lungs(rx=14, gap=56), ellipse(64, 62, 30, 36), None),
        ("very wide heart", normal_lung, np.maximum(normal_heart, ellipse(64, 86, 38, 3)), None),
        ("empty heart", normal_lung, np.zeros((GRID, GRID), np.uint8), None),
        ("wide heart under a looser maxCtr", normal_lung, np.maximum(normal_heart, ellipse(64, 86, 38, 3)), {"maxCtr": 0.95}),
        ("normal under a strict minHeartTop", normal_lung, normal_heart, {"minHeartTop": 0.6}),
    ]


def parser() -> argparse.ArgumentParser:
    return cli_parser(__doc__)


def main() -> None:
    parser().parse_args()
    out = []
    for name, lung, heart, checks in cases():
        ctr = ctr_of(lung, heart) if heart.any() else 0.0
        m = ctr_measures(lung, heart)
        out.append({
            "name": name,
            "lung": pack(lung),
            "heart": pack(heart),
            "ctr": ctr,
            "checks": checks,
            "measures": m,
            "expected": check_ctr(lung, heart, ctr, checks),
        })
    doc = {"grid": GRID, "defaults": DEFAULT_CTR_CHECKS, "cases": out}
    OUT.write_text(json.dumps(doc) + "\n")
    for c in out:
        print(f"{c['name']:36s} ctr {c['ctr']:.3f} -> {c['expected'] and c['expected']['code']}")


if __name__ == "__main__":
    main()
