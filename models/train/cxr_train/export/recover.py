"""Recover model 2's anatomy U-Net and input gate from the shipped anatomy.onnx as torch modules, and (with
--classifier-onnx) model 3's classifier from its model.onnx.

Model 2's training checkpoints lived in .cache/ (never committed), so model 3 starts from the shipped
graph instead: the exporter folded every BatchNorm into the conv before it, so each conv's weight and
bias are read back in graph order and the BatchNorm becomes the identity plus that bias
(weight 1, mean 0, var 1 - eps). The recovered nets compute what anatomy.onnx computes.

The classifier (model.onnx: folded MobileNetV2 blocks 0-18, then the linear head) is read the same way:
blocks 0-13 must equal the frozen ImageNet weights (checked), blocks 14-18 become heads/top.pt and the
head (head.mean, head.std, head.c2.*) heads/head.pt, in the layouts cxr_train/heads/finetune/features.py
writes. With --classifier-onnx the recovered anatomy is also written to .cache/v2/anatomy3/best.pt, so every
file a model 3 manifest's torchWeights names exists (cxr_train.export.reference_lung_crop.load_nets reads them).
Nodes named m4_* (model 4's additions to the graph) are ignored.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.export.recover   -> .cache/v2/recovered/{anatomy,gate}.pt
       ... -m cxr_train.export.recover --classifier-onnx FILE   -> also .cache/v2/heads/{top,head}.pt, .cache/v2/anatomy3/best.pt
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.data.cache import CACHE
from cxr_train.common import MODEL_DIR, cli_parser
from cxr_train.data.labels import LABELS
from cxr_train.gate.net import GateNet
from cxr_train.heads.head import Head

OUT = CACHE / "recovered"
HEADS = CACHE / "heads"
ANATOMY3 = CACHE / "anatomy3" / "best.pt"  # model 3's manifest torchWeights.anatomy
HEAD_INITS = ("head.mean", "head.std", "head.c2.weight", "head.c2.bias")


def ignored(node: onnx.NodeProto) -> bool:
    """Model 4's additions to the model 3 graph (e.g. the projection output)."""
    return node.name.lstrip("/").startswith("m4_")


def conv_params(model: onnx.ModelProto, skip: tuple[str, ...] = ()) -> list[tuple[np.ndarray, np.ndarray]]:
    """(weight, bias) of every Conv in graph order, but those whose weight is named in `skip`."""
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    out = []
    for node in model.graph.node:
        if node.op_type == "Conv" and not ignored(node) and node.input[1] not in skip:
            w = init[node.input[1]]
            b = init[node.input[2]] if len(node.input) > 2 else np.zeros(w.shape[0], np.float32)
            out.append((w, b))
    return out


def load_into(net: nn.Module, params: list[tuple[np.ndarray, np.ndarray]]) -> int:
    """Copy (weight, folded bias) pairs into the net's convs in registration (= forward) order."""
    mods = list(net.modules())
    k = 0
    with torch.no_grad():
        for i, m in enumerate(mods):
            if not isinstance(m, nn.Conv2d):
                continue
            w, b = params[k]
            k += 1
            assert tuple(m.weight.shape) == w.shape, (m, w.shape)
            m.weight.copy_(torch.from_numpy(np.array(w)))
            nxt = mods[i + 1] if i + 1 < len(mods) else None
            if isinstance(nxt, nn.BatchNorm2d):
                nxt.weight.fill_(1.0)
                nxt.bias.copy_(torch.from_numpy(b))
                nxt.running_mean.zero_()
                nxt.running_var.fill_(1.0 - nxt.eps)
            else:
                assert m.bias is not None
                m.bias.copy_(torch.from_numpy(b))
    return k


def recover(path: Path = MODEL_DIR / "anatomy.onnx") -> tuple[AnatomyNet, GateNet]:
    model = onnx.load(str(path))
    params = conv_params(model)
    anatomy, gate = AnatomyNet(), GateNet()
    n = load_into(anatomy, params)
    m = load_into(gate, params[n:])
    assert n + m == len(params), (n, m, len(params))
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    with torch.no_grad():
        gate.fc.weight.copy_(torch.from_numpy(init["gate.fc.weight"]))
        gate.fc.bias.copy_(torch.from_numpy(init["gate.fc.bias"]))
    return anatomy.eval(), gate.eval()


def head_labels(path: Path, outputs: int | None = None) -> list[str]:
    """The head's labels: named by the manifest beside the graph, or the shipped one (model 5 added lung_opacity),
    whichever has as many as the graph's head; else model 3's."""
    for man in (path.parent / "manifest.json", MODEL_DIR / "manifest.json"):
        if man.exists():
            labels = list(json.loads(man.read_text())["heads"][0]["labels"])
            if outputs is None or len(labels) == outputs:
                return labels
    return list(LABELS)


def recover_classifier(path: Path = MODEL_DIR / "model.onnx") -> tuple[nn.Sequential, Head]:
    """Model 3's fine-tuned blocks 14-18 (as in shipped_backbone: folded, NCHW) and its linear head from model.onnx."""
    from cxr_train.heads.finetune.net import TOP_FIRST, folded_backbone

    model = onnx.load(str(path))
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    missing = [n for n in HEAD_INITS if n not in init]
    if missing:
        raise SystemExit(f"{path}: no {', '.join(missing)}: not a model 3 classifier graph")
    params = conv_params(model, skip=("head.c2.weight",))
    features = folded_backbone().to(memory_format=torch.contiguous_format).features
    lower, top = features[:TOP_FIRST], features[TOP_FIRST:]
    frozen = {k: v.clone() for k, v in lower.state_dict().items()}
    n = load_into(lower, params)
    m = load_into(top, params[n:])
    assert n + m == len(params), (n, m, len(params))
    # Blocks 0-13 are the frozen ImageNet weights shipped_backbone() rebuilds: the graph must hold exactly those.
    for k, v in lower.state_dict().items():
        if not torch.allclose(v.float(), frozen[k].float(), rtol=1e-5, atol=1e-6):
            raise SystemExit(f"{path}: block {k} differs from the frozen ImageNet backbone; not model 3's classifier")
    w = init["head.c2.weight"]
    labels = head_labels(path, w.shape[0])
    if w.shape[0] != len(labels):
        raise SystemExit(f"{path}: the head has {w.shape[0]} outputs, its manifest names {len(labels)}")
    head = Head(len(labels), hidden=0)
    with torch.no_grad():
        for name in HEAD_INITS:
            head.get_parameter(name[len("head."):]).copy_(torch.from_numpy(init[name]))
    return top.eval(), head.eval()


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--anatomy-onnx", type=Path, default=MODEL_DIR / "anatomy.onnx", help="the anatomy + gate graph")
    ap.add_argument("--classifier-onnx", type=Path, default=None,
                    help="a model 3 model.onnx: also write heads/top.pt, heads/head.pt and anatomy3/best.pt")
    return ap


def main() -> None:
    args = parser().parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    anatomy, gate = recover(args.anatomy_onnx)
    torch.save({"net": anatomy.state_dict()}, OUT / "anatomy.pt")
    torch.save({"gate": gate.state_dict()}, OUT / "gate.pt")
    print(f"recovered anatomy + gate from {args.anatomy_onnx} -> {OUT}")
    if args.classifier_onnx is None:
        return
    top, head = recover_classifier(args.classifier_onnx)
    HEADS.mkdir(parents=True, exist_ok=True)
    ANATOMY3.parent.mkdir(parents=True, exist_ok=True)
    src = str(args.classifier_onnx.resolve())
    torch.save({"head": head.state_dict(), "hidden": 0, "labels": head_labels(args.classifier_onnx), "args": {"recovered_from": src}}, HEADS / "head.pt")
    torch.save({"top": top.state_dict(), "recovered_from": src}, HEADS / "top.pt")
    torch.save({"net": anatomy.state_dict(), "recovered_from": str(args.anatomy_onnx.resolve())}, ANATOMY3)
    print(f"recovered classifier from {args.classifier_onnx} -> {HEADS}/top.pt, head.pt; anatomy -> {ANATOMY3}")


if __name__ == "__main__":
    main()
