"""Step m4-export: model 4's shipped files from model 3's network and the external decision.

- model.onnx: model 3's classifier graph plus the projection output (`projection`, [N, 1] logit): the pooled
  standardised features the head reads, through the fitted linear layer (projection.json). The 17 logits and
  the CAMs are the same nodes as before.
- manifest.json 4.x: per-label Platt calibration refitted on the external films for every shipped ChestX-ray14
  finding, their operating points, cardiomegaly from the measured heart (ctrCombine with the projection,
  requiresCtr), the triage flag, the projection output, COVID-19 withdrawn, what did not ship "not assessed",
  and pneumonia with its subtype hints shown for children only (no external pediatric films exist to back them).
anatomy.onnx is not touched. Run after cxr_train.model4.external.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model4.export [--version 4.0.0]
"""
from __future__ import annotations

import json
import time

import numpy as np
import onnx
from onnx import helper, numpy_helper

from cxr_train.common import MODEL_DIR, cli_parser, sha256_file, write_json
from cxr_train.model4.dump import M4, add_pooled, strip_added

NOT_ASSESSED_DISPLAY = {"abnormal": "Abnormal (not normal)", "pneumonia": "Pneumonia / lung opacity"}


def add_projection(model: onnx.ModelProto, weights: list[float], bias: float) -> None:
    g = model.graph
    w = np.asarray(weights, dtype=np.float32)[:, None]
    g.initializer.append(numpy_helper.from_array(w, "m4_projection_w"))
    g.initializer.append(numpy_helper.from_array(np.asarray([bias], dtype=np.float32), "m4_projection_b"))
    g.node.append(helper.make_node("Gemm", ["pooled", "m4_projection_w", "m4_projection_b"], ["projection"], name="m4_projection"))
    g.output.append(helper.make_tensor_value_info("projection", onnx.TensorProto.FLOAT, ["N", 1]))


def write_model(proj: dict) -> None:
    m = onnx.load(MODEL_DIR / "model.onnx")
    strip_added(m)
    add_pooled(m)
    # pooled stays internal: only the projection leaves the graph.
    outs = [o for o in m.graph.output if o.name != "pooled"]
    del m.graph.output[:]
    m.graph.output.extend(outs)
    add_projection(m, proj["weights"], proj["bias"])
    onnx.checker.check_model(m)
    onnx.save(m, MODEL_DIR / "model.onnx")


def manifest_of(man: dict, ext: dict, cardio: dict, version: str) -> dict:
    head = man["heads"][0]
    labels = head["labels"]
    cands = ext["candidates"]
    findings: list[dict] = []
    keep = {f["label"]: f for f in man.get("findings", [])}
    # Pneumonia and its subtype hints: children only (validated on Kermany's test split; no external children).
    for lab in ("pneumonia", "pneumonia_bacterial", "pneumonia_viral"):
        f = dict(keep[lab])
        f["ageGroup"] = "pediatric"
        if lab == "pneumonia":
            f["population"] = "pediatric pneumonia vs normal (Kermany, internal test split only)"
        findings.append(f)
    c = cands["abnormal"]
    findings.append({"label": "abnormal", "display": c["display"], "source": {"head": "main", "label": "abnormal"},
                     "threshold": c["threshold"], "summary": True, "population": c["deciding"], "heatmap": "abnormal"})
    for lab, c in cands.items():
        if lab in ("abnormal", "pneumonia", "covid19", "cardiomegaly", "cardiomegaly_ctr") or not c["ships"]:
            continue
        i = labels.index(lab)
        head["temperature"][i], head["bias"][i] = c["temperature"], c["bias"]
        findings.append({"label": lab, "display": c["display"], "source": {"head": "main", "label": lab},
                         "threshold": c["threshold"], "population": c["deciding"], "heatmap": lab})
    c = cands["cardiomegaly_ctr"]
    if c["ships"]:
        findings.append({"label": "cardiomegaly", "display": c["display"], "source": {"head": "main", "label": "cardiomegaly"},
                         "threshold": c["threshold"], "population": c["deciding"] + " (from the measured CTR and the projection)",
                         "ctrCombine": cardio["ctrCombine"], "requiresCtr": True})
    shipped = {f["label"] for f in findings}
    withdrawn = [] if cands["covid19"]["ships"] else [{"label": "covid19", "display": "COVID-19 pattern", "reason": "external"}]
    out = dict(man)
    out.update(
        modelVersion=version,
        sha256=sha256_file(MODEL_DIR / "model.onnx"),
        createdAt=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        outputs=["logits", "cams", "projection"],
        findings=findings,
        notAssessed=[{"label": lab, "display": NOT_ASSESSED_DISPLAY.get(lab, c["display"])} for lab, c in cands.items()
                     if lab not in shipped and lab not in ("covid19", "cardiomegaly_ctr")],
        withdrawn=withdrawn,
        projection={"model": "classifier", "output": "projection", "temperature": 1.0, "bias": 0.0, "threshold": 0.5},
    )
    out["external"] = {"decidedOn": "cxr-external-val", "shipRule": ext["shipRule"]}
    return out


def parser():
    ap = cli_parser(__doc__)
    ap.add_argument("--version", default="4.0.0")
    return ap


def main() -> None:
    args = parser().parse_args()
    ext = json.loads((M4 / "external.json").read_text())
    proj = json.loads((M4 / "projection.json").read_text())
    cardio = json.loads((M4 / "cardiomegaly.json").read_text())
    man = json.loads((MODEL_DIR / "manifest.json").read_text())
    write_model(proj)
    write_json(MODEL_DIR / "manifest.json", manifest_of(man, ext, cardio, args.version))
    print(f"wrote {MODEL_DIR / 'model.onnx'} and manifest.json {args.version}")


if __name__ == "__main__":
    main()
