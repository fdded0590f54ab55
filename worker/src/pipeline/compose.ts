import { callAt, isCalled } from '@contracts/finding-call.js';
import { calibrate, sigmoid } from './calibrate.js';
import type { OutputTensor } from './infer.js';
import type { FindingCall, FindingResult, LoadedModel, ManifestFinding, ManifestHead, NotAssessed } from './types.js';

const logit = (p: number): number => Math.log(p / (1 - p));

// Keeps logit() finite for probabilities that round to 0 or 1 (models/train/cxr_train/export/reference_lung_crop.py: CTR_EPS).
const CTR_EPS = 1e-9;

/**
 * p = sigmoid(logitWeight * logit(p) + ctrWeight * ctr + apWeight * (AP ? 1 : 0) + bias): the
 * classifier's probability combined with the measured CTR and, for model 4, the projection (the
 * same ratio means less on an AP film, which magnifies the heart).
 */
export function combineCtr(p: number, ctr: number, w: NonNullable<ManifestFinding['ctrCombine']>, ap = false): number {
  const q = Math.min(1 - CTR_EPS, Math.max(CTR_EPS, p));
  return sigmoid(w.logitWeight * logit(q) + w.ctrWeight * ctr + (ap ? (w.apWeight ?? 0) : 0) + w.bias);
}

/**
 * The one call rule (contracts/finding-call.ts): 'uncertain' near the threshold, 'possible' when
 * flagged below the finding's Likely point (50 % unless the manifest names a higher one).
 */
export function callOf(p: number, threshold: number, margin: number, likelyThreshold?: number): FindingCall {
  return callAt(p, threshold, margin, likelyThreshold);
}

function headOutput(outputs: Record<string, OutputTensor>, head: ManifestHead): Float32Array {
  const t = outputs[head.output];
  if (!t) throw new Error(`model output ${head.output} missing`);
  return t.data.subarray(0, head.labels.length);
}

/**
 * Calibrated probability per finding (batch item 0), following the manifest: the source label
 * (or 1 - complementOf), times the head's and the finding's conditionalOn label (joint
 * probability), then combined with the cardiothoracic ratio where the finding says so and one
 * was measured.
 */
export function findingProbabilities(
  model: LoadedModel,
  outputs: Record<string, OutputTensor>,
  ctr: number | null = null,
  ap = false,
): Map<string, number> {
  const heads = new Map(model.manifest.heads.map((h) => [h.name, h]));
  const probs = new Map<string, number[]>();
  for (const h of model.manifest.heads) probs.set(h.name, calibrate(h, headOutput(outputs, h)));
  const prob = (head: string, label: string): number => {
    const h = heads.get(head)!;
    return probs.get(head)![h.labels.indexOf(label)]!;
  };
  const out = new Map<string, number>();
  for (const f of model.findings) {
    const { head, label, complementOf } = f.source;
    let p = complementOf !== undefined ? 1 - prob(head, complementOf) : prob(head, label!);
    const cond = heads.get(head)!.conditionalOn;
    if (cond) p *= prob(cond.head, cond.label);
    if (f.conditionalOn) p *= prob(f.conditionalOn.head, f.conditionalOn.label);
    if (f.ctrCombine && ctr !== null) p = combineCtr(p, ctr, f.ctrCombine, ap);
    out.set(f.label, p);
  }
  return out;
}

/**
 * Calls at each finding's threshold. A finding that combines the classifier with the CTR is
 * called at `thresholdWithoutCtr` when the CTR is missing or flagged (`ctr` null): its
 * probability is then the classifier's alone; one that requires the CTR (model 4) gets no call
 * at all and comes back in `notMeasurable` ('no_ctr'). `ageGroup` travels with the finding so
 * that the server, which knows the patient's age, can withhold it.
 */
export function composeFindings(
  model: LoadedModel,
  probs: Map<string, number>,
  ctr: number | null = null,
): { findings: FindingResult[]; topFinding: string | null; notMeasurable: NotAssessed[] } {
  const margin = model.manifest.uncertainMargin ?? 0;
  const measurable = (f: (typeof model.findings)[number]) => !(f.requiresCtr && ctr === null);
  const notMeasurable = model.findings
    .filter((f) => !measurable(f))
    .map((f): NotAssessed => ({ label: f.label, display: f.display, code: 'no_ctr' }));
  const findings = model.findings.filter(measurable).map((f): FindingResult => {
    const probability = probs.get(f.label)!;
    const threshold =
      f.ctrCombine && ctr === null && f.thresholdWithoutCtr !== undefined ? f.thresholdWithoutCtr : f.threshold;
    return {
      label: f.label,
      display: f.display,
      probability,
      threshold,
      ...(f.likelyThreshold !== undefined ? { likelyThreshold: f.likelyThreshold } : {}),
      call: callOf(probability, threshold, margin, f.likelyThreshold),
      ...(f.ageGroup ? { ageGroup: f.ageGroup } : {}),
    };
  });
  // The top finding: the most probable called ('positive' or 'possible') non-summary finding,
  // else none. Pediatric findings come only after the others: the server withholds them
  // for adults (and unknown ages), and the overlay is drawn for the top finding.
  let top: FindingResult | null = null;
  const rank = (r: FindingResult): number => (r.ageGroup === 'pediatric' ? 0 : 1);
  for (const r of findings) {
    const summary = model.findings.find((f) => f.label === r.label)?.summary === true;
    if (summary || !isCalled(r.call)) continue;
    if (!top || rank(r) > rank(top) || (rank(r) === rank(top) && r.probability > top.probability)) top = r;
  }
  return { findings, topFinding: top?.label ?? null, notMeasurable };
}
