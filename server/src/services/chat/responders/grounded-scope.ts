import { CONDITION_NOTES, NOT_ASSESSED } from '../../../knowledge/cxr-conditions.js';
import type { TFindingMetrics, TModelMetrics } from '../../../knowledge/model-metrics.js';
import { CALL_WORDS, findingSentence } from '@contracts/finding-story.js';
import { AP_MAGNIFIES, filmOf, judgedAp } from '@contracts/finding-text.js';
import { heartStory } from '@contracts/heart-story.js';
import { ADULT_ONLY_REASON, type TFinding, type TStoredResult } from '@contracts/schemas/analysis.js';
import { DISCLAIMER, pct } from '../../analysis/compose-report.js';
import { ageYears, assessedNames, ctrCaveat, noCtrReason, ratio } from '../../analysis/anatomy-text.js';
import type { TResponderContext } from './responder.js';

/**
 * What this model version does and does not assess, for the grounded answers: the findings the
 * stored result reports, its "not assessed" list, the heart size (CTR) of its anatomy stage and
 * the model card's figures. Every figure comes from the result or from metrics.json.
 */

/** A finding in the one story's words (contracts/finding-story.ts), as the report and the panel say it. */
export const figure = (f: TFinding): string => findingSentence(f);
export const callText = (f: TFinding): string => CALL_WORDS[f.call].toLowerCase();
export const bullets = (items: string[]) => items.map((s) => `- ${s}`).join('\n');
export const closing = `\n\n*${DISCLAIMER}*`;

/** 'A, B and C' */
export function listText(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The findings this result reports, as a phrase for "it reports …". */
export function assessedText(result: TStoredResult): string {
  const names = assessedNames(result);
  return names.length ? listText(names) : 'no findings';
}

/** How a condition is named in an answer: the result's own display when it lists it, else the note's name. */
export function displayOf(result: TStoredResult, label: string): string {
  return (
    result.findings.find((f) => f.label === label)?.display ??
    result.notAssessed?.find((n) => n.label === label)?.display ??
    CONDITION_NOTES[label]?.name ??
    label
  );
}

/** 'ROC AUC 0.812 (95% CI 0.701-0.900); …; 421 images, 10 positive (population, where from)' or null. */
export function figureText(m: TFindingMetrics | undefined): string | null {
  if (!m || m.auc === null) return null;
  const ci = m.aucCi95 ? ` (95% CI ${m.aucCi95[0].toFixed(3)}-${m.aucCi95[1].toFixed(3)})` : '';
  const op =
    m.sensitivity !== null && m.specificity !== null
      ? `; at its threshold, sensitivity ${pct(m.sensitivity)} and specificity ${pct(m.specificity)}`
      : '';
  const n =
    m.n !== null
      ? `; ${m.n.toLocaleString('en-US')} images${m.positives !== null ? `, ${m.positives.toLocaleString('en-US')} positive` : ''}`
      : '';
  const where = [m.population, m.figureFrom ?? 'held-out test split'].filter(Boolean).join(', ');
  return `ROC AUC ${m.auc.toFixed(3)}${ci}${op}${n} (${where})`;
}

const cardName = (metrics: TModelMetrics) => `model card, ${metrics.modelName || 'model'} ${metrics.modelVersion}`;

/** One finding's measured figures from the model card, as a paragraph, or '' when the card has none for it. */
export function measuredText(metrics: TModelMetrics | null | undefined, label: string): string {
  const fig = metrics ? figureText(metrics.findings[label]) : null;
  if (!metrics || !fig) return '';
  return `\n\n**Measured performance** (${cardName(metrics)}): ${fig}. Results on your patients may differ.`;
}

/** Why a not-assessed finding did not ship, from the model card, or ''. */
function notShippedText(metrics: TModelMetrics | null | undefined, label: string): string {
  const fig = metrics ? figureText(metrics.findings[label]) : null;
  if (!metrics || !fig) return '';
  const rule = metrics.shipRule ? `: ${metrics.shipRule}` : '';
  return ` Its measured figure (${cardName(metrics)}) is ${fig}, which does not meet the shipping rule${rule}.`;
}

/** What the result says about cardiomegaly as a finding: its figure, "not assessed", or absent. */
function cardiomegalyText(result: TStoredResult): string {
  const f = result.findings.find((x) => x.label === 'cardiomegaly');
  // The heart box's story (contracts/heart-story.ts): the same call and reconciling words as the panel.
  const story = heartStory(result.anatomy, result.projection, result.findings);
  const said = [story?.headline, story?.reconcile].filter(Boolean).map((l) => `**${l}.**`);
  if (f) return [...said, `For the finding itself: ${figure(f)}.`].join(' ');
  if (result.notAssessed?.some((n) => n.label === 'cardiomegaly')) {
    return 'Cardiomegaly as a finding is **not assessed** by this model version: it could not be backed on held-out data. The ratio above is a measurement, not a call.';
  }
  return 'Cardiomegaly is not among the findings this model version reports.';
}

/**
 * The heart-size paragraph: the stored CTR with its reference and caveats, or why there is none,
 * then what the result says about cardiomegaly as a finding (left out where the answer is about that finding).
 */
export function heartSizeText(ctx: TResponderContext, opts: { withFinding?: boolean } = {}): string {
  const { anatomy } = ctx.result;
  const finding = opts.withFinding === false ? '' : ` ${cardiomegalyText(ctx.result)}`;
  if (!anatomy) {
    return (
      'This model version does not measure heart size: it has no anatomy stage, so there is no cardiothoracic ratio for this film. ' +
      `Judge the cardiac silhouette on the film itself.${finding}`
    );
  }
  if (anatomy.ctrUnreliable) {
    return (
      `The cardiothoracic ratio is not measurable on this film: ${anatomy.ctrUnreliable.reason}. ` +
      'The outlines the model drew are implausible here (this happens over opaque lung), so no ratio is given and none entered a cardiomegaly call. ' +
      `Judge the cardiac silhouette on the film itself.${finding}`
    );
  }
  if (anatomy.ctr === null) {
    return `No cardiothoracic ratio was measured for this film: ${noCtrReason(anatomy)}. Judge the cardiac silhouette on the film itself.${finding}`;
  }
  const side = anatomy.ctr > anatomy.ctrReference ? 'above' : 'at or below';
  const { projection } = ctx.result;
  const on = projection ? ` on ${filmOf(projection)}` : '';
  const ap = judgedAp(projection) ? ` Judged as on an AP film: ${AP_MAGNIFIES}.` : '';
  return (
    `The anatomy stage measured a **cardiothoracic ratio of ${ratio(anatomy.ctr)}**${on}, ${side} the usual upper reference of ${ratio(anatomy.ctrReference)} on an adult PA film.${ap} ` +
    'It is the widest horizontal width of the heart outline divided by the widest inner width of the thorax, both from the outlines the model drew ' +
    '(shown as contours in the viewer).\n\n' +
    `${ctrCaveat(ageYears(ctx.patient.age))}${finding ? `\n\n${finding.trim()}` : ''}`
  );
}

export function heartSize(ctx: TResponderContext): string {
  return `${heartSizeText(ctx)}${closing}`;
}

/**
 * A condition this model version does not assess: a candidate finding it did not ship (its
 * `notAssessed` list), a candidate it never had (an older model), or a condition no model here
 * was trained on. Never a probability for it; related outputs are quoted as what they are.
 */
export function notAssessed(ctx: TResponderContext, condition: string, label?: string): string {
  const { result } = ctx;
  const entry = label ? result.notAssessed?.find((n) => n.label === label) : undefined;
  const why = entry?.reason
    ? `This output is ${entry.reason}, and the patient's age ${entry.reason === ADULT_ONLY_REASON ? 'says child' : 'does not say child'}, so no probability is reported for it.`
    : entry
      ? 'It was a candidate finding, but this model version could not back it on held-out data, so it reports no probability for it.' +
        notShippedText(ctx.metrics, label ?? '')
      : `It reports only ${assessedText(result)}.`;
  const generic = NOT_ASSESSED.find((c) => c.name === condition);
  const related = (generic?.related ?? [])
    .map((l) => result.findings.find((f) => f.label === l))
    .filter((f): f is TFinding => f !== undefined);
  const relatedText = related.length
    ? ` Its outputs for appearances that can go with ${condition} are ${related.map(figure).join('; ')}; they describe the film, not the disease.`
    : '';
  const heart = label === 'cardiomegaly' && result.anatomy ? `\n\n${heartSizeText(ctx)}` : '';
  return (
    `This model version does not assess ${condition}. ${why} ` +
    `It cannot support or exclude ${condition}; that needs the clinician's own read of the film and, if suspected, the appropriate tests.${relatedText}${heart}${closing}`
  );
}
