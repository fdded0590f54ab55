"""Network definitions: the chest X-ray classifier (with CAM), the input-gate net,
and the export wrapper that puts both in one ONNX graph."""
from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

from cxr_train.common import CLASSES, GATE_CLASSES, SUBTYPES

NORM_MEAN = 0.5
NORM_STD = 0.25


def conv_bn(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class BasicBlock(nn.Module):
    def __init__(self, cin: int, cout: int, stride: int = 1):
        super().__init__()
        self.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.b1 = nn.BatchNorm2d(cout)
        self.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.b2 = nn.BatchNorm2d(cout)
        self.short = None
        if stride != 1 or cin != cout:
            self.short = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)), inplace=True)
        y = self.b2(self.c2(y))
        s = x if self.short is None else self.short(x)
        return F.relu(y + s, inplace=True)


class CxrNet(nn.Module):
    """Compact ResNet, output stride 16 (8x8 feature map at 128 px) so CAMs have some detail."""

    def __init__(self, width: int = 32):
        super().__init__()
        w = width
        self.stem = nn.Sequential(conv_bn(1, w * 3 // 4, 2), conv_bn(w * 3 // 4, w, 2))
        self.layer1 = BasicBlock(w, w)
        self.layer2 = nn.Sequential(BasicBlock(w, 2 * w, 2), BasicBlock(2 * w, 2 * w))
        self.layer3 = nn.Sequential(BasicBlock(2 * w, 4 * w, 2), BasicBlock(4 * w, 4 * w))
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(4 * w, len(CLASSES))
        self.fc_sub = nn.Linear(4 * w, len(SUBTYPES))
        self.feat_dim = 4 * w

    def features(self, x):
        return self.layer3(self.layer2(self.layer1(self.stem(x))))

    def forward(self, x):
        f = self.features(x)
        g = self.drop(f.mean((2, 3)))
        return self.fc(g), self.fc_sub(g)


class GateNet(nn.Module):
    """Small net on a 64x64 downsample of the same input: chest X-ray / inverted / other."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            conv_bn(1, 16, 2),  # 32
            conv_bn(16, 32, 2),  # 16
            conv_bn(32, 32, 1),
            conv_bn(32, 64, 2),  # 8
            conv_bn(64, 64, 2),  # 4
        )
        self.fc = nn.Linear(64 + 2, len(GATE_CLASSES))

    def forward(self, x):
        x = F.avg_pool2d(x, 2) if x.shape[-1] > 64 else x
        f = self.body(x).mean((2, 3))
        # global brightness statistics help with polarity and blank images
        stats = torch.cat([x.mean((2, 3)), x.std((2, 3))], 1)
        return self.fc(torch.cat([f, stats], 1))


class ExportModel(nn.Module):
    """What ships in model.onnx: calibrated-ready logits, CAMs and the gate logits.

    Temperatures and the prior correction are NOT folded in; the manifest carries them
    and the runtime applies them, so one graph serves any calibration."""

    def __init__(self, net: CxrNet, gate: GateNet):
        super().__init__()
        self.net = net
        self.gate = gate

    def forward(self, x):
        f = self.net.features(x)
        g = f.mean((2, 3))
        logits = self.net.fc(g)
        sub = self.net.fc_sub(g)
        # CAM_c = sum_k w_ck f_k (+ b_c / no bias: a constant shift is removed by min-max anyway)
        cams = torch.einsum("bkhw,ck->bchw", f, self.net.fc.weight)
        sub_w = self.net.fc_sub.weight
        cams_sub = torch.einsum("bkhw,ck->bchw", f, sub_w)
        return logits, sub, torch.cat([cams, cams_sub], 1), self.gate(x)
