"""Shared preprocessing, constants and helpers for training, export and evaluation.

The preprocessing here is mirrored line for line by worker/src/pipeline/preprocess.ts;
change one and you must change the other (the parity test will tell you).
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import random
import sys
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_DATA = (REPO_ROOT / ".." / "shared" / "datasets" / "cxr-224").resolve()
CACHE_DIR = REPO_ROOT / ".cache" / "cxr"
MODEL_DIR = REPO_ROOT / "models" / "cxr"

INPUT_SIZE = 128  # network input is INPUT_SIZE x INPUT_SIZE, one channel
CLASSES = ["normal", "pneumonia", "covid19"]  # main softmax head
SUBTYPES = ["bacterial", "viral"]  # subtype head, meaningful for pneumonia only
# Gate head classes: a chest radiograph, the same with inverted polarity, anything else.
GATE_CLASSES = ["chest_xray", "chest_xray_inverted", "other"]


def seed_everything(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def versions() -> dict:
    import PIL
    import torch
    import torchvision

    out = {
        "python": sys.version.split()[0],
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "numpy": np.__version__,
        "pillow": PIL.__version__,
    }
    try:
        import onnx

        out["onnx"] = onnx.__version__
    except ImportError:
        pass
    return out


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_manifest(data_dir: Path) -> list[dict]:
    with open(data_dir / "manifest.csv", newline="") as f:
        return list(csv.DictReader(f))


def data_version(data_dir: Path) -> str:
    """Training data version: name of the folder plus sha256 of its manifest."""
    return f"{data_dir.name}@sha256:{sha256_file(data_dir / 'manifest.csv')[:16]}"


# ---------------------------------------------------------------- preprocessing
def to_gray_u8(rgb_or_gray: np.ndarray) -> np.ndarray:
    """8-bit luma with integer ITU-R 601 weights, as preprocess.ts computes it.

    Accepts HxW (already gray), HxWx1, HxWx2 (gray+alpha), HxWx3 or HxWx4 uint8.
    Alpha is ignored (composited over nothing), which is fine for radiographs.
    """
    a = np.asarray(rgb_or_gray)
    if a.ndim == 2:
        return a.astype(np.uint8)
    c = a.shape[2]
    if c <= 2:
        return a[:, :, 0].astype(np.uint8)
    r = a[:, :, 0].astype(np.uint32)
    g = a[:, :, 1].astype(np.uint32)
    b = a[:, :, 2].astype(np.uint32)
    return ((r * 299 + g * 587 + b * 114 + 500) // 1000).astype(np.uint8)


def area_weights(n_in: int, n_out: int) -> np.ndarray:
    """Row-stochastic matrix (n_out x n_in): output pixel i averages input span
    [i*n_in/n_out, (i+1)*n_in/n_out) weighted by overlap. Exact box filter."""
    w = np.zeros((n_out, n_in), dtype=np.float64)
    scale = n_in / n_out
    for i in range(n_out):
        lo, hi = i * scale, (i + 1) * scale
        j0, j1 = int(np.floor(lo)), int(np.ceil(hi))
        for j in range(j0, min(j1, n_in)):
            ov = min(hi, j + 1) - max(lo, j)
            if ov > 0:
                w[i, j] = ov
        w[i] /= w[i].sum()
    return w


def resize_area(gray: np.ndarray, size: int = INPUT_SIZE) -> np.ndarray:
    """Stretch a HxW uint8 image to size x size with the box filter. float64 0..255."""
    h, w = gray.shape
    wy = area_weights(h, size)
    wx = area_weights(w, size)
    return (wy @ gray.astype(np.float64)) @ wx.T


def load_image_gray(path: Path) -> np.ndarray:
    from PIL import Image, ImageOps

    with Image.open(path) as im:
        im = ImageOps.exif_transpose(im)
        if im.mode in ("L", "RGB", "RGBA", "LA"):
            arr = np.asarray(im)
        elif im.mode in ("I;16", "I;16B", "I"):
            arr16 = np.asarray(im).astype(np.float64)
            arr = np.clip(arr16 / 257.0 + 0.5, 0, 255).astype(np.uint8)
        else:
            arr = np.asarray(im.convert("RGB"))
    return to_gray_u8(arr)


def preprocess_file(path: Path, size: int = INPUT_SIZE) -> np.ndarray:
    """File -> float32 size x size in 0..255 (before normalisation)."""
    return resize_area(load_image_gray(path), size)


def finite(obj):
    """NaN/inf (an undefined AUROC, say) become null: strict JSON readers (the client build) reject them."""
    if isinstance(obj, float):
        return obj if obj == obj and abs(obj) != float("inf") else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def write_json(path: Path, obj) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w") as f:
        json.dump(finite(obj), f, indent=2, allow_nan=False)
        f.write("\n")
    os.replace(tmp, path)


class _CliParser(argparse.ArgumentParser):
    """Shows every option's default in --help, so what a step does without flags is on its own help page."""

    def _add_action(self, action: argparse.Action) -> argparse.Action:
        if action.option_strings and action.default not in (None, False, argparse.SUPPRESS) and "%(default)" not in (action.help or ""):
            action.help = f"{action.help} (default: %(default)s)" if action.help else "default: %(default)s"
        return super()._add_action(action)


def cli_parser(doc: str | None, **kwargs) -> argparse.ArgumentParser:
    """The parser every step starts from: the module docstring as written, one help layout for all of them."""
    return _CliParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)
