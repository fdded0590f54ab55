"""Train the input-gate net: chest radiograph / inverted radiograph / other.

Positives: train-split radiographs (plus letterboxed and photometric variants);
negatives: .cache/gate/train.npz from build_gate_data.py.
Usage: /usr/bin/python3 models/train/train_gate.py [--steps 1500]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from common import CACHE_DIR, seed_everything, versions
from data import Resizer, load_cache, split_idx
from net import NORM_MEAN, NORM_STD, GateNet


def jitter(x01: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    b = x01.shape[0]
    r = lambda lo, hi: (lo + (hi - lo) * torch.rand(b, generator=g))[:, None, None, None]
    x = x01.clamp(0, 1) ** torch.exp(r(-0.4, 0.4))
    m = x.mean((2, 3), keepdim=True)
    return ((x - m) * r(0.6, 1.3) + m + r(-0.1, 0.1)).clamp(0, 1)


def positives(x224: torch.Tensor, g: torch.Generator, resizer: Resizer) -> torch.Tensor:
    """Radiographs as uploads may come: shifted, rotated, letterboxed (black/white bars)."""
    b = x224.shape[0]
    r = lambda lo, hi: lo + (hi - lo) * torch.rand(b, generator=g)
    ang = r(-10, 10) * np.pi / 180
    sx, sy = r(0.85, 1.15), r(0.85, 1.15)
    box = torch.rand(b, generator=g) < 0.3  # letterbox: squeeze one axis
    sx = torch.where(box & (torch.rand(b, generator=g) < 0.5), r(1.1, 1.6), sx)
    sy = torch.where(box & ~(sx > 1.15), r(1.1, 1.6), sy)
    th = torch.stack([torch.stack([torch.cos(ang) * sx, -torch.sin(ang) * sx, r(-0.08, 0.08)], 1),
                      torch.stack([torch.sin(ang) * sy, torch.cos(ang) * sy, r(-0.08, 0.08)], 1)], 1)
    grid = F.affine_grid(th, list(x224.shape), align_corners=False)
    fill = (torch.rand(b, generator=g) < 0.25).float()[:, None, None, None] * 255  # white bars sometimes
    ones = torch.ones_like(x224)
    x = F.grid_sample(x224, grid, padding_mode="zeros", align_corners=False)
    inside = F.grid_sample(ones, grid, padding_mode="zeros", align_corners=False)
    x = x + (1 - inside) * fill
    return jitter(resizer(x) / 255.0, g)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--bs", type=int, default=128)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=CACHE_DIR.parent / "gate" / "gate.pt")
    ap.add_argument("--neg", type=Path, default=CACHE_DIR.parent / "gate" / "train.npz")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    seed_everything(args.seed)
    images, rows, meta = load_cache()
    tr = split_idx(rows, "train")
    neg = np.load(args.neg)
    neg_x = torch.from_numpy(neg["x"].astype(np.float32))[:, None] / 255.0
    print(json.dumps({"versions": versions(), "data_version": meta["data_version"], "n_pos": len(tr), "n_neg": len(neg_x)}), flush=True)
    net = GateNet()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps, pct_start=0.1)
    g = torch.Generator().manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    resizer = Resizer()
    t0 = time.time()
    for step in range(args.steps):
        nb = args.bs // 2
        pi = tr[rng.integers(0, len(tr), nb)]
        xp = positives(torch.from_numpy(images[pi].astype(np.float32))[:, None], g, resizer)
        inv = torch.rand(nb, generator=g) < 0.3
        xp = torch.where(inv[:, None, None, None], 1 - xp, xp)
        xn = neg_x[torch.from_numpy(rng.integers(0, len(neg_x), args.bs - nb))]
        xn = jitter(xn, g) if step % 2 else xn
        x = (torch.cat([xp, xn]) - NORM_MEAN) / NORM_STD
        y = torch.cat([inv.long(), torch.full((args.bs - nb,), 2)])
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0:
            print(json.dumps({"step": step, "loss": round(loss.item(), 4), "sec": round(time.time() - t0)}), flush=True)
    torch.save({"gate": net.state_dict(), "steps": args.steps, "seed": args.seed}, args.out)
    print("saved", args.out)


if __name__ == "__main__":
    main()
