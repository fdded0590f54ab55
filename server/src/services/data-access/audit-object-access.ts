import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { auditLog, teamMembers } from '../../db/schema.js';
import { rowAccess, type TOwnedTable } from './find-owned.js';

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/**
 * The entry's object id as a uuid when the entry is about an object of `type`, else null: a
 * probed id is any text, so it is cast only once it has a uuid's shape (never a cast error).
 */
function objectUuid(type: string): SQL {
  return sql`(case when ${auditLog.objectType} = ${type} and ${auditLog.objectId} ~* ${UUID_PATTERN} then ${auditLog.objectId}::uuid end)`;
}

/**
 * Whose names a team's admin may read beside the team's audit trail (issue 41 part 6), as the
 * join conditions of that one query: a trail can name rows the admin may not see (a probe of
 * another team's id, an account outside the team), and those stay unnamed. Each joins a row only when
 *  - team: it is this team;
 *  - team_invitation, api_key: one of this team's (its admins list them on the team page);
 *  - user: a member of this team, or an account this trail already names as an actor (a member
 *    who has since been removed); their e-mail only while a member (memberEmail);
 *  - a space's row (chat, analysis, profile, image, DICOM study): the admin may read it (rowAccess).
 */
export const auditObjectAccess = {
  team: (team: { id: PgColumn }, teamId: string): SQL => and(eq(team.id, objectUuid('team')), eq(team.id, teamId))!,
  /** The actor's membership of this team (their e-mail is shown only then). */
  actor: (member: { userId: PgColumn; teamId: PgColumn }, teamId: string): SQL =>
    and(eq(member.userId, auditLog.actorUserId), eq(member.teamId, teamId))!,
  member: (member: { userId: PgColumn; teamId: PgColumn }, teamId: string): SQL =>
    and(eq(member.userId, objectUuid('user')), eq(member.teamId, teamId))!,
  user: (user: { id: PgColumn }, teamId: string): SQL => {
    const member = sql`select 1 from ${teamMembers} where ${teamMembers.teamId} = ${teamId} and ${teamMembers.userId} = ${user.id}`;
    // The outer query reads audit_log too: the inner one gets its own name.
    const actor = sql`select 1 from audit_log as actor_entry where actor_entry.team_id = ${teamId} and actor_entry.actor_user_id = ${user.id}`;
    return and(eq(user.id, objectUuid('user')), or(sql`exists (${member})`, sql`exists (${actor})`))!;
  },
  teamRow: (row: { id: PgColumn; teamId: PgColumn }, type: 'team_invitation' | 'api_key', teamId: string): SQL =>
    and(eq(row.id, objectUuid(type)), eq(row.teamId, teamId))!,
  row: (table: TOwnedTable, type: string, viewerId: string): SQL =>
    and(eq(table.id, objectUuid(type)), rowAccess(table, viewerId, 'read'))!,
};
