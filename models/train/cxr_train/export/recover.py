"""Recover model 2's anatomy U-Net and input gate from the shipped anatomy.onnx as torch modules.

Model 2's training checkpoints lived in .cache/ (never committed), so model 3 starts from the shipped
graph instead: the exporter folded every BatchNorm into the conv before it, so each conv's weight and
bias are read back in graph order and the BatchNorm becomes the identity plus that bias
(weight 1, mean 0, var 1 - eps). The recovered nets compute what anatomy.onnx computes.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.export.recover   -> .cache/v2/recovered/{anatomy,gate}.pt
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.data.cache import CACHE
from cxr_train.common import MODEL_DIR, cli_parser
from cxr_train.gate.net import GateNet

OUT = CACHE / "recovered"


def conv_params(model: onnx.ModelProto) -> list[tuple[np.ndarray, np.ndarray]]:
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    out = []
    for node in model.graph.node:
        if node.op_type == "Conv":
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
            m.weight.copy_(torch.from_numpy(w))
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


def parser() -> argparse.ArgumentParser:
    return cli_parser(__doc__)


def main() -> None:
    parser().parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    anatomy, gate = recover()
    torch.save({"net": anatomy.state_dict()}, OUT / "anatomy.pt")
    torch.save({"gate": gate.state_dict()}, OUT / "gate.pt")
    print(f"recovered anatomy + gate -> {OUT}")


if __name__ == "__main__":
    main()
