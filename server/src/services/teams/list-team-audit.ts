import { and, desc, eq, lt } from 'drizzle-orm';
import { auditLog, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { TEAM_MESSAGES, ZTeamAuditInput, type TTeamAuditInput, type TTeamAuditPage } from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';
import { decodeEntryIdCursor } from '../data-access/keyset-cursor-fields.js';
import { requireTeamRole } from '../data-access/team-role.js';

/**
 * A team's audit trail for its admins (issue 32 part 5): every entry about the team's rows and
 * membership (audit-team.ts decides which), reads included, newest first, a page at a time by
 * entry id (keyset: a page stays stable while entries are added). Other members get FORBIDDEN,
 * anyone else NOT_FOUND. Reading the trail is itself an entry in it.
 */
export async function listTeamAudit(
  opts: Pick<AppDeps, 'db'> & { meta: RequestMeta | null; userId: string; input: TTeamAuditInput },
): Promise<TTeamAuditPage> {
  const { db, meta, userId } = opts;
  const input = ZTeamAuditInput.parse(opts.input);
  await requireTeamRole({ db, userId, teamId: input.teamId, roles: ['admin'] });
  const after = decodeEntryIdCursor(input.cursor, TEAM_MESSAGES.auditCursorInvalid);
  const rows = await db
    .select({
      id: auditLog.id,
      at: auditLog.at,
      actorUserId: auditLog.actorUserId,
      actorName: users.name,
      action: auditLog.action,
      objectType: auditLog.objectType,
      objectId: auditLog.objectId,
      outcome: auditLog.outcome,
      details: auditLog.details,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(and(eq(auditLog.teamId, input.teamId), after === null ? undefined : lt(auditLog.id, after)))
    .orderBy(desc(auditLog.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  await recordAudit({
    db,
    meta,
    entry: {
      actorUserId: userId,
      action: 'team.audit',
      objectType: 'team',
      objectId: input.teamId,
      outcome: 'success',
      details: { count: page.length },
    },
  });
  return {
    entries: page.map((r) => ({
      id: String(r.id),
      at: r.at.toISOString(),
      actor: { userId: r.actorUserId, name: r.actorName },
      action: r.action,
      objectType: r.objectType,
      objectId: r.objectId,
      outcome: r.outcome,
      details: r.details,
    })),
    nextCursor: rows.length > input.limit ? String(page[page.length - 1]?.id) : null,
  };
}
