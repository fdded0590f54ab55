"""Python reference of the worker's pipeline (worker/src/pipeline/*.ts): decode, gate,
preprocess, run the network, calibrate, compose. Used for evaluation and for the
parity fixtures the TypeScript test compares against."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import torch

from cxr_train.common import resize_area, to_gray_u8
from cxr_train.gate.checks import REASONS, MIN_SIDE, post_checks, pre_checks


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(-1, keepdims=True)


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def calibrated(head: dict, logits: np.ndarray) -> np.ndarray:
    """activation(logits / temperature + bias), per head, as the manifest says."""
    z = logits.astype(np.float64) / head.get("temperature", 1.0) + np.asarray(head.get("bias", 0.0), dtype=np.float64)
    return softmax(z) if head["activation"] == "softmax" else sigmoid(z)


def finding_probs(manifest: dict, outputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Per finding probability (batched) from raw network outputs."""
    heads = {h["name"]: h for h in manifest["heads"]}
    probs = {name: calibrated(h, outputs[h["output"]]) for name, h in heads.items()}
    out = {}
    for f in manifest["findings"]:
        src = f["source"]
        h = heads[src["head"]]
        if "complementOf" in src:
            p = 1.0 - probs[h["name"]][:, h["labels"].index(src["complementOf"])]
        else:
            p = probs[h["name"]][:, h["labels"].index(src["label"])]
        cond = h.get("conditionalOn")
        if cond:
            ch = heads[cond["head"]]
            p = p * probs[ch["name"]][:, ch["labels"].index(cond["label"])]
        out[f["label"]] = p
    return out


def call_of(p: float, t: float, margin: float) -> str:
    lo = 1 / (1 + math.exp(-(math.log(t / (1 - t)) - margin)))
    hi = 1 / (1 + math.exp(-(math.log(t / (1 - t)) + margin)))
    return "positive" if p >= hi else "negative" if p < lo else "uncertain"


def gate_verdict(manifest: dict, pre: str | None, x255: np.ndarray, gate_logits: np.ndarray | None):
    g = manifest["gate"]
    if pre:
        return False, pre, []
    post, flags = post_checks(x255)
    if post:
        return False, post, flags
    if gate_logits is not None:
        p = softmax(gate_logits.astype(np.float64))
        if p[g["labels"].index(g["rejectLabel"])] >= g["rejectThreshold"]:
            return False, "not_cxr", flags
        inv = g.get("invertedLabel")
        if inv and p[g["labels"].index(inv)] > p[g["labels"].index(g["acceptLabel"])]:
            flags = flags + ["inverted"]
    return True, None, flags


def reason_text(code: str | None) -> str | None:
    return None if code is None else REASONS[code].format(min_side=MIN_SIDE)


class TorchRunner:
    """Runs the export wrapper in PyTorch; outputs named like the ONNX graph."""

    def __init__(self, model: torch.nn.Module, names: list[str]):
        self.model = model.eval()
        self.names = names

    def __call__(self, x: np.ndarray) -> dict[str, np.ndarray]:
        with torch.no_grad():
            outs = self.model(torch.from_numpy(x))
        return {n: o.numpy() for n, o in zip(self.names, outs)}


def normalise(manifest: dict, x255: np.ndarray) -> np.ndarray:
    i = manifest["input"]
    return ((x255 / 255.0 - i["mean"][0]) / i["std"][0]).astype(np.float32)


def analyse_file(path: Path, manifest: dict, run) -> dict:
    """The whole pipeline for one file (mirrors runPipeline in TypeScript)."""
    from PIL import Image, ImageOps

    with Image.open(path) as im:
        im = ImageOps.exif_transpose(im)
        px = np.asarray(im.convert("RGB") if im.mode not in ("L", "RGB", "RGBA", "LA") else im)
    pre = pre_checks(px)
    size = manifest["input"]["height"]
    x255 = resize_area(to_gray_u8(px), size)
    res = {"file": path.name, "width": int(px.shape[1]), "height": int(px.shape[0])}
    if pre:
        return {**res, "accepted": False, "reason": pre, "flags": [], "probabilities": {}}
    out = run(normalise(manifest, x255)[None, None])
    g = manifest["gate"]
    ok, reason, flags = gate_verdict(manifest, None, x255, out[g["output"]][0])
    res.update({"accepted": ok, "reason": reason, "flags": flags,
                "gate": softmax(out[g["output"]][0].astype(np.float64)).tolist()})
    if not ok:
        return {**res, "probabilities": {}}
    if "inverted" in flags:  # classify the film the right way round
        out = run(normalise(manifest, 255.0 - x255)[None, None])
    probs = finding_probs(manifest, out)
    res["probabilities"] = {k: float(v[0]) for k, v in probs.items()}
    return res
