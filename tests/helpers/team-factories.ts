import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { teamMembers, teams } from '../../server/src/db/schema.js';
import type { AppDeps } from '../../server/src/deps.js';
import { outboxDir } from '@contracts/config/server-config.js';
import { teamSlug, type TTeamRole } from '@contracts/schemas/team.js';
import { uniqueSuffix } from './test-config.js';

/** A team written straight to the database with the given members (user id → role). */
export async function createTeam(
  deps: Pick<AppDeps, 'db'>,
  members: Record<string, TTeamRole>,
  opts: { name?: string; aeTitle?: string | null } = {},
): Promise<{ id: string; name: string }> {
  const name = opts.name ?? `Radiology ${uniqueSuffix()}`;
  const [team] = await deps.db
    .insert(teams)
    .values({ name, slug: teamSlug(name), aeTitle: opts.aeTitle ?? null })
    .returning({ id: teams.id, name: teams.name });
  if (!team) throw new Error('team insert returned nothing');
  const rows = Object.entries(members).map(([userId, role]) => ({ teamId: team.id, userId, role }));
  if (rows.length) await deps.db.insert(teamMembers).values(rows);
  return team;
}

/**
 * The token of the newest invitation e-mailed to `to`, read from the outbox's .eml files (the
 * embedded default without SMTP_URL), quoted-printable soft breaks undone.
 */
export async function invitationTokenFor(deps: Pick<AppDeps, 'config'>, to: string): Promise<string> {
  const dir = outboxDir(deps.config);
  const files = (await readdir(dir))
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .reverse();
  for (const f of files) {
    const text = (await readFile(join(dir, f), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (!new RegExp(`^To: ${to.replace(/[.+]/g, '\\$&')}$`, 'mi').test(text)) continue;
    const m = /\/teams\/join\?token=([A-Za-z0-9_-]+)/.exec(text);
    if (m?.[1]) return m[1];
  }
  throw new Error(`no invitation e-mailed to ${to}`);
}
