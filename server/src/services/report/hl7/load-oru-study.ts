import { eq } from 'drizzle-orm';
import type { TDb } from '../../../db/client.js';
import { analyses, chats, dicomInstances } from '../../../db/schema.js';
import type { TConfig } from '@contracts/config/server-config.js';
import { patientOf } from '../../history/chat-view.js';
import { splitDicomName, splitDisplayName } from '../split-person-name.js';
import type { TOruStudy } from './build-oru.js';

/**
 * OBR-3 of a study that came with no accession number (a browser upload, a DICOM file without
 * one): this prefix and the first 13 hexadecimal digits of the analysis id, 16 characters as
 * DICOM's SH allows, the same for the signature and every addendum (docs/reports.md).
 */
export const ACCESSION_PREFIX = 'CXR';
export const generatedAccession = (analysisId: string): string =>
  `${ACCESSION_PREFIX}${analysisId.replace(/-/g, '').slice(0, 13).toUpperCase()}`;

/**
 * The patient and study the ORU^R01 names (issue 49 item 3): the DICOM study's PatientID under
 * REPORT_HL7_PATIENT_ID_AUTHORITY, its name's PN components, accession and the stored Study
 * Instance UID; for a browser upload the chat's patient (its profile's id, else the chat's,
 * under this installation's REPORT_HL7_SENDING_APP, type PI), never an empty PID-3.
 */
export async function loadOruStudy(opts: {
  db: TDb;
  config: Pick<TConfig, 'REPORT_HL7_PATIENT_ID_AUTHORITY' | 'REPORT_HL7_SENDING_APP'>;
  analysisId: string;
}): Promise<TOruStudy> {
  const { db, config, analysisId } = opts;
  const [row] = await db
    .select({
      chatId: chats.id,
      profileId: chats.profileId,
      patient: chats.patient,
      tags: dicomInstances.tags,
      studyUid: dicomInstances.studyInstanceUid,
      createdAt: analyses.createdAt,
    })
    .from(analyses)
    .innerJoin(chats, eq(chats.id, analyses.chatId))
    .leftJoin(dicomInstances, eq(dicomInstances.analysisId, analyses.id))
    .where(eq(analyses.id, analysisId))
    .limit(1);
  const tags = row?.tags ?? {};
  const dicomId = tags.PatientID?.trim();
  return {
    patientId: dicomId
      ? { id: dicomId, authority: config.REPORT_HL7_PATIENT_ID_AUTHORITY, type: 'MR' }
      : { id: row?.profileId ?? row?.chatId ?? analysisId, authority: config.REPORT_HL7_SENDING_APP, type: 'PI' },
    patientName: tags.PatientName
      ? splitDicomName(tags.PatientName)
      : splitDisplayName(row ? patientOf(row).full_name : ''),
    accessionNumber: tags.AccessionNumber?.trim() || generatedAccession(analysisId),
    studyInstanceUid: row?.studyUid ?? tags.StudyInstanceUID ?? '',
    studyDate: tags.StudyDate ?? row?.createdAt.toISOString().slice(0, 10).replace(/-/g, '') ?? '',
  };
}
