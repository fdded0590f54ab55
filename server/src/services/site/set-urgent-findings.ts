import type { AppDeps, RequestMeta } from '../../deps.js';
import { siteSettings } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import {
  SITE_MESSAGES,
  ZUrgentFindingsInput,
  type TUrgentFindings,
  type TUrgentFindingsInput,
} from '@contracts/schemas/site.js';
import { recordAudit } from '../audit/record-audit.js';
import { getUrgentFindings, URGENT_ALSO_POSSIBLE_KEY, URGENT_FINDINGS_KEY } from './get-urgent-findings.js';

/**
 * Stores which findings make a worklist study Urgent, and whether a "Possible" flag of one counts
 * too (issue 48; absent: the stored choice stays), in one transaction with its audit entry. Only
 * findings the shipped model reports can be chosen; an empty list makes nothing Urgent.
 */
export async function setUrgentFindings(
  opts: Pick<AppDeps, 'db' | 'config'> & { meta: RequestMeta | null; userId: string; input: TUrgentFindingsInput },
): Promise<TUrgentFindings> {
  const { meta, userId } = opts;
  const { labels, alsoPossible: asked } = ZUrgentFindingsInput.parse(opts.input);
  const current = await getUrgentFindings(opts);
  const known = new Set(current.findings.map((f) => f.label));
  const alsoPossible = asked ?? current.alsoPossible;
  if (labels.some((l) => !known.has(l))) throw new AppError('BAD_REQUEST', SITE_MESSAGES.unknownFinding);
  const value = [...new Set(labels)].sort();
  await opts.db.transaction(async (tx) => {
    const now = new Date();
    await tx
      .insert(siteSettings)
      .values({ key: URGENT_FINDINGS_KEY, value, updatedBy: userId, updatedAt: now })
      .onConflictDoUpdate({ target: siteSettings.key, set: { value, updatedBy: userId, updatedAt: now } });
    await tx
      .insert(siteSettings)
      .values({ key: URGENT_ALSO_POSSIBLE_KEY, value: alsoPossible, updatedBy: userId, updatedAt: now })
      .onConflictDoUpdate({
        target: siteSettings.key,
        set: { value: alsoPossible, updatedBy: userId, updatedAt: now },
      });
    await recordAudit({
      db: tx as unknown as typeof opts.db,
      meta,
      entry: {
        actorUserId: userId,
        action: 'site.urgent_findings.set',
        objectType: 'site_setting',
        objectId: null,
        outcome: 'success',
        details: { labels: value.join(','), alsoPossible },
      },
    });
  });
  return getUrgentFindings(opts);
}
