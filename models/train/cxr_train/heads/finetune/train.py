"""Train model 3's top blocks (MobileNetV2 14-18) and linear head on cached block-13 activations.

Reads .cache/v2/b13/{train,aug,eval}.npy (cxr_train/heads/finetune/cache.py) and the recipe. Every epoch: one pass over the
training views (deterministic crop + augmented crops) in a seeded order, balanced by source x label
stratum weights (as model 2), then the validation AUROC of every deciding population. Checkpoints
`last.pt` every 100 steps and at each epoch end (a rerun resumes exactly there); `best.pt` keeps the
epoch with the best mean validation AUROC over the deciding populations. Log: train.log (JSON lines,
wall seconds per epoch).

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.heads.finetune.train [--recipe models/train/recipes/model3.json] [--run DIR]
"""
from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np
import torch

from cxr_train.data.cache import CACHE
from cxr_train.common import cli_parser, seed_everything, versions
from cxr_train.heads.finetune.net import TopNet, folded_backbone
from cxr_train.heads.head import Head, auroc, masked_bce, stratum_weights
from cxr_train.data.labels import LABELS, stratum
from cxr_train.data.populations import DECIDING, populations
from cxr_train.recipe import RECIPE_ARGS, load_recipe

B13 = CACHE / "b13"


def load_parts():
    rows = json.loads((CACHE / "rows.json").read_text())
    y = np.array([r["targets"] for r in rows], dtype=np.int64)
    parts = {}
    for name in ("train", "aug", "val", "eval"):
        if (B13 / f"{name}.npy").exists():
            parts[name] = (np.load(B13 / f"{name}.npy", mmap_mode="r"), np.load(B13 / f"{name}_index.npy"))
    return rows, y, parts


def batches_f32(arr, sel: np.ndarray, batch: int):
    for s in range(0, len(sel), batch):
        b = np.sort(sel[s : s + batch])
        yield b, torch.from_numpy(np.asarray(arr[b], dtype=np.float32))


def predict_views(net: TopNet, arr, sel: np.ndarray, batch: int = 128) -> np.ndarray:
    net.eval()
    out = np.zeros((len(sel), len(LABELS)), np.float32)
    order = np.argsort(sel)
    with torch.no_grad():
        pos = 0
        for b, x in batches_f32(arr, sel[order], batch):
            out[order[pos : pos + len(b)]] = net(x).numpy()
            pos += len(b)
    return out


def val_scores(rows, net, parts) -> dict:
    arr, index = parts["val"] if "val" in parts else parts["eval"]
    split = np.array([rows[i]["split"] for i in index])
    sel = np.flatnonzero(split == "val")
    logits = predict_views(net, arr, sel)
    va_rows = index[sel]
    pos = {int(r): k for k, r in enumerate(va_rows)}
    pops = populations(rows, va_rows)
    out = {}
    for label, pop in DECIDING.items():
        if pop in pops:
            s, target, lab = pops[pop]
            out[label] = round(auroc(target, logits[[pos[int(i)] for i in s], LABELS.index(lab)]), 4)
    return out


def build(rc: dict, parts, seed: int) -> TopNet:
    torch.manual_seed(seed)
    net = TopNet(folded_backbone(), Head(len(LABELS), hidden=0))
    # Feature standardisation from the pretrained top features of a sample of training views (fixed).
    arr, _ = parts["train"]
    rng = np.random.default_rng(seed)
    pick = np.sort(rng.choice(len(arr), min(1024, len(arr)), replace=False))
    with torch.no_grad():
        chunks = (torch.from_numpy(np.asarray(arr[pick[s : s + 128]], dtype=np.float32)) for s in range(0, len(pick), 128))
        f = torch.cat([net.features(x).mean((2, 3), keepdim=True) for x in chunks])
    net.head.mean.data = f.mean(0, keepdim=True)
    net.head.std.data = f.std(0, keepdim=True) + 1e-3
    return net


def train(rc: dict, run: Path, train_rows: np.ndarray | None = None, seed: int | None = None, log=print, validate: bool = True) -> TopNet:
    """Fit on the training views of `train_rows` (default: the train split); resumable from run/last.pt."""
    ft = rc["finetune"]
    seed = rc["seed"] if seed is None else seed
    seed_everything(seed)
    rows, y, parts = load_parts()
    views = [(name, k) for name in ("train", "aug") if name in parts for k in range(len(parts[name][1]))]
    vrow = np.array([parts[n][1][k] for n, k in views])
    keep = np.ones(len(views), bool) if train_rows is None else np.isin(vrow, train_rows)
    keep &= (y[vrow] >= 0).any(1)
    views = [v for v, k in zip(views, keep) if k]
    vrow = vrow[keep]
    w = stratum_weights([stratum(rows[i]) for i in vrow])
    yt, wt = torch.from_numpy(y[vrow].astype(np.float32)), torch.from_numpy(w)
    net = build(rc, parts, seed)
    opt = torch.optim.AdamW(
        [
            {"params": list(net.top.parameters()), "lr": ft["lr_top"], "weight_decay": ft["wd_top"]},
            {"params": [net.head.c2.weight, net.head.c2.bias], "lr": ft["lr_head"], "weight_decay": ft["wd_head"]},
        ]
    )
    base = [g["lr"] for g in opt.param_groups]
    per_epoch = len(views) // ft["batch"]
    total = ft["epochs"] * per_epoch
    start_epoch, start_step, best = 0, 0, -1.0
    run.mkdir(parents=True, exist_ok=True)
    if (run / "last.pt").exists():
        ck = torch.load(run / "last.pt")
        net.load_state_dict(ck["net"])
        opt.load_state_dict(ck["opt"])
        start_epoch, start_step, best = ck["epoch"], ck["step"], ck["best"]
        log({"resumed": {"epoch": start_epoch, "step": start_step}})
    else:
        log({"start": {"views": len(views), "per_epoch": per_epoch, "recipe": rc, "versions": versions()}})
    view_part = np.array([0 if n == "train" else 1 for n, _ in views])
    view_k = np.array([k for _, k in views])
    for epoch in range(start_epoch, ft["epochs"]):
        order = np.random.default_rng(seed * 1000 + epoch).permutation(len(views))
        t0, losses = time.time(), []
        net.train()
        for step in range(start_step if epoch == start_epoch else 0, per_epoch):
            it = epoch * per_epoch + step
            f = min(1.0, (it + 1) / ft["warmup_steps"]) * 0.5 * (1 + math.cos(math.pi * it / total))
            for g_, b_ in zip(opt.param_groups, base):
                g_["lr"] = b_ * f
            b = order[step * ft["batch"] : (step + 1) * ft["batch"]]
            xs = []
            for part_id, name in ((0, "train"), (1, "aug")):
                sub = b[view_part[b] == part_id]
                if len(sub):
                    ks = view_k[sub]
                    o = np.argsort(ks)
                    xs.append((sub[o], np.asarray(parts[name][0][ks[o]], dtype=np.float32)))
            b = np.concatenate([s for s, _ in xs])
            x = torch.from_numpy(np.concatenate([a for _, a in xs]))
            loss = masked_bce(net(x), yt[b], wt[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            if (step + 1) % 100 == 0:
                torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "epoch": epoch, "step": step + 1, "best": best}, run / "last.pt")
                log({"epoch": epoch, "step": step + 1, "loss": round(float(np.mean(losses[-100:])), 4), "sec": round(time.time() - t0)})
        rec = {"epoch": epoch, "loss": round(float(np.mean(losses)) if losses else float("nan"), 4), "epoch_sec": round(time.time() - t0)}
        if validate:
            rec["val_auroc"] = val_scores(rows, net, parts)
            vals = [v for v in rec["val_auroc"].values() if not np.isnan(v)]
            rec["val_mean"] = round(float(np.mean(vals)), 4)
            if rec["val_mean"] > best:
                best = rec["val_mean"]
                torch.save({"net": net.state_dict(), "epoch": epoch, "val": rec["val_auroc"], "recipe": rc}, run / "best.pt")
        else:
            torch.save({"net": net.state_dict(), "epoch": epoch, "recipe": rc}, run / "best.pt")
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "epoch": epoch + 1, "step": 0, "best": best}, run / "last.pt")
        log(rec)
    return net


def run_parser(doc: str | None) -> argparse.ArgumentParser:
    """The options of a step that reads or writes the fine-tune run folder (this one and features)."""
    ap = cli_parser(doc, parents=[RECIPE_ARGS])
    ap.add_argument("--run", type=Path, default=CACHE / "finetune")
    return ap


def parser() -> argparse.ArgumentParser:
    return run_parser(__doc__)


def main() -> None:
    args = parser().parse_args()
    rc = load_recipe(args.recipe)
    torch.set_num_threads(rc["threads"])
    args.run.mkdir(parents=True, exist_ok=True)
    logf = open(args.run / "train.log", "a")

    def log(m):
        line = json.dumps(m, default=str)
        print(line, flush=True)
        logf.write(line + "\n")
        logf.flush()

    train(rc, args.run, log=log)


if __name__ == "__main__":
    main()
