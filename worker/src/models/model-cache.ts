import { stat } from 'node:fs/promises';
import path from 'node:path';
import { modelDirOf } from '@contracts/model/registry.js';
import { releaseSession } from '../pipeline/infer.js';
import { loadModel, type LoadedModel } from '../pipeline/run-pipeline.js';

export interface ModelCache {
  /** The model with this registry id, loaded once (again only when its manifest.json changes). */
  get(id: string): Promise<LoadedModel>;
  /** Ids loaded now, least recently used first. */
  loaded(): string[];
  close(): Promise<void>;
}

/**
 * The worker's models by registry id (issue 47): the live one and the shadows, one ONNX session
 * each, loaded on first use. At most `max` are held; the least recently used one beyond that is
 * released, so a worker's memory stays bounded whatever ids its jobs name. A new manifest.json
 * (operating points measured by `npm run batch -- … --calibrate`) is picked up on the next job.
 */
export function createModelCache(dirs: { shipped: string; registry: string }, max: number): ModelCache {
  const entries = new Map<string, { stamp: string; model: Promise<LoadedModel> }>();

  const release = (id: string) => {
    const e = entries.get(id);
    entries.delete(id);
    void e?.model
      .then((m) => Promise.all([releaseSession(m.modelPath), m.anatomyPath ? releaseSession(m.anatomyPath) : null]))
      .catch(() => undefined);
  };

  return {
    async get(id) {
      const dir = modelDirOf(dirs, id);
      const stamp = `${(await stat(path.join(dir, 'manifest.json'))).mtimeMs}`;
      let e = entries.get(id);
      if (e && e.stamp !== stamp) {
        release(id);
        e = undefined;
      }
      if (!e) {
        const model = loadModel(dir).catch((err: unknown) => {
          entries.delete(id); // a failed load is tried again on the next job
          throw err;
        });
        e = { stamp, model };
      }
      // Most recently used last.
      entries.delete(id);
      entries.set(id, e);
      while (entries.size > max) release(entries.keys().next().value!);
      return e.model;
    },
    loaded: () => [...entries.keys()],
    close: async () => {
      for (const id of [...entries.keys()]) release(id);
    },
  };
}
