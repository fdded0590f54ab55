import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { UnrecoverableError, type Job } from 'bullmq';
import { modelRegistryDir } from '@contracts/config/base-config.js';
import { MODEL_UPLOADS_DIR, ZModelImportJob, ZModelImportRequest, type TModelImportAnswer } from '@contracts/queues.js';
import { importModel, ImportRefused } from '../models/import-model.js';
import type { TJobConfig } from '../worker-deps.js';

type TImportConfig = Pick<TJobConfig, 'MODEL_DIR' | 'MODEL_REGISTRY_DIR' | 'DATA_DIR'> & {
  MODEL_IMPORT_MAX_MB: number;
};

/**
 * A model uploaded through POST /api/site/models (issue 47): the server streamed it into
 * `<registry>/.uploads/<uploadId>/` and never loads it (ARCHITECTURE.md); here the worker runs
 * the same checks as `npm run model -- import` (contract, opset, shapes, the fixture films) and
 * answers with the registry entry or the refusal's words as the job's return value. The staging
 * folder is deleted whatever happens, so a refused or failed import leaves nothing behind.
 */
export function createModelImportProcessor(deps: { config: TImportConfig; fixtures?: string[] }) {
  const registryDir = modelRegistryDir(deps.config);
  return async (job: Job): Promise<TModelImportAnswer> => {
    const parsed = ZModelImportJob.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError('invalid model import job payload');
    const staging = path.join(registryDir, MODEL_UPLOADS_DIR, parsed.data.uploadId);
    try {
      const request = ZModelImportRequest.parse(JSON.parse(await readFile(path.join(staging, 'request.json'), 'utf8')));
      const entry = await importModel({
        file: path.join(staging, 'model.onnx'),
        contract: request.contract,
        name: request.name,
        version: request.version,
        manifestFile: request.manifest ? path.join(staging, 'manifest.json') : undefined,
        registryDir,
        shippedDir: deps.config.MODEL_DIR,
        maxBytes: deps.config.MODEL_IMPORT_MAX_MB * 1024 * 1024,
        importedBy: request.importedBy,
        ...(deps.fixtures ? { fixtures: deps.fixtures } : {}),
      });
      return { ok: true, entry };
    } catch (err) {
      if (err instanceof ImportRefused) return { ok: false, kind: err.kind, message: err.message };
      // Not the model's fault (a missing staging folder, a disk error): the server says the import failed.
      throw new UnrecoverableError(`the import could not run: ${(err as Error).message.split('\n')[0]}`);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  };
}
