import { isNotNull } from 'drizzle-orm';
import { teams } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';

/** How often the teams' AE titles are read again: a change reaches the node within this. */
export const ROUTES_CHECK_MS = 5000;

/** Called AE title (upper-case, as team.setAeTitle stores it) → team id. */
export type TTeamRoutes = ReadonlyMap<string, string>;

/**
 * Reads the teams' AE titles now and every ROUTES_CHECK_MS, and hands the table on whenever it
 * changes (issue 32). Polled, as the owner is (watch-dicom-owner.ts), rather than told by
 * team.setAeTitle: the title may be changed by another server process, a restored backup or
 * SQL by hand, and one indexed read of a small table every few seconds costs nothing. A failed
 * read (database away) keeps the last table.
 */
export function watchTeamAeTitles(
  opts: Pick<AppDeps, 'db' | 'log' | 'config'> & { onChange: (routes: TTeamRoutes) => void },
): {
  check(): Promise<void>;
  stop(): void;
} {
  const { db, log, onChange } = opts;
  const nodeAe = opts.config.DICOM_AE_TITLE.trim().toUpperCase();
  let last: string | undefined;
  const check = async () => {
    const rows = await db
      .select({ aeTitle: teams.aeTitle, teamId: teams.id })
      .from(teams)
      .where(isNotNull(teams.aeTitle))
      .catch((err: Error) => {
        log.warn({ err }, 'team AE titles lookup failed');
        return null;
      });
    if (!rows) return;
    // The node's own title is its owner's personal space: a team holding it (set before
    // DICOM_AE_TITLE changed, or by SQL; team.setAeTitle refuses it) is not routed, and said so.
    const shadowed = rows.filter((r) => r.aeTitle!.trim().toUpperCase() === nodeAe).map((r) => r.teamId);
    const routes = new Map(
      rows.filter((r) => !shadowed.includes(r.teamId)).map((r) => [r.aeTitle!.trim().toUpperCase(), r.teamId]),
    );
    const key = JSON.stringify([...routes].sort());
    if (key === last) return;
    last = key;
    if (shadowed.length)
      log.warn(
        { component: 'dicom-node', teamIds: shadowed },
        "a team's AE title is the DICOM node's own (DICOM_AE_TITLE): not routed to the team; give the team another",
      );
    log.info({ component: 'dicom-node', teams: routes.size }, 'DICOM node routes by called AE title');
    onChange(routes);
  };
  const timer = setInterval(() => void check(), ROUTES_CHECK_MS);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
