import { CONDITION_NOTES } from '../../../knowledge/cxr-conditions.js';
import type { TFinding } from '@contracts/schemas/analysis.js';
import { ctrText, notAssessedLine, SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import { bullets, closing, figure } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';

/**
 * Treatment, admission and further imaging: decisions the model cannot make, because they rest on
 * the patient, whom it never sees. The answer says so plainly, gives what the stored figures say,
 * and points at the clinical facts that decide it: a pointer, never a recommendation, and no
 * figure that is not in the stored result.
 */

export type TDecision = 'treatment' | 'admission' | 'imaging';

const WHAT: Record<TDecision, string> = {
  treatment: 'whether to start (or stop) a treatment',
  admission: 'whether this patient needs admission',
  imaging: 'whether further imaging is needed',
};

const DECIDING_FACTS: Record<TDecision, string[]> = {
  treatment: [
    'the clinical picture: symptoms and their duration, fever, examination findings',
    'observations: oxygen saturation, respiratory rate, heart rate, blood pressure, temperature',
    'blood tests and microbiology where available (inflammatory markers, cultures, viral swabs)',
    'a validated severity score for the suspected condition and your local prescribing guideline',
    'allergies, comorbidities, pregnancy, recent treatment and interactions',
  ],
  admission: [
    'severity of illness: observations, oxygen requirement, confusion, ability to eat, drink and take medication',
    'a validated severity score for the suspected condition and your local admission criteria',
    'comorbidities, frailty and how the patient managed before',
    'whether the patient can be safely observed and return if worse (support at home, access to care)',
  ],
  imaging: [
    'the clinical question a further study must answer, and whether its answer would change management',
    'a lateral view or ultrasound for a question the frontal film leaves open (for example fluid)',
    'CT when the radiograph cannot answer the question (complications, non-resolution, a suspected mass or embolism)',
    'a follow-up film after treatment, timed by your local guideline rather than by this result',
    'radiation dose, pregnancy and the image quality of this film',
  ],
};

/** Non-summary findings called positive or left uncertain. */
const open = (findings: TFinding[]): TFinding[] =>
  findings.filter((f) => f.label !== SUMMARY_LABEL && f.call !== 'negative');

export function decisionAnswer(ctx: TResponderContext, decision: TDecision): string {
  const { result } = ctx;
  const raised = open(result.findings);
  const figures = raised.length
    ? `The model called or could not exclude:\n${bullets(raised.map(figure))}`
    : 'The model called no finding positive; a negative result does not exclude disease.';
  const ctr = decision !== 'treatment' ? ctrText(result.anatomy, result.projection) : null;
  const notAssessed = decision === 'imaging' ? notAssessedLine(result.notAssessed) : null;
  const extra = [ctr ? `${ctr}.` : null, notAssessed].filter((l): l is string => l !== null);
  const top = result.topFinding ? CONDITION_NOTES[result.topFinding] : undefined;
  const flags = top?.redFlags.length
    ? `\n\nRed flags for ${top.name.toLowerCase()} that need urgent attention:\n${bullets(top.redFlags)}`
    : '';
  return (
    `I can't decide ${WHAT[decision]}: that rests on the patient, whom the model never sees, and on the treating clinician.\n\n` +
    `**What the figures say:** ${figures}${extra.length ? `\n\n${extra.join(' ')}` : ''}\n\n` +
    `**What decides it** (for you to weigh, not a recommendation):\n${bullets(DECIDING_FACTS[decision])}${flags}${closing}`
  );
}
