import { and, eq, isNull, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { TDb } from '../../db/client.js';
import { teamMembers } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { isUuid } from './is-uuid.js';

/**
 * A table whose rows belong to one space: the author's personal space (`team_id` null, the
 * author alone) or a team (`team_id`, its members by role; issue 32).
 */
export type TOwnedTable = PgTable & { id: PgColumn; userId: PgColumn; teamId: PgColumn };

/**
 * What the caller wants to do with a row. `read`: see it, and add to it what is theirs (a
 * question, their own feedback). `write`: change or delete it, which in a team only an admin or a
 * radiologist may do to anyone's row, and a clinician only to a row they made. `review`: claim a
 * worklist study or mark it reviewed, which in a team only an admin or a radiologist may do,
 * whoever made the row (issue 32).
 */
export type TRowAccess = 'read' | 'write' | 'review';

/** The team roles that read and review a team's studies (claims and review marks). */
export const READER_ROLES = ['admin', 'radiologist'] as const;

/** The teams userId belongs to with one of `roles` (all roles when omitted), as a subquery. */
function teamsOf(userId: string | Placeholder, roles?: readonly string[]): SQL {
  const roleFilter = roles ? sql` and ${teamMembers.role} in ${roles}` : sql``;
  return sql`(select ${teamMembers.teamId} from ${teamMembers} where ${teamMembers.userId} = ${userId}${roleFilter})`;
}

/**
 * THE rule of who may touch a row, as SQL (every ownership check below and every space-scoped
 * list goes through here). Membership is read in the same statement, so a member removed from
 * a team loses its rows on their very next request whatever session or key they hold.
 */
export function rowAccess(table: TOwnedTable, userId: string, access: TRowAccess): SQL {
  const personal = and(isNull(table.teamId), eq(table.userId, userId));
  if (access === 'read') return or(personal, sql`${table.teamId} in ${teamsOf(userId)}`)!;
  if (access === 'review') return or(personal, sql`${table.teamId} in ${teamsOf(userId, READER_ROLES)}`)!;
  return or(
    personal,
    sql`${table.teamId} in ${teamsOf(userId, READER_ROLES)}`,
    and(eq(table.userId, userId), sql`${table.teamId} in ${teamsOf(userId)}`),
  )!;
}

/**
 * The rows of one space: userId's personal rows (teamId null), or the team's when userId is a
 * member (the caller checked the team first with requireTeamRole, so a stranger got a 404; the
 * membership test here keeps the rule in SQL too).
 */
export function spaceRows(table: TOwnedTable, userId: string | Placeholder, teamId: string | null): SQL {
  if (!teamId) return and(isNull(table.teamId), eq(table.userId, userId))!;
  return and(eq(table.teamId, teamId), sql`${teamId}::uuid in ${teamsOf(userId)}`)!;
}

/**
 * The WHERE clause "this id, and userId may write it", for an UPDATE or DELETE that checks
 * access in its own statement (no window between check and write). Throws `notFound` for a
 * malformed id, so it answers like a missing one.
 */
export function ownedRow(
  table: TOwnedTable,
  id: string,
  userId: string,
  notFound: string,
  access: TRowAccess = 'write',
): SQL {
  if (!isUuid(id)) throw new AppError('NOT_FOUND', notFound);
  return and(eq(table.id, id), rowAccess(table, userId, access))!;
}

/**
 * One row userId may read (or write) by id, with the given columns. Missing, malformed and
 * inaccessible ids all throw the same NOT_FOUND (`notFound` is the message), so nobody learns
 * that another account's or another team's row exists.
 */
export async function findOwned<TColumns extends SelectedFields>(opts: {
  db: TDb;
  table: TOwnedTable;
  id: string;
  userId: string;
  columns: TColumns;
  notFound: string;
  access?: TRowAccess;
}): Promise<SelectResultFields<TColumns>> {
  const { db, table, columns, notFound } = opts;
  const where = ownedRow(table, opts.id, opts.userId, notFound, opts.access ?? 'read');
  // A generic table defeats drizzle's inference; the row has exactly the selected columns.
  const rows = (await db
    .select(columns)
    .from(table as PgTable)
    .where(where)
    .limit(1)) as SelectResultFields<TColumns>[];
  const row = rows[0];
  if (!row) throw new AppError('NOT_FOUND', notFound);

  return row;
}
