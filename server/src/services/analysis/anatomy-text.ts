import { ctrLine, projectionText, withdrawnText } from '@contracts/finding-text.js';
import { SUMMARY_LABEL } from '@contracts/finding-story.js';
import { heartStory } from '@contracts/heart-story.js';
import {
  NOT_ASSESSED_REASON,
  type TAnatomy,
  type TCtrUnreliableCode,
  type TFinding,
  type TNotAssessed,
  type TProjection,
  type TStoredResult,
  type TWithdrawn,
} from '@contracts/schemas/analysis.js';

/**
 * The wording of the heart-size (CTR) and "not assessed" lines, shared by the report, the chat
 * and the exports so that every place says the same thing. Pure; figures come from the result.
 */

export { NOT_ASSESSED_REASON };

/** 0.5312 → '0.53': two decimals, as a CTR is read off a film. */
export const ratio = (v: number): string => v.toFixed(2);

/** The patient's age in whole years, or null when none (or nonsense) was given. */
export function ageYears(age: string | number | null | undefined): number | null {
  if (age === null || age === undefined || (typeof age === 'string' && age.trim() === '')) return null;
  const n = typeof age === 'number' ? age : Number(age.trim());
  return Number.isFinite(n) && n >= 0 && n <= 150 ? n : null;
}

/**
 * 'Cardiothoracic ratio 0.56 on a PA film (usual upper reference 0.50 on an adult PA film)' (the
 * film's projection when the result knows it; on an AP film, that the heart is magnified), or null
 * without a CTR.
 */
export function ctrText(anatomy: TAnatomy | null | undefined, projection?: TProjection | null): string | null {
  return ctrLine(anatomy, projection);
}

/** 'Projection: PA (read by the model, probability of AP 12%).', or null when the result does not say. */
export function projectionLine(projection: TProjection | null | undefined): string | null {
  return projection ? `Projection: ${projectionText(projection)}.` : null;
}

/** The model-4 note of each withdrawn output, with its external figure. */
export function withdrawnLines(withdrawn: readonly TWithdrawn[] | undefined): string[] {
  return (withdrawn ?? []).map(withdrawnText);
}

/** What the heart-size lines read beside the anatomy: the projection and the findings (a called cardiomegaly). */
export interface THeartContext {
  projection?: TProjection | null | undefined;
  findings?: readonly TFinding[] | undefined;
}

/** Why a measured CTR cannot be trusted, for each code of the worker's plausibility checks; completes "not measurable: …". */
export const CTR_UNRELIABLE_REASONS: Record<TCtrUnreliableCode, string> = {
  heart_at_inlet: 'the heart outline reaches up to the thoracic inlet',
  heart_below_bases: 'the heart outline extends below the lung bases',
  lungs_small: 'the lung fields found are too small',
  lungs_asymmetric: 'the two lung fields differ too much in size',
  lungs_retracted: 'the lung outlines are retracted, as over opaque lung',
  heart_oversized: 'the heart outline is too large against the lung fields',
  heart_too_wide: 'the heart outline is implausibly wide for the thorax',
  heart_border_obscured:
    'the heart border meets a flagged opacity or effusion at the lung base, so the border cannot be seen there',
};

/** Why there is no CTR: the plausibility check's reason, else from the anatomy stage's flags. */
export function noCtrReason(anatomy: TAnatomy): string {
  if (anatomy.ctrUnreliable) return anatomy.ctrUnreliable.reason;
  if (anatomy.flags.includes('no_heart')) return 'the heart outline could not be found reliably on this film';
  if (anatomy.flags.includes('no_lung_field')) return 'no usable lung field was found on this film';
  return 'the anatomy stage could not measure it on this film';
}

/** The caveat that goes with every CTR: the projection, and the patient's age when it is known. */
export function ctrCaveat(age: number | null): string {
  if (age !== null && age < 18) {
    return (
      `Patient age ${age}: this is a pediatric film, for which the adult reference does not apply (the normal ratio is larger in children). ` +
      'The ratio is also less reliable on AP films (supine or portable), which magnify the heart; rotation and a poor inspiration change it too.'
    );
  }
  return (
    'The ratio is less reliable on AP films (supine or portable), which magnify the heart, and on pediatric films; ' +
    'rotation and a poor inspiration also change it.'
  );
}

/**
 * 'Cardiothoracic ratio: not measurable: the heart outline reaches up to the thoracic inlet', or
 * null when the ratio was not flagged. A flagged ratio is never shown as a figure.
 */
export function ctrNotMeasurableText(anatomy: TAnatomy | null | undefined): string | null {
  if (!anatomy?.ctrUnreliable) return null;
  return `Cardiothoracic ratio: not measurable: ${anatomy.ctrUnreliable.reason}`;
}

/**
 * The heart-size lines of a result: the CTR with its reference and caveat, "not measurable" with
 * the reason when its outlines were implausible, or why there is none. Null when the model has no
 * anatomy stage (model-1 results): nothing is said about heart size.
 */
export function heartSizeLines(
  anatomy: TAnatomy | null | undefined,
  age: number | null,
  context: THeartContext = {},
): string[] | null {
  if (!anatomy) return null;
  const flagged = ctrNotMeasurableText(anatomy);
  if (flagged) return [`${flagged}.`, 'Judge the cardiac silhouette on the film itself.'];
  const story = heartStory(anatomy, context.projection, context.findings);
  if (!story?.ratio) return [`Heart size: no cardiothoracic ratio was measured: ${noCtrReason(anatomy)}.`];
  // The heart box's story (contracts/heart-story.ts): the call in the reader's words, the ratio,
  // and why a ratio above its reference is not a flagged enlarged heart.
  return [
    ...(story.headline ? [`${story.headline}.`] : []),
    `${story.ratio}.`,
    ...(story.reconcile ? [`${story.reconcile}.`] : []),
    ctrCaveat(age),
  ];
}

/** 'not measurable: <the CTR's reason>': why a finding that needs the measured heart has no call. */
export function noCtrFindingReason(anatomy: TAnatomy | null | undefined): string {
  return `not measurable without a plausible cardiothoracic ratio: ${anatomy ? noCtrReason(anatomy) : 'the anatomy stage gave none'}`;
}

/** Why a finding is not assessed: its own reason (e.g. validated only in children), else the model's. */
export const notAssessedReason = (n: TNotAssessed): string => n.reason ?? NOT_ASSESSED_REASON;

/**
 * 'Not assessed: Hernia, Fibrosis (this model version cannot back these findings on held-out data).',
 * one sentence per reason, or null.
 */
export function notAssessedLine(list: readonly TNotAssessed[] | undefined): string | null {
  if (!list || list.length === 0) return null;
  const byReason = new Map<string, string[]>();
  for (const n of list) byReason.set(notAssessedReason(n), [...(byReason.get(notAssessedReason(n)) ?? []), n.display]);
  return [...byReason].map(([reason, names]) => `Not assessed: ${names.join(', ')} (${reason}).`).join(' ');
}

/** The summary score is never a condition of its own (the pipeline's `summary` finding; contracts/finding-story.ts). */
export { SUMMARY_LABEL };

/** The conditions this result reports a probability for, by display name (the summary score left out). */
export function assessedNames(result: Pick<TStoredResult, 'findings'>): string[] {
  return result.findings.filter((f) => f.label !== SUMMARY_LABEL).map((f) => f.display);
}
