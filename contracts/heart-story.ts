import { ctrFigureText, ctrLine, enlargedHeartText, filmOf, judgedAp } from './finding-text.js';
import { likelyPointText, operatingPointText, pct1, type TStoryFinding } from './finding-story.js';
import type { TAnatomy, TProjection } from './schemas/analysis.js';

/**
 * The heart box's story (issue 42 item 4), read by the panel's heart box, the report, the chat,
 * the exports and the SR, so that the box and the cardiomegaly call never disagree: "Enlarged
 * cardiac silhouette" only for a cardiomegaly flagged likely, "possibly enlarged" for one flagged
 * below 50 %, and a ratio above its reference on a film whose cardiomegaly is not flagged says
 * why in the same words. A ratio that is not measurable enters no call (the worker sends it as
 * `ctrUnreliable`, its cardiomegaly as "not assessed").
 */

/** The finding the heart box speaks for. */
export const HEART_LABEL = 'cardiomegaly';

export type THeartState =
  'enlarged' | 'possibly_enlarged' | 'above_reference_not_flagged' | 'measured' | 'not_measurable' | 'not_measured';

export interface THeartStory {
  state: THeartState;
  /** The call in the reader's words, or null when there is none to say. */
  headline: string | null;
  /** 'Cardiothoracic ratio 0.56 on a PA film (usual upper reference 0.50 on an adult PA film)', or null. */
  ratio: string | null;
  /** For a ratio above the reference whose cardiomegaly is not flagged: why the two do not contradict. */
  reconcile: string | null;
  /** For a ratio that is not measurable: why (the server's words for the worker's code). */
  reason: string | null;
}

/**
 * The heart box of a result. `findings` are the result's (the cardiomegaly finding is looked up by
 * label); no anatomy (a model without an anatomy stage) gives null.
 */
export function heartStory(
  anatomy: Pick<TAnatomy, 'ctr' | 'ctrReference' | 'ctrUnreliable'> | null | undefined,
  projection: TProjection | null | undefined,
  findings: readonly TStoryFinding[] | undefined,
): THeartStory | null {
  if (!anatomy) return null;
  const none = { headline: null, ratio: null, reconcile: null, reason: null };
  if (anatomy.ctrUnreliable) return { ...none, state: 'not_measurable', reason: anatomy.ctrUnreliable.reason };
  if (anatomy.ctr === null) return { ...none, state: 'not_measured' };
  const ratio = ctrLine(anatomy, projection);
  const f = (findings ?? []).find((x) => x.label === HEART_LABEL);
  if (f?.call === 'positive')
    return { ...none, state: 'enlarged', ratio, headline: enlargedHeartText(anatomy, projection) };
  if (f?.call === 'possible')
    return {
      ...none,
      state: 'possibly_enlarged',
      ratio,
      headline:
        `Cardiac silhouette possibly enlarged — flagged for review, ${pct1(f.probability)} (below ${likelyPointText(f)}) — ` +
        ctrFigureText(anatomy, projection),
    };
  if (f && anatomy.ctr > anatomy.ctrReference) {
    const why =
      f.call === 'uncertain'
        ? `too close to ${operatingPointText(f)} to call`
        : `${pct1(f.probability)}, below ${operatingPointText(f)}`;
    return {
      ...none,
      state: 'above_reference_not_flagged',
      ratio,
      reconcile:
        `The ratio is above the usual reference, but the enlarged-heart finding, which weighs the ratio with the projection, ` +
        `is not flagged (${why})`,
    };
  }
  return { ...none, state: 'measured', ratio };
}

/**
 * Issue 48: the heart in a radiologist's words, for the drafted report (no percentage, no operating
 * point; the panel's box keeps its figures): 'Heart size enlarged, CTR 0.58 on a PA film.' only for
 * a cardiomegaly called "Likely"; a measured ratio above its reference without that call reads
 * 'borderline', never "normal", so the words never contradict the figure; in a child the adult
 * reference is not applied. `notMeasurable`: the reason to give when the ratio could not be
 * trusted (the draft's own words for the worker's code). Null without anatomy.
 */
export function heartSizeSentence(
  anatomy: Pick<TAnatomy, 'ctr' | 'ctrReference' | 'ctrUnreliable'> | null | undefined,
  projection: TProjection | null | undefined,
  findings: readonly TStoryFinding[] | undefined,
  opts: { age: number | null; notMeasurable: string },
): string | null {
  if (!anatomy) return null;
  if (anatomy.ctrUnreliable) return `Heart size not assessed: ${opts.notMeasurable}.`;
  if (anatomy.ctr === null) return 'Heart size not assessed: no cardiothoracic ratio could be measured.';
  const ap = judgedAp(projection);
  const film = projection ? ` on ${filmOf(projection)}` : '';
  // An AP film magnifies the heart (finding-text.ts AP_MAGNIFIES): said once, in the reader's words.
  const ctr = `CTR ${anatomy.ctr.toFixed(2)}${film}${ap ? ', which magnifies the heart' : ''}`;
  if (opts.age !== null && opts.age < 18) return `${ctr}; the adult reference does not apply in a child.`;
  const likely = (findings ?? []).some((f) => f.label === HEART_LABEL && f.call === 'positive');
  const size = likely ? 'enlarged' : anatomy.ctr > anatomy.ctrReference ? 'borderline' : 'normal';
  return `Heart size ${size}, ${ctr}.`;
}
