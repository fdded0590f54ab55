"""Python reference of the worker's model 2 pipeline (worker/src/pipeline/run-pipeline.ts with
check-image.ts, find-anatomy.ts, classify-film.ts): decode, checks, anatomy net (masks + gate) on the
whole film, lung box and CTR from the masks, classifier on the full-resolution film cropped to the
lung box, calibration, findings. Used for the parity fixtures (cxr_train/export/parity_fixtures.py).

The torch modules are those cxr_train/export/model.py exports, with the weights the manifest's torchWeights
point to (or the paths given); load_nets() checks them against the named initializers of the ONNX
files so fixtures are never made from weights that were retrained after the export.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.export.reference_lung_crop [--model-dir models/cxr]
    [--anatomy-weights PT] [--head-weights PT] IMAGE...
"""
from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from cxr_train.anatomy.net import AnatomyNet
from cxr_train.anatomy.ops import BOX_MARGIN, MIN_HEART_PIXELS, MIN_LUNG_FRACTION, cardiothoracic_ratio, crop_resize, lung_box
from cxr_train.common import MODEL_DIR, REPO_ROOT, cli_parser, resize_area, sha256_file, to_gray_u8
from cxr_train.anatomy.ctr_checks import check_ctr
from cxr_train.export.model import GATE_WEIGHTS, MID_BLOCK, AnatomyExport, ClassifierExport
from cxr_train.gate.checks import pre_checks
from cxr_train.heads.head import Head
from cxr_train.gate.net import GateNet
from cxr_train.export.reference_whole_film import TorchRunner, calibrated, gate_verdict, softmax

CTR_EPS = 1e-9  # keeps logit() finite (compose.ts CTR_EPS)


@dataclass
class Nets:
    anatomy: TorchRunner  # image (1,1,128,128) -> masks, gate_logits
    classifier: TorchRunner  # image (1,1,224,224) -> logits, cams, pooled
    model_dir: Path  # the exported files (the projection's weights are read from model.onnx)


class ClassifierWithPooled(ClassifierExport):
    """Model 4: also the pooled standardised head input, which the projection output reads (model4/export.py)."""

    def forward(self, x):
        mid = None
        for i, layer in enumerate(self.features):
            x = layer(x)
            if i == MID_BLOCK:
                mid = x
        f = torch.cat([torch.nn.functional.avg_pool2d(mid, 2), x], 1)
        cams = self.head.cams(f)
        return cams.mean((2, 3)), cams, ((f - self.head.mean) / self.head.std).mean((2, 3))


def _onnx_initializers(path: Path, names: list[str]) -> dict[str, np.ndarray]:
    import onnx
    from onnx import numpy_helper

    g = onnx.load(str(path)).graph
    return {i.name: numpy_helper.to_array(i) for i in g.initializer if i.name in names}


def _check_against_onnx(module: torch.nn.Module, onnx_path: Path, names: list[str]) -> None:
    """The export keeps these parameters by name: they must equal the torch weights."""
    state = module.state_dict()
    found = _onnx_initializers(onnx_path, names)
    for n in names:
        if n not in found:
            raise SystemExit(f"{onnx_path.name}: initializer {n} not found; cannot check the torch weights")
        if not np.allclose(state[n].numpy(), found[n], rtol=0, atol=1e-7):
            raise SystemExit(f"torch weights differ from {onnx_path.name} ({n}): retrained since the export? "
                             "pass the weights the ONNX file was exported from (--anatomy-weights / --head-weights / --gate-weights)")


def load_nets(model_dir: Path, manifest: dict, anatomy_weights: Path | None = None, head_weights: Path | None = None,
              gate_weights: Path | None = None) -> Nets:
    tw = manifest.get("torchWeights", {})
    anatomy_path = anatomy_weights or REPO_ROOT / tw["anatomy"]
    head_path = head_weights or REPO_ROOT / tw["head"]
    anatomy = AnatomyNet()
    anatomy.load_state_dict(torch.load(anatomy_path)["net"])
    gate = GateNet()
    gate_path = gate_weights or (REPO_ROOT / tw["gate"] if "gate" in tw else GATE_WEIGHTS)
    if gate_path.exists():
        gate.load_state_dict(torch.load(gate_path)["gate"])
    else:  # the v1 gate, as cxr_train.export.model.load_parts does
        v1 = torch.load(MODEL_DIR / "model.pt")
        gate.load_state_dict({k[5:]: v for k, v in v1.items() if k.startswith("gate.")})
    ck = torch.load(head_path)
    head = Head(len(ck["labels"]), ck["hidden"])
    head.load_state_dict(ck["head"])
    a = AnatomyExport(anatomy.eval(), gate.eval()).eval()
    from cxr_train.heads.finetune.net import shipped_backbone

    c = ClassifierWithPooled(shipped_backbone(REPO_ROOT / tw["top"] if "top" in tw else REPO_ROOT / ".cache/v2/none.pt"), head.eval()).eval()
    _check_against_onnx(a, model_dir / manifest["anatomy"]["file"], ["anatomy.out.weight", "anatomy.out.bias", "gate.fc.weight", "gate.fc.bias"])
    _check_against_onnx(c, model_dir / manifest["file"], (["head.c1.weight"] if c.head.c1 is not None else []) + ["head.c2.bias"])
    return Nets(TorchRunner(a, ["masks", "gate_logits"]), TorchRunner(c, ["logits", "cams", "pooled"]), model_dir)


def normalise(spec: dict, x255: np.ndarray) -> np.ndarray:
    """(x * scale - mean) / std as preprocess.ts normalise(), batch of one, one channel."""
    return ((x255 * spec["scale"] - spec["mean"][0]) / spec["std"][0]).astype(np.float32)[None, None]


def combine_ctr(p: float, ctr: float, w: dict, ap: bool = False) -> float:
    q = min(1 - CTR_EPS, max(CTR_EPS, p))
    z = w["logitWeight"] * math.log(q / (1 - q)) + w["ctrWeight"] * ctr + (w.get("apWeight", 0.0) if ap else 0.0) + w["bias"]
    return 1 / (1 + math.exp(-z))


def projection_of(manifest: dict, model_dir: Path, pooled: np.ndarray) -> dict | None:
    """read-projection.ts for a file without a DICOM ViewPosition: p(AP) from the exported linear layer's weights."""
    spec = manifest.get("projection")
    if not spec:
        return None
    w = _onnx_initializers(model_dir / manifest["file"], ["m4_projection_w", "m4_projection_b"])
    z = float(pooled.astype(np.float64) @ w["m4_projection_w"][:, 0].astype(np.float64) + w["m4_projection_b"][0])
    p = 1 / (1 + math.exp(-(z / spec["temperature"] + spec["bias"])))
    return {"call": "AP" if p >= spec["threshold"] else "PA", "probabilityAP": p}


def finding_probs(manifest: dict, outputs: dict[str, np.ndarray], ctr: float | None, ap: bool = False) -> dict[str, float]:
    """compose.ts findingProbabilities(): source (or complement) x conditionals, then the CTR combination (with the
    projection, model 4). A finding that requires the CTR has no probability without one (composeFindings)."""
    heads = {h["name"]: h for h in manifest["heads"]}
    probs = {name: calibrated(h, outputs[h["output"]][0]) for name, h in heads.items()}

    def prob(head: str, label: str) -> float:
        return float(probs[head][heads[head]["labels"].index(label)])

    out = {}
    for f in manifest["findings"]:
        src = f["source"]
        p = 1.0 - prob(src["head"], src["complementOf"]) if "complementOf" in src else prob(src["head"], src["label"])
        for cond in (heads[src["head"]].get("conditionalOn"), f.get("conditionalOn")):
            if cond:
                p *= prob(cond["head"], cond["label"])
        if f.get("requiresCtr") and ctr is None:
            continue
        if f.get("ctrCombine") and ctr is not None:
            p = combine_ctr(p, ctr, f["ctrCombine"], ap)
        out[f["label"]] = p
    return out


def load_pixels(path: Path) -> np.ndarray:
    """Decoded, EXIF-oriented pixels (HxW or HxWxC uint8), as cxr_train.export.reference_whole_film.analyse_file reads them."""
    from PIL import Image, ImageOps

    with Image.open(path) as im:
        im = ImageOps.exif_transpose(im)
        return np.asarray(im.convert("RGB") if im.mode not in ("L", "RGB", "RGBA", "LA") else im)


def check_constants(manifest: dict) -> None:
    a = manifest["anatomy"]
    assert (a["boxMargin"], a["minLungFraction"], a["minHeartPixels"]) == (BOX_MARGIN, MIN_LUNG_FRACTION, MIN_HEART_PIXELS), \
        "the manifest's anatomy constants differ from cxr_train/anatomy/ops.py"


def analyse_file(path: Path, manifest: dict, nets: Nets) -> dict:
    """The whole model 2 pipeline for one file (mirrors runPipeline in TypeScript)."""
    px = load_pixels(path)
    res = {"file": path.name, "width": int(px.shape[1]), "height": int(px.shape[0])}
    refused = {"probabilities": {}, "anatomy": None}
    pre = pre_checks(px)
    if pre:
        return {**res, "accepted": False, "reason": pre, "flags": [], **refused}
    a = manifest["anatomy"]
    gray = to_gray_u8(px)
    x255 = resize_area(gray, a["input"]["height"])
    out = nets.anatomy(normalise(a["input"], x255))
    g = manifest["gate"]
    ok, reason, flags = gate_verdict(manifest, None, x255, out[g["output"]][0])
    res.update({"accepted": ok, "reason": reason, "flags": flags, "gate": softmax(out[g["output"]][0].astype(np.float64)).tolist()})
    if not ok:
        return {**res, **refused}
    if "inverted" in flags:  # masks and crop from the film the right way round
        out = nets.anatomy(normalise(a["input"], 255.0 - x255))
        gray = 255 - gray
    logits = out[a["masks"]["output"]][0]
    lung, heart = logits[0] > 0, logits[1] > 0
    box = lung_box(lung)
    ctr_measured = cardiothoracic_ratio(lung, heart)
    # check-ctr.ts: an implausible outline gives no CTR (and no CTR in the cardiomegaly call).
    unreliable = None if ctr_measured is None else check_ctr(lung, heart, ctr_measured, a.get("ctrChecks"))
    ctr = None if unreliable else ctr_measured
    spec = manifest["input"]
    crop = crop_resize(gray, box if spec.get("crop") == "lung-box" else None, spec["height"])
    cout = nets.classifier(normalise(spec, crop))
    projection = projection_of(manifest, nets.model_dir, cout["pooled"][0]) if "pooled" in cout else None
    res["probabilities"] = finding_probs(manifest, cout, ctr, ap=projection is not None and projection["call"] == "AP")
    if projection is not None:
        res["projection"] = projection
    res["anatomy"] = {
        "lungBox": None if box is None else [float(v) for v in box],
        "ctr": ctr,
        "ctrMeasured": ctr_measured,
        "ctrUnreliable": unreliable,
        "flags": (["no_lung_field"] if box is None else []) + (["no_heart"] if ctr_measured is None else []),
        "lungMask": mask_b64(lung),
        "heartMask": mask_b64(heart),
    }
    return res


def mask_b64(mask: np.ndarray) -> str:
    """Row-major bits, most significant first (np.packbits), base64: tests/pipeline/parity.test.ts unpacks it."""
    import base64

    return base64.b64encode(np.packbits(mask.astype(np.uint8).ravel()).tobytes()).decode("ascii")


def load_model(model_dir: Path, **weights) -> tuple[dict, Nets]:
    manifest = json.loads((model_dir / "manifest.json").read_text())
    if "anatomy" not in manifest:
        raise SystemExit(f"{model_dir} is not a model 2 folder (no anatomy stage in its manifest)")
    for f, sha in ((manifest["file"], manifest["sha256"]), (manifest["anatomy"]["file"], manifest["anatomy"]["sha256"])):
        if sha256_file(model_dir / f) != sha:
            raise SystemExit(f"{model_dir / f} does not match the manifest's sha256")
    check_constants(manifest)
    return manifest, load_nets(model_dir, manifest, **weights)


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument("--model-dir", type=Path, default=MODEL_DIR)
    ap.add_argument("--anatomy-weights", type=Path, default=None)
    ap.add_argument("--head-weights", type=Path, default=None)
    ap.add_argument("--gate-weights", type=Path, default=None)
    ap.add_argument("images", type=Path, nargs="+")
    return ap


def main() -> None:
    args = parser().parse_args()
    torch.set_num_threads(2)
    manifest, nets = load_model(args.model_dir.resolve(), anatomy_weights=args.anatomy_weights, head_weights=args.head_weights,
                                gate_weights=args.gate_weights)
    for f in args.images:
        r = analyse_file(f, manifest, nets)
        if r["anatomy"]:
            r["anatomy"] = {k: v for k, v in r["anatomy"].items() if not k.endswith("Mask")}
        print(json.dumps(r))


if __name__ == "__main__":
    main()
