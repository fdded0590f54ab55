import { impliedLabels, labelOfName, suggestLabel } from './finding-names.js';

/** A film's ground truth as the CSV states it, in the mapping's labels. */
export interface TTruth {
  /**
   * normal: no finding; findings: exactly the `findings` labels are present; abnormal: some
   * finding is present but the row does not say which one (scored for triage only).
   */
  kind: 'normal' | 'findings' | 'abnormal';
  findings: Set<string>;
  /** Labels an unrecognised name is probably a typo of: the film is left out of those findings. */
  doubtful: Set<string>;
  /** Names no entry of the mapping knows, as written. */
  unrecognised: string[];
  /** What to tell the researcher about this row (a typo, a contradiction). */
  notes: string[];
}

const split = (cell: string | null, separator: RegExp) =>
  (cell ?? '')
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);

const shown = (name: string) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);

/**
 * Reads a row's `label` (one name, or several separated by ';' as before) and `findings` ('|'
 * separated, ChestX-ray14 style). Null when the row carries neither: it is not scored.
 */
export function readTruth(label: string | null, findingsCell: string | null): TTruth | null {
  const names = [...split(label, /;/), ...split(findingsCell, /[|;]/)];
  if (!names.length) return null;
  const truth: TTruth = { kind: 'findings', findings: new Set(), doubtful: new Set(), unrecognised: [], notes: [] };
  let saysNormal = false;
  let saysAbnormal = false;
  for (const name of names) {
    const mapped = labelOfName(name);
    if (mapped === 'normal') saysNormal = true;
    else if (mapped === 'abnormal') saysAbnormal = true;
    else if (mapped) for (const l of [mapped, ...impliedLabels(mapped)]) truth.findings.add(l);
    else {
      truth.unrecognised.push(name);
      const guess = suggestLabel(name);
      if (guess && guess !== 'normal' && guess !== 'abnormal') {
        truth.doubtful.add(guess);
        truth.notes.push(`finding name ${shown(name)} is not known; did you mean ${guess}? (left out of ${guess})`);
      } else truth.notes.push(`finding name ${shown(name)} is not known to the mapping (counted for no finding)`);
    }
  }
  if (truth.findings.size) {
    if (saysNormal) truth.notes.push('says normal and names a finding: the finding counts');
    return truth;
  }
  // A normal film with a free-text remark ("No finding (COVID-19 negative)") stays normal.
  if (saysNormal && !saysAbnormal && !truth.doubtful.size) return { ...truth, kind: 'normal' };
  return { ...truth, kind: 'abnormal' };
}

/** Whether the film counts as positive (true), negative (false) or is left out (null) for `label`. */
export function truthFor(truth: TTruth, label: string): boolean | null {
  if (truth.kind === 'normal') return false;
  if (truth.kind === 'abnormal') return null;
  // "Pneumonia|Pnemonia" is still a pneumonia: only a typo standing alone leaves the film out.
  if (truth.findings.has(label)) return true;
  return truth.doubtful.has(label) ? null : false;
}
