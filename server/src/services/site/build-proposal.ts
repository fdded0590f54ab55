import type { TCalibrationMethod, TFindingCalibration } from '@contracts/schemas/site.js';
import { operatingPoint, thresholdForSensitivity, wilson, youdenThreshold, type TCase } from './calibration-math.js';
import type { TCasesByFinding } from './collect-cases.js';

/** Fewer than this many cases of either reading gives intervals too wide to act on. */
export const MIN_PER_CLASS = 5;

export interface TSkipped {
  finding: string;
  cases: number;
  positives: number;
  reason: string;
}

/**
 * Per shipped finding: its site threshold by the chosen method, with the counts and the
 * sensitivity/specificity (Wilson 95 % intervals) on the site's cases; findings with too few
 * cases are skipped with the reason. Pure.
 */
export function buildProposal(
  findings: readonly { label: string; display: string; threshold: number }[],
  cases: TCasesByFinding,
  method: TCalibrationMethod,
  minCases: number,
): { findings: TFindingCalibration[]; skipped: TSkipped[] } {
  const out: TFindingCalibration[] = [];
  const skipped: TSkipped[] = [];
  for (const f of findings) {
    const list: TCase[] = cases.get(f.label) ?? [];
    const positives = list.filter((c) => c.present).length;
    const negatives = list.length - positives;
    if (list.length < minCases || positives < MIN_PER_CLASS || negatives < MIN_PER_CLASS) {
      skipped.push({
        finding: f.label,
        cases: list.length,
        positives,
        reason: `${list.length} cases (${positives} present, ${negatives} absent); needs ${minCases}, with ${MIN_PER_CLASS} of each`,
      });
      continue;
    }
    const p = method.kind === 'youden' ? youdenThreshold(list) : thresholdForSensitivity(list, method.sensitivity);
    const d = operatingPoint(list, f.threshold);
    out.push({
      finding: f.label,
      display: f.display,
      threshold: p.threshold,
      defaultThreshold: f.threshold,
      cases: list.length,
      positives,
      negatives,
      sensitivity: p.sensitivity,
      sensitivityCi95: wilson(p.tp, p.tp + p.fn),
      specificity: p.specificity,
      specificityCi95: wilson(p.tn, p.tn + p.fp),
      defaultSensitivity: d.sensitivity,
      defaultSpecificity: d.specificity,
    });
  }
  return { findings: out, skipped };
}

export function methodName(method: TCalibrationMethod): string {
  return method.kind === 'youden' ? 'youden' : `target-sensitivity:${method.sensitivity}`;
}
