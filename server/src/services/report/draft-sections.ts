import { projectionText } from '@contracts/finding-text.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import type { TReportSections } from '@contracts/schemas/report.js';
import type { TComparison } from '@contracts/schemas/timeline.js';
import { heartSizeLines, notAssessedLine, SUMMARY_LABEL, withdrawnLines } from '../analysis/anatomy-text.js';
import { comparisonHeading, ctrChangeText } from '../timeline/comparison-text.js';
import { findingPhrase, impressionOrder } from './finding-phrase.js';
import { REGION_HEADINGS, REPORT_REGIONS, regionOf } from './finding-region.js';

/** What the draft is written from: the stored result and what is stored beside it, nothing else. */
export interface TReportFacts {
  result: TStoredResult;
  /** The patient's age in years, when recorded (the CTR's caveat differs for children). */
  age: number | null;
  /** 'YYYY-MM-DD': the DICOM StudyDate when the film came from the network, else the analysis date. */
  studyDate: string;
  source: 'dicom' | 'upload';
  comparison: TComparison | null;
}

export const NO_ACUTE = 'No acute cardiopulmonary abnormality flagged.';
export const DEVICES_NOT_ASSESSED = 'Lines, tubes and devices: not assessed by the model; review them on the film.';

/** The draft's four sections. Pure: the same facts always give the same words. */
export function draftSections(facts: TReportFacts): TReportSections {
  return {
    examination: examination(facts),
    comparison: comparison(facts.comparison),
    findings: findings(facts),
    impression: impressionSection(facts.result),
  };
}

function examination({ result, studyDate, source }: TReportFacts): string {
  const view = result.projection ? `${projectionText(result.projection)}` : 'projection not stated';
  const from = source === 'dicom' ? 'received from the DICOM network' : 'uploaded in the browser';
  return `Chest radiograph, ${view}, ${studyDate}; ${from}.`;
}

function comparison(c: TComparison | null): string {
  if (!c) return 'None available: no earlier analysis of this patient is on record.';
  const changes = c.findings
    .filter((f) => f.change !== 'unchanged')
    .map((f) => `${f.display} ${f.change} (${pct(f.previous.probability)} → ${pct(f.current.probability)})`);
  const ctr = ctrChangeText(c);
  const lines = [
    `${comparisonHeading(c)}: ${changes.length ? changes.join('; ') : 'no finding changed'}.`,
    ...(ctr ? [`${ctr}.`] : []),
    ...c.caveats,
  ];
  return lines.join('\n');
}

const pct = (p: number): string => `${(p * 100).toFixed(1)}%`;

/** One line a region: what was flagged or near its operating point, then what was not flagged. */
function regionLine(result: TStoredResult, found: readonly TFinding[]): string {
  const said = found.filter((f) => f.call !== 'negative').map((f) => `${findingPhrase(f, result)}.`);
  const quiet = found.filter((f) => f.call === 'negative').map((f) => f.display);
  if (quiet.length) said.push(`Not flagged: ${quiet.join(', ')}.`);
  return said.join(' ');
}

function findings(facts: TReportFacts): string {
  const { result } = facts;
  const specific = result.findings.filter((f) => f.label !== SUMMARY_LABEL);
  const lines: string[] = [];
  for (const region of REPORT_REGIONS) {
    const found = specific.filter((f) => regionOf(f.label) === region);
    const parts = found.length ? [regionLine(result, found)] : [];
    if (region === 'heart')
      parts.push(...(heartSizeLines(result.anatomy, facts.age, { projection: result.projection }) ?? []));
    lines.push(`${REGION_HEADINGS[region]}: ${parts.length ? parts.join(' ') : 'not assessed by the model.'}`);
  }
  const summary = result.findings.find((f) => f.label === SUMMARY_LABEL);
  if (summary) lines.push(`Overall triage: ${findingPhrase(summary, result)}.`);
  const notAssessed = notAssessedLine(result.notAssessed);
  lines.push([notAssessed, DEVICES_NOT_ASSESSED].filter(Boolean).join(' '));
  lines.push(...withdrawnLines(result.withdrawn));
  return lines.join('\n');
}

/**
 * Numbered, most important first; every flagged finding is named. "No acute cardiopulmonary
 * abnormality flagged" only when nothing is flagged and nothing sits at its operating point
 * (the worklist's triage reads routine). The chat's impression answer quotes it as it is.
 */
export function impressionSection(result: TStoredResult): string {
  const items = impressionOrder(result.findings, SUMMARY_LABEL).map((f) => `${findingPhrase(f, result)}.`);
  if (items.length === 0) items.push(NO_ACUTE);
  return items.map((s, i) => `${i + 1}. ${s}`).join('\n');
}
