import type { TFindingCall } from './finding-call.js';
import type { TAnatomy, TProjection, TWithdrawn } from './schemas/analysis.js';

/**
 * Words for model 4's figures, shared by the findings panel (client) and the server's report,
 * chat and exports so that every place says the same thing. Pure; every figure comes from the
 * stored result.
 */

/** The findings panel's word for each call; 'possible' says it is flagged, not likely. */
export const PANEL_CALL_TEXT: Record<TFindingCall, string> = {
  positive: 'Likely',
  possible: 'Possible — flagged for review',
  uncertain: 'Uncertain',
  negative: 'Unlikely',
};

const panelPct = (p: number) => `${Math.round(Math.min(1, Math.max(0, p)) * 1000) / 10}%`;

/**
 * '81% Likely', 'Possible — flagged for review, 11.8%': the panel's value; a finding flagged below
 * 50 % puts the word first, so that its figure is not read as "likely".
 */
export function findingValueText(f: { probability: number; call: TFindingCall }): string {
  return f.call === 'possible'
    ? `${PANEL_CALL_TEXT.possible}, ${panelPct(f.probability)}`
    : `${panelPct(f.probability)} ${PANEL_CALL_TEXT[f.call]}`;
}

/** Whether the heart box and the report say "Enlarged cardiac silhouette": cardiomegaly called with a measured CTR. */
export function enlargedHeart(
  anatomy: Pick<TAnatomy, 'ctr'> | null | undefined,
  findings: readonly { label: string; call: TFindingCall }[] | undefined,
): boolean {
  return (
    anatomy?.ctr !== null &&
    anatomy?.ctr !== undefined &&
    (findings ?? []).some((f) => f.label === 'cardiomegaly' && (f.call === 'positive' || f.call === 'possible'))
  );
}

/** 'a PA film' / 'an AP film'. */
export const filmOf = (p: Pick<TProjection, 'call'>): string => (p.call === 'AP' ? 'an AP film' : 'a PA film');

/** 'PA (DICOM ViewPosition)' / 'AP (model, p(AP) 81%)'. */
export function projectionText(p: TProjection): string {
  if (p.source === 'dicom') return `${p.call} (from the image's DICOM ViewPosition)`;
  const pAp = p.probabilityAP === null ? '' : `, probability of AP ${Math.round(p.probabilityAP * 100)}%`;
  return `${p.call} (read by the model${pAp})`;
}

/** Why an AP film's ratio reads high. */
export const AP_MAGNIFIES = 'the heart is magnified on AP films, so the ratio reads higher than on a PA film';

/**
 * 'Cardiothoracic ratio 0.56 on a PA film (usual upper reference 0.50 on an adult PA film)', with
 * the projection when the result has one (on an AP film: that the heart is magnified), or null
 * without a CTR.
 */
export function ctrLine(
  anatomy: Pick<TAnatomy, 'ctr' | 'ctrReference'> | null | undefined,
  projection: TProjection | null | undefined,
): string | null {
  if (!anatomy || anatomy.ctr === null) return null;
  const on = projection ? ` on ${filmOf(projection)}` : '';
  const ref = `usual upper reference ${anatomy.ctrReference.toFixed(2)} on an adult PA film`;
  const ap = projection?.call === 'AP' ? `; ${AP_MAGNIFIES}` : '';
  return `Cardiothoracic ratio ${anatomy.ctr.toFixed(2)}${on} (${ref}${ap})`;
}

/**
 * 'Enlarged cardiac silhouette — CTR 0.61 on a PA film (reference 0.50)': the words for a called
 * cardiomegaly measured from the heart; on an AP film the reference is said to be for PA films.
 */
export function enlargedHeartText(
  anatomy: Pick<TAnatomy, 'ctr' | 'ctrReference'>,
  projection: TProjection | null | undefined,
): string {
  const ctr = (anatomy.ctr ?? 0).toFixed(2);
  const ref = anatomy.ctrReference.toFixed(2);
  if (projection?.call === 'AP')
    return `Enlarged cardiac silhouette — CTR ${ctr} on an AP film (reference ${ref} on PA films; ${AP_MAGNIFIES})`;
  return `Enlarged cardiac silhouette — CTR ${ctr}${projection ? ' on a PA film' : ''} (reference ${ref})`;
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
