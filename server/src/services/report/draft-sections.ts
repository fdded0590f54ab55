import { isCalled } from '@contracts/finding-call.js';
import { filmOf, projectionDisagrees } from '@contracts/finding-text.js';
import { HEART_LABEL, heartSizeSentence } from '@contracts/heart-story.js';
import type { TAnatomy, TFinding, TProjection, TStoredResult } from '@contracts/schemas/analysis.js';
import type { TReportSections } from '@contracts/schemas/report.js';
import type { TComparison } from '@contracts/schemas/timeline.js';
import { CTR_UNRELIABLE_REASONS, SUMMARY_LABEL } from '../analysis/anatomy-text.js';
import { comparisonHeading, ctrChangeText } from '../timeline/comparison-text.js';
import { afterSide, draftName, likelyInOrder } from './finding-phrase.js';
import { REGION_HEADINGS, REPORT_REGIONS, regionOf, sideOf } from './finding-region.js';

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

/** Issue 48: the impression when nothing is called "Likely" and the triage score is not flagged. */
export const NO_ACUTE = 'No acute cardiopulmonary abnormality.';
/** Issue 48: the impression when nothing is called "Likely" but the triage score is flagged. */
export const ABNORMAL_UNNAMED = 'Abnormal appearance; no specific finding named: please review.';
/** The one line the "Possible" (and older results' "Uncertain") flags get in the draft. */
export const LOW_CONFIDENCE_LEAD = 'Low-confidence flags for review:';
export const DEVICES_NOT_ASSESSED = 'Lines, tubes and devices: not assessed by the model; review them on the film.';

/**
 * The draft's four sections, in a radiologist's words (issue 48): no percentage, no operating point
 * and no model boilerplate (those stay in the findings panel, the AI's SR and the JSON export).
 * Pure: the same facts always give the same words.
 */
export function draftSections(facts: TReportFacts): TReportSections {
  return {
    examination: examination(facts),
    comparison: comparison(facts.comparison),
    findings: findings(facts),
    impression: impressionSection(facts.result),
  };
}

/** 'PA' / 'AP' as a reader writes the view, the DICOM tag's when the film has one. */
function viewText(p: TProjection): string {
  if (projectionDisagrees(p)) return `${p.call} view by the DICOM tag, read as ${p.call === 'PA' ? 'AP' : 'PA'}`;
  return `${p.call} view`;
}

function examination({ result, studyDate }: TReportFacts): string {
  return `Chest radiograph, ${result.projection ? viewText(result.projection) : 'frontal view'}, ${studyDate}.`;
}

const CHANGE_WORDS: Partial<Record<TComparison['findings'][number]['change'], string>> = {
  new: 'new',
  resolved: 'no longer flagged',
};

/** New and resolved flags by name, and the CTR's change; the probability moves stay in the panel. */
function comparison(c: TComparison | null): string {
  if (!c) return 'None available.';
  const changes = c.findings.flatMap((f) => {
    const word = CHANGE_WORDS[f.change];
    return word ? [`${draftName(f.display)} ${word}`] : [];
  });
  const ctr = ctrChangeText(c);
  // Issue 47: results of two models (or of one without a measured spread) name no change.
  if (c.notCalled) return `${comparisonHeading(c)}: ${ctr ? `${ctr}. ` : ''}${c.notCalled}`;
  const parts = [changes.length ? changes.join('; ') : 'no new or resolved finding', ...(ctr ? [ctr] : [])];
  return `${comparisonHeading(c)}: ${parts.join('; ')}.`;
}

/** '<Right> pleural effusion is suspected.': a likely finding, its side only where its map backs it. */
function suspectedSentence(f: TFinding, result: TStoredResult): string {
  return `${namedWithSide(f, result)} is suspected.`;
}

function namedWithSide(f: TFinding, result: TStoredResult): string {
  const side = sideOf(f.label, result.heatmapZones);
  const name = draftName(f.display);
  return side ? `${side} ${afterSide(name)}` : name;
}

/** 'A, B and C' (or 'A, B or C'). */
const listOf = (items: readonly string[], word = 'and'): string =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} ${word} ${items.at(-1)}`;

/** The draft's reason for a ratio that cannot be trusted: never a "flagged" opacity the draft does not name. */
function notMeasurableReason(anatomy: TAnatomy, result: TStoredResult): string {
  const code = anatomy.ctrUnreliable?.code;
  if (code === 'heart_border_obscured')
    return likelyInOrder(result.findings, SUMMARY_LABEL).some((f) => regionOf(f.label) !== 'heart')
      ? 'the heart border is obscured at the lung base by the suspected finding'
      : 'the heart border is not clearly seen at the lung base';
  const known = code && code in CTR_UNRELIABLE_REASONS;
  return known ? CTR_UNRELIABLE_REASONS[code as keyof typeof CTR_UNRELIABLE_REASONS] : 'the outlines are implausible';
}

/** The region's line: the likely findings in short sentences, then what the model looked for and did not flag. */
function regionLine(result: TStoredResult, found: readonly TFinding[]): string | null {
  const said = likelyInOrder(found, SUMMARY_LABEL).map((f) => suspectedSentence(f, result));
  const quiet = found.filter((f) => f.call === 'negative').map((f) => afterSide(draftName(f.display)));
  if (quiet.length) said.push(`No ${listOf(quiet, 'or')} flagged.`);
  return said.length ? said.join(' ') : null;
}

function findings(facts: TReportFacts): string {
  const { result } = facts;
  const anatomy = result.anatomy;
  const heart = heartSizeSentence(anatomy, result.projection, result.findings, {
    age: facts.age,
    notMeasurable: anatomy ? notMeasurableReason(anatomy, result) : '',
  });
  // With a heart sentence, the enlarged-heart finding is said by it, once.
  const specific = result.findings.filter((f) => f.label !== SUMMARY_LABEL && !(heart && f.label === HEART_LABEL));
  const lines: string[] = [];
  for (const region of REPORT_REGIONS) {
    const parts = [
      regionLine(
        result,
        specific.filter((f) => regionOf(f.label) === region),
      ),
    ];
    if (region === 'heart') parts.push(heart);
    const text = parts.filter((p): p is string => Boolean(p)).join(' ');
    if (text) lines.push(`${REGION_HEADINGS[region]}: ${text}`);
  }
  const low = lowConfidenceLine(result);
  if (low) lines.push(low);
  lines.push(notAssessedLine(result));
  return lines.join('\n');
}

/** 'Low-confidence flags for review: Edema, Atelectasis.' or null: the one line "Possible" flags get. */
export function lowConfidenceLine(result: Pick<TStoredResult, 'findings'>): string | null {
  const low = result.findings.filter(
    (f) => f.label !== SUMMARY_LABEL && ((isCalled(f.call) && f.call !== 'positive') || f.call === 'uncertain'),
  );
  if (low.length === 0) return null;
  const names = [...low].sort((a, b) => b.probability - a.probability).map((f) => draftName(f.display));
  return `${LOW_CONFIDENCE_LEAD} ${names.join(', ')}.`;
}

/** 'Not assessed: nodule, pneumothorax, emphysema and hernia; lines, tubes and devices.' */
function notAssessedLine(result: TStoredResult): string {
  // Findings withheld for this patient's age (a reason of their own) are left out: not a gap of the read.
  const names = (result.notAssessed ?? []).filter((n) => !n.reason).map((n) => afterSide(draftName(n.display)));
  return `Not assessed: ${names.length ? `${listOf(names)}; ` : ''}lines, tubes and devices.`;
}

/**
 * Numbered, most important first, naming only the findings called "Likely" (issue 48). Triage is
 * never an item; with nothing likely, "No acute cardiopulmonary abnormality." when the triage score
 * is not flagged, else one line that asks for a review. "Possible" flags never appear here. The
 * chat's impression answer quotes it as it is.
 */
export function impressionSection(result: TStoredResult): string {
  const likely = likelyInOrder(result.findings, SUMMARY_LABEL);
  if (likely.length === 0) {
    const triage = result.findings.find((f) => f.label === SUMMARY_LABEL);
    return triage && isCalled(triage.call) ? ABNORMAL_UNNAMED : NO_ACUTE;
  }
  return likely.map((f, i) => `${i + 1}. ${impressionItem(f, result)}.`).join('\n');
}

/** One impression item: the finding's name (its side where the map backs it); the heart with its ratio. */
export function impressionItem(f: TFinding, result: TStoredResult): string {
  const a = result.anatomy;
  if (f.label === HEART_LABEL && a?.ctr != null && !a.ctrUnreliable)
    return `Cardiomegaly, CTR ${a.ctr.toFixed(2)}${result.projection ? ` on ${filmOf(result.projection)}` : ''}`;
  return namedWithSide(f, result);
}
