import { and, eq, notExists, sql, type SQL } from 'drizzle-orm';
import type { TDb } from '../../db/client.js';
import { analyses, dicomInstances, studyClaims } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { ownedRow, rowAccess, type TRowAccess } from './find-owned.js';
import { isUuid } from './is-uuid.js';

/**
 * A worklist study (issue 49): a network instance, or a film uploaded into a team in the browser
 * (an analysis no instance names). `studyId` is the worklist's id of it, the key of its claim.
 */
export interface TStudyRef {
  studyId: string;
  instanceId: string | null;
  analysisId: string | null;
  teamId: string | null;
}

/** An upload's analysis: one no network instance was analysed into. */
const isUpload = notExists(sql`(select 1 from ${dicomInstances} where ${dicomInstances.analysisId} = ${analyses.id})`);

/**
 * The study with this worklist id that userId may `access` (find-owned.ts's rule, on the
 * instance or the upload's analysis). A personal upload is in no worklist, so it is no study;
 * missing, malformed and inaccessible ids all throw the same NOT_FOUND (`notFound`).
 */
export async function findStudy(opts: {
  db: TDb;
  userId: string;
  id: string;
  notFound: string;
  access?: TRowAccess;
}): Promise<TStudyRef> {
  const { db, userId, id, notFound } = opts;
  const access = opts.access ?? 'read';
  const [instance] = await db
    .select({ id: dicomInstances.id, teamId: dicomInstances.teamId })
    .from(dicomInstances)
    .where(ownedRow(dicomInstances, id, userId, notFound, access))
    .limit(1);
  if (instance) return { studyId: instance.id, instanceId: instance.id, analysisId: null, teamId: instance.teamId };
  const [upload] = await db
    .select({ id: analyses.id, teamId: analyses.teamId })
    .from(analyses)
    .where(and(ownedRow(analyses, id, userId, notFound, access), isUpload))
    .limit(1);
  if (!upload?.teamId) throw new AppError('NOT_FOUND', notFound);
  return { studyId: upload.id, instanceId: null, analysisId: upload.id, teamId: upload.teamId };
}

/**
 * The team study an analysis belongs to, for a caller who may read the analysis (checked by the
 * caller): its network instance in a team, or the analysis itself when it is a team's upload.
 * Null: a personal study, nothing to claim.
 */
export async function findStudyOfAnalysis(opts: {
  db: TDb;
  userId: string;
  analysisId: string;
}): Promise<TStudyRef | null> {
  const { db, userId, analysisId } = opts;
  if (!isUuid(analysisId)) return null;
  const [instance] = await db
    .select({ id: dicomInstances.id, teamId: dicomInstances.teamId })
    .from(dicomInstances)
    .where(and(eq(dicomInstances.analysisId, analysisId), rowAccess(dicomInstances, userId, 'read')))
    .limit(1);
  if (instance)
    return instance.teamId
      ? { studyId: instance.id, instanceId: instance.id, analysisId: null, teamId: instance.teamId }
      : null;
  const [upload] = await db
    .select({ id: analyses.id, teamId: analyses.teamId })
    .from(analyses)
    .where(and(eq(analyses.id, analysisId), rowAccess(analyses, userId, 'read'), isUpload))
    .limit(1);
  return upload?.teamId ? { studyId: upload.id, instanceId: null, analysisId: upload.id, teamId: upload.teamId } : null;
}

/**
 * "userId may `access` the study this claim row belongs to", as SQL over study_claims, for a
 * claim or review write that checks the rule again in its own statement (a role removed between
 * the check and the write changes nothing).
 */
export function studyClaimAccess(userId: string, access: TRowAccess): SQL {
  return sql`(exists (select 1 from ${dicomInstances} where ${dicomInstances.id} = ${studyClaims.instanceId} and ${rowAccess(
    dicomInstances,
    userId,
    access,
  )}) or exists (select 1 from ${analyses} where ${analyses.id} = ${studyClaims.analysisId} and ${rowAccess(
    analyses,
    userId,
    access,
  )}))`;
}

/** The same rule for the row about to be inserted: the study itself, by its ref. */
export function studyRowAccess(ref: TStudyRef, userId: string, access: TRowAccess): SQL {
  return ref.instanceId
    ? sql`exists (select 1 from ${dicomInstances} where ${dicomInstances.id} = ${ref.instanceId} and ${rowAccess(dicomInstances, userId, access)})`
    : sql`exists (select 1 from ${analyses} where ${analyses.id} = ${ref.analysisId} and ${rowAccess(analyses, userId, access)})`;
}
