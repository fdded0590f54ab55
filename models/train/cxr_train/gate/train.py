"""Train the input-gate net of model 2: chest radiograph / inverted radiograph / other.

Positives: train-split radiographs of cxr-224 and cxr-extra (.cache/v2, cxr_train/data/cache.py), each
stretched to 128x128 with cxr_train.common.resize_area exactly as the worker does (the 64 px
nih-cxr14-kcr films are stretched up the same way), then shifted, rotated, letterboxed and
photometrically jittered; 30 % are inverted (label chest_xray_inverted). Sources are drawn
with weight sqrt(count) so the small ones (jsrt, kcr, talo, qu-ex) are not drowned by
covid-radiography-db. Negatives: .cache/gate/train.npz from cxr_train/gate/build_data.py, drawn per
generator kind (the medical look-alikes more often).
Writes .cache/gate/gate_v2.pt ({"gate": GateNet state_dict, ...}), which cxr_train/export/model.py ships.
Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.gate.train [--steps 3000] [--threads 1]
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from cxr_train.common import REPO_ROOT, cli_parser, resize_area, seed_everything, sha256_file, versions
from cxr_train.gate.net import NORM_MEAN, NORM_STD, GateNet

V2_CACHE = REPO_ROOT / ".cache" / "v2"
GATE_DIR = REPO_ROOT / ".cache" / "gate"
# Negative kinds that look most like a chest film are drawn more often.
KIND_WEIGHT = {"ct_slice": 2.0, "ct_reformat": 2.0, "abdomen_radiograph": 2.0, "lateral_chest": 2.0,
               "other_body_part": 2.0, "mri_slice": 1.0, "ultrasound": 1.0}
PRE_REFUSED_WEIGHT = 0.25  # negatives the deterministic checks refuse anyway matter less


def radiographs(split: str, images=None, rows=None):
    """Radiographs of one split of .cache/v2 at 128x128 (float32 0..255, the worker's box-filter
    stretch), their sources and their native images (for the deterministic checks). The 128 px
    stack is cached in .cache/gate/radiographs-<split>.npz, keyed by the sha256 of rows.json."""
    key = sha256_file(V2_CACHE / "rows.json")
    cache = GATE_DIR / f"radiographs-{split}.npz"
    if images is None:
        images = np.load(V2_CACHE / "images.npy", allow_pickle=True)
        rows = json.loads((V2_CACHE / "rows.json").read_text())
    idx = [i for i, r in enumerate(rows) if r["split"] == split]
    src = np.array([rows[i]["source"] for i in idx])
    if cache.exists():
        c = np.load(cache)
        if str(c["key"]) == key and len(c["x"]) == len(idx):
            return c["x"], src, [images[i] for i in idx]
    x = np.stack([resize_area(images[i]) for i in idx]).astype(np.float32)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.savez(cache, x=x, key=key)
    return x, src, [images[i] for i in idx]


def jitter(x01: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    b = x01.shape[0]

    def r(lo, hi):
        return (lo + (hi - lo) * torch.rand(b, generator=g))[:, None, None, None]

    x = x01.clamp(0, 1) ** torch.exp(r(-0.4, 0.4))
    m = x.mean((2, 3), keepdim=True)
    return ((x - m) * r(0.6, 1.3) + m + r(-0.1, 0.1)).clamp(0, 1)


def positives(x128: torch.Tensor, g: torch.Generator) -> torch.Tensor:
    """Radiographs as uploads may come: shifted, rotated, letterboxed (black/white bars),
    softer or noisier; a third stay exactly as the worker would see the file."""
    b = x128.shape[0]

    def r(lo, hi):
        return lo + (hi - lo) * torch.rand(b, generator=g)

    warp = torch.rand(b, generator=g) < 0.67
    ang = r(-10, 10) * np.pi / 180 * warp
    sx, sy = torch.where(warp, r(0.85, 1.15), 1.0), torch.where(warp, r(0.85, 1.15), 1.0)
    box = warp & (torch.rand(b, generator=g) < 0.3)  # letterbox: squeeze one axis
    sx = torch.where(box & (torch.rand(b, generator=g) < 0.5), r(1.1, 1.6), sx)
    sy = torch.where(box & ~(sx > 1.15), r(1.1, 1.6), sy)
    tx, ty = r(-0.08, 0.08) * warp, r(-0.08, 0.08) * warp
    th = torch.stack([torch.stack([torch.cos(ang) * sx, -torch.sin(ang) * sx, tx], 1),
                      torch.stack([torch.sin(ang) * sy, torch.cos(ang) * sy, ty], 1)], 1)
    grid = F.affine_grid(th, list(x128.shape), align_corners=False)
    fill = (torch.rand(b, generator=g) < 0.25).float()[:, None, None, None] * 255  # white bars sometimes
    x = F.grid_sample(x128, grid, padding_mode="zeros", align_corners=False)
    inside = F.grid_sample(torch.ones_like(x128), grid, padding_mode="zeros", align_corners=False)
    x = (x + (1 - inside) * fill) / 255.0
    low = (torch.rand(b, generator=g) < 0.15)[:, None, None, None]  # low-resolution uploads
    x = torch.where(low, F.interpolate(F.avg_pool2d(x, 2), scale_factor=2, mode="nearest"), x)
    noisy = (torch.rand(b, generator=g) < 0.15).float()[:, None, None, None]
    x = x + noisy * torch.randn(x.shape, generator=g) * 0.02
    return jitter(x, g)


def p_gate(net: GateNet, x255: np.ndarray, bs: int = 512) -> np.ndarray:
    """Softmax of the gate for 0..255 128x128 images."""
    out = []
    with torch.no_grad():
        for i in range(0, len(x255), bs):
            x = torch.from_numpy(np.asarray(x255[i:i + bs], dtype=np.float32))[:, None]
            out.append(torch.softmax(net((x / 255.0 - NORM_MEAN) / NORM_STD).double(), 1).numpy())
    return np.concatenate(out) if out else np.zeros((0, 3))


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--batch-size", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=99)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=GATE_DIR / "gate_v2.pt")
    ap.add_argument("--negatives", type=Path, default=GATE_DIR / "train.npz")
    ap.add_argument("--val-negatives", type=Path, default=GATE_DIR / "val.npz")
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(args.threads)
    seed_everything(args.seed)
    t0 = time.time()
    images = np.load(V2_CACHE / "images.npy", allow_pickle=True)
    rows = json.loads((V2_CACHE / "rows.json").read_text())
    pos_x, pos_src, _ = radiographs("train", images, rows)
    pos_x = torch.from_numpy(pos_x.astype(np.float32))[:, None]
    sources, counts = np.unique(pos_src, return_counts=True)
    w_src = {s: float(np.sqrt(c)) for s, c in zip(sources, counts)}
    w_pos = np.array([w_src[s] / c for s in pos_src for c in [dict(zip(sources, counts))[s]]])
    w_pos /= w_pos.sum()
    neg = np.load(args.negatives)
    neg_x = torch.from_numpy(neg["x"].astype(np.float32))[:, None] / 255.0
    kinds, kcounts = np.unique(neg["kind"], return_counts=True)
    kc = dict(zip(kinds, kcounts))
    w_neg = np.array([KIND_WEIGHT.get(k, 1.0) / kc[k] for k in neg["kind"]])
    w_neg *= np.where((neg["pre"] != "") | (neg["post"] != ""), PRE_REFUSED_WEIGHT, 1.0)
    w_neg /= w_neg.sum()
    print(json.dumps({"versions": versions(), "n_pos": len(pos_x), "pos_sources": {s: int(c) for s, c in zip(sources, counts)},
                      "n_neg": len(neg_x), "neg_kinds": {k: int(c) for k, c in kc.items()}, "load_s": round(time.time() - t0)}), flush=True)
    net = GateNet()
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=0.1)
    g = torch.Generator().manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    for step in range(args.steps):
        nb = args.batch_size // 2
        xp = positives(pos_x[torch.from_numpy(rng.choice(len(pos_x), nb, p=w_pos))], g)
        inv = torch.rand(nb, generator=g) < 0.3
        xp = torch.where(inv[:, None, None, None], 1 - xp, xp)
        xn = neg_x[torch.from_numpy(rng.choice(len(neg_x), args.batch_size - nb, p=w_neg))]
        xn = jitter(xn, g) if step % 2 else xn
        x = (torch.cat([xp, xn]) - NORM_MEAN) / NORM_STD
        y = torch.cat([inv.long(), torch.full((args.batch_size - nb,), 2)])
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0 or step == args.steps - 1:
            print(json.dumps({"step": step, "loss": round(loss.item(), 4), "sec": round(time.time() - t0)}), flush=True)
    net.eval()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"gate": net.state_dict(), "steps": args.steps, "seed": args.seed, "lr": args.lr,
                "train_negatives": {k: int(c) for k, c in kc.items()}, "train_positives": {s: int(c) for s, c in zip(sources, counts)}}, args.out)
    print("saved", args.out, f"{time.time() - t0:.0f}s", flush=True)
    if args.val_negatives.exists():  # quick look at val (cxr_train/evaluate/gate.py is the real measurement)
        vx, vsrc, _ = radiographs("val", images, rows)
        po = p_gate(net, vx)[:, 2]
        pi = p_gate(net, 255.0 - vx)[:, 2]
        vn = np.load(args.val_negatives)
        pn = p_gate(net, vn["x"].astype(np.float32))[:, 2]
        print(json.dumps({
            "val_p_other>=0.5": {s: [round(float((po[vsrc == s] >= 0.5).mean()), 4), round(float((pi[vsrc == s] >= 0.5).mean()), 4)] for s in np.unique(vsrc)},
            "val_neg_refused@0.5": {k: round(float((pn[vn["kind"] == k] >= 0.5).mean()), 4) for k in np.unique(vn["kind"])},
        }), flush=True)


if __name__ == "__main__":
    main()
