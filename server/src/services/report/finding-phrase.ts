import { isCalled } from '@contracts/finding-call.js';
import { findingValueText } from '@contracts/finding-text.js';
import { heartStory, HEART_LABEL } from '@contracts/heart-story.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';

const pct = (p: number): string => `${(p * 100).toFixed(1)}%`;

/**
 * One finding as the report words it: its name (for a called cardiomegaly measured from the
 * heart, the CTR words), the panel's value ('81% Likely', 'Possible — flagged for review, 11.8%')
 * and the operating point it was called at. Everything from the stored result.
 */
export function findingPhrase(f: TFinding, result: Pick<TStoredResult, 'anatomy' | 'projection' | 'findings'>): string {
  // A flagged cardiomegaly measured from the heart reads as the heart box does (contracts/heart-story.ts).
  const heart =
    f.label === HEART_LABEL && isCalled(f.call) ? heartStory(result.anatomy, result.projection, result.findings) : null;
  const name = heart?.headline ?? f.display;
  const at = f.modelThreshold !== undefined ? 'site operating point' : 'operating point';
  const near = f.call === 'uncertain' ? ', too close to its operating point to call' : '';
  return `${name}: ${findingValueText(f)} (${at} ${pct(f.threshold)}${near})`;
}

/**
 * The impression's order, most important first: likely before possible, each by probability;
 * the summary (triage) score after the specific findings it summarises; then the findings too
 * close to their operating point to call.
 */
export function impressionOrder(findings: readonly TFinding[], summaryLabel: string): TFinding[] {
  const rank = (f: TFinding) =>
    (f.call === 'positive' ? 0 : f.call === 'possible' ? 1 : 3) + (f.label === summaryLabel ? 1.5 : 0);
  return findings
    .filter((f) => f.call !== 'negative')
    .sort((a, b) => rank(a) - rank(b) || b.probability - a.probability);
}

/**
 * Issue 48: the draft's order of importance among the likely findings, the acute first (a site
 * reading a flag first reads these first); a label not listed comes after, by probability.
 */
const IMPORTANCE = [
  'pneumothorax',
  'edema',
  'lung_opacity',
  'consolidation',
  'pneumonia',
  'pneumonia_bacterial',
  'pneumonia_viral',
  'pleural_effusion',
  'cardiomegaly',
  'mass',
  'nodule',
  'atelectasis',
  'infiltration',
  'fibrosis',
  'pleural_thickening',
];
const importance = (label: string): number => {
  const i = IMPORTANCE.indexOf(label);
  return i < 0 ? IMPORTANCE.length : i;
};

/** The findings the draft names (called "Likely"), the summary (triage) score never among them; most important first. */
export function likelyInOrder<T extends Pick<TFinding, 'label' | 'call' | 'probability'>>(
  findings: readonly T[],
  summaryLabel: string,
): T[] {
  return findings
    .filter((f) => f.call === 'positive' && f.label !== summaryLabel)
    .sort((a, b) => importance(a.label) - importance(b.label) || b.probability - a.probability);
}

/** 'Airspace opacity (as in pneumonia; the model cannot tell the cause)' → 'Airspace opacity': a finding's name as a reader writes it. */
export const draftName = (display: string): string => display.replace(/\s*\([^)]*\)\s*$/, '').trim();

/** 'pleural effusion' after a side ('Right pleural effusion'): lower case unless an acronym ('COVID-19'). */
export const afterSide = (name: string): string => (/^[A-Z0-9-]{2,}\b/.test(name) ? name : name.toLowerCase());
