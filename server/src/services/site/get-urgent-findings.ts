import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDeps } from '../../deps.js';
import { siteSettings } from '../../db/schema.js';
import type { TUrgentFindings } from '@contracts/schemas/site.js';
import { readLiveModel } from '../models/read-model-facts.js';
import { migrateUrgentLabels, offeredUrgentFindings } from './urgent-labels.js';

/** The site_settings key of the findings that make a worklist study Urgent. */
export const URGENT_FINDINGS_KEY = 'urgent_findings';
/** Issue 48: the site_settings key of "also Possible" (true: a Possible flag of an urgent finding makes a study Urgent too). */
export const URGENT_ALSO_POSSIBLE_KEY = 'urgent_also_possible';

const ZStored = z.array(z.string());

/**
 * The labels a site administrator made urgent, read against the findings the live model offers
 * now (issue 47: the shipped one or the imported model promoted) (urgent-labels.ts: a label the model no longer offers is migrated or dropped); empty when
 * none was chosen (or the row is unreadable).
 */
export async function readUrgentLabels(
  opts: Pick<AppDeps, 'db' | 'config'>,
): Promise<{ labels: Set<string>; alsoPossible: boolean; updatedAt: Date | null }> {
  const rows = await opts.db
    .select({ key: siteSettings.key, value: siteSettings.value, updatedAt: siteSettings.updatedAt })
    .from(siteSettings)
    .where(inArray(siteSettings.key, [URGENT_FINDINGS_KEY, URGENT_ALSO_POSSIBLE_KEY]));
  const row = rows.find((r) => r.key === URGENT_FINDINGS_KEY);
  const parsed = ZStored.safeParse(row?.value);
  const offered = offeredUrgentFindings((await readLiveModel(opts)).identity).map((f) => f.label);
  return {
    labels: new Set(migrateUrgentLabels(parsed.success ? parsed.data : [], offered)),
    // Anything but a stored true (no row, an unreadable one) is the default: Likely flags only.
    alsoPossible: rows.find((r) => r.key === URGENT_ALSO_POSSIBLE_KEY)?.value === true,
    updatedAt: row?.updatedAt ?? null,
  };
}

/** The Site tab's view: the findings a site may make urgent (urgent-labels.ts), ticked when urgent. */
export async function getUrgentFindings(opts: Pick<AppDeps, 'db' | 'config'>): Promise<TUrgentFindings> {
  const { labels, alsoPossible, updatedAt } = await readUrgentLabels(opts);
  const findings = offeredUrgentFindings((await readLiveModel(opts)).identity).map((f) => ({
    label: f.label,
    display: f.display,
    urgent: labels.has(f.label),
  }));
  return { findings, alsoPossible, updatedAt: updatedAt?.toISOString() ?? null };
}
