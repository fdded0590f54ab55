"""Step m5-dump: the shipped pipeline's raw outputs (pooled head input included) on every film model 5 learns from.

Writes .cache/m5/<set>.jsonl through model 4's evaluation copy of the model (cxr_train.model4.dump): the external
films, cxr-extra's ChestX-ray14 and QU-Ex films, and cxr-nih-more, downsampled to 224 px first (area) like the
evaluation sets, into .cache/m5/nih-more-224 (a cache, never committed).

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model5.dump [--only SET]
"""
from __future__ import annotations

import csv
import shutil
from pathlib import Path

from PIL import Image

from cxr_train.common import MODEL_DIR, REPO_ROOT, cli_parser
import json

import onnx
from onnx import helper

from cxr_train.model4.dump import DATASETS, EXTERNAL, EXTRA, dump, finish_copy

M5 = REPO_ROOT / ".cache" / "m5"
NIH_MORE = DATASETS / "cxr-nih-more"
NIH_MORE_224 = M5 / "nih-more-224"
# The model the head is refitted from (model 4's files, as m5-dump found them): m5-export starts from these.
BASE = M5 / "base"
SETS = ("external", "extra", "nih-more")


def feature_copy(model_dir: Path, out: Path) -> Path:
    """The shipped model with `pooled` (the head's input, averaged) and the film features as extra outputs.

    Unlike model 4's copy, the projection output stays: cardiomegaly's CTR combination reads it.
    """
    m = onnx.load(model_dir / "model.onnx")
    if not any("pooled" in n.output for n in m.graph.node):
        raise SystemExit("model.onnx has no pooled node (model 4 or later expected)")
    m.graph.output.append(helper.make_tensor_value_info("pooled", onnx.TensorProto.FLOAT, ["N", None]))
    (out / "manifest.json").write_text(json.dumps(finish_copy(model_dir, m, out)))
    return out


def nih_more_224() -> Path:
    """cxr-nih-more's films at 224 px (the evaluation sets' size), with its labels.csv beside them."""
    out = NIH_MORE_224
    (out / "images").mkdir(parents=True, exist_ok=True)
    rows = list(csv.DictReader(open(NIH_MORE / "labels.csv")))
    for r in rows:
        dst = out / r["path"]
        if not dst.exists():
            Image.open(NIH_MORE / r["path"]).convert("L").resize((224, 224), Image.BOX).save(dst, quality=90)
    with open(out / "labels.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    return out / "labels.csv"


def extra_csv() -> Path:
    """cxr-extra's ChestX-ray14 and QU-Ex films (the two collections with finding or infection labels)."""
    rows = list(csv.DictReader(open(EXTRA / "manifest.csv")))
    # nih-cxr14-talo is cxr-nih-more again (data.load reads those films from there): not run twice.
    sel = [r for r in rows if (r["source"].startswith("nih") and r["source"] != "nih-cxr14-talo") or r["source"] == "covid-qu-ex"]
    path = M5 / "extra.csv"
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(sel)
    return path


def parser():
    ap = cli_parser(__doc__)
    ap.add_argument("--model-dir", type=Path, default=MODEL_DIR)
    ap.add_argument("--only", choices=SETS, default=None)
    return ap


def main() -> None:
    args = parser().parse_args()
    M5.mkdir(parents=True, exist_ok=True)
    if not (BASE / "model.onnx").exists():
        BASE.mkdir(parents=True, exist_ok=True)
        for name in ("model.onnx", "manifest.json", "anatomy.onnx"):
            shutil.copyfile(args.model_dir / name, BASE / name)
    feat = feature_copy(BASE, M5 / "feat-model")
    todo = [args.only] if args.only else list(SETS)
    for s in todo:
        out = M5 / f"{s}.jsonl"
        if out.exists():
            print(f"{out} exists: skipped")
            continue
        if s == "external":
            dump(feat, EXTERNAL / "labels.csv", EXTERNAL, out)
        elif s == "extra":
            dump(feat, extra_csv(), EXTRA, out)
        else:
            csv_path = nih_more_224()
            dump(feat, csv_path, csv_path.parent, out)
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
