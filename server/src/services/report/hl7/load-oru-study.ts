import { eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client.js';
import { analyses, chats, dicomInstances } from '../../../db/schema.js';
import { patientOf } from '../../history/chat-view.js';
import type { TOruStudy } from './build-oru.js';

/** The patient and study the ORU^R01 names: the DICOM study's tags, else the chat's patient. */
export async function loadOruStudy(opts: { db: TDb; analysisId: string }): Promise<TOruStudy> {
  const { db, analysisId } = opts;
  const [row] = await db
    .select({ patient: chats.patient, tags: dicomInstances.tags, createdAt: analyses.createdAt })
    .from(analyses)
    .innerJoin(chats, eq(chats.id, analyses.chatId))
    .leftJoin(dicomInstances, eq(dicomInstances.analysisId, analyses.id))
    .where(eq(analyses.id, analysisId))
    .limit(1);
  const tags = row?.tags ?? {};
  return {
    patientId: tags.PatientID ?? '',
    patientName: tags.PatientName ?? (row ? patientOf(row).full_name : ''),
    accessionNumber: tags.AccessionNumber ?? '',
    studyInstanceUid: tags.StudyInstanceUID ?? '',
    studyDate: tags.StudyDate ?? row?.createdAt.toISOString().slice(0, 10).replace(/-/g, '') ?? '',
  };
}
