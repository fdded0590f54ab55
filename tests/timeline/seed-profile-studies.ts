import { analyses, dicomInstances } from '../../server/src/db/schema.js';
import type { AppDeps } from '../../server/src/deps.js';
import { triageColumns } from '../../server/src/services/dicom-node/worklist-triage.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { createChat, createProfile } from '../helpers/factories.js';
import { uniqueSuffix } from '../helpers/test-config.js';

export interface TProfileStudy {
  result: TStoredResult;
  createdAt: Date;
  /** The DICOM StudyDate (YYYYMMDD); absent: a browser upload (no DICOM instance at all). */
  studyDate?: string;
}

/**
 * One patient profile's studies, oldest first, each in its own chat of the profile with a
 * completed analysis and, for a DICOM study, its instance carrying the StudyDate tag (as the
 * network stores it). Returns the profile and each study's chat and analysis ids.
 */
export async function seedProfileStudies(
  deps: Pick<AppDeps, 'db' | 'images' | 'config'>,
  userId: string,
  studies: TProfileStudy[],
): Promise<{ profileId: string; studies: { chatId: string; analysisId: string }[] }> {
  const profile = await createProfile(deps, userId);
  const out: { chatId: string; analysisId: string }[] = [];
  for (const [i, s] of studies.entries()) {
    const { chat } = await createChat(deps, userId, { profile, createdAt: s.createdAt });
    const [analysis] = await deps.db
      .insert(analyses)
      .values({
        userId,
        chatId: chat.id,
        status: 'completed',
        stage: 'done',
        result: s.result as unknown as Record<string, unknown>,
        createdAt: s.createdAt,
        updatedAt: s.createdAt,
        ...triageColumns(s.result),
      })
      .returning({ id: analyses.id });
    if (s.studyDate)
      await deps.db.insert(dicomInstances).values({
        userId,
        sopInstanceUid: `1.2.826.0.1.3680043.${BigInt(`0x${uniqueSuffix()}`).toString()}.${i + 1}`,
        source: 'dimse',
        status: 'analysed',
        modality: 'DX',
        tags: { StudyDate: s.studyDate, PatientID: `P${i}` },
        profileId: profile.id,
        analysisId: analysis!.id,
        createdAt: s.createdAt,
        updatedAt: s.createdAt,
      });
    out.push({ chatId: chat.id, analysisId: analysis!.id });
  }
  return { profileId: profile.id, studies: out };
}
