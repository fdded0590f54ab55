import { eq } from 'drizzle-orm';
import { teams } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';
import { requireTeamRole } from '../data-access/team-role.js';

/**
 * A team admin sets the called AE title the DICOM node routes to the team (null: none). Titles
 * are compared upper-case, as PACS consoles show them; the unique index keeps one team a title,
 * so a study never lands in two teams. The node's own title (DICOM_AE_TITLE, its owner's
 * personal space) is refused. The node reads the new table within a few seconds
 * (watch-team-ae-titles.ts).
 */
export async function setTeamAeTitle(
  opts: Pick<AppDeps, 'db' | 'config'> & {
    meta: RequestMeta | null;
    userId: string;
    teamId: string;
    aeTitle: string | null;
  },
): Promise<{ aeTitle: string | null }> {
  const { db, userId, teamId } = opts;
  await requireTeamRole({ db, userId, teamId, roles: ['admin'] });
  const aeTitle = opts.aeTitle?.trim().toUpperCase() || null;
  if (aeTitle && aeTitle === opts.config.DICOM_AE_TITLE.trim().toUpperCase())
    throw new AppError('CONFLICT', TEAM_MESSAGES.aeTitleNode);
  try {
    await db.update(teams).set({ aeTitle }).where(eq(teams.id, teamId));
  } catch (err) {
    // drizzle wraps the driver's error; 23505 is PostgreSQL's unique_violation (teams_ae_title_uq).
    const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
    if (code === '23505') throw new AppError('CONFLICT', TEAM_MESSAGES.aeTitleTaken);
    throw err;
  }
  await recordAudit({
    db,
    meta: opts.meta,
    entry: {
      actorUserId: userId,
      action: 'team.ae_title',
      objectType: 'team',
      objectId: teamId,
      outcome: 'success',
      details: { teamId },
    },
  });
  return { aeTitle };
}
