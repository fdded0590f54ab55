"""Anatomy stage: a small U-Net that segments the lung fields and the heart on the whole film.

Input: the film as the gate sees it (gray, area-stretched to 128x128, (x/255 - 0.5)/0.25).
Output: 2 logit maps at 128x128 (channel 0 lungs, channel 1 heart).
"""
from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

CHANNELS = ["lung", "heart"]


def block(cin: int, cout: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, 1, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class AnatomyNet(nn.Module):
    def __init__(self, width: int = 16):
        super().__init__()
        w = width
        self.e1 = block(1, w)  # 128
        self.e2 = block(w, 2 * w)  # 64
        self.e3 = block(2 * w, 4 * w)  # 32
        self.e4 = block(4 * w, 8 * w)  # 16
        self.mid = block(8 * w, 8 * w)  # 8: wide context, the heart border needs the whole chest
        self.d4 = block(16 * w, 4 * w)
        self.d3 = block(8 * w, 2 * w)
        self.d2 = block(4 * w, w)
        self.d1 = block(2 * w, w)
        self.out = nn.Conv2d(w, len(CHANNELS), 1)

    def forward(self, x):
        e1 = self.e1(x)
        e2 = self.e2(F.max_pool2d(e1, 2))
        e3 = self.e3(F.max_pool2d(e2, 2))
        e4 = self.e4(F.max_pool2d(e3, 2))
        m = self.mid(F.max_pool2d(e4, 2))
        up = lambda t: F.interpolate(t, scale_factor=2.0, mode="nearest")  # noqa: E731
        d4 = self.d4(torch.cat([up(m), e4], 1))
        d3 = self.d3(torch.cat([up(d4), e3], 1))
        d2 = self.d2(torch.cat([up(d3), e2], 1))
        d1 = self.d1(torch.cat([up(d2), e1], 1))
        return self.out(d1)
