import { inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TDb } from '../../db/client.js';
import { analyses, chats, dicomInstances, patientProfiles, storedImages, teamInvitations } from '../../db/schema.js';
import { isUuid } from '../data-access/is-uuid.js';
import type { TAuditRow } from './audit-row.js';

/** The tables an entry's object can be a row of, by the entry's object type. */
const OBJECT_TABLES: Record<string, PgTable & { id: PgColumn; teamId: PgColumn }> = {
  chat: chats,
  analysis: analyses,
  patient_profile: patientProfiles,
  stored_image: storedImages,
  dicom_instance: dicomInstances,
  team_invitation: teamInvitations,
};

/**
 * The team each entry is about (issue 32 part 5), by entry id, so a team's admins can read its
 * trail. Decided here, once, for every service's entries: `details.teamId` where the service
 * named it (membership changes, team lists, a row it deleted), the team itself for a `team`
 * object, else the team of the object's row, read in the transaction that stores the entries.
 * A probe of another team's id is therefore in that team's trail too: its admins see who tried.
 */
export async function teamsOfAuditRows(opts: { db: TDb; rows: TAuditRow[] }): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const wanted = new Map<string, Set<string>>();
  for (const row of opts.rows) {
    const named = row.details?.teamId;
    if (typeof named === 'string' && isUuid(named)) out.set(row.entryId, named);
    else if (row.objectType === 'team' && row.objectId && isUuid(row.objectId)) out.set(row.entryId, row.objectId);
    else if (row.objectType && row.objectId && OBJECT_TABLES[row.objectType] && isUuid(row.objectId)) {
      const ids = wanted.get(row.objectType) ?? new Set<string>();
      wanted.set(row.objectType, ids.add(row.objectId));
    }
  }
  const teamOf = new Map<string, string>();
  for (const [type, ids] of wanted) {
    const table = OBJECT_TABLES[type];
    if (!table) continue;
    const found = (await opts.db
      .select({ id: table.id, teamId: table.teamId })
      .from(table)
      .where(inArray(table.id, [...ids]))) as { id: string; teamId: string | null }[];
    for (const f of found) if (f.teamId) teamOf.set(`${type}:${f.id}`, f.teamId);
  }
  for (const row of opts.rows) {
    const team = teamOf.get(`${row.objectType}:${row.objectId}`);
    if (team && !out.has(row.entryId)) out.set(row.entryId, team);
  }
  return out;
}
