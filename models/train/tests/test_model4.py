"""Model 4's decision helpers: the shipping rule, the triage operating point, the external populations, the card
splice and the ONNX edits being idempotent. Nothing here reads the data sets."""
import numpy as np
import pytest

for needed in ("torch", "onnx", "sklearn"):
    pytest.importorskip(needed, reason="cxr_train.model4 imports Debian's python3-torch, -onnx, -sklearn")

import onnx  # noqa: E402
from onnx import helper  # noqa: E402

from cxr_train.model4 import card, dump, external  # noqa: E402


def fig(lo, positives):
    return {"aucCi95": [lo, 0.99], "positives": positives}


def test_the_rule_needs_the_lower_bound_the_positives_and_no_internal_contradiction():
    internal = {"findings": {"edema": {"auc": 0.9}, "mass": {"auc": 0.55}}}
    assert external.decide("edema", fig(0.71, 15), internal)[0]
    assert not external.decide("edema", fig(0.69, 40), internal)[0]
    assert not external.decide("edema", fig(0.90, 14), internal)[0]
    ok, why = external.decide("mass", fig(0.80, 40), internal)
    assert not ok and "contradicts" in why
    assert external.decide("cardiomegaly_ctr", fig(0.8, 25), {"findings": {"cardiomegaly": {"auc": 0.74}}})[0]


def test_the_triage_point_keeps_specificity_and_maximises_sensitivity():
    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(47), np.ones(216)].astype(int)
    p = np.r_[rng.uniform(0, 0.6, 47), rng.uniform(0.3, 1, 216)]
    t = external.triage_threshold(y, p)
    spec = (p[y == 0] < t).mean()
    assert spec >= 0.70
    # One notch lower would drop below the specificity floor: nothing more sensitive keeps it.
    lower = np.sort(p[y == 0])[int(np.ceil(0.7 * 47)) - 1]
    assert (p[y == 0] < lower).mean() < 0.70


def test_external_populations_compare_within_a_collection():
    rows = [
        {"source": "nih-cxr14", "label": "normal", "findings_set": set()},
        {"source": "nih-cxr14", "label": "abnormal", "findings_set": {"Effusion"}},
        {"source": "nih-cxr14", "label": "abnormal", "findings_set": {"Mass"}},
        {"source": "ieee8023-covid", "label": "normal", "findings_set": set()},
        {"source": "ieee8023-covid", "label": "covid19", "findings_set": set()},
        {"source": "ieee8023-covid", "label": "pneumonia", "findings_set": set()},
    ]
    pops = external.populations(rows, "pleural_effusion")
    pos, neg = pops["Effusion vs normal films"]
    assert pos.tolist() == [False, True, False, False, False, False]
    assert neg.tolist() == [True, False, False, False, False, False]
    assert external.populations(rows, "pleural_effusion")["Effusion vs every other film"][1].tolist() == [True, False, True, False, False, False]
    pos, neg = external.populations(rows, "covid19")["COVID-19 vs other adult pneumonia"]
    assert pos.tolist() == [False, False, False, False, True, False] and neg.tolist() == [False, False, False, False, False, True]
    pos, neg = external.populations(rows, "pneumonia")["adult infection vs normal films (COVID-19 collections)"]
    assert pos.sum() == 2 and neg.tolist() == [False, False, False, True, False, False]


def test_the_card_splice_replaces_its_own_block_only():
    text = "# Card\n\n## What it is\n\n- a\n\n## Limits\n\n- b\n"
    once = card.splice(text, "what", "- new", "## What it is")
    assert once.index("- new") < once.index("## Limits")
    twice = card.splice(once, "what", "- newer", "## What it is")
    assert "- new\n" not in twice and twice.count("<!-- model4:what -->") == 1 and "- a" in twice and "- b" in twice


def tiny_model() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 4, 2, 2])
    y = helper.make_tensor_value_info("logits", onnx.TensorProto.FLOAT, ["N", 4])
    nodes = [helper.make_node("Identity", ["x"], [dump.HEAD_INPUT]),
             helper.make_node("ReduceMean", [dump.HEAD_INPUT], ["logits"], axes=[2, 3], keepdims=0)]
    return helper.make_model(helper.make_graph(nodes, "t", [x], [y]), opset_imports=[helper.make_opsetid("", 13)])


def test_adding_the_pooled_output_twice_leaves_one():
    m = tiny_model()
    for _ in range(2):
        dump.strip_added(m)
        dump.add_pooled(m)
    onnx.checker.check_model(m)
    assert [o.name for o in m.graph.output] == ["logits", "pooled"]
    assert sum(n.output[0] == "pooled" for n in m.graph.node) == 1
