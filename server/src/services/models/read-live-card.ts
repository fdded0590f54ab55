import { and, desc, eq, inArray } from 'drizzle-orm';
import { modelRegistryEvents } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { ZComparison, type TLiveModelCard } from '@contracts/schemas/models.js';
import { isShipped, readImportedEntry, readLiveModelId } from './read-model-facts.js';

/**
 * GET /api/model-card/live: the live model's own card (issue 47). The shipped model live: nothing
 * more than its id (the public page is its card). An imported model live: its registry.json
 * (import, fixture films, cohort operating points) and the history rows that made it live and
 * recorded its latest promotion's comparison. Every figure is read, none typed; no patient data.
 */
export async function readLiveCard(opts: Pick<AppDeps, 'db' | 'config'>): Promise<TLiveModelCard> {
  const { db, config } = opts;
  const live = await readLiveModelId({ db });
  if (isShipped(live)) return { liveModelId: live, imported: null };
  const entry = readImportedEntry(config, live);
  // A live model whose folder is gone: nothing of it can be shown, so no figure is.
  if (!entry) return { liveModelId: live, imported: null };
  const rows = await db
    .select()
    .from(modelRegistryEvents)
    .where(and(eq(modelRegistryEvents.toModelId, live), inArray(modelRegistryEvents.action, ['promote', 'rollback'])))
    .orderBy(desc(modelRegistryEvents.createdAt), desc(modelRegistryEvents.id))
    .limit(50);
  const madeLive = rows[0];
  const promotion = rows.find((r) => r.action === 'promote');
  const comparison = promotion ? ZComparison.safeParse(promotion.comparison) : null;
  return {
    liveModelId: live,
    imported: {
      id: entry.id,
      name: entry.name,
      version: entry.version,
      contract: entry.contract,
      sha256: entry.sha256,
      importedAt: entry.importedAt,
      importedBy: entry.importedBy,
      fixtureRuns: entry.fixtureRuns,
      operatingPoints: entry.operatingPoints,
      madeLive: madeLive
        ? {
            action: madeLive.action === 'rollback' ? 'rollback' : 'promote',
            from: madeLive.fromModelId,
            by: madeLive.actorName,
            at: madeLive.createdAt.toISOString(),
            confirmed: madeLive.confirmed,
          }
        : null,
      promotionComparison: comparison?.success ? comparison.data : null,
    },
  };
}
