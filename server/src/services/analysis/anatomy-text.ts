import {
  NOT_ASSESSED_REASON,
  type TAnatomy,
  type TNotAssessed,
  type TStoredResult,
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

/** 'Cardiothoracic ratio 0.56 (usual upper reference 0.50 on an adult PA film)', or null without a CTR. */
export function ctrText(anatomy: TAnatomy | null | undefined): string | null {
  if (!anatomy || anatomy.ctr === null) return null;
  return `Cardiothoracic ratio ${ratio(anatomy.ctr)} (usual upper reference ${ratio(anatomy.ctrReference)} on an adult PA film)`;
}

/** Why there is no CTR, from the anatomy stage's flags. */
export function noCtrReason(anatomy: TAnatomy): string {
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
 * The heart-size lines of a result: the CTR with its reference and caveat, or why there is none.
 * Null when the model has no anatomy stage (model-1 results): nothing is said about heart size.
 */
export function heartSizeLines(anatomy: TAnatomy | null | undefined, age: number | null): string[] | null {
  if (!anatomy) return null;
  const text = ctrText(anatomy);
  if (!text) return [`Heart size: no cardiothoracic ratio was measured: ${noCtrReason(anatomy)}.`];
  return [`${text}.`, ctrCaveat(age)];
}

/** 'Not assessed: Hernia, Fibrosis (this model version cannot back these findings on held-out data).' or null. */
export function notAssessedLine(list: readonly TNotAssessed[] | undefined): string | null {
  if (!list || list.length === 0) return null;
  return `Not assessed: ${list.map((n) => n.display).join(', ')} (${NOT_ASSESSED_REASON}).`;
}

/** The summary score is never a condition of its own (the pipeline's `summary` finding). */
export const SUMMARY_LABEL = 'abnormal';

/** The conditions this result reports a probability for, by display name (the summary score left out). */
export function assessedNames(result: Pick<TStoredResult, 'findings'>): string[] {
  return result.findings.filter((f) => f.label !== SUMMARY_LABEL).map((f) => f.display);
}
