import { isCalled } from '@contracts/finding-call.js';
import { PEDIATRIC_ONLY_REASON, type TStoredResult } from '@contracts/schemas/analysis.js';
import { SUMMARY_LABEL } from './anatomy-text.js';

/**
 * Findings validated only in children (the manifest's `ageGroup: "pediatric"`) are reported only
 * when the patient's age says child (under 18). For an adult, or when no age was given, they
 * become "not assessed" with the reason, so no probability is stored, shown, exported or quoted
 * in the chat. The worker cannot decide this: its job carries ids only, never the age. Pure.
 */
export function withholdByAge(
  result: TStoredResult,
  age: number | null,
): { result: TStoredResult; withheld: string[] } {
  if (!result.gate.accepted || (age !== null && age < 18)) return { result, withheld: [] };
  const withheld = result.findings.filter((f) => f.ageGroup === 'pediatric');
  if (withheld.length === 0) return { result, withheld: [] };
  const findings = result.findings.filter((f) => f.ageGroup !== 'pediatric');
  const labels = withheld.map((f) => f.label);
  return {
    result: {
      ...result,
      findings,
      topFinding: labels.includes(result.topFinding ?? '') ? topOf(findings) : result.topFinding,
      heatmaps: result.heatmaps.filter((h) => !labels.includes(h.label)),
      notAssessed: [
        ...withheld.map((f) => ({ label: f.label, display: f.display, reason: PEDIATRIC_ONLY_REASON })),
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
