import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { TDb } from '../../../db/client.js';
import { analyses, dicomInstances } from '../../../db/schema.js';
import { resultsForwardable, spaceListed } from '../../dicom-node/results-forwardable.js';

export type TFilmRow = typeof dicomInstances.$inferSelect;

/**
 * Whether an analysis's signed report may leave the building, HL7 and SR alike (issue 46 H1),
 * decided by resultsForwardable: a film from the DICOM network (its instance's rule), or, for a
 * browser upload with no DICOM instance, its space listed by a site administrator as for STOW.
 * A walk-in account's signature stays in the product. Returns null when it may not; else the
 * forwardable film (null for a browser upload, which has no study at the PACS for an SR).
 * Used when the deliveries are recorded and again by each attempt.
 */
export async function findForwardableStudy(opts: {
  db: TDb;
  analysisId: string;
}): Promise<{ film: TFilmRow | null } | null> {
  const { db, analysisId } = opts;
  const [row] = await db
    .select({ film: dicomInstances })
    .from(analyses)
    .leftJoin(dicomInstances, eq(dicomInstances.analysisId, analyses.id))
    .where(
      and(
        eq(analyses.id, analysisId),
        or(
          and(isNotNull(dicomInstances.id), resultsForwardable(db)),
          and(isNull(dicomInstances.id), spaceListed(db, analyses)),
        ),
      ),
    )
    .limit(1);
  return row ? { film: row.film } : null;
}
