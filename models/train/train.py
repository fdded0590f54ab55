"""Train the classifier. Seeded, resumable (checkpoint every epoch), logs versions.

Usage: /usr/bin/python3 models/train/train.py [--epochs 28] [--run .cache/cxr/run]
(the decode cache must exist: models/train/build_cache.py --data <dataset>)
"""
from __future__ import annotations

import argparse
import copy
import json
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from common import CACHE_DIR, seed_everything, versions
from data import Resizer, augment, eval_batch, labels_of, load_cache, sample_weights, split_idx
from net import CxrNet


def evaluate(model, images, idx, y, sub, bs=256):
    model.eval()
    outs, subs = [], []
    with torch.no_grad():
        for s in range(0, len(idx), bs):
            xb = eval_batch(images[idx[s : s + bs]], None).contiguous(memory_format=torch.channels_last)
            a, b = model(xb)
            outs.append(a)
            subs.append(b)
    logits, sl = torch.cat(outs), torch.cat(subs)
    yt = torch.from_numpy(y[idx])
    loss = F.cross_entropy(logits, yt).item()
    acc = (logits.argmax(1) == yt).float().mean().item()
    m = torch.from_numpy(sub[idx] >= 0)
    sacc = (sl[m].argmax(1) == torch.from_numpy(sub[idx])[m]).float().mean().item()
    return {"val_loss": loss, "val_acc": acc, "val_sub_acc": sacc}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=28)
    ap.add_argument("--steps", type=int, default=144, help="batches per epoch")
    ap.add_argument("--bs", type=int, default=64)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--width", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--run", type=Path, default=CACHE_DIR / "run")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    seed_everything(args.seed)
    args.run.mkdir(parents=True, exist_ok=True)
    log = open(args.run / "train.log", "a")

    def say(obj):
        line = json.dumps(obj)
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    images, rows, meta = load_cache()
    y, sub = labels_of(rows)
    tr, va = split_idx(rows, "train"), split_idx(rows, "val")
    p = sample_weights(rows, tr)
    # sub-loss class weights: bacterial is ~2x viral in train
    n_sub = np.bincount(sub[tr][sub[tr] >= 0], minlength=2)
    sub_w = torch.tensor(n_sub.sum() / (2 * n_sub), dtype=torch.float32)

    model = CxrNet(args.width).to(memory_format=torch.channels_last)
    ema = copy.deepcopy(model)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    total = args.epochs * args.steps
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=total, pct_start=0.1)
    start, best, sched_kind = 0, None, "onecycle"
    ck = args.run / "last.pt"
    if ck.exists():
        st = torch.load(ck)
        model.load_state_dict(st["model"])
        ema.load_state_dict(st["ema"])
        opt.load_state_dict(st["opt"])
        start, best = st["epoch"] + 1, st["best"]
        if st.get("epochs", args.epochs) == args.epochs and st.get("sched_kind", "onecycle") == "onecycle":
            sched.load_state_dict(st["sched"])
        else:
            # Shortened (or lengthened) run: anneal from the current rate to zero over what is left.
            lr_now = st["sched"]["_last_lr"][0]
            left = max(1, (args.epochs - start) * args.steps)
            for grp in opt.param_groups:
                grp["lr"] = grp["initial_lr"] = lr_now
            sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: 0.5 * (1 + np.cos(np.pi * min(i, left) / left)))
            sched_kind = "anneal"
        say({"resumed_from_epoch": st["epoch"], "epochs": args.epochs})
    else:
        say({"start": time.strftime("%Y-%m-%dT%H:%M:%S"), "args": {k: str(v) for k, v in vars(args).items()},
             "versions": versions(), "data_version": meta["data_version"], "n_train": len(tr), "n_val": len(va)})
    resizer = Resizer()
    for epoch in range(start, args.epochs):
        # per-epoch generator: a resumed run sees exactly the batches the original would have
        g = torch.Generator().manual_seed(args.seed * 1000 + epoch)
        rng = np.random.default_rng(args.seed * 1000 + epoch)
        model.train()
        t0, tl, n = time.time(), 0.0, 0
        for step in range(args.steps):
            bi = tr[rng.choice(len(tr), size=args.bs, p=p)]
            x = torch.from_numpy(images[bi].astype(np.float32))[:, None]
            x = augment(x, g, resizer).contiguous(memory_format=torch.channels_last)
            yt, st_ = torch.from_numpy(y[bi]), torch.from_numpy(sub[bi])
            logits, sl = model(x)
            loss = F.cross_entropy(logits, yt)
            m = st_ >= 0
            if m.any():
                loss = loss + 0.5 * F.cross_entropy(sl[m], st_[m], weight=sub_w)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            with torch.no_grad():
                d = min(0.995, (1 + epoch * args.steps + step) / (10 + epoch * args.steps + step))
                for (k, ev), mv in zip(ema.state_dict().items(), model.state_dict().values()):
                    if ev.dtype.is_floating_point:
                        ev.mul_(d).add_(mv, alpha=1 - d)
                    else:
                        ev.copy_(mv)
            tl += loss.item()
            n += 1
        res = evaluate(ema, images, va, y, sub)
        res.update({"epoch": epoch, "train_loss": tl / n, "lr": sched.get_last_lr()[0], "sec": round(time.time() - t0, 1)})
        if best is None or res["val_loss"] < best["val_loss"]:
            best = dict(res)
            torch.save({"ema": ema.state_dict(), "width": args.width, "epoch": epoch, "metrics": res}, args.run / "best.pt")
        res["best_epoch"] = best["epoch"]
        say(res)
        torch.save({"model": model.state_dict(), "ema": ema.state_dict(), "opt": opt.state_dict(),
                    "sched": sched.state_dict(), "epoch": epoch, "best": best, "width": args.width,
                    "epochs": args.epochs, "sched_kind": sched_kind}, ck.with_suffix(".tmp"))
        ck.with_suffix(".tmp").replace(ck)
    say({"done": True, "best": best})


if __name__ == "__main__":
    main()
