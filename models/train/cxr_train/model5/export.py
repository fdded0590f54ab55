"""Step m5-export: model 5's shipped files from model 4's network and the model-5 choices.

- model.onnx: model 4's graph with the head's 1x1 convolution (`head.c2`, whose mean over the 7x7 grid is the
  logits and whose maps are the CAMs) refitted for the ChestX-ray14 outputs and the triage output where the
  cross-validation chose the refit, one channel more (`lung_opacity`), and the projection's linear layer refitted.
  The pediatric outputs (pneumonia, covid19, viral_given_pneumonia) keep model 3's weights.
- manifest.json 5.x: calibration (Platt, out of fold), the flag operating points chosen against every other film,
  uncertainMargin 0 (below its point a finding is "not flagged"), cardiomegaly from the heart, the adult airspace
  opacity finding, and "not assessed" for what did not ship.
anatomy.onnx is not touched. Run after cxr_train.model5.choose. It starts from the model-4 files m5-dump kept in
.cache/m5/base, so a rerun gives the same files.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.model5.export [--version 5.0.0]
"""
from __future__ import annotations

import json
import time

import numpy as np
import onnx
from onnx import numpy_helper

from cxr_train.common import MODEL_DIR, cli_parser, sha256_file, write_json
from cxr_train.model5.data import LABELS
from cxr_train.model5.dump import BASE, M5

OPACITY_DISPLAY = "Airspace opacity (as in pneumonia; the model cannot tell the cause)"
DISPLAY = {
    "atelectasis": "Atelectasis", "pleural_effusion": "Pleural effusion", "infiltration": "Infiltration", "mass": "Mass",
    "nodule": "Nodule", "pneumothorax": "Pneumothorax", "consolidation": "Consolidation", "edema": "Edema",
    "emphysema": "Emphysema", "fibrosis": "Fibrosis", "pleural_thickening": "Pleural thickening", "hernia": "Hernia",
    "cardiomegaly": "Enlarged cardiac silhouette", "lung_opacity": OPACITY_DISPLAY,
}
NIH = {"atelectasis": "Atelectasis", "pleural_effusion": "Effusion", "infiltration": "Infiltration", "mass": "Mass",
       "nodule": "Nodule", "pneumothorax": "Pneumothorax", "consolidation": "Consolidation", "edema": "Edema",
       "emphysema": "Emphysema", "fibrosis": "Fibrosis", "pleural_thickening": "Pleural_Thickening", "hernia": "Hernia",
       "cardiomegaly": "Cardiomegaly", "lung_opacity": "Consolidation, Infiltration or Pneumonia"}


def _init(g: onnx.GraphProto, name: str) -> onnx.TensorProto:
    return next(i for i in g.initializer if i.name == name)


def _replace(g: onnx.GraphProto, name: str, arr: np.ndarray) -> None:
    t = _init(g, name)
    t.CopyFrom(numpy_helper.from_array(arr.astype(np.float32), name))


def write_model(head_labels: list[str], refit: set[str], proj: dict, variant: str, mix: dict) -> list[str]:
    """The head's conv with the refitted rows (and new labels appended); returns the new head's labels.

    A label whose out-of-fold choice mixed in model 4's head gets a * w4 / s4 + (1 - a) * w5 / s5 (choose.py).
    """
    fin = np.load(M5 / ("head-final.npz" if variant == "none" else f"head-final-{variant}.npz"))
    m = onnx.load(BASE / "model.onnx")
    g = m.graph
    w = numpy_helper.to_array(_init(g, "head.c2.weight")).copy()
    b = numpy_helper.to_array(_init(g, "head.c2.bias")).copy()
    w_new = {}
    for i, lab in enumerate(fin["labels"].tolist()):
        wn, bn = fin["w"][i], float(fin["b"][i])
        mx = mix.get(lab)
        if mx:
            idx = [head_labels.index(r) for r in mx["rows"]]
            w4 = np.mean([w[j, :, 0, 0] for j in idx], axis=0)
            b4 = float(np.mean([b[j] for j in idx]))
            a = mx["share"]
            wn = a * w4 / mx["s4"] + (1 - a) * wn / mx["s5"]
            bn = a * b4 / mx["s4"] + (1 - a) * bn / mx["s5"]
        w_new[lab] = (wn, bn)
    labels = list(head_labels)
    rows_w, rows_b = list(w), list(b)
    for lab in LABELS:
        if lab not in refit:
            continue
        if lab not in labels:
            labels.append(lab)
            rows_w.append(np.zeros_like(w[0]))
            rows_b.append(0.0)
        i = labels.index(lab)
        rows_w[i] = w_new[lab][0].reshape(-1, 1, 1)
        rows_b[i] = w_new[lab][1]
    _replace(g, "head.c2.weight", np.stack(rows_w))
    _replace(g, "head.c2.bias", np.asarray(rows_b))
    # The declared output shapes name the label count (onnxruntime warns when they disagree with the head's).
    for o in g.output:
        if o.name in ("logits", "cams"):
            o.type.tensor_type.shape.dim[1].dim_value = len(labels)
    if not proj.get("keep"):
        _replace(g, "m4_projection_w", np.asarray(proj["weights"])[:, None])
        _replace(g, "m4_projection_b", np.asarray([proj["bias"]]))
    onnx.checker.check_model(m)
    onnx.save(m, MODEL_DIR / "model.onnx")
    return labels


def manifest_of(man: dict, ch: dict, labels: list[str], refit: set[str], version: str) -> dict:
    head = dict(man["heads"][0])
    temp = list(head["temperature"]) + [1.0] * (len(labels) - len(head["labels"]))
    bias = list(head["bias"]) + [0.0] * (len(labels) - len(head["labels"]))
    fs = ch["findings"]
    # The triage's threshold is in its own calibration's scale, refitted or not.
    for lab in refit | {"abnormal"}:
        a, c = ch["triage"]["platt"] if lab == "abnormal" else ch["platt"][lab]
        temp[labels.index(lab)], bias[labels.index(lab)] = 1.0 / a, c
    head.update(labels=labels, temperature=temp, bias=bias)
    keep = {f["label"]: f for f in man["findings"]}
    findings = [keep[lab] for lab in ("pneumonia", "pneumonia_bacterial", "pneumonia_viral")]
    t = ch["triage"]
    findings.append({"label": "abnormal", "display": "Abnormal (triage)", "source": {"head": "main", "label": "abnormal"},
                     "threshold": t["threshold"], "summary": True, "heatmap": "abnormal",
                     "population": "ChestX-ray14 abnormal vs normal films (operating point cross-validated)"})
    order = sorted((lab for lab, f in fs.items() if f["ships"]), key=lambda lab: -fs[lab]["oneVsRest"])
    for lab in order:
        f = fs[lab]
        pop = f"{NIH['cardiomegaly' if lab == 'cardiomegaly_ctr' else lab]} vs every other ChestX-ray14 film (cross-validated)"
        if lab == "cardiomegaly_ctr":
            c = ch["cardiomegaly"]
            a, b = f["platt"]
            # The combination read the head's raw logit z; the product gives it logit(q) = ah z + ch (the head's
            # calibration), so z = (logit(q) - ch) / ah. The combination's own calibration folds in: sigmoid(a s + b).
            ah, chh = ch["platt"]["cardiomegaly"]
            lw = c["logitWeight"] / ah
            b0 = c["bias"] - c["logitWeight"] * chh / ah
            comb = {"ctrWeight": a * c["ctrWeight"], "apWeight": a * c["apWeight"], "logitWeight": a * lw, "bias": a * b0 + b}
            findings.append({"label": "cardiomegaly", "display": DISPLAY["cardiomegaly"],
                             "source": {"head": "main", "label": "cardiomegaly"}, "threshold": f["threshold"],
                             "population": pop + " (from the measured CTR and the projection)", "ctrCombine": comb,
                             "requiresCtr": True, "heatmap": "cardiomegaly"})
            continue
        entry = {"label": lab, "display": DISPLAY[lab], "source": {"head": "main", "label": lab}, "threshold": f["threshold"],
                 "population": pop, "heatmap": lab}
        if lab == "lung_opacity":
            entry["ageGroup"] = "adult"
        findings.append(entry)
    shipped = {f["label"] for f in findings}
    out = dict(man)
    out.update(
        modelVersion=version,
        sha256=sha256_file(MODEL_DIR / "model.onnx"),
        createdAt=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        trainingData=man["trainingData"] + " + cxr-nih-more + cxr-external-val (patient-grouped 5-fold cross-validation)",
        heads=[head],
        cams={"output": "cams", "channels": labels},
        uncertainMargin=0.0,
        # The timeline's "unchanged" band keeps model 4's width: calls have no band now, changes still need one.
        changeMargin=man["uncertainMargin"],
        findings=findings,
        notAssessed=[{"label": lab, "display": DISPLAY[lab]} for lab in DISPLAY
                     if lab not in shipped and not (lab == "cardiomegaly" and "cardiomegaly" in shipped)],
    )
    out["external"] = {"decidedOn": "cxr-external-val (patient-grouped 5-fold cross-validation)",
                       "shipRule": "one-vs-rest AUROC on the external ChestX-ray14 films, cross-validated: >= 10 positives, "
                                   ">= 0.70 and the lower end of the 95 % patient-bootstrap interval >= 0.60; flagged at an "
                                   "operating point chosen against every other film (other abnormal films included)"}
    return out


def parser():
    ap = cli_parser(__doc__)
    ap.add_argument("--version", default="5.0.0")
    return ap


def main() -> None:
    args = parser().parse_args()
    ch = json.loads((M5 / "choices.json").read_text())
    man = json.loads((BASE / "manifest.json").read_text())
    refit = {lab for lab in LABELS if lab != "abnormal"} | ({"abnormal"} if ch["triage"]["source"] == "head" else set())
    labels = write_model(man["heads"][0]["labels"], refit, ch["projection"], ch["headVariant"], ch["mix"])
    write_json(MODEL_DIR / "manifest.json", manifest_of(man, ch, labels, refit, args.version))
    print(f"wrote {MODEL_DIR / 'model.onnx'} and manifest.json {args.version}")


if __name__ == "__main__":
    main()
