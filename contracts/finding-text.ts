import type { TFindingCall } from './finding-call.js';
import { CALL_WORDS, findingValueText } from './finding-story.js';
import type { TAnatomy, TProjection, TWithdrawn } from './schemas/analysis.js';

/**
 * Words for model 4's figures, shared by the findings panel (client) and the server's report,
 * chat and exports so that every place says the same thing. Pure; every figure comes from the
 * stored result.
 */

/** The findings panel's word for each call: the one story's (finding-story.ts). */
export const PANEL_CALL_TEXT: Record<TFindingCall, string> = CALL_WORDS;

export { findingValueText };

/** From this p(AP) (or below 1 minus it) the model's read contradicts a DICOM ViewPosition (issue 42 item 7). */
export const PROJECTION_DISAGREES_FROM = 0.8;

/**
 * Whether the DICOM ViewPosition says one projection and the model reads the other with p >= 0.8.
 * The worker stores it; a result stored before it is worked out from its figures.
 */
export function projectionDisagrees(p: TProjection): boolean {
  if (p.disagrees !== undefined) return p.disagrees;
  if (p.source !== 'dicom' || p.probabilityAP === null) return false;
  return p.call === 'PA'
    ? p.probabilityAP >= PROJECTION_DISAGREES_FROM
    : p.probabilityAP <= 1 - PROJECTION_DISAGREES_FROM;
}

/** The CTR is judged against the AP reference when either the DICOM tag or the model (p >= 0.8) says AP. */
export const judgedAp = (p: TProjection | null | undefined): boolean =>
  Boolean(p && (p.call === 'AP' || projectionDisagrees(p)));

/** 'a PA film' / 'an AP film' / 'a film tagged PA but read as AP by the model'. */
export function filmOf(p: TProjection): string {
  if (p.call === 'PA' && projectionDisagrees(p)) return 'a film tagged PA but read as AP by the model';
  return p.call === 'AP' ? 'an AP film' : 'a PA film';
}

/**
 * 'PA (read by the model, probability of AP 12%)', "AP (from the image's DICOM ViewPosition)", and
 * when the two disagree: "PA (from the image's DICOM ViewPosition), but the model reads it as AP
 * (probability of AP 91%): the two disagree, so the heart is judged as on an AP film".
 */
export function projectionText(p: TProjection): string {
  const pAp = p.probabilityAP === null ? '' : `probability of AP ${Math.round(p.probabilityAP * 100)}%`;
  if (p.source === 'model') return `${p.call} (read by the model${pAp ? `, ${pAp}` : ''})`;
  if (!projectionDisagrees(p)) return `${p.call} (from the image's DICOM ViewPosition)`;
  const other = p.call === 'AP' ? 'PA' : 'AP';
  return (
    `${p.call} (from the image's DICOM ViewPosition), but the model reads it as ${other} (${pAp}): ` +
    'the two disagree, so the heart is judged as on an AP film'
  );
}

/** Why an AP film's ratio reads high. */
export const AP_MAGNIFIES = 'the heart is magnified on AP films, so the ratio reads higher than on a PA film';

/**
 * 'Cardiothoracic ratio 0.56 on a PA film (usual upper reference 0.50 on an adult PA film)', with
 * the projection when the result has one (judged AP: that the heart is magnified), or null
 * without a CTR.
 */
export function ctrLine(
  anatomy: Pick<TAnatomy, 'ctr' | 'ctrReference'> | null | undefined,
  projection: TProjection | null | undefined,
): string | null {
  if (!anatomy || anatomy.ctr === null) return null;
  const on = projection ? ` on ${filmOf(projection)}` : '';
  const ref = `usual upper reference ${anatomy.ctrReference.toFixed(2)} on an adult PA film`;
  const ap = judgedAp(projection) ? `; ${AP_MAGNIFIES}` : '';
  return `Cardiothoracic ratio ${anatomy.ctr.toFixed(2)}${on} (${ref}${ap})`;
}

/**
 * 'CTR 0.61 on a PA film (reference 0.50)'; judged AP: 'CTR 0.61 on an AP film (reference 0.50 on
 * PA films; the heart is magnified …)'.
 */
export function ctrFigureText(
  anatomy: Pick<TAnatomy, 'ctr' | 'ctrReference'>,
  projection: TProjection | null | undefined,
): string {
  const ctr = (anatomy.ctr ?? 0).toFixed(2);
  const ref = anatomy.ctrReference.toFixed(2);
  if (projection && judgedAp(projection))
    return `CTR ${ctr} on ${filmOf(projection)} (reference ${ref} on PA films; ${AP_MAGNIFIES})`;
  return `CTR ${ctr}${projection ? ' on a PA film' : ''} (reference ${ref})`;
}

/** 'Enlarged cardiac silhouette — CTR 0.61 on a PA film (reference 0.50)': a cardiomegaly flagged likely. */
export function enlargedHeartText(
  anatomy: Pick<TAnatomy, 'ctr' | 'ctrReference'>,
  projection: TProjection | null | undefined,
): string {
  return `Enlarged cardiac silhouette — ${ctrFigureText(anatomy, projection)}`;
}

/**
 * 'COVID-19 pattern: not reported as a finding: on films from other hospitals the model separated
 * COVID-19 vs other adult pneumonia at AUROC 0.63 (95% CI 0.52-0.74), too weak to rely on.'
 */
export function withdrawnText(w: TWithdrawn): string {
  const e = w.external;
  const figure =
    e && e.auc !== null
      ? `on films from other hospitals the model separated ${e.population ?? 'it'} at AUROC ${e.auc.toFixed(2)}` +
        (e.aucCi95 ? ` (95% CI ${e.aucCi95[0].toFixed(2)}-${e.aucCi95[1].toFixed(2)})` : '') +
        ', too weak to rely on'
      : 'it did not hold up on films from other hospitals';
  return `${w.display}: not reported as a finding (no probability, no call): ${figure}.`;
}
