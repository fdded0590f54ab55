import { and, desc, eq, lt } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  analyses,
  apiKeys,
  auditLog,
  chats,
  dicomInstances,
  patientProfiles,
  storedImages,
  teamInvitations,
  teamMembers,
  teams,
  users,
} from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { TEAM_MESSAGES, ZTeamAuditInput, type TTeamAuditInput, type TTeamAuditPage } from '@contracts/schemas/team.js';
import { recordAudit } from '../audit/record-audit.js';
import { auditObjectAccess as see } from '../data-access/audit-object-access.js';
import { decodeEntryIdCursor } from '../data-access/keyset-cursor-fields.js';
import { requireTeamRole } from '../data-access/team-role.js';
import { auditObjectName } from './audit-object-name.js';

const actorMember = alias(teamMembers, 'actor_member');
const objectMember = alias(teamMembers, 'object_member');
const objectUser = alias(users, 'object_user');

/**
 * A team's audit trail for its admins (issue 32 part 5): every entry about the team's rows and
 * membership (audit-team.ts decides which), reads included, newest first, a page at a time by
 * entry id (keyset: a page stays stable while entries are added). Other members get FORBIDDEN,
 * anyone else NOT_FOUND. Reading the trail is itself an entry in it. Objects are named in the same
 * query (issue 41 part 6: names, not ids), each only where audit-object-access.ts lets the admin
 * see it; the actor's e-mail only for a member of the team.
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
      actorEmail: users.email,
      actorIsMember: actorMember.userId,
      action: auditLog.action,
      objectType: auditLog.objectType,
      objectId: auditLog.objectId,
      outcome: auditLog.outcome,
      details: auditLog.details,
      teamName: teams.name,
      userName: objectUser.name,
      isMember: objectMember.userId,
      userEmail: objectUser.email,
      invitationEmail: teamInvitations.email,
      apiKeyName: apiKeys.name,
      chatAt: chats.createdAt,
      analysisAt: analyses.createdAt,
      profileAt: patientProfiles.createdAt,
      imageAt: storedImages.createdAt,
      studyAt: dicomInstances.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .leftJoin(actorMember, see.actor(actorMember, input.teamId))
    .leftJoin(teams, see.team(teams, input.teamId))
    .leftJoin(objectMember, see.member(objectMember, input.teamId))
    .leftJoin(objectUser, see.user(objectUser, input.teamId))
    .leftJoin(teamInvitations, see.teamRow(teamInvitations, 'team_invitation', input.teamId))
    .leftJoin(apiKeys, see.teamRow(apiKeys, 'api_key', input.teamId))
    .leftJoin(chats, see.row(chats, 'chat', userId))
    .leftJoin(analyses, see.row(analyses, 'analysis', userId))
    .leftJoin(patientProfiles, see.row(patientProfiles, 'patient_profile', userId))
    .leftJoin(storedImages, see.row(storedImages, 'stored_image', userId))
    .leftJoin(dicomInstances, see.row(dicomInstances, 'dicom_instance', userId))
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
      actor: { userId: r.actorUserId, name: r.actorName, email: r.actorIsMember ? r.actorEmail : null },
      action: r.action,
      objectType: r.objectType,
      objectId: r.objectId,
      objectName: auditObjectName({
        ...r,
        memberEmail: r.isMember ? r.userEmail : null,
        rowCreatedAt: r.chatAt ?? r.analysisAt ?? r.profileAt ?? r.imageAt ?? r.studyAt,
      }),
      outcome: r.outcome,
      details: r.details,
    })),
    nextCursor: rows.length > input.limit ? String(page[page.length - 1]?.id) : null,
  };
}
