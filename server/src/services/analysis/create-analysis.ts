import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { analyses, chats, messages, patientProfiles, storedImages } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { ANALYSIS_MESSAGES, ZAnalysisPatient, type TUploadOutput } from '@contracts/schemas/analysis.js';
import { contentKey } from '@contracts/image-store.js';
import { auditOutcomeOf } from '../audit/audit-outcome.js';
import { findOwned } from '../data-access/find-owned.js';
import { resolveSpace } from '../data-access/team-role.js';
import { deleteUnreferencedImages } from '../images/delete-unreferenced-images.js';
import { withStorageKeyLock } from '../images/storage-key-lock.js';
import { prefillFromDicom } from '../dicom/prefill-patient.js';
import { PROFILE_NOT_FOUND } from '../profile/get-owned-profile.js';
import { decodeUpload } from './decode-upload.js';
import { readRegistryState } from '../models/registry-state.js';
import { enqueueAnalysis, queueReady } from './enqueue-analysis.js';
import type { TRawUpload } from './read-upload-parts.js';

export const REPORT_TITLE_SUFFIX = ' - X-Ray Analysis';
/** The user's first message; the patient details live in the chat's snapshot, not in text. */
export const UPLOAD_MESSAGE = 'Chest X-ray submitted for analysis.';

/**
 * Accepts an upload: checks it, stores the cleaned image (content-addressed), and creates the
 * chat, the user's first message and a `queued` analysis in one transaction; then enqueues the
 * job (ids, the storage key and a DICOM film's AP/PA ViewPosition only). If Redis is unavailable
 * nothing is left behind and the caller gets 503 within about a second. With `teamId` the rows
 * belong to that team (the caller must be a member, any role); a profile named must be in the
 * same space. `routedTeam`: the DICOM network filed it (the node by the called AE title, STOW-RS
 * by a team key), which decided the space; its author (the node's owner) need not be a member.
 */
export async function createAnalysis(
  opts: Pick<AppDeps, 'db' | 'redis' | 'analysisQueue' | 'images' | 'log'> & {
    meta: RequestMeta;
    userId: string;
    teamId?: string | null;
    routedTeam?: boolean;
    raw: TRawUpload;
  },
): Promise<TUploadOutput> {
  const { db, redis, analysisQueue, images, log, meta, userId, raw } = opts;
  if (!raw.image) throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.imageRequired);
  let patient = parsePatient(raw.profileJson);
  // Refuse early, before any work, when the queue cannot take the job.
  if (!queueReady({ redis })) throw new AppError('UNAVAILABLE', ANALYSIS_MESSAGES.queueDown);
  const teamId = opts.routedTeam ? (opts.teamId ?? null) : await resolveSpace({ db, userId, teamId: opts.teamId });
  const decoded = await decodeUpload(raw.image);
  patient = prefillFromDicom(patient, decoded.dicomPatient);
  const sha256 = createHash('sha256').update(decoded.data).digest('hex');
  const storageKey = contentKey(sha256);

  const created = await withStorageKeyLock({
    db,
    storageKey,
    work: async (tx) => {
      let profileId: string | null = null;
      if (raw.profileId) {
        const columns = { id: patientProfiles.id, teamId: patientProfiles.teamId };
        // A routed instance's profile was matched in its space (matchPatientProfile), whoever the author is.
        const p = opts.routedTeam
          ? (await tx.select(columns).from(patientProfiles).where(eq(patientProfiles.id, raw.profileId)).limit(1))[0]
          : await findOwned({
              db: tx,
              table: patientProfiles,
              id: raw.profileId,
              userId,
              columns,
              notFound: PROFILE_NOT_FOUND,
            });
        if (!p) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
        // A chat lives in its profile's space: a team's study is never filed under a personal profile.
        if (p.teamId !== teamId) throw new AppError('NOT_FOUND', PROFILE_NOT_FOUND);
        profileId = p.id;
      }
      // Under the key's lock: a concurrent delete of the last row naming this key cannot remove
      // the file between this check and our insert.
      if (!(await images.exists(storageKey))) await images.put(storageKey, decoded.data, decoded.mediaType);
      const [image] = await tx
        .insert(storedImages)
        .values({
          userId,
          teamId,
          kind: 'upload',
          storageKey,
          sha256,
          mediaType: decoded.mediaType,
          bytes: decoded.data.length,
          width: decoded.width,
          height: decoded.height,
        })
        .returning({ id: storedImages.id });
      const imageId = image!.id;
      const [chat] = await tx
        .insert(chats)
        .values({
          userId,
          teamId,
          profileId,
          title: `${patient.full_name}${REPORT_TITLE_SUFFIX}`,
          patient,
          imageId,
        })
        .returning({ id: chats.id });
      const chatId = chat!.id;
      await tx.insert(messages).values({ chatId, role: 'user', content: UPLOAD_MESSAGE, imageId });
      // The live model now makes this analysis, whatever is promoted before its job runs (issue 47).
      const { live: modelId } = await readRegistryState({ db: tx as unknown as typeof db });
      const [analysis] = await tx
        .insert(analyses)
        .values({ userId, teamId, chatId, imageId, status: 'queued', stage: 'queued', modelId })
        .returning({ id: analyses.id });
      return { chatId, analysisId: analysis!.id, imageId, modelId };
    },
  });

  // The upload's one audit entry, written whichever way the enqueue goes.
  const audit = auditOutcomeOf({
    db,
    meta,
    userId,
    action: 'analysis.create',
    objectType: 'analysis',
    objectId: created.analysisId,
  });
  try {
    await enqueueAnalysis({
      analysisQueue,
      redis,
      job: {
        analysisId: created.analysisId,
        storageKey,
        mediaType: decoded.mediaType,
        modelId: created.modelId,
        ...(decoded.viewPosition ? { viewPosition: decoded.viewPosition } : {}),
      },
    });
  } catch (err) {
    log.warn({ err, analysisId: created.analysisId }, 'enqueue failed; undoing the upload');
    await db.delete(chats).where(eq(chats.id, created.chatId));
    await deleteUnreferencedImages({ db, images, log, imageIds: [created.imageId] });
    await audit('failure', { code: 'UNAVAILABLE' });
    throw new AppError('UNAVAILABLE', ANALYSIS_MESSAGES.queueDown, { cause: err });
  }
  await audit('success', { chatId: created.chatId, imageId: created.imageId, bytes: decoded.data.length });
  return { chatId: created.chatId, analysisId: created.analysisId, status: 'queued' };
}

/** The `profile` JSON text; absent means an anonymous patient ('Unknown', history 'None'). */
function parsePatient(json: string | null) {
  let value: unknown = {};
  if (json && json.trim()) {
    try {
      value = JSON.parse(json);
    } catch {
      throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.invalidProfile);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new AppError('BAD_REQUEST', ANALYSIS_MESSAGES.invalidProfile);
  const parsed = ZAnalysisPatient.safeParse(value);
  if (!parsed.success)
    throw new AppError('BAD_REQUEST', parsed.error.issues[0]?.message ?? ANALYSIS_MESSAGES.invalidProfile);
  return parsed.data;
}
