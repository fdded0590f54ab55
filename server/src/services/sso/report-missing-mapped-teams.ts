import { inArray } from 'drizzle-orm';
import { teams } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';

/**
 * At boot: the slugs OIDC_TEAM_MAP names that no team has yet. Their SSO members join nobody
 * until a site administrator creates the team (only they may create a mapped slug), so the
 * operator is told which ones, once, in the server log.
 */
export async function reportMissingMappedTeams(deps: Pick<AppDeps, 'db' | 'config' | 'log'>): Promise<string[]> {
  const slugs = [...new Set(deps.config.OIDC_TEAM_MAP.map((e) => e.team))];
  if (!slugs.length) return [];
  const found = await deps.db.select({ slug: teams.slug }).from(teams).where(inArray(teams.slug, slugs));
  const have = new Set(found.map((t) => t.slug));
  const missing = slugs.filter((s) => !have.has(s));
  if (missing.length)
    deps.log.warn(
      { missing },
      `OIDC_TEAM_MAP names teams that do not exist yet (${missing.join(', ')}): a site administrator creates each one`,
    );
  return missing;
}
