import { isCalled, type TFindingCall } from './finding-call.js';

/**
 * One story from one source (issue 42 item 4): the words a finding's call gets, from its calibrated
 * probability, its operating point (the model's, or a site's) and its call, for every surface that
 * reads a result: the findings panel, the report and its impression, the chat, the PDF/DOCX, FHIR,
 * the DICOM SR and the worklist. Pure; every figure comes from the stored result.
 *
 * A finding is *shown* with its probability and *flagged* ('positive' from 50 %, 'possible' below
 * it) only at or above its operating point. Below it, it is "not flagged": with operating points
 * chosen against every other film, "unlikely" would overstate what a number under the point says.
 */

/** The summary score (the triage output): never a finding of its own, never in "flagged". */
export const SUMMARY_LABEL = 'abnormal';

/** What a story needs of a finding. */
export interface TStoryFinding {
  label: string;
  display: string;
  probability: number;
  threshold: number;
  call: TFindingCall;
  /** Set when a site threshold decided the call: the model's own operating point. */
  modelThreshold?: number | undefined;
  /** Issue 48: where a flag reads "Likely" (absent on older results: 50 %). */
  likelyThreshold?: number | undefined;
}

/** The word of each call, the same on every surface ('uncertain' only in results stored with a margin). */
export const CALL_WORDS: Record<TFindingCall, string> = {
  positive: 'Likely',
  possible: 'Possible — flagged for review',
  uncertain: 'Uncertain',
  negative: 'Not flagged',
};

/** '11.8%', '81%': the panel's and the worklist's figure (one decimal, none when whole). */
export const shortPct = (p: number): string => `${Math.round(Math.min(1, Math.max(0, p)) * 1000) / 10}%`;

/** '11.8%': the report's, the chat's and the exports' figure (always one decimal). */
export const pct1 = (p: number): string => `${(p * 100).toFixed(1)}%`;

/**
 * '81% Likely', 'Possible — flagged for review, 11.8%', '4% not flagged': a finding's value. A
 * finding flagged below 50 % puts the word first, so that its figure is not read as "likely".
 */
export function findingValueText(f: Pick<TStoryFinding, 'probability' | 'call'>): string {
  if (f.call === 'possible') return `${CALL_WORDS.possible}, ${shortPct(f.probability)}`;
  return `${shortPct(f.probability)} ${wordAfterFigure(f.call)}`;
}

/** The call's word where it follows the figure ('81% Likely', '4% not flagged'). */
export const wordAfterFigure = (call: TFindingCall): string =>
  call === 'negative' ? CALL_WORDS.negative.toLowerCase() : CALL_WORDS[call];

/** Whether a finding is flagged: named in the impression, counted by the worklist, the exports and the SR. */
export const isFlagged = (f: Pick<TStoryFinding, 'call'>): boolean => isCalled(f.call);

/** The flagged findings of a result, the summary score left out, most probable first. */
export function flaggedFindings<T extends TStoryFinding>(findings: readonly T[]): T[] {
  return findings
    .filter((f) => f.label !== SUMMARY_LABEL && isFlagged(f))
    .sort((a, b) => b.probability - a.probability);
}

/** 'its operating point 30.0%' or 'the site's operating point 25.0% (model default 30.0%)'. */
export function operatingPointText(f: Pick<TStoryFinding, 'threshold' | 'modelThreshold'>): string {
  return f.modelThreshold === undefined
    ? `its operating point ${pct1(f.threshold)}`
    : `the site's operating point ${pct1(f.threshold)} (model default ${pct1(f.modelThreshold)})`;
}

/** 'its Likely point 62.0%' (issue 48), '50 %' for a result stored without one. */
export const likelyPointText = (f: Pick<TStoryFinding, 'likelyThreshold'>): string =>
  f.likelyThreshold === undefined ? '50 %' : `its Likely point ${pct1(f.likelyThreshold)}`;

/**
 * One finding in a sentence: 'Pleural effusion 62.0% — likely (flagged at its operating point
 * 30.0%)', 'Consolidation 36.0% — possible, flagged for review (its operating point 20.0%; below
 * 50 %: more likely absent than present)', 'Mass 4.0% — not flagged (below its operating point 15.0%)'.
 */
export function findingSentence(f: TStoryFinding): string {
  const head = `${f.display} ${pct1(f.probability)}`;
  switch (f.call) {
    case 'positive':
      return `${head} — likely (flagged at ${operatingPointText(f)})`;
    case 'possible':
      return `${head} — possible, flagged for review (${operatingPointText(f)}; below ${likelyPointText(f)})`;
    case 'uncertain':
      return `${head} — uncertain (too close to ${operatingPointText(f)} to call)`;
    case 'negative':
      return `${head} — not flagged (below ${operatingPointText(f)})`;
  }
}

/** '**Pleural effusion** 62.0%': a finding named with its figure. */
const named = (f: TStoryFinding): string => `**${f.display}** ${pct1(f.probability)}`;

/** 'A, B and C'. */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The opening words of an impression that flags nothing, and of the worklist's lead cell then. */
export const NO_FINDING_FLAGGED = 'No finding flagged';

/** The line the "Possible" flags get after the likely ones (issue 48), in the draft's words. */
export const LOW_CONFIDENCE = 'Low-confidence flags for review';

/**
 * The impression's first sentences (issue 48: the drafted report's story, with the figures): the
 * findings called "Likely", most probable first; then the "Possible" flags as low-confidence flags
 * for review, never as likely; or "No finding flagged" (with the triage score when it is above its
 * point, and any finding of an older result left uncertain). Markdown (bold names).
 */
export function impressionLead(findings: readonly TStoryFinding[]): string {
  const flagged = flaggedFindings(findings);
  if (flagged.length > 0) {
    const likely = flagged.filter((f) => f.call === 'positive');
    const low = flagged.filter((f) => f.call !== 'positive');
    const parts = [
      likely.length ? `Likely (most probable first): ${listWords(likely.map(named))}.` : 'No finding is likely.',
    ];
    if (low.length)
      parts.push(
        `${LOW_CONFIDENCE}: ${listWords(low.map(named))} (flagged below ${low.length === 1 ? 'its' : 'their'} Likely point, so that nothing is missed).`,
      );
    parts.push('A flag is a screening signal for the clinician to confirm, not a diagnosis.');
    return parts.join(' ');
  }
  const parts = [`${NO_FINDING_FLAGGED}.`];
  const triage = findings.find((f) => f.label === SUMMARY_LABEL && isFlagged(f));
  if (triage)
    parts.push(
      `The triage score (${triage.display} ${pct1(triage.probability)}) is at or above ${operatingPointText(triage)}: ` +
        'the film may not be normal although no single finding is flagged. Review it.',
    );
  const uncertain = findings.filter((f) => f.call === 'uncertain' && f.label !== SUMMARY_LABEL);
  if (uncertain.length)
    parts.push(
      `${listWords(uncertain.map((f) => `${f.display} (${pct1(f.probability)})`))} ${uncertain.length === 1 ? 'is' : 'are'} ` +
        'close to the operating point: the model cannot decide. Review the film.',
    );
  return parts.join(' ');
}

/**
 * The worklist's lead cell: 'Pleural effusion 62%', 'Consolidation possible, 36%' (the most probable
 * flagged finding, the triage score when it is the only flag), "No finding flagged" when none is.
 */
export function worklistLeadText(lead: { display: string; probability: number; call: string } | null): string {
  if (!lead) return NO_FINDING_FLAGGED;
  return `${lead.display} ${lead.call === 'possible' ? 'possible, ' : ''}${Math.round(lead.probability * 100)}%`;
}
