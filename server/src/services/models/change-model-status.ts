import { eq } from 'drizzle-orm';
import { modelRegistryEvents, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { MODEL_MESSAGES, type TComparison } from '@contracts/schemas/models.js';
import { recordAudit } from '../audit/record-audit.js';
import { compareModels } from './compare-models.js';
import { memoryMbOf, readRegistryFolders, type TRegistryFolder } from './read-registry-models.js';
import { readRegistryState, writeRegistryState, type TRegistryState } from './registry-state.js';

type TOpts = Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; modelId: string };
type TAction = 'shadow' | 'unshadow' | 'promote' | 'rollback';

function folderOf(opts: Pick<AppDeps, 'config'>, id: string): TRegistryFolder {
  const m = readRegistryFolders(opts.config).find((f) => f.id === id);
  if (!m) throw new AppError('NOT_FOUND', MODEL_MESSAGES.notFound);
  return m;
}

const without = (xs: string[], id: string) => xs.filter((x) => x !== id);

/**
 * One change of the registry, in one transaction: the new state, its history row (who, when,
 * from which live model to which, the comparison at that moment) and the audit entry.
 */
async function commit(
  opts: TOpts,
  change: { action: TAction; state: TRegistryState; from: string | null; to: string | null; confirmed?: boolean },
  comparison: TComparison | null,
): Promise<void> {
  const { db, meta, userId, modelId } = opts;
  const [actor] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
  await db.transaction(async (tx) => {
    const txDb = tx as unknown as typeof db;
    await writeRegistryState({ db: txDb, userId, state: change.state });
    await tx.insert(modelRegistryEvents).values({
      action: change.action,
      modelId,
      fromModelId: change.from,
      toModelId: change.to,
      comparison: comparison as unknown as Record<string, unknown> | null,
      confirmed: change.confirmed ?? false,
      actorUserId: userId,
      actorName: actor?.name ?? 'unknown',
    });
    await recordAudit({
      db: txDb,
      meta,
      entry: {
        actorUserId: userId,
        action: `site.model.${change.action}`,
        objectType: 'model',
        objectId: null,
        outcome: 'success',
        details: { model: modelId, from: change.from, to: change.to, confirmed: change.confirmed ?? false },
      },
    });
  });
}

/** Puts a candidate or retired model in shadow, within MODEL_MAX_SHADOWS and MODEL_MEMORY_LIMIT_MB. */
export async function shadowModel(opts: TOpts): Promise<string> {
  const { config, modelId } = opts;
  const model = folderOf(opts, modelId);
  const state = await readRegistryState(opts);
  if (state.live === modelId) throw new AppError('CONFLICT', MODEL_MESSAGES.alreadyLive);
  if (state.shadows.includes(modelId)) return MODEL_MESSAGES.shadowOn(modelId);
  if (state.shadows.length >= config.MODEL_MAX_SHADOWS)
    throw new AppError('CONFLICT', MODEL_MESSAGES.tooManyShadows(config.MODEL_MAX_SHADOWS));
  const folders = readRegistryFolders(config);
  const usedMb = [state.live, ...state.shadows]
    .map((id) => folders.find((f) => f.id === id))
    .reduce((sum, f) => sum + (f ? memoryMbOf(f.bytes) : 0), 0);
  const needMb = memoryMbOf(model.bytes);
  if (usedMb + needMb > config.MODEL_MEMORY_LIMIT_MB)
    throw new AppError('CONFLICT', MODEL_MESSAGES.tooLarge(modelId, needMb, usedMb, config.MODEL_MEMORY_LIMIT_MB));
  const next = { ...state, shadows: [...state.shadows, modelId], retired: without(state.retired, modelId) };
  await commit(opts, { action: 'shadow', state: next, from: null, to: null }, null);
  return MODEL_MESSAGES.shadowOn(modelId);
}

/** Takes a model out of shadow (a candidate again); its stored shadow outputs stay for the record. */
export async function unshadowModel(opts: TOpts): Promise<string> {
  folderOf(opts, opts.modelId);
  const state = await readRegistryState(opts);
  if (!state.shadows.includes(opts.modelId)) throw new AppError('CONFLICT', MODEL_MESSAGES.notShadow);
  const next = { ...state, shadows: without(state.shadows, opts.modelId) };
  await commit(opts, { action: 'unshadow', state: next, from: null, to: null }, await compareModels(opts));
  return MODEL_MESSAGES.shadowOff(opts.modelId);
}

/**
 * Makes a model live for new analyses (analyses already made keep theirs). Refused while it has
 * no operating points from a site cohort, or has been compared on fewer than
 * MODEL_PROMOTE_MIN_STUDIES signed studies unless the admin confirms. The live model before it
 * is retired and remembered for a rollback.
 */
export async function promoteModel(opts: TOpts & { confirm: boolean }): Promise<string> {
  const { config, modelId } = opts;
  const model = folderOf(opts, modelId);
  const state = await readRegistryState(opts);
  if (state.live === modelId) throw new AppError('CONFLICT', MODEL_MESSAGES.alreadyLive);
  if (!model.hasOperatingPoints) throw new AppError('CONFLICT', MODEL_MESSAGES.noOperatingPoints(modelId));
  const comparison = await compareModels(opts);
  const min = config.MODEL_PROMOTE_MIN_STUDIES;
  if (comparison.studies < min && !opts.confirm)
    throw new AppError('CONFLICT', MODEL_MESSAGES.fewStudies(modelId, comparison.studies, min));
  const next: TRegistryState = {
    live: modelId,
    // A stack: each rollback undoes one promotion (the last 20 are kept).
    previous: [...state.previous, state.live].slice(-20),
    shadows: without(state.shadows, modelId),
    retired: [...without(state.retired, modelId), state.live],
  };
  await commit(
    opts,
    { action: 'promote', state: next, from: state.live, to: modelId, confirmed: comparison.studies < min },
    comparison,
  );
  return MODEL_MESSAGES.promoted(modelId);
}

/** Makes the previous live model live again; the one rolled back from is retired. */
export async function rollbackModel(opts: Omit<TOpts, 'modelId'>): Promise<string> {
  const state = await readRegistryState(opts);
  const to = state.previous[state.previous.length - 1];
  if (!to) throw new AppError('CONFLICT', MODEL_MESSAGES.noPrevious);
  folderOf(opts, to);
  const next: TRegistryState = {
    live: to,
    previous: state.previous.slice(0, -1),
    shadows: without(state.shadows, to),
    retired: [...without(without(state.retired, to), state.live), state.live],
  };
  const comparison = await compareModels({ ...opts, modelId: state.live }).catch(() => null);
  await commit({ ...opts, modelId: to }, { action: 'rollback', state: next, from: state.live, to }, comparison);
  return MODEL_MESSAGES.rolledBack(to);
}
