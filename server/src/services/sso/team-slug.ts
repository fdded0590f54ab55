/**
 * The slug OIDC_TEAM_MAP names a team by: its name lower-cased, accents dropped, every run of
 * other characters one `-` ("Radiology" → radiology, "Émergency Dept." → emergency-dept). Teams
 * have free-text names; the slug lets an operator write the map without quoting them.
 */
export function teamSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
