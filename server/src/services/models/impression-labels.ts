/**
 * The labels a comparison is scored against (issue 47): the department's signed read. A finding
 * is present when the signed impression names it (its display name, or its label with spaces)
 * in a sentence that does not negate it before the name ("no", "not", "without", "negative
 * for"); every other finding of the study, including one the radiologist removed from the
 * model's draft, is absent. Pure.
 */
const NEGATION = /\b(no|not|without|negative for|free of)\b/;

function namesOf(f: { label: string; display: string }): string[] {
  const names = new Set<string>([f.label.replace(/_/g, ' ').toLowerCase(), f.display.toLowerCase()]);
  // 'Pneumonia / lung opacity' is named by either part.
  for (const part of f.display.split('/')) if (part.trim().length > 3) names.add(part.trim().toLowerCase());
  return [...names].filter(Boolean);
}

export function impressionLabels(
  impression: string,
  findings: readonly { label: string; display: string }[],
): Set<string> {
  const sentences = impression.toLowerCase().split(/[.;\n]+/);
  const present = new Set<string>();
  for (const f of findings) {
    const names = namesOf(f);
    const named = sentences.some((s) =>
      names.some((n) => {
        const at = s.indexOf(n);
        return at >= 0 && !NEGATION.test(s.slice(0, at));
      }),
    );
    if (named) present.add(f.label);
  }
  return present;
}
