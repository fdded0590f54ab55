import { and, eq, isNull } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { dicomInstances } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { isAppError } from '../../lib/app-error.js';
import { createAnalysis } from '../analysis/create-analysis.js';
import { findStudyElsewhere, lockStudy, spaceRuleApplies } from './find-study-elsewhere.js';
import { matchPatientProfile } from './match-patient-profile.js';
import { BAD_PATIENT_ID, badPatientId, readInstanceTags, storedTagsOf } from './read-instance-tags.js';
import { routeInstance } from './route-instance.js';

/**
 * Why an instance failed, for the status the sender gets (issue 36, S6): 'resources' when a resend
 * may work (the decoder busy, the queue down), 'unreadable' when it will not, 'elsewhere' when
 * its study already belongs to another space (issue 32; a resend will not work either).
 */
export type TFailureKind = 'resources' | 'unreadable' | 'elsewhere';

export type TReceiveOutcome =
  | { outcome: 'queued' | 'skipped' | 'duplicate'; instanceId: string; reason?: string }
  | { outcome: 'failed'; instanceId: string | null; reason: string; failure: TFailureKind };

export const NOT_DICOM = 'Not a readable DICOM instance';
export const NO_SOP_UID = 'The instance has no SOP Instance UID';
const ANALYSIS_UNAVAILABLE = 'Could not start the analysis';
export const STUDY_ELSEWHERE = 'The study already belongs to another team or space';

/**
 * One instance from the DICOM network (C-STORE or STOW-RS), filed for `userId` in its personal
 * space or, with `teamId`, in that team (issue 32): the caller routed it there (the node by the
 * called AE title, STOW-RS by a team key whose creator is still a member), so the author need not
 * be a member. Recorded once per SOP Instance UID and space, refused when its study already
 * lives in another space (findStudyElsewhere), routed (frontal chest CR/DX analysed, the rest
 * skipped with the reason), matched to a patient profile of the space by PatientID, and handed
 * to the same upload service as a web upload (same gate, model, report and chat). A second copy
 * of an instance already recorded starts nothing. Logs carry ids and outcomes only.
 */
export async function receiveInstance(
  opts: Pick<AppDeps, 'db' | 'redis' | 'analysisQueue' | 'images' | 'log'> & {
    meta: RequestMeta;
    userId: string;
    /** The team the instance was routed to; null or absent: userId's personal space. */
    teamId?: string | null;
    bytes: Buffer;
    source: 'dimse' | 'stow';
    callingAe: string | null;
  },
): Promise<TReceiveOutcome> {
  const { db, log, meta, userId, bytes, source, callingAe } = opts;
  const teamId = opts.teamId ?? null;
  const tags = readInstanceTags(bytes);
  if (!tags) return { outcome: 'failed', instanceId: null, reason: NOT_DICOM, failure: 'unreadable' };
  if (!tags.SOPInstanceUID) return { outcome: 'failed', instanceId: null, reason: NO_SOP_UID, failure: 'unreadable' };
  if (badPatientId(tags.PatientID))
    return { outcome: 'failed', instanceId: null, reason: BAD_PATIENT_ID, failure: 'unreadable' };

  const values = {
    userId,
    teamId,
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
  const studyUid = tags.StudyInstanceUID;
  const checked = studyUid && spaceRuleApplies(teamId, source);
  const inserted = await db.transaction(async (t) => {
    const tx = t as unknown as TDb;
    if (checked) {
      await lockStudy(tx, studyUid);
      if (await findStudyElsewhere(tx, { studyUid, userId, teamId })) return 'elsewhere' as const;
    }
    const [row] = await tx
      .insert(dicomInstances)
      .values(values)
      .onConflictDoNothing()
      .returning({ id: dicomInstances.id });
    return row;
  });
  if (inserted === 'elsewhere') {
    log.warn({ source, teamId, outcome: 'refused' }, 'dicom instance refused: its study belongs to another space');
    return { outcome: 'failed', instanceId: null, reason: STUDY_ELSEWHERE, failure: 'elsewhere' };
  }
  let instanceId = inserted?.id;
  if (!instanceId) {
    const [prior] = await db
      .select({ id: dicomInstances.id, status: dicomInstances.status, analysisId: dicomInstances.analysisId })
      .from(dicomInstances)
      .where(
        and(
          teamId
            ? eq(dicomInstances.teamId, teamId)
            : and(eq(dicomInstances.userId, userId), isNull(dicomInstances.teamId)),
          eq(dicomInstances.sopInstanceUid, tags.SOPInstanceUID),
        ),
      )
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
    const profileId = await matchPatientProfile({ db, meta, userId, teamId, tags });
    const created = await createAnalysis({
      ...opts,
      teamId,
      routedTeam: true,
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
