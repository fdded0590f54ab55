"""cxr_train.heads.finetune.cache.selected thins the cxr-224 training films only: a validation or test row is never dropped."""
import random

import numpy as np
import pytest

pytest.importorskip("torch", reason="cxr_train.heads.finetune.cache imports torch")
pytest.importorskip("torchvision", reason="cxr_train.heads.finetune.cache imports torchvision (a box may have python3-torch without it)")
from cxr_train.heads.finetune.cache import selected  # noqa: E402


def rows(n: int, seed: int = 0) -> list[dict]:
    rng = random.Random(seed)
    return [
        {
            "dataset": rng.choice(["cxr-224", "cxr-extra"]),
            "split": rng.choice(["train", "val", "test"]),
            "group_id": f"patient-{rng.randrange(n // 3)}",
        }
        for _ in range(n)
    ]


@pytest.mark.parametrize("frac", [0.0, 0.1, 0.5, 1.0])
def test_every_non_train_and_every_cxr_extra_row_is_kept(frac):
    rs = rows(600)
    keep = selected(rs, frac)
    assert keep.dtype == bool and len(keep) == len(rs)
    for r, k in zip(rs, keep):
        if r["split"] != "train" or r["dataset"] == "cxr-extra":
            assert k


def test_cxr224_training_films_are_thinned_by_group():
    rs = [r for r in rows(3000, seed=1) if r["dataset"] == "cxr-224" and r["split"] == "train"]
    assert not selected(rs, 0.0).any()
    assert selected(rs, 1.0).all()
    keep = selected(rs, 0.3)
    assert 0.15 < keep.mean() < 0.45
    # One patient's films are kept or dropped together: no group straddles the cut.
    by_group: dict[str, set] = {}
    for r, k in zip(rs, keep):
        by_group.setdefault(r["group_id"], set()).add(bool(k))
    assert all(len(v) == 1 for v in by_group.values())
    assert np.array_equal(keep, selected(rs, 0.3))
