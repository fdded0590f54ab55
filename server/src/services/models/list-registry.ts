import { desc } from 'drizzle-orm';
import { modelRegistryEvents } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { ZComparison, type TRegistry, type TRegistryModel } from '@contracts/schemas/models.js';
import type { TModelStatus } from '@contracts/model/registry.js';
import { memoryMbOf, readRegistryFolders } from './read-registry-models.js';
import { readRegistryState, type TRegistryState } from './registry-state.js';

export function statusOf(state: TRegistryState, id: string): TModelStatus {
  if (state.live === id) return 'live';
  if (state.shadows.includes(id)) return 'shadow';
  if (state.retired.includes(id)) return 'retired';
  return 'candidate';
}

/** The registry's models with their status now. */
export async function listRegistryModels(opts: Pick<AppDeps, 'db' | 'config'>): Promise<TRegistryModel[]> {
  const state = await readRegistryState(opts);
  return readRegistryFolders(opts.config).map((m) => ({
    id: m.id,
    name: m.name,
    version: m.version,
    status: statusOf(state, m.id),
    contract: m.contract,
    sha256: m.sha256,
    bytes: m.bytes,
    memoryMb: memoryMbOf(m.bytes),
    importedAt: m.importedAt,
    importedBy: m.importedBy,
    operatingPoints: m.hasOperatingPoints,
  }));
}

/** GET /api/site/models: the models and the registry's history, newest first (site admins only: the route's level). */
export async function listRegistry(opts: Pick<AppDeps, 'db' | 'config'>): Promise<TRegistry> {
  const models = await listRegistryModels(opts);
  const events = await opts.db
    .select()
    .from(modelRegistryEvents)
    .orderBy(desc(modelRegistryEvents.createdAt), desc(modelRegistryEvents.id))
    .limit(200);
  return {
    models,
    history: events.map((e) => {
      const comparison = ZComparison.safeParse(e.comparison);
      return {
        id: e.id,
        action: e.action,
        modelId: e.modelId,
        from: e.fromModelId,
        to: e.toModelId,
        by: e.actorName,
        at: e.createdAt.toISOString(),
        confirmed: e.confirmed,
        comparison: comparison.success ? comparison.data : null,
      };
    }),
    limits: {
      maxShadows: opts.config.MODEL_MAX_SHADOWS,
      memoryLimitMb: opts.config.MODEL_MEMORY_LIMIT_MB,
      promoteMinStudies: opts.config.MODEL_PROMOTE_MIN_STUDIES,
    },
  };
}
