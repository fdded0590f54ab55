import { CONDITION_NOTES, trainingDataNoteFor, type TConditionNote } from '../../../knowledge/cxr-conditions.js';
import { findingSentence, impressionLead, NO_FINDING_FLAGGED } from '@contracts/finding-story.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import { notAssessedLine, SUMMARY_LABEL, withdrawnLines } from '../../analysis/anatomy-text.js';
import { pct, QUALITY_NOTES } from '../../analysis/compose-report.js';
import { DEVICES_NOT_ASSESSED } from '../../report/draft-sections.js';
import { assessedText, bullets, callText, closing, figure, heartSizeText, measuredText } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';

export { figure, heartSize, notAssessed } from './grounded-scope.js';

/**
 * The grounded answers, one per kind of question. Every figure comes from the stored result
 * (formatted by the same pct() as the report, so the two always agree) or from the model card's
 * metrics; every statement about a condition comes from the curated notes; nothing is called
 * that the model did not call, and what the model does not assess is said to be so.
 */

const byProbability = (findings: readonly TFinding[]): TFinding[] =>
  [...findings].sort((a, b) => b.probability - a.probability);

export function topOf(result: TStoredResult): TFinding | null {
  return result.findings.find((f) => f.label === result.topFinding) ?? null;
}

/** Non-summary findings the model did not call negative. */
function raised(result: TStoredResult): TFinding[] {
  return result.findings.filter((f) => f.label !== SUMMARY_LABEL && f.call !== 'negative');
}

/** The "not assessed" sentence of a result, as a paragraph, or ''. */
function notAssessedPara(result: TStoredResult): string {
  const lines = [notAssessedLine(result.notAssessed), ...withdrawnLines(result.withdrawn)].filter((l) => l !== null);
  return lines.length ? `\n\n${lines.join(' ')}` : '';
}

/** The first paragraph about a finding: its figure and call in the one story's words. */
function findingHead(f: TFinding): string {
  const what = `**${findingSentence(f)}.**`;
  switch (f.call) {
    case 'positive':
      return `${what} The model flags it as likely; it is not a diagnosis.`;
    case 'possible':
      return `${what} **Possible — flagged for review, ${pct(f.probability)}:** flagged so that it is not missed. It is not a diagnosis.`;
    case 'uncertain':
      return `${what} The model could not decide either way.`;
    case 'negative':
      return `${what} The model does not flag it; that does not exclude it.`;
  }
}

export function explainFinding(ctx: TResponderContext, label: string): string {
  const f = ctx.result.findings.find((x) => x.label === label);
  const note = CONDITION_NOTES[label];
  if (!f || !note) return summary(ctx);
  const head = findingHead(f);
  const heart =
    label === 'cardiomegaly' && ctx.result.anatomy
      ? `\n\n**Heart size:** ${heartSizeText(ctx, { withFinding: false })}`
      : '';
  return (
    `${head}\n\n**What it is:** ${note.what}\n\n**Typical radiographic signs** (to look for on the film):\n${bullets(note.signs)}` +
    `\n\n**What the model's call means:** ${note.callMeaning}\n\n**Limits:**\n${bullets(note.limits)}` +
    `${measuredText(ctx.metrics, label)}${heart}${closing}`
  );
}

export function confidence(ctx: TResponderContext): string {
  const { result } = ctx;
  return (
    "The model's calibrated probabilities for this image:\n" +
    bullets(result.findings.map(figure)) +
    "\n\nA probability is the model's estimate on images like those it was trained on, calibrated on a held-out set; " +
    '"uncertain" means the value is too close to the threshold for the model to call it. ' +
    `These figures are not a measure of diagnostic certainty for this patient.${notAssessedPara(result)}\n\n${trainingDataNoteFor(result)}${closing}`
  );
}

export function nextSteps(ctx: TResponderContext): string {
  const top = topOf(ctx.result);
  const note = top ? CONDITION_NOTES[top.label] : undefined;
  if (top && note) {
    return (
      `${impressionLead(ctx.result.findings)}\n\nFor ${note.name.toLowerCase()}, the most probable flagged finding, usual next steps are:\n${bullets(note.nextSteps)}\n\n` +
      `Red flags that need urgent attention:\n${bullets(note.redFlags)}\n\nThe decision rests with the treating clinician.${closing}`
    );
  }
  const open = raised(ctx.result);
  if (open.length > 0) {
    return (
      `${NO_FINDING_FLAGGED}, but ${open.map(figure).join('; ')}. Review the film in full, correlate with the clinical picture, ` +
      `and consider a lateral view or repeat imaging if the question remains open.${closing}`
    );
  }
  return (
    `${NO_FINDING_FLAGGED}. A negative result does not exclude disease: correlate with symptoms and examination, ` +
    `and reassess or repeat imaging if symptoms persist or worsen.${closing}`
  );
}

export function differential(ctx: TResponderContext): string {
  const top = topOf(ctx.result);
  const note: TConditionNote | undefined = top ? CONDITION_NOTES[top.label] : undefined;
  const scope = `The model only reports ${assessedText(ctx.result)}`;
  if (top && note) {
    return (
      `The model called ${note.name} (${pct(top.probability)}). On a radiograph, a similar appearance can come from:\n${bullets(note.differential)}\n\n` +
      `${scope}; it cannot weigh these alternatives.${notAssessedPara(ctx.result)}${closing}`
    );
  }
  return (
    'The model did not call any finding positive, so there is no pattern to build a differential around. ' +
    `${scope}; other conditions need the clinician's own read of the film.${notAssessedPara(ctx.result)}${closing}`
  );
}

export function forPatient(ctx: TResponderContext): string {
  const top = topOf(ctx.result);
  const note = top ? CONDITION_NOTES[top.label] : undefined;
  const body = note
    ? note.forPatient
    : 'The computer program did not find signs of the conditions it is able to look for. That does not rule everything out, and your doctor will look at the whole picture.';
  return (
    `A plain-language explanation you could adapt:\n\n> A computer program looked at your chest X-ray to help your doctor. ${body} ` +
    'The program can be wrong, so your doctor will make the final decision.' +
    closing
  );
}

export function normalOrNot(ctx: TResponderContext): string {
  const abnormal = ctx.result.findings.find((f) => f.label === SUMMARY_LABEL);
  const top = topOf(ctx.result);
  const abnormalText = abnormal
    ? ` The model's overall "not normal" score is ${pct(abnormal.probability)} (${callText(abnormal)}).`
    : '';
  if (top)
    return `The model did not consider this image normal. ${impressionLead(ctx.result.findings)}${abnormalText} Only a clinician can confirm this.${closing}`;
  const open = raised(ctx.result);
  if (open.length > 0)
    return `The model could not decide: ${open.map(figure).join('; ')}.${abnormalText} Review the film.${closing}`;
  return (
    `${NO_FINDING_FLAGGED} among those the model assesses (${assessedText(ctx.result)}).${abnormalText} ` +
    `This is not a statement that the chest is normal: the model does not assess other conditions.${notAssessedPara(ctx.result)}${closing}`
  );
}

export function quality(ctx: TResponderContext): string {
  const { result } = ctx;
  const notes = result.gate.flags.map((f) => QUALITY_NOTES[f] ?? `Automatic check flagged: ${f}.`);
  const text =
    notes.length > 0
      ? bullets(notes)
      : '- The automatic checks (orientation, contrast, colour, size) found no problem.';
  return (
    `Image quality, from the automatic checks:\n${text}\n- The image was analysed at ${result.image.width}×${result.image.height} pixels.\n\n` +
    'The checks cannot judge rotation, inspiration or exposure the way a radiographer would.' +
    closing
  );
}

export function summary(ctx: TResponderContext): string {
  const lead = impressionLead(ctx.result.findings);
  const heart = ctx.result.anatomy ? ', heart size (the cardiothoracic ratio)' : '';
  return (
    `${lead}\n\nAll figures, most probable first:\n${bullets(byProbability(ctx.result.findings).map(figure))}${notAssessedPara(ctx.result)}\n\n${DEVICES_NOT_ASSESSED}\n\n` +
    `You can ask me to explain a finding, how confident the model is, what to do next, the differential, how to explain it to the patient${heart}, ` +
    'where in the lungs the model sees a finding, what the heatmap shows, how accurate the model is (its model card), ' +
    'whether the image looks normal, or about image quality; and, for the report, the impression, the most important finding, ' +
    `why a finding is or is not flagged, or the whole draft.${closing}`
  );
}
