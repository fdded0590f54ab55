import { and, sql } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { patientProfiles } from '../../db/schema.js';
import type { RequestMeta } from '../../deps.js';
import { auditedAccess } from '../audit/audited-access.js';
import { keysetPage } from '../data-access/keyset-page.js';
import { spaceRows } from '../data-access/find-owned.js';
import { resolveSpace } from '../data-access/team-role.js';
import { profileColumns, type TProfileRow } from './profile-view.js';

export interface TProfilePage {
  rows: TProfileRow[];
  nextCursor: string | null;
}

/**
 * A space's profiles (userId's personal ones, or a team's), newest first, one keyset page at a time. The order (created_at desc, id asc)
 * is the one patient_profiles_user_created_idx stores, so a page is an index range scan.
 */
export async function listProfiles(opts: {
  db: TDb;
  meta: RequestMeta | null;
  userId: string;
  teamId?: string | null;
  cursor?: string | null;
  limit: number;
}): Promise<TProfilePage> {
  const { db, userId, limit } = opts;
  return auditedAccess({
    db,
    meta: opts.meta,
    userId,
    action: 'profile.list',
    objectType: 'patient_profile',
    work: async () => {
      const teamId = await resolveSpace({ db, userId, teamId: opts.teamId });
      const page = await keysetPage(opts.cursor, limit, (after, take) =>
        db
          .select({ ...profileColumns, cursorTs: sql<string>`${patientProfiles.createdAt}::text` })
          .from(patientProfiles)
          .where(
            and(
              spaceRows(patientProfiles, userId, teamId),
              after
                ? sql`(${patientProfiles.createdAt} < ${after.createdAt}::timestamptz or (${patientProfiles.createdAt} = ${after.createdAt}::timestamptz and ${patientProfiles.id} > ${after.id}::uuid))`
                : undefined,
            ),
          )
          // NULLS LAST as the index stores it (a plain DESC means NULLS FIRST and would need a sort).
          .orderBy(sql`${patientProfiles.createdAt} desc nulls last`, patientProfiles.id)
          .limit(take),
      );
      return { rows: page.rows.map(({ cursorTs: _c, ...row }) => row), nextCursor: page.nextCursor };
    },
    detailsOf: (page) => ({ count: page.rows.length }),
  });
}
