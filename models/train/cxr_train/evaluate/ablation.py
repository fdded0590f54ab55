"""The ablation of issue 26 on the same validation populations: (a) model 2 as shipped (frozen ImageNet
backbone, linear head), (b) blocks 14-18 + head fine-tuned on cached block-13 activations (model 3's
training log, best epoch), (c) the whole network (not run: its cost is stated from the measured speed).

(a) is computed here: the frozen top blocks over the cached val crops, then model 2's head as shipped in
the committed model.onnx of model 2 (read from git, so this runs after model 3 replaced the file).

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.evaluate.ablation  -> models/cxr/ablation.json
"""
from __future__ import annotations

import argparse
import io
import json
import subprocess

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from cxr_train.data.cache import CACHE
from cxr_train.common import MODEL_DIR, REPO_ROOT, cli_parser, write_json
from cxr_train.heads.finetune.net import TopNet, folded_backbone
from cxr_train.heads.finetune.train import load_parts, val_scores
from cxr_train.heads.head import Head
from cxr_train.data.labels import LABELS

MODEL2_COMMIT = "317f645"  # main before model 3: models/cxr/model.onnx is model 2.0.0 there


def model2_head() -> Head:
    blob = subprocess.run(["git", "show", f"{MODEL2_COMMIT}:models/cxr/model.onnx"], cwd=REPO_ROOT, capture_output=True, check=True).stdout
    init = {i.name: numpy_helper.to_array(i) for i in onnx.load(io.BytesIO(blob)).graph.initializer}
    head = Head(len(LABELS), hidden=0)
    with torch.no_grad():
        for k in ("mean", "std"):
            getattr(head, k).data = torch.from_numpy(init[f"head.{k}"].copy())
        head.c2.weight.copy_(torch.from_numpy(init["head.c2.weight"].copy()))
        head.c2.bias.copy_(torch.from_numpy(init["head.c2.bias"].copy()))
    return head.eval()


def parser() -> argparse.ArgumentParser:
    return cli_parser(__doc__)


def main() -> None:
    parser().parse_args()
    torch.set_num_threads(2)
    rows, _, parts = load_parts()
    frozen = TopNet(folded_backbone(), model2_head()).eval()
    a = val_scores(rows, frozen, parts)
    variants = {}
    for run, recipe in (("finetune-long", "recipes/model3-long.json"),):
        p = CACHE / run / "train.log"
        if p.exists():
            recs = [json.loads(line) for line in p.read_text().splitlines() if '"val_auroc"' in line]
            if recs:
                b_ = max(recs, key=lambda r: r["val_mean"])
                variants[recipe] = {
                    "valAuroc": b_["val_auroc"], "valMean": b_["val_mean"], "bestEpoch": b_["epoch"], "epochs": len(recs),
                    "secondsPerEpoch": [r["epoch_sec"] for r in recs],
                }
    log = [json.loads(line) for line in (CACHE / "finetune" / "train.log").read_text().splitlines()]
    epochs = [r for r in log if "val_auroc" in r]
    best = max(epochs, key=lambda r: r["val_mean"])
    start = next(r for r in log if "start" in r)["start"]
    sec = [r["epoch_sec"] for r in epochs]
    out = {
        "population": "validation split, crops from the training anatomy net (model 2's), deciding population of each finding",
        "a_frozen_model2": {"valAuroc": a, "valMean": round(float(np.nanmean(list(a.values()))), 4)},
        "b_top_blocks_finetuned": {
            "valAuroc": best["val_auroc"],
            "valMean": best["val_mean"],
            "bestEpoch": best["epoch"],
            "epochs": len(epochs),
            "trainingViewsPerEpoch": start["views"],
            "secondsPerEpoch": sec,
            "perEpochValMean": [r["val_mean"] for r in epochs],
        },
        "b_variants_not_shipped": variants,
        "c_full_network": {
            "run": False,
            "why": "not run in this build: the whole net trains at about 6 images/s on this 2-core CPU (issue 26's measurement), "
            f"{start['views']} views per epoch would take about {start['views'] / 6 / 60:.0f} minutes per epoch, and (b) had to finish inside one session",
        },
    }
    write_json(MODEL_DIR / "ablation.json", out)
    print(json.dumps({k: v.get("valMean") for k, v in out.items() if isinstance(v, dict)}))


if __name__ == "__main__":
    main()
