import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { eq } from 'drizzle-orm';
import type { Multipart } from '@fastify/multipart';
import { createRedis } from '@common/redis.js';
import { modelRegistryDir } from '@contracts/config/base-config.js';
import { ZModelId } from '@contracts/model/registry.js';
import {
  MODEL_UPLOADS_DIR,
  QueueName,
  ZModelImportAnswer,
  ZModelImportRequest,
  type TModelImportAnswer,
  type TModelImportRequest,
} from '@contracts/queues.js';
import { MODEL_IMPORT_MESSAGES, type TRegistryModel } from '@contracts/schemas/models.js';
import { modelRegistryEvents, users } from '../../db/schema.js';
import type { AppDeps, RequestMeta } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { recordAudit } from '../audit/record-audit.js';
import { listRegistryModels } from './list-registry.js';
import { receiveModelUpload } from './receive-model-upload.js';

type TDeps = Pick<AppDeps, 'db' | 'config'>;

/** The import's outcome: the model, or the worker's refusal (409: the name is taken; 422: the file does not fit). */
export type TImportOutcome =
  | { ok: true; message: string; model: TRegistryModel }
  | { ok: false; status: 409 | 422; message: string };

/** The request written beside the upload, from the form's fields (refused before any worker is asked). */
function requestOf(
  fields: Record<string, string>,
  manifest: boolean,
  importedBy: string,
): TModelImportRequest {
  const contract = fields.contract;
  if (contract !== 'torchxrayvision' && contract !== 'manifest')
    throw new AppError('BAD_REQUEST', MODEL_IMPORT_MESSAGES.badContract);
  const name = ZModelId.safeParse(fields.name ?? '');
  if (!name.success) throw new AppError('BAD_REQUEST', `name: ${name.error.issues[0]!.message}`);
  if (contract === 'manifest' && !manifest) throw new AppError('BAD_REQUEST', MODEL_IMPORT_MESSAGES.manifestRequired);
  return ZModelImportRequest.parse({
    contract,
    name: name.data,
    version: fields.version || undefined,
    importedBy,
    manifest: contract === 'manifest',
  });
}

/**
 * Hands the staged upload to a worker on the model-import queue (ids only) and waits, at most
 * MODEL_IMPORT_WAIT_MS, for its answer. A job no worker took is withdrawn and its upload removed;
 * one a worker is still checking is left to finish (the worker removes the upload whatever happens).
 */
async function askWorker(deps: TDeps, uploadId: string, staging: string): Promise<TModelImportAnswer> {
  const { config } = deps;
  const connection = createRedis(config.REDIS_URL);
  const queue = new Queue(QueueName.ModelImport, { connection, prefix: config.QUEUE_PREFIX });
  const events = new QueueEvents(QueueName.ModelImport, { connection: createRedis(config.REDIS_URL), prefix: config.QUEUE_PREFIX });
  queue.on('error', () => undefined);
  events.on('error', () => undefined);
  const seconds = Math.round(config.MODEL_IMPORT_WAIT_MS / 1000);
  try {
    await events.waitUntilReady();
    const job = await queue.add(
      'import',
      { uploadId },
      { jobId: uploadId, attempts: 1, removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } },
    );
    try {
      return ZModelImportAnswer.parse(await job.waitUntilFinished(events, config.MODEL_IMPORT_WAIT_MS));
    } catch (err) {
      const state = await job.getState();
      if (state === 'waiting' || state === 'delayed' || state === 'prioritized') {
        await job.remove().catch(() => undefined);
        await rm(staging, { recursive: true, force: true });
        throw new AppError('UNAVAILABLE', MODEL_IMPORT_MESSAGES.noWorker(seconds));
      }
      if (state === 'active') throw new AppError('UNAVAILABLE', MODEL_IMPORT_MESSAGES.stillChecking(seconds));
      throw new AppError('INTERNAL', MODEL_IMPORT_MESSAGES.failed, { cause: err });
    }
  } finally {
    await events.close().catch(() => undefined);
    await queue.close().catch(() => undefined);
    connection.disconnect();
  }
}

/**
 * POST /api/site/models (issue 47): a site admin's model, streamed into a staging folder under the
 * registry root, checked by a worker exactly as `npm run model -- import` checks it (the server
 * never loads a model: ARCHITECTURE.md), then recorded in the registry's history and the audit
 * log with who imported it. A refusal answers the worker's words and leaves nothing behind.
 */
export async function importUploadedModel(
  opts: TDeps & { meta: RequestMeta | null; userId: string; parts: AsyncIterable<Multipart> },
): Promise<TImportOutcome> {
  const { db, config, meta, userId } = opts;
  const uploadId = randomUUID();
  const staging = path.join(modelRegistryDir(config), MODEL_UPLOADS_DIR, uploadId);
  const upload = await receiveModelUpload(opts.parts, staging, config.MODEL_IMPORT_MAX_MB * 1024 * 1024);
  const [actor] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
  const actorName = actor?.name ?? 'unknown';
  let request: TModelImportRequest;
  try {
    request = requestOf(upload.fields, upload.manifest, actorName);
    await writeFile(path.join(staging, 'request.json'), JSON.stringify(request));
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  const answer = await askWorker(opts, uploadId, staging);
  if (!answer.ok) {
    await recordAudit({
      db,
      meta,
      entry: {
        actorUserId: userId,
        action: 'site.model.import',
        objectType: 'model',
        objectId: null,
        outcome: 'failure',
        details: { model: request.name, reason: answer.kind },
      },
    });
    return { ok: false, status: answer.kind === 'conflict' ? 409 : 422, message: answer.message };
  }
  const { entry } = answer;
  await db.transaction(async (tx) => {
    await tx.insert(modelRegistryEvents).values({
      action: 'import',
      modelId: entry.id,
      fromModelId: null,
      toModelId: null,
      comparison: null,
      actorUserId: userId,
      actorName,
    });
    await recordAudit({
      db: tx as unknown as typeof db,
      meta,
      entry: {
        actorUserId: userId,
        action: 'site.model.import',
        objectType: 'model',
        objectId: null,
        outcome: 'success',
        details: { model: entry.id, sha256: entry.sha256, contract: entry.contract, bytes: entry.bytes },
      },
    });
  });
  const model = (await listRegistryModels(opts)).find((m) => m.id === entry.id);
  if (!model) throw new AppError('INTERNAL', MODEL_IMPORT_MESSAGES.failed);
  return { ok: true, message: MODEL_IMPORT_MESSAGES.imported(entry.id, entry.fixtureRuns), model };
}
