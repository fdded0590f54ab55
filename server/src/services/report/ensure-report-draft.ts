import type { AppDeps } from '../../deps.js';
import { reports } from '../../db/schema.js';
import { draftSections } from './draft-sections.js';
import { loadReportFacts } from './load-report-facts.js';

/** Who drafted the report: the device, by model and version (the signer is a person). */
export const draftedByOf = (result: { modelName: string; modelVersion: string }): string =>
  `Chest Doctor AI (${result.modelName} ${result.modelVersion})`;

/**
 * Writes the drafted report of a completed analysis once: the finalizer calls it when the
 * analysis finishes, and reading a report of an analysis finished before reports existed drafts
 * it then. A second call (a re-run job, two readers at once) changes nothing. Returns false when
 * there is nothing to report on (not completed, refused).
 */
export async function ensureReportDraft(
  opts: Pick<AppDeps, 'db' | 'config'> & { analysisId: string },
): Promise<boolean> {
  const facts = await loadReportFacts(opts);
  if (!facts) return false;
  const sections = draftSections(facts);
  await opts.db
    .insert(reports)
    .values({
      analysisId: opts.analysisId,
      ...sections,
      draftImpression: sections.impression,
      draftedBy: draftedByOf(facts.result),
    })
    .onConflictDoNothing();
  return true;
}
