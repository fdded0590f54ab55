"""cxr_train.export.recover.recover_classifier reads model 3's classifier back from models/cxr/model.onnx: the head is
the graph's head initializers, every conv the export kept by name equals the recovered torch weights, and model 4's
additions to the graph (nodes named m4_*) change nothing."""
import numpy as np
import pytest

for needed in ("torch", "torchvision", "onnx"):
    pytest.importorskip(needed, reason="recovery imports Debian's python3-torch, -torchvision, -onnx")

import onnx  # noqa: E402
import torch  # noqa: E402
from onnx import helper, numpy_helper  # noqa: E402

from cxr_train.common import MODEL_DIR  # noqa: E402
from cxr_train.export.model import ClassifierExport  # noqa: E402
from cxr_train.export.recover import HEAD_INITS, recover_classifier  # noqa: E402
from cxr_train.heads.backbone import PRETRAINED  # noqa: E402
from cxr_train.heads.finetune.net import TOP_FIRST, folded_backbone  # noqa: E402

GRAPH = MODEL_DIR / "model.onnx"


@pytest.fixture(scope="module")
def graph() -> onnx.ModelProto:
    if not PRETRAINED.exists():
        pytest.skip(f"needs the ImageNet backbone ({PRETRAINED})")
    model = onnx.load(str(GRAPH))
    names = {i.name for i in model.graph.initializer}
    if not set(HEAD_INITS) <= names:
        pytest.skip(f"{GRAPH} is not a model 3 classifier graph")
    return model


@pytest.fixture(scope="module")
def recovered(graph):
    return recover_classifier(GRAPH)


def initializers(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    return {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}


def test_the_head_is_the_graphs_head_initializers(graph, recovered):
    _, head = recovered
    init = initializers(graph)
    state = head.state_dict()
    assert head.c1 is None
    for name in HEAD_INITS:
        np.testing.assert_array_equal(state[name[len("head."):]].numpy(), init[name], err_msg=name)


def test_every_named_initializer_equals_the_recovered_classifier(graph, recovered):
    top, head = recovered
    bb = folded_backbone().to(memory_format=torch.contiguous_format)
    bb.features[TOP_FIRST:].load_state_dict(top.state_dict())
    state = ClassifierExport(bb, head).state_dict()
    shared = [(n, a) for n, a in initializers(graph).items() if n in state]
    assert len(shared) > 60 and any(n.startswith(f"features.{TOP_FIRST + 1}.") for n, _ in shared)
    for name, arr in shared:
        np.testing.assert_allclose(state[name].numpy(), arr, rtol=0, atol=1e-6, err_msg=name)


def test_model_4_nodes_are_ignored(graph, recovered, tmp_path):
    """A projection output (ReduceMean + Gemm on the head input, and a conv for good measure) named m4_*."""
    model = onnx.ModelProto()
    model.CopyFrom(graph)
    g = model.graph
    head_in = next(n for n in g.node if n.op_type == "Conv" and n.input[1] == "head.c2.weight").input[0]
    rng = np.random.default_rng(0)
    g.initializer.extend([
        numpy_helper.from_array(rng.standard_normal((8, 1376)).astype(np.float32), "m4_proj.weight"),
        numpy_helper.from_array(np.zeros(8, np.float32), "m4_proj.bias"),
        numpy_helper.from_array(rng.standard_normal((4, 1376, 1, 1)).astype(np.float32), "m4_conv.weight"),
    ])
    g.node.extend([
        helper.make_node("Conv", [head_in, "m4_conv.weight"], ["m4_conv_out"], name="m4_conv"),
        helper.make_node("ReduceMean", [head_in], ["m4_pooled"], name="m4_pool", axes=[2, 3], keepdims=0),
        helper.make_node("Gemm", ["m4_pooled", "m4_proj.weight", "m4_proj.bias"], ["projection"], name="/m4_proj/Gemm", transB=1),
    ])
    g.output.append(helper.make_tensor_value_info("projection", onnx.TensorProto.FLOAT, [1, 8]))
    path = tmp_path / "model-with-projection.onnx"
    onnx.save(model, str(path))
    top, head = recover_classifier(path)
    for a, b in ((top, recovered[0]), (head, recovered[1])):
        for (k, v), (k2, v2) in zip(a.state_dict().items(), b.state_dict().items()):
            assert k == k2 and torch.equal(v, v2), k
