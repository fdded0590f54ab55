import { isCalled } from '@contracts/finding-call.js';
import { ADULT_ONLY_REASON, PEDIATRIC_ONLY_REASON, type TStoredResult } from '@contracts/schemas/analysis.js';
import { SUMMARY_LABEL } from './anatomy-text.js';

/**
 * Findings validated only in children (the manifest's `ageGroup: "pediatric"`) are reported only
 * when the patient's age says child (under 18). For an adult, or when no age was given, they
 * become "not assessed" with the reason, so no probability is stored, shown, exported or quoted
 * in the chat. Findings validated only in adults (`ageGroup: "adult"`, model 5's airspace opacity) are
 * withheld the same way when the age says child; without an age they are shown (the films they were
 * validated on are adults'). The worker cannot decide this: its job carries ids only, never the age. Pure.
 */
export function withholdByAge(
  result: TStoredResult,
  age: number | null,
): { result: TStoredResult; withheld: string[] } {
  if (!result.gate.accepted) return { result, withheld: [] };
  const child = age !== null && age < 18;
  const withholds = (f: { ageGroup?: 'pediatric' | 'adult' | undefined }): boolean =>
    child ? f.ageGroup === 'adult' : f.ageGroup === 'pediatric';
  const withheld = result.findings.filter(withholds);
  if (withheld.length === 0) return { result, withheld: [] };
  const findings = result.findings.filter((f) => !withholds(f));
  const labels = withheld.map((f) => f.label);
  return {
    result: {
      ...result,
      findings,
      topFinding: labels.includes(result.topFinding ?? '') ? topOf(findings) : result.topFinding,
      heatmaps: result.heatmaps.filter((h) => !labels.includes(h.label)),
      notAssessed: [
        ...withheld.map((f) => ({
          label: f.label,
          display: f.display,
          reason: f.ageGroup === 'adult' ? ADULT_ONLY_REASON : PEDIATRIC_ONLY_REASON,
        })),
        ...(result.notAssessed ?? []),
      ],
    },
    withheld: labels,
  };
}

/** The most probable called finding other than the summary score (compose.ts), else null. */
function topOf(findings: TStoredResult['findings']): string | null {
  const positive = findings.filter((f) => isCalled(f.call) && f.label !== SUMMARY_LABEL);
  return positive.sort((a, b) => b.probability - a.probability)[0]?.label ?? null;
}
