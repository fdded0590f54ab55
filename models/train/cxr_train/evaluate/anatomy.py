"""Anatomy-stage figures on the test split (touched once, for the model card): lung and heart Dice
per mask source, and the CTR error against the CTR computed from the reference masks.

Dice is measured on the 128x128 grid the net works on (reference masks area-resized and
thresholded at 50 %); the reference CTR uses the native 256 px reference masks.
Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.evaluate.anatomy   -> models/cxr/anatomy-evaluation.json
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.anatomy.ops import cardiothoracic_ratio
from cxr_train.data.cache import CACHE
from cxr_train.common import MODEL_DIR, cli_parser, write_json
from cxr_train.anatomy.train import RUN, dice, normalise


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--run", type=Path, default=RUN, help="anatomy run folder (its best.pt is evaluated)")
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(2)
    z = np.load(CACHE / "seg.npz")
    rows = json.loads((CACHE / "rows.json").read_text())
    lung_full, heart_full = np.load(CACHE / "masks_full.npy", allow_pickle=True)
    split = np.array([rows[i]["split"] for i in z["row"]])
    net = AnatomyNet()
    ck = torch.load(args.run / "best.pt")
    net.load_state_dict(ck["net"])
    net.eval()
    out: dict = {"bestEpoch": ck["epoch"], "valDice": ck["val_dice"], "test": {}}
    te = np.flatnonzero(split == "test")
    with torch.no_grad():
        logits = net(normalise(torch.from_numpy(z["img"][te]).float()[:, None])).numpy()
    per: dict[str, dict[str, list]] = {}
    ctr_err, ctr_pairs, ctr_src = [], [], []
    for k, i in enumerate(te):
        src = str(z["source"][i])
        ds = rows[int(z["row"][i])]["dataset"]
        key = f"{src} masks on {ds} films"
        lung, heart = logits[k, 0] > 0, logits[k, 1] > 0
        per.setdefault(key, {"lung": [], "heart": []})["lung"].append(dice(lung, z["lung"][i] > 0))
        if z["has_heart"][i]:
            per[key]["heart"].append(dice(heart, z["heart"][i] > 0))
            ref = cardiothoracic_ratio(lung_full[i] > 0, heart_full[i] > 0)
            pred = cardiothoracic_ratio(lung, heart)
            if ref is not None:
                ctr_pairs.append([ref, pred])
                ctr_err.append(abs((pred if pred is not None else 0) - ref))
                ctr_src.append(src)
    for key, v in per.items():
        out["test"][key] = {
            "n": len(v["lung"]),
            "lungDice": float(np.mean(v["lung"])),
            "lungDiceMin": float(np.min(v["lung"])),
            **({"heartDice": float(np.mean(v["heart"])), "heartDiceMin": float(np.min(v["heart"]))} if v["heart"] else {}),
        }
    all_lung = [d for v in per.values() for d in v["lung"]]
    all_heart = [d for v in per.values() for d in v["heart"]]
    out["lungDice"] = float(np.mean(all_lung))
    out["heartDice"] = float(np.mean(all_heart))
    out["ctr"] = {
        "n": len(ctr_err),
        "mae": float(np.mean(ctr_err)),
        "maxError": float(np.max(ctr_err)),
        "referenceMean": float(np.mean([p[0] for p in ctr_pairs])),
        "perSource": {
            s: {"n": int(sum(1 for x in ctr_src if x == s)), "mae": float(np.mean([e for e, x in zip(ctr_err, ctr_src) if x == s]))}
            for s in sorted(set(ctr_src))
        },
        "pairs": [[round(a, 4), None if b is None else round(b, 4)] for a, b in ctr_pairs],
    }
    write_json(MODEL_DIR / "anatomy-evaluation.json", out)
    print(json.dumps({"lungDice": out["lungDice"], "heartDice": out["heartDice"], "ctrMae": out["ctr"]["mae"], "per": out["test"]}, indent=1))


if __name__ == "__main__":
    main()
