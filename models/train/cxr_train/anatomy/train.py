"""Train the anatomy U-Net (lungs on QU-Ex + SCR masks, heart on SCR masks) from .cache/v2/seg.npz.

Checkpoints every epoch to .cache/v2/anatomy/last.pt and resumes from it; keeps the best
epoch by validation Dice (lungs + heart) in best.pt. Log: .cache/v2/anatomy/train.log.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.anatomy.train [--epochs 14] [--steps 120]
"""
from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.data.augment import opacify, photometric, random_affine, warp
from cxr_train.data.cache import CACHE
from cxr_train.common import cli_parser, seed_everything, versions

RUN = CACHE / "anatomy"
# Films without heart masks still say where the heart is NOT: inside the lung fields and outside
# their bounding box. Without this the heart channel, taught on 198 JSRT films only, painted
# whole RSNA and pediatric films as heart.
MEAN, STD = 0.5, 0.25


def normalise(x255: torch.Tensor) -> torch.Tensor:
    return (x255 / 255 - MEAN) / STD


def dice(pred: np.ndarray, ref: np.ndarray) -> float:
    s = pred.sum() + ref.sum()
    return 1.0 if s == 0 else float(2 * (pred & ref).sum() / s)


def load():
    z = np.load(CACHE / "seg.npz")
    rows = json.loads((CACHE / "rows.json").read_text())
    split = np.array([rows[i]["split"] for i in z["row"]])
    return z, split


def evaluate(net, z, idx) -> dict:
    net.eval()
    out = {"lung": [], "heart": []}
    with torch.no_grad():
        for s in range(0, len(idx), 128):
            b = idx[s : s + 128]
            x = normalise(torch.from_numpy(z["img"][b]).float()[:, None])
            p = (net(x) > 0).numpy()
            for k, i in enumerate(b):
                out["lung"].append(dice(p[k, 0], z["lung"][i] > 0))
                if z["has_heart"][i]:
                    out["heart"].append(dice(p[k, 1], z["heart"][i] > 0))
    return {k: float(np.mean(v)) if v else float("nan") for k, v in out.items()}


def not_heart(lung: torch.Tensor) -> torch.Tensor:
    """(B,H,W) lung masks -> 1 where the heart cannot be: in the lungs or outside their box."""
    b, h, w = lung.shape
    rows, cols = lung.amax(2) > 0, lung.amax(1) > 0  # (B,H), (B,W)
    ar_h = torch.arange(h)[None].expand(b, h)
    ar_w = torch.arange(w)[None].expand(b, w)
    big = 10**6
    y0 = torch.where(rows, ar_h, big).amin(1)
    y1 = torch.where(rows, ar_h, -1).amax(1)
    x0 = torch.where(cols, ar_w, big).amin(1)
    x1 = torch.where(cols, ar_w, -1).amax(1)
    inside = ((ar_h >= y0[:, None]) & (ar_h <= y1[:, None]))[:, :, None] & ((ar_w >= x0[:, None]) & (ar_w <= x1[:, None]))[:, None, :]
    return ((~inside) | (lung > 0)).float()


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--steps", type=int, default=120)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--run", type=Path, default=RUN)
    ap.add_argument("--init", type=Path, help="start from these weights (fine-tuning)")
    ap.add_argument("--freeze-bn", action="store_true", help="keep BatchNorm statistics fixed (weights recovered from a BN-folded graph)")
    ap.add_argument("--stop-after", type=int, help="end after this many epochs, keeping the --epochs learning-rate schedule (CPU budget)")
    ap.add_argument("--opacify", type=float, default=0.0, help="share of each batch given simulated lung opacities and lines")
    return ap


def main() -> None:
    args = parser().parse_args()
    run = args.run
    seed_everything(args.seed)
    torch.set_num_threads(2)
    run.mkdir(parents=True, exist_ok=True)
    z, split = load()
    z = {k: z[k] for k in z.files}
    tr = np.flatnonzero(split == "train")
    va = np.flatnonzero(split == "val")
    tr_heart = tr[z["has_heart"][tr]]
    img = torch.from_numpy(z["img"]).float()[:, None]
    masks = torch.from_numpy(np.stack([z["lung"], z["heart"]], 1)).float()
    net = AnatomyNet()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    total = args.epochs * args.steps
    start, best = 0, -1.0
    log = open(run / "train.log", "a")
    if args.init and not (run / "last.pt").exists():
        net.load_state_dict(torch.load(args.init)["net"])
    if (run / "last.pt").exists():
        ck = torch.load(run / "last.pt")
        net.load_state_dict(ck["net"])
        opt.load_state_dict(ck["opt"])
        start, best = ck["epoch"] + 1, ck["best"]
        print(f"resumed at epoch {start}", flush=True)
    else:
        log.write(json.dumps({"versions": versions(), "args": vars(args), "n_train": len(tr)}, default=str) + "\n")
    g = torch.Generator().manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    for epoch in range(start, min(args.epochs, args.stop_after or args.epochs)):
        rng = np.random.default_rng(args.seed + epoch)
        g.manual_seed(args.seed + epoch)
        net.train()
        if args.freeze_bn:
            for m in net.modules():
                if isinstance(m, torch.nn.BatchNorm2d):
                    m.eval()
        t0, losses = time.time(), []
        for step in range(args.steps):
            it = epoch * args.steps + step
            lr = args.lr * 0.5 * (1 + math.cos(math.pi * it / total)) if it > 50 else args.lr * it / 50
            for pg in opt.param_groups:
                pg["lr"] = lr
            # A quarter of each batch from the heart-annotated films (198 of ~3,400).
            nh = args.batch_size // 4
            b = np.concatenate([rng.choice(tr_heart, nh), rng.choice(tr, args.batch_size - nh)])
            theta = random_affine(len(b), g)
            y = (warp(masks[b], theta) > 0.5).float()
            x = warp(img[b], theta)
            if args.opacify > 0:
                x = opacify(x, y[:, :1], g, args.opacify)
            x = photometric(x, g)
            logits = net(normalise(x))
            hw = torch.from_numpy(z["has_heart"][b]).float()[:, None, None]
            bce = F.binary_cross_entropy_with_logits(logits, y, reduction="none")
            loss_lung = bce[:, 0].mean()
            loss_heart = (bce[:, 1] * hw).sum() / (hw.sum() * bce.shape[-1] ** 2 + 1e-6)
            loss_heart = loss_heart + (bce[:, 1] * not_heart(y[:, 0]) * (1 - hw)).mean()
            p = torch.sigmoid(logits)
            inter = (p * y).sum((2, 3))
            den = p.sum((2, 3)) + y.sum((2, 3))
            d = 1 - (2 * inter + 1) / (den + 1)
            hb = hw[:, 0, 0]
            loss = loss_lung + loss_heart + d[:, 0].mean() + (d[:, 1] * hb).sum() / (hb.sum() + 1e-6)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
        m = evaluate(net, z, va)
        score = m["lung"] + m["heart"]
        rec = {"epoch": epoch, "loss": float(np.mean(losses)), "val_dice": m, "sec": round(time.time() - t0, 1)}
        print(json.dumps(rec), flush=True)
        log.write(json.dumps(rec) + "\n")
        log.flush()
        if score > best:
            best = score
            torch.save({"net": net.state_dict(), "epoch": epoch, "val_dice": m}, run / "best.pt")
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "epoch": epoch, "best": best}, run / "last.pt")


if __name__ == "__main__":
    main()
