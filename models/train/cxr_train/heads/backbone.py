"""ImageNet MobileNetV2 (google-coral/test_data, Apache-2.0) as a 1-channel feature extractor.

Loaded by the recipe in ../shared/pretrained/README.md: torchvision's mobilenet_v2 with the
npz weights (OHWI -> OIHW, depthwise 1HWO -> O1HW), folded BN biases in identity BatchNorms,
the first conv summed over RGB for gray input, and TF "SAME" padding on the five stride-2 convs.
The weights stay frozen: model 2 trains only its heads on cached features (see cxr_train/heads/train.py),
so every cross-validated figure retrains exactly what ships.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

from cxr_train.common import REPO_ROOT

PRETRAINED = (REPO_ROOT / ".." / "shared" / "pretrained" / "mobilenet_v2_imagenet.npz").resolve()
STRIDE2 = ["features.0.0", "features.2.conv.1.0", "features.4.conv.1.0", "features.7.conv.1.0", "features.14.conv.1.0"]
MID_BLOCK = 13  # output of features[13]: 96 channels at stride 16
MID_CH, TOP_CH = 96, 1280


class TfPad(nn.Module):
    """TF SAME padding for a stride-2 3x3 conv on an even input: 0 top/left, 1 bottom/right."""

    def forward(self, x):
        return F.pad(x, (0, 1, 0, 1))


def load_mobilenet_v2(path: Path = PRETRAINED) -> nn.Module:
    z = np.load(path)
    keys = sorted({k.rsplit(".", 1)[0] for k in z.files})
    m = torchvision.models.mobilenet_v2(weights=None)
    convs = [(n, c) for n, c in m.named_modules() if isinstance(c, nn.Conv2d)]
    bns = [b for _, b in m.named_modules() if isinstance(b, nn.BatchNorm2d)]
    assert len(convs) == 52 and len(bns) == 52
    with torch.no_grad():
        for (name, conv), bn, key in zip(convs, bns, keys[:52]):
            w = z[key + ".weight"]
            if conv.groups > 1:  # depthwise 1HWO -> O1HW
                t = torch.from_numpy(w[0].transpose(2, 0, 1)[:, None].copy())
            else:  # OHWI -> OIHW
                t = torch.from_numpy(w.transpose(0, 3, 1, 2).copy())
            if name == "features.0.0":
                t = t.sum(1, keepdim=True)  # gray input == the gray image copied to RGB
                conv.in_channels = 1
            conv.weight = nn.Parameter(t)
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(z[key + ".bias"]))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
    mods = dict(m.named_modules())
    for name in STRIDE2:
        conv = mods[name]
        conv.padding = (0, 0)
        parent_name, idx = name.rsplit(".", 1)
        parent = mods[parent_name]
        parent[int(idx)] = nn.Sequential(TfPad(), conv)
    m.eval()
    for p in m.parameters():
        p.requires_grad_(False)
    return m


class Backbone(nn.Module):
    """Gray crop (B,1,S,S) in 0..255 -> (B, 96+1280, S/32, S/32): mid-level and top features."""

    def __init__(self, m: nn.Module | None = None):
        super().__init__()
        self.features = (m or load_mobilenet_v2()).features

    def forward(self, x255):
        x = (x255 - 128.0) / 128.0
        mid = None
        for i, layer in enumerate(self.features):
            x = layer(x)
            if i == MID_BLOCK:
                mid = x
        mid = F.avg_pool2d(mid, 2)
        return torch.cat([mid, x], 1)
