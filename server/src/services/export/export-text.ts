import type { TExportFinding, TExportReport } from '@contracts/schemas/export.js';
import { projectionText } from '@contracts/finding-text.js';
import { CALL_WORDS, flaggedFindings, NO_FINDING_FLAGGED, pct1 } from '@contracts/finding-story.js';
import { heartSizeLines, notAssessedLine, withdrawnLines } from '../analysis/anatomy-text.js';
import { isCalled } from '@contracts/finding-call.js';
import { HEART_LABEL } from '@contracts/heart-story.js';

/** Wording shared by the PDF and DOCX exports, so both read the same. */
export const REPORT_TITLE = 'Chest X-ray AI analysis report';
/** After signing (issue 49) the AI's figures follow the signed report under this heading. */
export const AI_SECTION_TITLE = "The AI's analysis (device output, not part of the signed report)";
export const NOT_SIGNED_MARK = 'not in the signed report';

/** The document's title: the signed report's once signed, the AI analysis's before. */
export const documentTitle = (r: TExportReport): string => (r.report.signed ? 'Radiology report' : REPORT_TITLE);

export const pct = (p: number): string => `${(p * 100).toFixed(1)}%`;

/** The call's words: the one story's (contracts/finding-story.ts), as on the panel and in the report. */
export const CALL_TEXT: Record<TExportFinding['call'], string> = CALL_WORDS;

export function patientLines(r: TExportReport): [string, string][] {
  return [
    ['Patient name', r.patient.name],
    ['Age', r.patient.age === null ? 'Not given' : `${r.patient.age} years`],
    ['Medical history', r.patient.medicalHistory.length ? r.patient.medicalHistory.join('; ') : 'None'],
  ];
}

export function analysisLines(r: TExportReport): [string, string][] {
  return [
    ['Model', `${r.model.name} (version ${r.model.version})`],
    ['Analysed', r.analysis.completedAt ?? r.analysis.createdAt],
    ['Image check', r.gate.accepted ? 'Accepted' : `Refused: ${r.gate.reason ?? 'not a usable chest X-ray'}`],
    ...(r.gate.flags.length ? ([['Image flags', r.gate.flags.join(', ')]] as [string, string][]) : []),
    ...(r.projection ? ([['Projection', projectionText(r.projection)]] as [string, string][]) : []),
    ['Flagged', flaggedText(r)],
    ['Report id', `${r.chat.id} / ${r.analysis.id}`],
  ];
}

export const FINDINGS_HEADER = ['Finding', 'Probability', 'Operating point', 'Call'];

/** The findings as the panel lists them: most probable first. */
export const byProbability = (findings: readonly TExportFinding[]): TExportFinding[] =>
  [...findings].sort((a, b) => b.probability - a.probability);

/** The labels the signed impression left out (issue 49): their AI call is never shown bare, as if present. */
const removedLabels = (r: TExportReport): Set<string> => new Set(r.report.signed?.removed.map((f) => f.label));

const callText = (f: TExportFinding, removed: Set<string>): string =>
  removed.has(f.label) ? `${CALL_TEXT[f.call]} (AI); ${NOT_SIGNED_MARK}` : CALL_TEXT[f.call];

/** The findings table's rows, most probable first. */
export function findingRows(r: TExportReport): string[][] {
  const removed = removedLabels(r);
  return byProbability(r.findings).map((f) => [f.display, pct(f.probability), pct(f.threshold), callText(f, removed)]);
}

/**
 * Every flagged finding, most probable first ('Pleural effusion 62.0% (Likely); Consolidation
 * 36.0% (Possible — flagged for review)'), or "No finding flagged": the impression's list.
 */
function flaggedText(r: TExportReport): string {
  if (!r.gate.accepted) return '—';
  const flagged = flaggedFindings(r.findings);
  if (flagged.length === 0) return NO_FINDING_FLAGGED;
  const removed = removedLabels(r);
  return flagged.map((f) => `${f.display} ${pct1(f.probability)} (${callText(f, removed)})`).join('; ');
}

/**
 * The CTR with the projection, its reference and caveat (or why there is none); empty without an
 * anatomy stage. A called enlarged heart the signer removed keeps its words marked as the AI's.
 */
export function heartSizeText(r: TExportReport): string[] {
  const lines = r.gate.accepted ? (heartSizeLines(r.anatomy, r.patient.age, r) ?? []) : [];
  const called = r.findings.some((f) => f.label === HEART_LABEL && isCalled(f.call));
  if (!called || !removedLabels(r).has(HEART_LABEL)) return lines;
  return lines.map((l, i) => (i === 0 ? `${l.replace(/\.$/, '')} (AI); ${NOT_SIGNED_MARK}.` : l));
}

/** 'Flagged by the AI but not stated in the signed report: Cardiomegaly.', or null. */
export function removedText(r: TExportReport): string | null {
  const removed = r.report.signed?.removed ?? [];
  return removed.length
    ? `Flagged by the AI but not stated in the signed report: ${removed.map((f) => f.display).join(', ')}.`
    : null;
}

/**
 * 'Not assessed: A, B (this model version cannot back these findings on held-out data).' and the
 * note of each withdrawn output, or null.
 */
export function notAssessedText(r: TExportReport): string | null {
  if (!r.gate.accepted) return null;
  const lines = [notAssessedLine(r.notAssessed), ...withdrawnLines(r.withdrawn)].filter((l) => l !== null);
  return lines.length ? lines.join(' ') : null;
}
