"""PyTorch eager half of `npm run bench:inference`: the network of models/cxr/model.pt
(the same graph as model.onnx) on one thread. Prints one JSON line."""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "models" / "train"))
from net import CxrNet, ExportModel, GateNet  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", type=Path, default=ROOT / "models" / "cxr")
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--batch", type=int, default=16)
    args = ap.parse_args()
    torch.set_num_threads(1)
    manifest = json.loads((args.model / "manifest.json").read_text())
    model = ExportModel(CxrNet(manifest["torchWeights"]["width"]), GateNet())
    model.load_state_dict(torch.load(args.model / "model.pt"))
    model.eval()
    size = manifest["input"]["height"]
    x1 = torch.randn(1, 1, size, size, generator=torch.Generator().manual_seed(0))
    xb = torch.randn(args.batch, 1, size, size, generator=torch.Generator().manual_seed(1))
    lat = []
    with torch.inference_mode():
        for _ in range(20):
            model(x1)
        for _ in range(args.iters):
            t = time.perf_counter()
            model(x1)
            lat.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        reps = max(3, args.iters // args.batch)
        for _ in range(reps):
            model(xb)
        batched = reps * args.batch / (time.perf_counter() - t)
    lat.sort()
    print(json.dumps({"runtime": f"pytorch {torch.__version__} eager", "threads": torch.get_num_threads(),
                      "medianMs": statistics.median(lat), "p90Ms": lat[int(0.9 * len(lat))],
                      "imagesPerSecBatch1": 1000 / statistics.mean(lat), "imagesPerSecBatched": batched, "batch": args.batch}))


if __name__ == "__main__":
    main()
