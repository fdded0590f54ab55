"""The cardiothoracic ratio on masks (cxr_train.anatomy.ops) and the checks that say when it cannot be trusted (cxr_train.anatomy.ctr_checks)."""
import numpy as np
import pytest

from cxr_train.anatomy.ops import cardiothoracic_ratio
from cxr_train.anatomy.ctr_checks import check_ctr

N = 64


def masks(heart_rows=(25, 45), heart_cols=(24, 40), right_lung_cols=(36, 56)):
    """Two lung fields (rows 10-50) and a heart between them, on a 64x64 grid; bounds inclusive."""
    lung = np.zeros((N, N), bool)
    heart = np.zeros((N, N), bool)
    lung[10:51, 8:29] = True
    lung[10:51, right_lung_cols[0] : right_lung_cols[1] + 1] = True
    heart[heart_rows[0] : heart_rows[1] + 1, heart_cols[0] : heart_cols[1] + 1] = True
    return lung, heart


def test_ctr_is_heart_width_over_widest_lung_row():
    lung, heart = masks()
    assert cardiothoracic_ratio(lung, heart) == pytest.approx(17 / 49)


def test_ctr_heart_borders_may_lie_on_different_rows():
    lung, _ = masks()
    heart = np.zeros((N, N), bool)
    heart[25:35, 20:30] = True  # left border on the upper rows
    heart[35:45, 30:42] = True  # right border on the lower rows
    assert cardiothoracic_ratio(lung, heart) == pytest.approx((41 - 20 + 1) / 49)


def test_ctr_is_none_without_a_heart_or_lung_field():
    lung, heart = masks()
    tiny = np.zeros((N, N), bool)
    tiny[30:33, 30:33] = True  # 9 pixels, below the minimum heart size
    assert cardiothoracic_ratio(lung, tiny) is None
    small_lung = np.zeros((N, N), bool)
    small_lung[10:15, 10:15] = True  # 25 of 4096 pixels
    assert cardiothoracic_ratio(small_lung, heart) is None


def test_check_ctr_accepts_plausible_masks():
    lung, heart = masks()
    assert check_ctr(lung, heart, cardiothoracic_ratio(lung, heart)) is None


@pytest.mark.parametrize(
    "shape, ctr, code",
    [
        ({"heart_rows": (5, 45)}, 0.4, "heart_at_inlet"),
        ({"heart_rows": (25, 60)}, 0.4, "heart_below_bases"),
        ({"right_lung_cols": (39, 40)}, 0.4, "lungs_asymmetric"),
        ({}, 0.9, "heart_too_wide"),
    ],
)
def test_check_ctr_names_the_first_failed_check(shape, ctr, code):
    lung, heart = masks(**shape)
    verdict = check_ctr(lung, heart, ctr)
    assert verdict is not None and verdict["code"] == code
    assert verdict["reason"]


def test_check_ctr_empty_heart_reads_as_lungs_small():
    lung, _ = masks()
    assert check_ctr(lung, np.zeros((N, N), bool), 0.4)["code"] == "lungs_small"


def test_check_ctr_thresholds_come_from_the_manifest():
    lung, heart = masks()
    assert check_ctr(lung, heart, 0.5, {"maxCtr": 0.45})["code"] == "heart_too_wide"


def test_the_committed_twin_fixtures_still_hold():
    """tests/fixtures/ctr-checks.json (the TypeScript twin's test input) is what cxr_train.anatomy.ctr_checks says today."""
    import base64
    import json
    from pathlib import Path

    from cxr_train.anatomy.ctr_checks import ctr_measures

    doc = json.loads((Path(__file__).resolve().parents[3] / "tests" / "fixtures" / "ctr-checks.json").read_text())
    grid = doc["grid"]

    def unpack(s: str) -> np.ndarray:
        return np.unpackbits(np.frombuffer(base64.b64decode(s), np.uint8))[: grid * grid].reshape(grid, grid)

    assert len(doc["cases"]) >= 10
    for case in doc["cases"]:
        lung, heart = unpack(case["lung"]), unpack(case["heart"])
        assert ctr_measures(lung, heart) == pytest.approx(case["measures"]), case["name"]
        assert check_ctr(lung, heart, case["ctr"], case["checks"]) == case["expected"], case["name"]
