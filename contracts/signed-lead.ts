/**
 * The lead of a signed report (issue 49): the first line of the radiologist's impression, its
 * list number dropped, for the places that show a study in one line (the worklist's lead cell,
 * the timeline). Once a report is signed this replaces the AI's lead finding there: the signed
 * words are the study's, and a finding the radiologist removed must not lead the row.
 */
const LEAD_MAX = 160;

export function signedLeadOf(impression: string): string {
  const first = impression
    .split('\n')
    .map((l) => l.replace(/^\s*(\d+[.)]|[-*•])\s*/, '').trim())
    .find((l) => l !== '');
  const text = first ?? impression.trim();
  return text.length > LEAD_MAX ? `${text.slice(0, LEAD_MAX - 1)}…` : text;
}
