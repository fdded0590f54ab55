import { sql, type SQL } from 'drizzle-orm';
import { type analyses, dicomInstances } from '../../db/schema.js';

/**
 * When a study was taken, in SQL, for the comparison's prior and the timeline's order (issue 49):
 * the StudyDate tag of the DICOM instance the analysis was made from, else (a browser upload, or
 * a study that sent none) the day it was uploaded.
 */

/** The StudyDate tag (DA, 'YYYYMMDD') of the analysis's DICOM instance; null for a browser upload. */
export const studyDateOf = (analysisId: SQL | typeof analyses.id) =>
  sql<
    string | null
  >`(select nullif(${dicomInstances.tags}->>'StudyDate', '') from ${dicomInstances} where ${dicomInstances.analysisId} = ${analysisId} limit 1)`;

/** The study's day: its StudyDate when well formed, else its upload's UTC day. */
export const studyDayOf = (analysisId: SQL | typeof analyses.id, createdAt: SQL | typeof analyses.createdAt) =>
  sql`coalesce(case when ${studyDateOf(analysisId)} ~ '^[0-9]{8}$' then to_date(${studyDateOf(analysisId)}, 'YYYYMMDD') end, (${createdAt} at time zone 'UTC')::date)`;

/** A DICOM DA value (YYYYMMDD) as YYYY-MM-DD; anything else is no date. */
export function isoDate(da: string | null | undefined): string | null {
  const m = da ? /^(\d{4})(\d{2})(\d{2})$/.exec(da.trim()) : null;
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}
