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
