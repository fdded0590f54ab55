"""populations(): each figure is measured on the rows of one split only, with a binary target, and every finding's
deciding population exists (the shipping rule reads it)."""
import numpy as np

from cxr_train.data.labels import LABELS, NIH, row_targets
from cxr_train.data.populations import DECIDING, populations


def nih(split: str, i: int, **flags: str) -> dict:
    r = {"dataset": "cxr-extra", "source": "nih-cxr14", "dataset_label": "", "label": "", "subtype": "", "split": split,
         "group_id": f"nih-{i}", "no_finding": "0", "Pneumonia": "0", **{n: "0" for n in NIH}, **flags}
    return {**r, "targets": row_targets("cxr-extra", r)}


def qu_ex(split: str, i: int, label: str) -> dict:
    r = {"dataset": "cxr-extra", "source": "covid-qu-ex", "dataset_label": label, "label": label, "subtype": "", "split": split,
         "group_id": f"qu-{i}", "no_finding": "", "Pneumonia": "", **{n: "" for n in NIH}}
    return {**r, "targets": row_targets("cxr-extra", r)}


def rows() -> list[dict]:
    out = []
    for split in ("train", "val", "test"):
        out += [nih(split, len(out) + k, no_finding="1") for k in range(3)]
        out += [nih(split, len(out) + k, Pneumonia="1", Effusion="1") for k in range(3)]
        out += [qu_ex(split, len(out) + k, lab) for k, lab in enumerate(["normal", "covid19", "non_covid_infection"])]
    return out


def test_a_population_holds_rows_of_the_given_split_only_with_binary_targets():
    rs = rows()
    for split in ("val", "test"):
        idx = np.array([i for i, r in enumerate(rs) if r["split"] == split])
        pops = populations(rs, idx)
        assert pops
        for name, (sel, target, label) in pops.items():
            assert all(rs[i]["split"] == split for i in sel), name
            assert set(target.tolist()) <= {0, 1} and len(target) == len(sel), name
            assert label in LABELS, name


def test_targets_follow_the_rows():
    rs = rows()
    idx = np.array([i for i, r in enumerate(rs) if r["split"] == "test"])
    sel, target, _ = populations(rs, idx)["ChestX-ray14 normal vs abnormal"]
    assert [rs[i]["no_finding"] == "0" for i in sel] == [bool(t) for t in target]
    sel, target, _ = populations(rs, idx)["COVID-19 vs non-COVID infection (QU-Ex)"]
    assert sorted(rs[i]["label"] for i in sel) == ["covid19", "non_covid_infection"] and sorted(target.tolist()) == [0, 1]


def test_a_population_without_rows_in_the_split_is_left_out():
    rs = rows()
    idx = np.array([i for i, r in enumerate(rs) if r["source"] == "covid-qu-ex"])
    assert "ChestX-ray14 normal vs abnormal" not in populations(rs, idx)


def test_every_finding_has_a_deciding_population():
    assert set(DECIDING) == set(LABELS)
