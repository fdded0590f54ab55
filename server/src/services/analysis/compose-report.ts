import type { TPatientSnapshot } from '../../db/schema.js';
import { CONDITION_NOTES, trainingDataNoteFor } from '../../knowledge/cxr-conditions.js';
import { CALL_WORDS, flaggedFindings, impressionLead } from '@contracts/finding-story.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import type { TComparison } from '@contracts/schemas/timeline.js';
import { comparisonLines } from '../timeline/comparison-text.js';
import {
  ageYears,
  assessedNames,
  heartSizeLines,
  notAssessedLine,
  projectionLine,
  SUMMARY_LABEL,
  withdrawnLines,
} from './anatomy-text.js';

export const DISCLAIMER =
  'This analysis is assistive only and not a substitute for professional judgement. ' +
  "It must be reviewed by a qualified clinician together with the patient's history and examination.";

export const QUALITY_NOTES: Record<string, string> = {
  inverted: 'The film appeared inverted (bones dark, air light); it was analysed the right way round.',
  low_contrast: 'The image has low contrast; findings may be less reliable.',
};

export interface TReport {
  content: string;
  /** The top finding's display name ('… (possible)' below 50 %), or null when nothing was called. */
  disease: string | null;
}

export const pct = (p: number): string => `${(p * 100).toFixed(1)}%`;

/** The assistant's report for an accepted image, as markdown. Pure: same input, same text. */
export function composeReport(
  result: TStoredResult,
  patient: TPatientSnapshot,
  opts: { heatmapLabel?: string | null; comparison?: TComparison | null } = {},
): TReport {
  if (!result.gate.accepted) return composeRefusal(result);
  const top = result.findings.find((f) => f.label === result.topFinding) ?? null;
  const lines: string[] = ['## Chest X-ray analysis', ''];
  lines.push('### Findings', '', "| Finding | Probability | Operating point | Model's call |", '|---|---|---|---|');
  // Most probable first, as the panel lists them.
  for (const f of [...result.findings].sort((a, b) => b.probability - a.probability))
    lines.push(`| ${f.display} | ${pct(f.probability)} | ${pct(f.threshold)} | ${CALL_WORDS[f.call]} |`);
  const site = siteThresholdLines(result.findings);
  if (site.length) lines.push('', ...site);
  const notAssessed = notAssessedLine(result.notAssessed);
  if (notAssessed) lines.push('', notAssessed);
  const withdrawn = withdrawnLines(result.withdrawn);
  if (withdrawn.length) lines.push('', ...withdrawn);
  const heart = heartSizeLines(result.anatomy, ageYears(patient.age), result);
  if (heart) lines.push('', '### Heart size', '', ...heart.map((s) => `- ${s}`));
  // The patient's previous analysis (same profile), when there is one: what changed since.
  if (opts.comparison) lines.push('', ...comparisonLines(opts.comparison).slice(0, -1));
  lines.push('', '### Impression', '', impression(result), '');
  lines.push('### Suggested next steps', '', ...nextSteps(result, top).map((s) => `- ${s}`), '');
  lines.push('### Remarks', '', ...remarks(result, patient).map((s) => `- ${s}`), '');
  lines.push('### Image quality', '', ...quality(result).map((s) => `- ${s}`), '');
  if (opts.heatmapLabel) {
    const f = result.findings.find((x) => x.label === opts.heatmapLabel);
    lines.push(
      `The attached overlay highlights the regions that most influenced the **${f?.display ?? opts.heatmapLabel}** score. It shows where the model looked, not the extent of disease.`,
      '',
    );
  }
  lines.push('---', `Model: ${result.modelName} (version ${result.modelVersion})`, '', `*${DISCLAIMER}*`);
  // A possible (flagged below 50 %) top finding is not named as the chat's disease without saying so.
  const disease = top ? (top.call === 'possible' ? `${top.display} (possible)` : top.display) : null;
  return { content: lines.join('\n'), disease };
}

/** Calls decided at a site threshold (issue 17) say so, with the model's default beside it. */
export function siteThresholdLines(findings: readonly TFinding[]): string[] {
  return findings
    .filter((f) => f.modelThreshold !== undefined)
    .map(
      (f) =>
        `${f.display}: called at the site threshold ${f.threshold.toFixed(2)}, model default ${f.modelThreshold!.toFixed(2)}.`,
    );
}

/**
 * The impression: every flagged finding, most probable first, in the one story's words
 * (contracts/finding-story.ts impressionLead); "No finding flagged" only when none is, then what
 * the model does and does not assess.
 */
function impression(result: TStoredResult): string {
  const lead = impressionLead(result.findings);
  if (flaggedFindings(result.findings).length > 0) return lead;
  return (
    `${lead} The conditions the model assesses: ${assessedNames(result).join(', ')}. ` +
    `The model does not assess other conditions (for example ${otherExamples(result)}).`
  );
}

/** A few conditions this result says nothing about: its "not assessed" list, else candidates it does not report. */
function otherExamples(result: TStoredResult): string {
  const reported = new Set(result.findings.map((f) => f.label));
  const names = result.notAssessed?.length
    ? result.notAssessed.map((n) => n.display.toLowerCase())
    : Object.values(CONDITION_NOTES)
        .filter((n) => !reported.has(n.label) && n.label !== SUMMARY_LABEL)
        .map((n) => n.name.toLowerCase());
  return [...names.slice(0, 3), 'fractures'].join(', ').replace(/, ([^,]*)$/, ' or $1');
}

function nextSteps(result: TStoredResult, top: TFinding | null): string[] {
  if (top) {
    const note = CONDITION_NOTES[top.label];
    return note
      ? [...note.nextSteps, `watch for red flags: ${note.redFlags.join('; ')}`]
      : ['clinical correlation and review of the film by a clinician'];
  }
  if (result.findings.some((f) => f.call === 'uncertain')) {
    return [
      'review the film in full and correlate with the clinical picture',
      'consider a repeat or lateral view if the question remains open',
    ];
  }
  return [
    'correlate with the clinical picture; a negative result does not exclude disease',
    'if symptoms persist or worsen, reassess and consider repeat imaging',
  ];
}

function remarks(result: TStoredResult, patient: TPatientSnapshot): string[] {
  const out: string[] = [];
  const age = Number(patient.age);
  const calls = new Set(result.findings.filter((f) => f.call !== 'negative').map((f) => f.label));
  if (result.notAssessed !== undefined) {
    out.push(...multiSourceAgeRemarks(patient, calls));
  } else if (!patient.age || !Number.isFinite(age)) {
    out.push("No age was given: the model's reliability differs between children and adults (see below).");
  } else if (age < 18) {
    out.push(
      `Patient age ${age}: pediatric. The pneumonia output was trained on children aged 1-5; outside that range treat it with more caution.`,
    );
    if (calls.has('covid19'))
      out.push('The model has never seen COVID-19 in children: a COVID-19 signal in a child is especially uncertain.');
  } else {
    out.push(`Patient age ${age}: adult.`);
    if ([...calls].some((l) => l.startsWith('pneumonia'))) {
      out.push(
        'The model learned pneumonia only from pediatric films; its pneumonia output in adults has not been validated.',
      );
    }
  }
  if (patient.medical_history && patient.medical_history !== 'None') {
    out.push(
      `Medical history on record: ${patient.medical_history}. The model does not use it; weigh it when interpreting these findings.`,
    );
  } else {
    out.push('No medical history was given.');
  }
  out.push(trainingDataNoteFor(result));
  return out;
}

/** Age remarks for a model trained on adult and pediatric sources (model 2+: results with `notAssessed`). */
function multiSourceAgeRemarks(patient: TPatientSnapshot, calls: Set<string>): string[] {
  const age = ageYears(patient.age);
  if (age === null)
    return ["No age was given: the model's reliability differs between children and adults (see below)."];
  if (age < 18) {
    const out = [
      `Patient age ${age}: pediatric. Most finding labels were learned from adult films; apart from the pediatric pneumonia hints, treat the output with more caution.`,
    ];
    if (calls.has('covid19'))
      out.push(
        'The COVID-19 training films come from adults or from patients of unknown age: a COVID-19 signal in a child is especially uncertain.',
      );
    return out;
  }
  const out = [`Patient age ${age}: adult.`];
  if (calls.has('pneumonia_bacterial') || calls.has('pneumonia_viral')) {
    out.push(
      'The bacterial/viral hints were learned only from films of young children; in adults they have not been validated.',
    );
  }
  return out;
}

function quality(result: TStoredResult): string[] {
  const notes = result.gate.flags.map((f) => QUALITY_NOTES[f] ?? `Automatic check flagged: ${f}.`);
  if (notes.length === 0) notes.push('The automatic quality checks found no problem.');
  const projection = projectionLine(result.projection);
  if (projection) notes.push(projection);
  notes.push(`Image analysed at ${result.image.width}×${result.image.height} pixels.`);
  return notes;
}

/** A refused image: why, and what to upload instead. */
export function composeRefusal(result: Pick<TStoredResult, 'gate' | 'modelName' | 'modelVersion'>): TReport {
  const reason = result.gate.reason ?? 'The image does not look like a chest radiograph.';
  return {
    content: [
      '## Image not analysed',
      '',
      reason,
      '',
      'Please upload a frontal (PA or AP) chest radiograph as JPEG, PNG or WebP. No findings were produced for this image.',
      '',
      '---',
      `Model: ${result.modelName} (version ${result.modelVersion})`,
      '',
      `*${DISCLAIMER}*`,
    ].join('\n'),
    disease: null,
  };
}

/** The message an analysis ends with when every attempt failed. */
export function composeFailure(): TReport {
  return {
    content:
      'Failed to analyze image. Please try again.\n\nThe analysis could not be completed (the image could not be read, or the analysis service failed). No findings were produced.',
    disease: null,
  };
}
