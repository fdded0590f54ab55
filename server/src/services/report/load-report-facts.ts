import { eq } from 'drizzle-orm';
import { analyses, chats, dicomInstances } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { ageYears } from '../analysis/anatomy-text.js';
import { patientOf } from '../history/chat-view.js';
import { compareWithPrior } from '../timeline/compare-with-prior.js';
import type { TReportFacts } from './draft-sections.js';

/** 'YYYYMMDD' (a DICOM DA) → 'YYYY-MM-DD', or null for anything else. */
function dicomDate(da: string | undefined): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(da?.trim() ?? '');
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/**
 * The stored facts a completed analysis's report is drafted from, or null when there is no
 * accepted result to report on (queued, refused, failed). The comparison is the author's, as
 * the finalizer's report reads it, so every reader gets the same draft.
 */
export async function loadReportFacts(
  opts: Pick<AppDeps, 'db' | 'config'> & { analysisId: string },
): Promise<TReportFacts | null> {
  const { db, config, analysisId } = opts;
  const [row] = await db
    .select({
      userId: analyses.userId,
      status: analyses.status,
      result: analyses.result,
      createdAt: analyses.createdAt,
      patient: chats.patient,
      profileId: chats.profileId,
    })
    .from(analyses)
    .innerJoin(chats, eq(chats.id, analyses.chatId))
    .where(eq(analyses.id, analysisId))
    .limit(1);
  const parsed = ZStoredResult.safeParse(row?.result);
  if (!row || row.status !== 'completed' || !parsed.success || !parsed.data.gate.accepted) return null;
  const result = parsed.data;
  const [dicom] = await db
    .select({ tags: dicomInstances.tags })
    .from(dicomInstances)
    .where(eq(dicomInstances.analysisId, analysisId))
    .limit(1);
  const comparison = row.userId
    ? await compareWithPrior({
        db,
        config,
        userId: row.userId,
        profileId: row.profileId,
        analysisId,
        createdAt: row.createdAt,
        result,
      })
    : null;
  return {
    result,
    age: ageYears(patientOf(row).age),
    studyDate: dicomDate(dicom?.tags.StudyDate) ?? row.createdAt.toISOString().slice(0, 10),
    source: dicom ? 'dicom' : 'upload',
    comparison,
  };
}
