"""Write models/cxr/MODEL_CARD.md and models/cxr/metrics.json for model 2 and 3 from the measured files:
evaluation.json (cxr_train/evaluate/findings.py), anatomy-evaluation.json (cxr_train/evaluate/anatomy.py),
gate-evaluation.json (cxr_train/evaluate/gate.py), shortcut-checks.json (cxr_train/evaluate/shortcuts.py),
manifest.json and the training logs. Nothing here is typed by hand except the targets of issue 12.

Usage: PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.evaluate.card [--only card-json]
"""
from __future__ import annotations

import argparse
import json

from cxr_train.data.cache import CACHE
from cxr_train.common import MODEL_DIR, cli_parser, write_json
from cxr_train.evaluate.card_text import write_card_json

TARGETS = {
    "ChestX-ray14 normal vs abnormal": 0.80,
    "adult infection vs adult normal": 0.92,
    "COVID-19 vs non-COVID infection (QU-Ex)": 0.80,
    "cardiomegaly (ChestX-ray14)": 0.85,
}


def finding_label(lab: str) -> str:
    return "viral_given_pneumonia" if lab in ("pneumonia_viral", "pneumonia_bacterial") else lab


def load(name: str) -> dict:
    p = MODEL_DIR / name
    return json.loads(p.read_text()) if p.exists() else {}


def f3(v) -> str:
    return "n/a" if v is None or v != v else f"{v:.3f}"


def pct(v) -> str:
    return "n/a" if v is None or v != v else f"{100 * v:.1f}%"


def ci(c) -> str:
    return f"[{f3(c[0])}, {f3(c[1])}]"


def training_seconds() -> dict[str, float]:
    """Wall time of each step, from the logs the scripts wrote (copied to .cache/v2/logs)."""
    out: dict[str, float] = {}
    logs = CACHE / "logs"

    def epochs(name):
        p = logs / name
        return sum(json.loads(line)["sec"] for line in p.read_text().splitlines() if line.startswith('{"epoch"')) if p.exists() else 0.0

    a3 = CACHE / "anatomy3" / "train.log"
    if a3.exists():  # model 3
        recs = [json.loads(line) for line in a3.read_text().splitlines() if line.startswith('{"epoch"')]
        out[f"anatomy U-Net fine-tune (Wingspan masks, opacities), {len(recs)} epochs x 90 steps"] = sum(r["sec"] for r in recs)
        for name, label in (("b13-train.log", "training crops through blocks 0-13"), ("b13-aug.log", "augmented training crops through blocks 0-13"), ("b13-val.log", "val crops through blocks 0-13"), ("b13-eval.log", "val+test crops (new anatomy net) through blocks 0-13")):
            p = logs / name
            if p.exists():
                last = [line for line in p.read_text().splitlines() if " done in " in line]
                if last:
                    out[label] = float(last[-1].split("done in ")[1].rstrip("s"))
        return out
    out["anatomy U-Net, 5 epochs x 90 steps"] = epochs("anat.out")
    out["anatomy heart fine-tune, 3 epochs x 90 steps"] = epochs("anat_ft.out")
    for name, label in (("extract_aug.out", "augmented training crops through the backbone"), ("extract_eval.out", "all crops through the backbone"), ("extract_vt.out", "val/test crops again with the fine-tuned anatomy net")):
        p = logs / name
        if p.exists():
            last = [line for line in p.read_text().splitlines() if "done in" in line]
            if last:
                out[label] = float(last[-1].split("done in ")[1].rstrip("s"))
    p = logs / "chain.out"
    if p.exists():
        heads = [json.loads(line) for line in p.read_text().splitlines() if line.startswith('{"tag"')]
        if heads:
            out["linear head, 30 epochs"] = float(heads[-1]["sec"])
        out["cross-validation, 5 folds"] = float(sum(json.loads(line)["sec"] for line in p.read_text().splitlines() if line.startswith('{"cv_fold"')))
    return out


def parser() -> argparse.ArgumentParser:
    ap = cli_parser(__doc__)
    ap.add_argument(
        "--only", choices=["all", "card-json"], default="all",
        help="card-json: write card.json from the committed MODEL_CARD.md only (no training logs needed)",
    )
    return ap


def main() -> None:
    args = parser().parse_args()
    if args.only == "card-json":
        print("wrote", write_card_json(MODEL_DIR))
        return
    ev, an, gate, sc = load("evaluation.json"), load("anatomy-evaluation.json"), load("gate-evaluation.json"), load("shortcut-checks.json")
    man = load("manifest.json")
    train_log = (CACHE / "heads" / "train.log").read_text().splitlines() if (CACHE / "heads" / "train.log").exists() else []
    dec = ev["decisions"]
    shipped = [k for k, d in dec.items() if d["shipped"]]
    display = {f["label"]: f["display"] for f in man.get("findings", [])} | {n["label"]: n["display"] for n in man.get("notAssessed", [])}
    thresholds = {f["label"]: f.get("threshold") for f in man.get("findings", [])}

    # Targets of issue 12, each from its measured figure.
    cardio = dec.get("cardiomegaly", {})
    target_rows = []
    for pop, goal in TARGETS.items():
        if pop.startswith("cardiomegaly"):
            val, src = cardio.get("auc"), cardio.get("figureFrom", "")
        else:
            val, src = ev["test"].get(pop, {}).get("auc"), "test split"
        target_rows.append({"population": pop, "auc": val, "target": goal, "met": bool(val is not None and val >= goal), "from": src})
    target_rows.append({"population": "shipped findings", "auc": len(shipped), "target": 8, "met": len(shipped) >= 8, "from": "shipping rule"})
    must = ["abnormal", "pleural_effusion", "cardiomegaly"]
    target_rows.append({"population": "abnormal, effusion and cardiomegaly shipped", "auc": sum(m in shipped for m in must), "target": 3, "met": all(m in shipped for m in must), "from": "shipping rule"})
    for src, v in an.get("ctr", {}).get("perSource", {}).items():
        target_rows.append({"population": f"CTR mean absolute error, {src} test films", "auc": v["mae"], "target": 0.03, "met": v["mae"] <= 0.03, "from": f"test split, {v['n']} films", "atMost": True})
    ablation, ctr_rel = load("ablation.json"), load("ctr-reliability.json")

    metrics = {
        "schemaVersion": 2,
        "modelName": man.get("modelName"),
        "modelVersion": man.get("modelVersion"),
        "modelSha256": man.get("sha256"),
        "anatomySha256": man.get("anatomy", {}).get("sha256"),
        "trainingData": man.get("trainingData"),
        "evaluatedAt": ev["evaluatedAt"],
        "testImages": ev["testImages"],
        "numberOfFindings": len(shipped),
        "findingLabels": shipped,
        "notAssessed": [k for k in dec if k not in shipped],
        "shipRule": ev["shipRule"],
        "findings": {
            k: {**d, "display": display.get(k, k), "threshold": thresholds.get(k)}
            for k, d in dec.items()
        },
        "test": ev["test"],
        "anatomy": {
            "lungDice": an.get("lungDice"),
            "heartDice": an.get("heartDice"),
            "ctrMae": an.get("ctr", {}).get("mae"),
            "ctrImages": an.get("ctr", {}).get("n"),
        },
        "gate": {"rejectThreshold": gate.get("rejectThreshold"), **gate.get("test", {})},
        "targets": target_rows,
        "ablation": ablation,
        "ctrReliability": ctr_rel,
        "groups": ev["byGroup"],
    }
    write_json(MODEL_DIR / "metrics.json", metrics)

    L: list[str] = []
    w = L.append
    w(f"# Model card: {man.get('modelName')} {man.get('modelVersion')}")
    w("")
    w("_Generated by `models/train/cxr_train/evaluate/card.py` from the measured result files in this folder; no figure is typed by hand._")
    w("")
    w("**Assistive use only, for research and education.** Not a medical device. Every output is a probability for a clinician to weigh, never a diagnosis.")
    w("")
    w("## What it is")
    w("")
    w(f"- Classifier `model.onnx` (sha256 `{man.get('sha256')}`) and anatomy stage `anatomy.onnx` (sha256 `{man.get('anatomy', {}).get('sha256')}`), ONNX opset 17.")
    w(f"- Training data: `{man.get('trainingData')}` (cxr-224 and cxr-extra train splits; thresholds and calibration on their val splits; test splits touched once, for this card).")
    w("- Pipeline: input gate (deterministic checks + a small net) -> anatomy U-Net (lungs, heart; 128x128) -> the film cropped to the lung-field box (+8 % margin) at native resolution, stretched to 224x224 -> " + ("ImageNet MobileNetV2 (1-channel; blocks 0-13 frozen ImageNet weights, blocks 14-18 fine-tuned on the training split; mid-level and top features at 7x7)" if load("ablation.json") else "ImageNet MobileNetV2 (frozen, 1-channel; mid-level and top features at 7x7)") + " -> a linear 1x1-conv head (logistic regression on the standardised features, applied at every position) giving 17 sigmoid outputs whose per-position values are the class-activation maps -> per-label Platt calibration (val) -> findings. Heatmaps show what is specific to each finding (its class-activation map less the shipped findings' mean) in the lung fields, for pleural findings also a rim around them; cardiomegaly from the measured heart shows the heart's outline and CTR widths (issue 48).")
    w("- Backbone weights: MobileNetV2 ImageNet weights from google-coral/test_data (Apache-2.0; see `LICENSE-mobilenet-v2`). The heart segmentation is trained on JSRT/SCR masks, whose terms allow research and education only: the anatomy stage inherits those terms.")
    w(f"- A probability within {man.get('uncertainMargin')} log-odds of its threshold is reported as 'uncertain'.")
    w("")
    w("## Targets of issue 26 (cxr-extra test splits)")
    w("")
    w("| population | measured | target | met | figure from |")
    w("|---|---|---|---|---|")
    for t in target_rows:
        val = t["auc"] if isinstance(t["auc"], int) else f3(t["auc"])
        w(f"| {t['population']} | {val} | {'<=' if t.get('atMost') else '>='} {t['target']} | {'yes' if t['met'] else 'no'} | {t['from']} |")
    w("")
    if ablation:
        a, b, c = ablation["a_frozen_model2"], ablation["b_top_blocks_finetuned"], ablation["c_full_network"]
        w("## Ablation: frozen vs fine-tuned (validation split, same populations)")
        w("")
        w(f"Population: {ablation['population']}. (a) model 2 as shipped: frozen ImageNet MobileNetV2, linear head. (b) model 3: blocks 14-18 and the head fine-tuned on cached block-13 activations, best of {b['epochs']} epochs (epoch {b['bestEpoch']}), {b['trainingViewsPerEpoch']} training views per epoch, wall time per epoch {', '.join(f'{x / 60:.1f}' for x in b['secondsPerEpoch'])} min. (c) the whole network: {c['why']}.")
        w("")
        var = ablation.get("b_variants_not_shipped", {})
        w("| finding (deciding population) | (a) frozen, model 2 | (b) top blocks fine-tuned, shipped (`recipes/model3.json`) | " + " | ".join(f"(b) variant `{k}`, epoch {v['bestEpoch']} of {v['epochs']}, not shipped" for k, v in var.items()) + " |")
        w("|---|---|---|" + "---|" * len(var))
        for k in b["valAuroc"]:
            w(f"| {k} | {f3(a['valAuroc'].get(k))} | {f3(b['valAuroc'].get(k))} | " + " | ".join(f3(v["valAuroc"].get(k)) for v in var.values()) + " |")
        w(f"| **mean** | {f3(a['valMean'])} | {f3(b['valMean'])} | " + " | ".join(f3(v["valMean"]) for v in var.values()) + " |")
        w("")
        w("The shipped configuration is the one with the higher mean validation AUROC (the rule fixed before the runs); the mean includes populations with very few validation positives (mass 5, pneumothorax 4), so differences under about 0.01 are noise.")
        w("")
    w("")
    w("## Every candidate finding and whether it shipped")
    w("")
    w(f"Rule: {ev['shipRule']}. 95 % intervals: 1000 bootstrap resamples of patients/leakage groups.")
    w("")
    w("| finding | deciding population | figure from | n (positives) | AUROC [95 % CI] | threshold | shipped |")
    w("|---|---|---|---|---|---|---|")
    for k, d in dec.items():
        w(f"| {display.get(k, k)} | {d['population']} | {d['figureFrom']} | {d['n']} ({d['positives']}) | {f3(d['auc'])} {ci(d['aucCi95'])} | {f3(thresholds.get(k))} | {'yes' if d['shipped'] else 'no: not assessed'} |")
    w("")
    w("## All test-split populations")
    w("")
    w("| population | output | n (positives) | AUROC [95 % CI] | sensitivity | specificity |")
    w("|---|---|---|---|---|---|")
    for name, f in ev["test"].items():
        w(f"| {name} | {f['output']} | {f['n']} ({f['positives']}) | {f3(f['auc'])} {ci(f['aucCi95'])} | {pct(f.get('sensitivity'))} | {pct(f.get('specificity'))} |")
    w("")
    w("The cxr-224 rows share that dataset's age/source shortcut (every pneumonia is pediatric, every COVID-19 film web-collected); they are shown for comparison, not as clinical performance.")
    w("")
    if ev.get("crossValidation"):
        w("## Cross-validated figures (findings with under 20 test positives)")
        w("")
        w("| finding | population | n (positives) | AUROC [95 % CI] |")
        w("|---|---|---|---|")
        for k, f in ev["crossValidation"].items():
            w(f"| {k} | {f['population']} | {f['n']} ({f['positives']}) | {f3(f['auc'])} {ci(f['aucCi95'])} |")
        w("")
    w("## Per source and age group (test split, at the shipped thresholds)")
    w("")
    w("| group | source label | n | called abnormal | called pneumonia/opacity | called COVID-19 |")
    w("|---|---|---|---|---|---|")
    for g, v in sorted(ev["byGroup"].items()):
        for lab, c in sorted(v["labels"].items()):
            n = c["n"]
            w(f"| {g} | {lab} | {n} | {pct(c['calledAbnormal'] / n)} | {pct(c['calledPneumonia'] / n)} | {pct(c['calledCovid19'] / n)} |")
    w("")
    w("Abnormal-output AUROC within each group: " + "; ".join(f"{g} {f3(v.get('abnormalAuc'))}" for g, v in sorted(ev["byGroup"].items())) + ".")
    w("")
    if an:
        w("## Anatomy stage (test split)")
        w("")
        w(f"Lung Dice {f3(an['lungDice'])} (target >= 0.95), heart Dice {f3(an['heartDice'])} (target >= 0.90), on the 128x128 grid. CTR mean absolute error {f3(an['ctr']['mae'])} (target <= 0.03; max {f3(an['ctr']['maxError'])}) over {an['ctr']['n']} JSRT test films against the CTR computed from the reference SCR masks at 256 px.")
        w("")
        w("| masks | n | lung Dice (min) | heart Dice (min) |")
        w("|---|---|---|---|")
        for k, v in an["test"].items():
            w(f"| {k} | {v['n']} | {f3(v['lungDice'])} ({f3(v['lungDiceMin'])}) | {f3(v.get('heartDice'))} ({f3(v.get('heartDiceMin'))}) |")
        w("")
        for src, v in an["ctr"].get("perSource", {}).items():
            w(f"- CTR mean absolute error on {src} test films: {f3(v['mae'])} ({v['n']} films).")
        w("")
        w("CTR definition: maximal horizontal heart width (leftmost to rightmost heart pixel) / maximal inner thoracic width (the widest row from the outer edge of one lung field to the outer edge of the other). Usual upper reference 0.50 on an adult PA film. The heart masks come from 247 JSRT films and 259 Wingspan films (adult, frontal); the CTR is less reliable on AP films (magnified heart) and pediatric films (a larger normal heart).")
        w("")
    if ctr_rel:
        w("## When the CTR is not measurable (validation split)")
        w("")
        w("The worker checks the anatomy masks before it reports a CTR (`worker/src/pipeline/check-ctr.ts` = `train/cxr_train/anatomy/ctr_checks.py`): a heart outline reaching the thoracic inlet or below the lung bases, lung fields too small, too asymmetric or retracted (as over opaque lung), a heart too large against the lungs or a ratio beyond a plausible width. A flagged CTR is reported as 'not measurable: <reason>' and never drives the cardiomegaly call (the classifier alone decides, at its own threshold). Thresholds: `" + json.dumps(ctr_rel["checks"]) + "`.")
        w("")
        before = load("ctr-reliability-anatomy2.json")
        if before:
            o_b, o_a = before["groups"]["opacified"]["all"]["ctrAll"], ctr_rel["groups"]["opacified"]["all"]["ctrAll"]
            n_b, n_a = before["groups"]["normal"]["all"]["ctrAll"], ctr_rel["groups"]["normal"]["all"]["ctrAll"]
            w(f"Model 2's anatomy net on the same validation films (`ctr-reliability-anatomy2.json`): opacified films CTR median {f3(o_b['median'])} (p90 {f3(o_b['p90'])}) -> model 3's {f3(o_a['median'])} (p90 {f3(o_a['p90'])}); normal films {f3(n_b['median'])} (p90 {f3(n_b['p90'])}) -> {f3(n_a['median'])} (p90 {f3(n_a['p90'])}). The retrained heart channel (Wingspan masks, simulated opacities) no longer spreads into opacified lung as often, so fewer CTRs need the flag.")
            w("")
        w("| films | source | n | flagged | CTR median [p10, p90], all films | CTR median [p10, p90], films not flagged |")
        w("|---|---|---|---|---|---|")
        for g, v in ctr_rel["groups"].items():
            for src, x in [("all", v["all"])] + sorted(v["perSource"].items()):
                a_, s_ = x["ctrAll"], x["ctrShown"]
                w(f"| {g} | {src} | {x['films']} | {pct(x['flaggedShare'])} | {f3(a_['median'])} [{f3(a_['p10'])}, {f3(a_['p90'])}] | {f3(s_['median'])} [{f3(s_['p10'])}, {f3(s_['p90'])}] |")
        w("")
    if gate:
        t = gate.get("test", {})
        w("## Input gate (test split and held-out generated negatives)")
        w("")
        w(f"Reject threshold {gate.get('rejectThreshold')} (p(other)), chosen on validation. Radiographs:")
        w("")
        w("| source | n | refused by the net | refused by the fixed checks | inverted copies flagged inverted |")
        w("|---|---|---|---|---|")
        for src, v in t.get("radiographs", {}).items():
            reasons = ", ".join(f"{k} {c}" for k, c in v.get("deterministicReasons", {}).items())
            w(f"| {src} | {v['n']} | {pct(v['netRefused'])} | {pct(v['deterministicRefused'])}{' (' + reasons + ')' if reasons else ''} | {pct(v['invertedCopies']['flaggedInverted'])} |")
        w("")
        w("nih-cxr14-kcr films are 64x64 thumbnails: the fixed minimum-side check (128 px) refuses them by design.")
        w("")
        w("| generated non-radiograph | n | refused |")
        w("|---|---|---|")
        for kind, v in t.get("negatives", {}).items():
            w(f"| {kind} | {v['n']} | {pct(v['refused'])} |")
        w("")
        w("The negatives are synthetic (`train/cxr_train/gate/generators`, other seeds and other pictures than training); refusal of real CT, MRI, ultrasound or lateral films from other sources is not measured.")
        w("")
    if sc:
        w("## Shortcut checks (test split)")
        w("")
        s = sc.get("sourceFromFeatures", {})
        for k, v in s.items():
            w(f"- Source predicted from the head's pooled features ({k}, {v['n']} films, {len(v['sources'])} sources): balanced accuracy {pct(v['balancedAccuracy'])} (chance {pct(v['chance'])}). A high figure means the features still carry the source; the per-source table above shows whether the calls follow it.")
        w("")
        w("| finding | population | AUROC as shipped | lungs only | lungs blanked |")
        w("|---|---|---|---|---|")
        for k, v in sc.get("lungMasking", {}).items():
            w(f"| {k} | {v['population']} | {f3(v['aucAsShipped'])} | {f3(v['aucLungsOnly'])} | {f3(v['aucLungsBlanked'])} |")
        w("")
        w("'Lungs only': everything outside the predicted lung fields set to the film's median; 'lungs blanked': the lung fields set to it. A finding read from the lungs keeps its AUROC in the first column and falls towards 0.5 in the second.")
        w("")
        lm = sc.get("lungMasking", {})
        kept = [f"{k} {f3(lm[finding_label(k)]['aucAsShipped'])} -> {f3(lm[finding_label(k)]['aucLungsBlanked'])}" for k in shipped if finding_label(k) in lm]
        if kept:
            w("**What this says about the shipped findings:** with the lung fields blanked their AUROCs go " + "; ".join(kept) + ". "
              "The model still reads much of its signal from outside the lung fields inside the crop (mediastinum, diaphragm, "
              "film borders, exposure and processing that differ by source), so part of each figure above may be a source "
              "effect; the within-source ChestX-ray14 figure for infection is the least confounded one. Treat the figures as "
              "upper bounds for films from other hospitals.")
            w("")
        if sc.get("modelV1"):
            w("Model 1.0.0 on the same test populations: " + "; ".join(f"{k} ({v['population']}) {f3(v['auc'])}" for k, v in sc["modelV1"].items()) + ".")
            w("")
    w("## Training")
    w("")
    for line in train_log:
        if '"start"' in line or '"saved"' in line:
            w(f"- `{line}`")
    w(f"- Library versions: `{json.dumps(man.get('training', {}).get('versions', {}))}`")
    for name, secs in training_seconds().items():
        w(f"- {name}: {secs / 60:.1f} min")
    if ablation:
        b = ablation["b_top_blocks_finetuned"]
        w(f"- Fine-tuning of blocks 14-18 + head: {sum(b['secondsPerEpoch']) / 60:.1f} min for {b['epochs']} epochs (recipe `models/train/recipes/model3.json`).")
    w("- Machine: 2 CPU cores, 24 GiB, no GPU, shared with other work during the run (so the times are upper bounds); commands in models/README.md.")
    w("")
    w("## Limits")
    w("")
    w("- The data: NIH labels are mined from reports (noisy); COVID-19 and non-COVID infection films come from web-collected and QU-Ex collections with no patient identifiers; pediatric films are all from one hospital; each source has its own label set, so source and label remain entangled. External films from other hospitals will score lower than the figures above.")
    w("- Findings not shipped are reported as 'not assessed' everywhere in the product.")
    wing = ev["byGroup"].get("source=wingspan-ctr", {}).get("labels", {})
    if wing:
        called = "; ".join(f"{lab} {pct(c['calledPneumonia'] / c['n'])} of {c['n']}" for lab, c in sorted(wing.items()))
        w(f"- **A source the classifier never trained on** (Wingspan CTR films: adult frontal films with no finding labels, used only for the anatomy stage) is called 'pneumonia / lung opacity' far too often: {called}. Expect the same loss of specificity on films from other hospitals; the per-source table above is the honest guide, not the pooled AUROCs.")
    kcr = ev["byGroup"].get("source=nih-cxr14-kcr", {})
    if kcr:
        w(f"- ChestX-ray14 films kept at 64x64 (nih-cxr14-kcr) carry too little detail: the abnormal output separates them at AUROC {f3(kcr.get('abnormalAuc'))} and calls none of them abnormal at the shipped threshold, which pulls the ChestX-ray14 normal-vs-abnormal figure down.")
    w("")
    (MODEL_DIR / "MODEL_CARD.md").write_text("\n".join(L))
    write_card_json(MODEL_DIR)
    print("MODEL_CARD.md, card.json and metrics.json written;", len(shipped), "shipped")


if __name__ == "__main__":
    main()
