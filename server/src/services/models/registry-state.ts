import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { TDb } from '../../db/client.js';
import { siteSettings } from '../../db/schema.js';
import { SHIPPED_MODEL_ID } from '@contracts/model/registry.js';

/** The site setting that says which model is live and which run in shadow (issue 47). */
export const MODEL_REGISTRY_KEY = 'model_registry';

const ZState = z.object({
  live: z.string(),
  /** Live models before this one, latest last: what a rollback returns to. */
  previous: z.array(z.string()),
  shadows: z.array(z.string()),
  retired: z.array(z.string()),
});
export type TRegistryState = z.infer<typeof ZState>;

export const DEFAULT_STATE: TRegistryState = { live: SHIPPED_MODEL_ID, previous: [], shadows: [], retired: [] };

/** The registry's state; the shipped model live and nothing in shadow until an admin changes it. */
export async function readRegistryState(opts: { db: TDb }): Promise<TRegistryState> {
  const [row] = await opts.db
    .select({ value: siteSettings.value })
    .from(siteSettings)
    .where(eq(siteSettings.key, MODEL_REGISTRY_KEY))
    .limit(1);
  const parsed = ZState.safeParse(row?.value);
  return parsed.success ? parsed.data : DEFAULT_STATE;
}

/** Writes the state (inside the caller's transaction, beside the history row and the audit entry). */
export async function writeRegistryState(opts: { db: TDb; userId: string; state: TRegistryState }): Promise<void> {
  const now = new Date();
  const value = ZState.parse(opts.state);
  await opts.db
    .insert(siteSettings)
    .values({ key: MODEL_REGISTRY_KEY, value, updatedBy: opts.userId, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedBy: opts.userId, updatedAt: now } });
}
