"""Model 3's fine-tuned classifier: ImageNet MobileNetV2 blocks 0-13 frozen, blocks 14-18 and a linear
head trained on cached block-13 activations.

Speed on a 2-core CPU decides the layout (issue 26's measurements): every BatchNorm of the Coral
weights is an identity plus a bias, so it is folded into its conv; tensors are channels_last
(a depthwise 3x3 conv costs 15-24 ms/image in NCHW and 0.3 ms in channels_last).
The feature vector the head sees is model 2's: block-13 output average-pooled to 7x7 (96 channels)
next to the top 1280 channels, so cxr_train.heads.head.Head, its CAMs and the export stay as they were.
"""
from __future__ import annotations

import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from cxr_train.heads.head import Head
from cxr_train.heads.backbone import MID_BLOCK, Backbone

TOP_FIRST = MID_BLOCK + 1  # 14


def fold_bn(module: nn.Module) -> nn.Module:
    """Replace every Conv2d -> BatchNorm2d pair by one Conv2d with a bias (eval-mode BN maths)."""
    for name, child in list(module.named_children()):
        fold_bn(child)
    kids = list(module.named_children())
    for (n1, c1), (n2, c2) in zip(kids, kids[1:]):
        if isinstance(c1, nn.Conv2d) and isinstance(c2, nn.BatchNorm2d):
            scale = c2.weight / torch.sqrt(c2.running_var + c2.eps)
            conv = nn.Conv2d(c1.in_channels, c1.out_channels, c1.kernel_size, c1.stride, c1.padding, groups=c1.groups, bias=True)
            with torch.no_grad():
                conv.weight.copy_(c1.weight * scale[:, None, None, None])
                b = c1.bias if c1.bias is not None else torch.zeros_like(c2.running_mean)
                conv.bias.copy_((b - c2.running_mean) * scale + c2.bias)
            setattr(module, n1, conv)
            setattr(module, n2, nn.Identity())
    return module


def folded_backbone() -> Backbone:
    bb = Backbone().eval()
    fold_bn(bb.features)
    for p in bb.parameters():
        p.requires_grad_(False)
    return bb.to(memory_format=torch.channels_last)


class LowerBlocks(nn.Module):
    """Gray crop (B,1,S,S) in 0..255 -> block-13 activations (B,96,S/16,S/16). Frozen."""

    def __init__(self, bb: Backbone):
        super().__init__()
        self.features = bb.features[:TOP_FIRST]

    def forward(self, x255):
        x = ((x255 - 128.0) / 128.0).contiguous(memory_format=torch.channels_last)
        return self.features(x)


class TopNet(nn.Module):
    """Block-13 activations -> (logits, cams). Blocks 14-18 + head are what model 3 trains."""

    def __init__(self, bb: Backbone, head: Head):
        super().__init__()
        self.top = copy.deepcopy(bb.features[TOP_FIRST:])
        for p in self.top.parameters():
            p.requires_grad_(True)
        self.head = head

    def features(self, b13: torch.Tensor) -> torch.Tensor:
        b13 = b13.contiguous(memory_format=torch.channels_last)
        return torch.cat([F.avg_pool2d(b13, 2), self.top(b13)], 1)

    def forward(self, b13: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(b13))


def shipped_backbone(top_weights=None):
    """The backbone model 3 ships: folded, with the fine-tuned blocks 14-18 (heads/top.pt); model 2's
    frozen one when there are none. Plain NCHW memory format, as the ONNX export and the reference
    pipeline use it."""
    from pathlib import Path

    from cxr_train.data.cache import CACHE

    path = Path(top_weights) if top_weights else CACHE / "heads" / "top.pt"
    if not path.exists():
        return Backbone().eval()
    bb = folded_backbone().to(memory_format=torch.contiguous_format)
    bb.features[TOP_FIRST:].load_state_dict(torch.load(path)["top"])
    return bb.eval()
