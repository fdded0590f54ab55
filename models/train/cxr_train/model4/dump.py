"""Step m4-dump: every raw output of the shipped pipeline on the labelled films, through the product's own code.

The TypeScript worker pipeline (worker/src/cli/dump-outputs.ts) runs on an evaluation copy of the model folder
whose classifier graph also returns `pooled`, the standardised features the head's 1x1 convolution reads, averaged
over the 7x7 grid (what a linear head on the whole crop sees). Writes .cache/m4/<name>.jsonl for the
external validation films and for cxr-extra's ChestX-ray14 films (the projection's training data).

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model4.dump [--model-dir models/cxr]
"""
from __future__ import annotations

import csv
import hashlib
import json
import subprocess
from pathlib import Path

import onnx
from onnx import helper

from cxr_train.common import MODEL_DIR, REPO_ROOT, cli_parser

M4 = REPO_ROOT / ".cache" / "m4"
DATASETS = (REPO_ROOT / ".." / "shared" / "datasets").resolve()
EXTERNAL = DATASETS / "cxr-external-val"
EXTRA = DATASETS / "cxr-extra"
# The head's input: concat(block-13 pooled, block-18) standardised by head.mean/head.std (export/model.py).
HEAD_INPUT = "/Div_output_0"
# The whole film (anatomy.onnx): the U-Net's bottleneck (8x8) pooled to 2x2, and the gate net's pooled features.
ANATOMY_MID = "/anatomy/mid/mid.5/Relu_output_0"
GATE_FEATURES = "/gate/Concat_output_0"
ADDED = ("pooled", "projection", "film_mid", "film_gate", "film_features")


def strip_added(model: onnx.ModelProto) -> None:
    """Removes what this stage or the exporter added before (pooled, projection), so both are idempotent."""
    g = model.graph
    keep = [n for n in g.node if not set(n.output) & set(ADDED) and not n.name.startswith("m4_")]
    del g.node[:]
    g.node.extend(keep)
    outs = [o for o in g.output if o.name not in ADDED]
    del g.output[:]
    g.output.extend(outs)
    inits = [i for i in g.initializer if not i.name.startswith("m4_")]
    del g.initializer[:]
    g.initializer.extend(inits)


def add_pooled(model: onnx.ModelProto) -> None:
    g = model.graph
    g.node.append(helper.make_node("ReduceMean", [HEAD_INPUT], ["pooled"], name="m4_pool", axes=[2, 3], keepdims=0))
    g.output.append(helper.make_tensor_value_info("pooled", onnx.TensorProto.FLOAT, ["N", None]))


def add_film_features(model: onnx.ModelProto) -> None:
    """film_features = [U-Net bottleneck averaged to 2x2 (512), the gate's pooled features (66)]."""
    g = model.graph
    g.node.append(helper.make_node("AveragePool", [ANATOMY_MID], ["m4_mid4"], name="m4_mid_pool", kernel_shape=[4, 4], strides=[4, 4]))
    g.node.append(helper.make_node("Flatten", ["m4_mid4"], ["film_mid"], name="m4_mid_flat", axis=1))
    g.node.append(helper.make_node("Concat", ["film_mid", GATE_FEATURES], ["film_features"], name="m4_film_cat", axis=1))
    g.output.append(helper.make_tensor_value_info("film_features", onnx.TensorProto.FLOAT, ["N", None]))


def finish_copy(model_dir: Path, m: onnx.ModelProto, out: Path) -> dict:
    """Saves the classifier copy `m`, the anatomy graph with the film features, and returns the manifest with
    both files' sha256 (for the caller to adjust and write): the part model 4's and model 5's copies share."""
    onnx.checker.check_model(m)
    out.mkdir(parents=True, exist_ok=True)
    onnx.save(m, out / "model.onnx")
    a = onnx.load(model_dir / "anatomy.onnx")
    strip_added(a)
    add_film_features(a)
    onnx.checker.check_model(a)
    onnx.save(a, out / "anatomy.onnx")
    man = json.loads((model_dir / "manifest.json").read_text())
    man["sha256"] = hashlib.sha256((out / "model.onnx").read_bytes()).hexdigest()
    man["anatomy"]["sha256"] = hashlib.sha256((out / "anatomy.onnx").read_bytes()).hexdigest()
    return man


def feature_copy(model_dir: Path, out: Path) -> Path:
    m = onnx.load(model_dir / "model.onnx")
    strip_added(m)
    add_pooled(m)
    man = finish_copy(model_dir, m, out)
    man.pop("projection", None)
    (out / "manifest.json").write_text(json.dumps(man))
    return out


def extra_nih_csv() -> Path:
    rows = list(csv.DictReader(open(EXTRA / "manifest.csv")))
    sel = [r for r in rows if r["source"].startswith("nih")]
    path = M4 / "extra-nih.csv"
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(sel)
    return path


def dump(model: Path, labels: Path, root: Path, out: Path) -> None:
    cmd = ["node", "--import", "tsx", "worker/src/cli/dump-outputs.ts", "--model", str(model), "--csv", str(labels), "--root", str(root)]
    tmp = out.with_suffix(".tmp")
    with open(tmp, "w") as f:
        subprocess.run(cmd, cwd=REPO_ROOT, stdout=f, check=True)
    tmp.replace(out)


def parser():
    ap = cli_parser(__doc__)
    ap.add_argument("--model-dir", type=Path, default=MODEL_DIR)
    ap.add_argument("--only", choices=("external", "extra"), default=None, help="dump one set only")
    return ap


def main() -> None:
    args = parser().parse_args()
    M4.mkdir(parents=True, exist_ok=True)
    feat = feature_copy(args.model_dir, M4 / "feat-model")
    if args.only in (None, "external"):
        dump(feat, EXTERNAL / "labels.csv", EXTERNAL, M4 / "external.jsonl")
    if args.only in (None, "extra"):
        dump(feat, extra_nih_csv(), EXTRA, M4 / "extra-nih.jsonl")


if __name__ == "__main__":
    main()
