import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';

/**
 * A reader for one JSON file the shipped model carries (MODEL_DIR/<fileName>: manifest.json,
 * metrics.json, drift-reference.json). The file is re-read only when its mtime changes, so a model
 * swap needs no restart and a request never pays for the read twice. Each reader keeps its own
 * cache (two readers may parse the same file with different schemas). A missing, unreadable or
 * schema-rejected file reads as null: callers then quote nothing rather than guess.
 */
export function createModelFileReader<S extends z.ZodType>(
  fileName: string,
  schema: S,
): (modelDir: string) => z.output<S> | null {
  const cache = new Map<string, { mtimeMs: number; value: z.output<S> | null }>();
  return (modelDir) => {
    const path = join(modelDir, fileName);
    try {
      const { mtimeMs } = statSync(path);
      const hit = cache.get(path);
      if (hit && hit.mtimeMs === mtimeMs) return hit.value;
      const parsed = schema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      const value = parsed.success ? parsed.data : null;
      cache.set(path, { mtimeMs, value });
      return value;
    } catch {
      return null;
    }
  };
}
