"""Batched, radiograph-appropriate augmentation in torch (geometry shared by image and masks).

No horizontal flips: the heart's side is anatomy, not noise."""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F


def random_affine(b: int, g: torch.Generator, rot=10.0, scale=(0.85, 1.2), shift=0.08, aspect=0.1) -> torch.Tensor:
    ang = (torch.rand(b, generator=g) * 2 - 1) * math.radians(rot)
    s = scale[0] + torch.rand(b, generator=g) * (scale[1] - scale[0])
    a = 1 + (torch.rand(b, generator=g) * 2 - 1) * aspect
    sx, sy = 1 / (s * a), a / s
    tx = (torch.rand(b, generator=g) * 2 - 1) * shift * 2
    ty = (torch.rand(b, generator=g) * 2 - 1) * shift * 2
    cos, sin = torch.cos(ang), torch.sin(ang)
    theta = torch.stack(
        [torch.stack([cos * sx, -sin * sx, tx], 1), torch.stack([sin * sy, cos * sy, ty], 1)], 1
    )
    return theta


def warp(x: torch.Tensor, theta: torch.Tensor, mode: str = "bilinear", fill: float = 0.0) -> torch.Tensor:
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    # Fill outside with `fill` (black border, as on a shifted film).
    return F.grid_sample(x - fill, grid, mode=mode, padding_mode="zeros", align_corners=False) + fill


def photometric(x: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """x: (B,1,H,W) in 0..255. Gamma, contrast/brightness, blur or low resolution, noise."""
    b = x.shape[0]
    u = x.clamp(0, 255) / 255
    gamma = torch.exp((torch.rand(b, 1, 1, 1, generator=g) * 2 - 1) * 0.45)
    u = u.clamp_min(1e-4) ** gamma
    c = 1 + (torch.rand(b, 1, 1, 1, generator=g) * 2 - 1) * 0.25
    br = (torch.rand(b, 1, 1, 1, generator=g) * 2 - 1) * 0.08
    m = u.mean((2, 3), keepdim=True)
    u = (u - m) * c + m + br
    h = x.shape[-1]
    low = torch.rand(b, generator=g) < 0.15  # like the 64 px thumbnails some archives keep
    if low.any():
        small = F.interpolate(u[low], size=(h // 3, h // 3), mode="area")
        u[low] = F.interpolate(small, size=(h, h), mode="bilinear", align_corners=False)
    noise = torch.rand(b, 1, 1, 1, generator=g) * 0.03
    u = u + torch.randn(u.shape, generator=g) * noise
    return (u.clamp(0, 1) * 255)


def opacify(x: torch.Tensor, lung: torch.Tensor, g: torch.Generator, p: float = 0.4) -> torch.Tensor:
    """Imitate airspace disease and portable-film clutter on a fraction p of the batch.

    x (B,1,H,W) in 0..255, lung (B,1,H,W) in {0,1} (the warped lung target). Smooth random blobs
    inside the lung fields are brightened towards white (consolidation, effusion-like basal haze),
    and a few thin bright lines cross the chest (tubes, wires). The masks stay as they were: an
    opacified lung is still lung, and its opacity is not heart (model 2's heart mask spread into
    opacified lower lungs, ../shared/notes/ctr-on-opacified-films.md)."""
    b, _, h, w = x.shape
    pick = (torch.rand(b, generator=g) < p).float()[:, None, None, None]
    if pick.sum() == 0:
        return x
    field = torch.rand(b, 1, 6, 6, generator=g)
    field = F.interpolate(field, size=(h, w), mode="bicubic", align_corners=False)
    cut = 0.35 + torch.rand(b, 1, 1, 1, generator=g) * 0.45
    blob = ((field - cut) / 0.15).clamp(0, 1)
    # Basal haze on some films: opacity that grows towards the lung bases.
    ramp = torch.linspace(0, 1, h)[None, None, :, None].expand(b, 1, h, w)
    basal = (torch.rand(b, 1, 1, 1, generator=g) < 0.3).float()
    blob = torch.maximum(blob, basal * ((ramp - 0.55) / 0.3).clamp(0, 1))
    blob = F.avg_pool2d(blob * lung, 9, 1, 4)
    strength = 0.35 + torch.rand(b, 1, 1, 1, generator=g) * 0.55
    u = x / 255
    u = u + (0.92 - u).clamp_min(0) * blob * strength
    # Lines: 0-3 thin bright straight segments per film.
    yy = torch.linspace(-1, 1, h)[:, None].expand(h, w)
    xx = torch.linspace(-1, 1, w)[None, :].expand(h, w)
    for _ in range(3):
        on = (torch.rand(b, generator=g) < 0.35).float()[:, None, None]
        ang = torch.rand(b, generator=g)[:, None, None] * math.pi
        off = (torch.rand(b, generator=g)[:, None, None] * 2 - 1) * 0.6
        d = (xx[None] * torch.cos(ang) + yy[None] * torch.sin(ang) - off).abs()
        line = (1 - d / 0.012).clamp(0, 1) * on
        u = torch.maximum(u, line[:, None] * 0.95)
    u = u.clamp(0, 1) * 255
    return pick * u + (1 - pick) * x
