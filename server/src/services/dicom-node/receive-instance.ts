import { and, eq } from 'drizzle-orm';
import { dicomInstances } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { isAppError } from '../../lib/app-error.js';
import { createAnalysis } from '../analysis/create-analysis.js';
import { matchPatientProfile } from './match-patient-profile.js';
import { BAD_PATIENT_ID, badPatientId, readInstanceTags, storedTagsOf } from './read-instance-tags.js';
import { routeInstance } from './route-instance.js';

/**
 * Why an instance failed, for the status the sender gets (issue 36, S6): 'resources' when a resend
 * may work (the decoder busy, the queue down), 'unreadable' when it will not.
 */
export type TFailureKind = 'resources' | 'unreadable';

export type TReceiveOutcome =
  | { outcome: 'queued' | 'skipped' | 'duplicate'; instanceId: string; reason?: string }
  | { outcome: 'failed'; instanceId: string | null; reason: string; failure: TFailureKind };

export const NOT_DICOM = 'Not a readable DICOM instance';
export const NO_SOP_UID = 'The instance has no SOP Instance UID';
const ANALYSIS_UNAVAILABLE = 'Could not start the analysis';

/**
 * One instance from the DICOM network (C-STORE or STOW-RS), for the node's owner account:
 * recorded once per SOP Instance UID, routed (frontal chest CR/DX analysed, the rest skipped
 * with the reason), matched to a patient profile by PatientID, and handed to the same upload
 * service as a web upload (same gate, model, report and chat). A second copy of an instance
 * already recorded starts nothing. Logs carry ids and outcomes only.
 */
export async function receiveInstance(
  opts: Pick<AppDeps, 'db' | 'redis' | 'analysisQueue' | 'images' | 'log'> & {
    meta: RequestMeta;
    userId: string;
    bytes: Buffer;
    source: 'dimse' | 'stow';
    callingAe: string | null;
  },
): Promise<TReceiveOutcome> {
  const { db, log, meta, userId, bytes, source, callingAe } = opts;
  const tags = readInstanceTags(bytes);
  if (!tags) return { outcome: 'failed', instanceId: null, reason: NOT_DICOM, failure: 'unreadable' };
  if (!tags.SOPInstanceUID) return { outcome: 'failed', instanceId: null, reason: NO_SOP_UID, failure: 'unreadable' };
  if (badPatientId(tags.PatientID))
    return { outcome: 'failed', instanceId: null, reason: BAD_PATIENT_ID, failure: 'unreadable' };

  const values = {
    userId,
    sopInstanceUid: tags.SOPInstanceUID,
    sopClassUid: tags.SOPClassUID,
    studyInstanceUid: tags.StudyInstanceUID,
    seriesInstanceUid: tags.SeriesInstanceUID,
    modality: tags.Modality,
    bodyPart: tags.BodyPartExamined,
    viewPosition: tags.ViewPosition,
    tags: storedTagsOf(tags),
    source,
    callingAe,
  };
  const [inserted] = await db
    .insert(dicomInstances)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: dicomInstances.id });
  let instanceId = inserted?.id;
  if (!instanceId) {
    const [prior] = await db
      .select({ id: dicomInstances.id, status: dicomInstances.status, analysisId: dicomInstances.analysisId })
      .from(dicomInstances)
      .where(and(eq(dicomInstances.userId, userId), eq(dicomInstances.sopInstanceUid, tags.SOPInstanceUID)))
      .limit(1);
    // A copy that failed before its analysis began (the queue was down) is worth another try.
    if (!prior || prior.analysisId || prior.status !== 'failed')
      return { outcome: 'duplicate', instanceId: prior?.id ?? '' };
    const [retaken] = await db
      .update(dicomInstances)
      .set({ ...values, status: 'received', reason: null, updatedAt: new Date() })
      .where(and(eq(dicomInstances.id, prior.id), eq(dicomInstances.status, 'failed')))
      .returning({ id: dicomInstances.id });
    if (!retaken) return { outcome: 'duplicate', instanceId: prior.id };
    instanceId = retaken.id;
  }
  const mark = (set: Partial<typeof dicomInstances.$inferInsert>) =>
    db
      .update(dicomInstances)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(dicomInstances.id, instanceId));

  const route = routeInstance(tags);
  if (!route.analyse) {
    await mark({ status: 'skipped', reason: route.reason });
    log.info({ instanceId, source, outcome: 'skipped' }, 'dicom instance skipped');
    return { outcome: 'skipped', instanceId, reason: route.reason };
  }
  try {
    const profileId = await matchPatientProfile({ db, meta, userId, tags });
    const created = await createAnalysis({
      ...opts,
      raw: { image: bytes, profileJson: null, profileId },
    });
    await mark({ status: 'queued', analysisId: created.analysisId, profileId });
    log.info({ instanceId, analysisId: created.analysisId, source, outcome: 'queued' }, 'dicom instance queued');
    return { outcome: 'queued', instanceId };
  } catch (err) {
    // The upload service's refusals (unsupported compression, too many pixels) are safe texts.
    const reason = isAppError(err) ? err.message : ANALYSIS_UNAVAILABLE;
    const failure: TFailureKind = !isAppError(err) || err.code === 'UNAVAILABLE' ? 'resources' : 'unreadable';
    await mark({ status: 'failed', reason });
    log.warn({ instanceId, source, err }, 'dicom instance not analysed');
    return { outcome: 'failed', instanceId, reason, failure };
  }
}
