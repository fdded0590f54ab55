"""How far the CTR can be trusted, on the validation split (never test): the CTR of the shipped anatomy net
and its plausibility check (cxr_train/anatomy/ctr_checks.py, the worker's check-ctr.ts) on normal, cardiomegaly and opacified
films, per source.

Groups (validation films):
  normal       ChestX-ray14 no finding, Wingspan CTR <= 0.50, JSRT (no CTR label; adult PA films)
  cardiomegaly ChestX-ray14 Cardiomegaly, Wingspan CTR > 0.50
  opacified    QU-Ex COVID-19 and non-COVID infection, ChestX-ray14 Pneumonia / Consolidation / Edema
For each: films, share flagged (by reason), CTR median and 10/90th percentiles of the films left, and of all.
Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.evaluate.ctr_reliability [--anatomy .cache/v2/anatomy3/best.pt]
  -> models/cxr/ctr-reliability.json
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np
import torch

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.anatomy.ops import cardiothoracic_ratio
from cxr_train.data.cache import CACHE
from cxr_train.common import MODEL_DIR, cli_parser, resize_area, write_json
from cxr_train.anatomy.ctr_checks import DEFAULT_CTR_CHECKS, check_ctr
from cxr_train.anatomy.train import normalise


def group_of(r: dict) -> str | None:
    src = r["source"]
    if src.startswith("nih-"):
        if r["no_finding"] == "1":
            return "normal"
        if r["Cardiomegaly"] == "1":
            return "cardiomegaly"
        if "1" in (r["Pneumonia"], r["Consolidation"], r["Edema"]):
            return "opacified"
        return None
    if src == "wingspan-ctr":
        return "cardiomegaly" if r["label"] == "cardiomegaly_ctr" else "normal"
    if src == "jsrt":
        return "normal"
    if src == "covid-qu-ex" and r["label"] != "normal":
        return "opacified"
    return None


def pct(v: list[float], q: float) -> float | None:
    return round(float(np.percentile(v, q)), 3) if v else None


def summary(items: list[tuple[float | None, dict | None]]) -> dict:
    ctr_all = [c for c, _ in items if c is not None]
    ctr_ok = [c for c, f in items if c is not None and f is None]
    reasons = Counter(f["code"] for _, f in items if f is not None)
    return {
        "films": len(items),
        "flagged": sum(reasons.values()),
        "flaggedShare": round(sum(reasons.values()) / max(1, len(items)), 3),
        "reasons": dict(reasons),
        "ctrAll": {"median": pct(ctr_all, 50), "p10": pct(ctr_all, 10), "p90": pct(ctr_all, 90)},
        "ctrShown": {"n": len(ctr_ok), "median": pct(ctr_ok, 50), "p10": pct(ctr_ok, 10), "p90": pct(ctr_ok, 90)},
    }


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--anatomy-weights", type=Path, default=CACHE / "anatomy3" / "best.pt")
    ap.add_argument("--checks", type=Path, help="JSON of ctrChecks overrides (default: cxr_train.anatomy.ctr_checks.DEFAULT_CTR_CHECKS)")
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(2)
    checks = {**DEFAULT_CTR_CHECKS, **(json.loads(args.checks.read_text()) if args.checks else {})}
    rows = json.loads((CACHE / "rows.json").read_text())
    images = np.load(CACHE / "images.npy", allow_pickle=True)
    idx = [i for i, r in enumerate(rows) if r["split"] == "val" and r["dataset"] == "cxr-extra" and group_of(r)]
    net = AnatomyNet()
    net.load_state_dict(torch.load(args.anatomy_weights)["net"])
    net.eval()
    per: dict[str, dict[str, list]] = {}
    with torch.no_grad():
        for s in range(0, len(idx), 128):
            b = idx[s : s + 128]
            x = torch.from_numpy(np.stack([resize_area(images[i], 128) for i in b])).float()[:, None]
            logits = net(normalise(x)).numpy()
            for k, i in enumerate(b):
                lung, heart = logits[k, 0] > 0, logits[k, 1] > 0
                ctr = cardiothoracic_ratio(lung, heart)
                flag = check_ctr(lung, heart, ctr if ctr is not None else 0.0, checks) if ctr is not None else {"code": "no_heart"}
                r = rows[i]
                per.setdefault(group_of(r), {}).setdefault(r["source"], []).append((ctr, flag))
    out = {"split": "val", "anatomy": str(args.anatomy_weights.resolve().relative_to(CACHE.parents[1])), "checks": checks, "groups": {}}
    for g, by_src in per.items():
        everything = [x for v in by_src.values() for x in v]
        out["groups"][g] = {"all": summary(everything), "perSource": {s: summary(v) for s, v in by_src.items()}}
    write_json(MODEL_DIR / "ctr-reliability.json", out)
    summary = {g: {"flagged": v["all"]["flaggedShare"], "ctrAll": v["all"]["ctrAll"], "ctrShown": v["all"]["ctrShown"]} for g, v in out["groups"].items()}
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
