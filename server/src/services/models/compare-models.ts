import { and, eq, isNotNull } from 'drizzle-orm';
import { analyses, chats, reports, shadowOutputs } from '../../db/schema.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { MODEL_MESSAGES, type TComparison } from '@contracts/schemas/models.js';
import { flagRateAndPpv, pairedAurocs, type TPairedCase } from './comparison-math.js';
import { impressionLabels } from './impression-labels.js';
import { readRegistryState } from './registry-state.js';
import { readRegistryFolders } from './read-registry-models.js';

/** Patient-bootstrap resamples and seed of every comparison: the same data gives the same intervals. */
export const COMPARISON_RESAMPLES = 1000;
export const COMPARISON_SEED = 1;

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/**
 * Compares a shadow model with the live results on the department's signed studies (issue 47):
 * every completed analysis with a signed report and this model's shadow output. Per finding both
 * models have: the studies, AUROC against the signed impression's findings (impression-labels.ts)
 * with patient-bootstrap intervals, each model's flag rate and PPV at its own operating point,
 * and the paired AUROC difference; plus time per study and the worker's memory. "Live" is the
 * result each study was reported with. Site admins only (the route's level); no patient data
 * leaves, only counts and figures.
 */
export async function compareModels(opts: Pick<AppDeps, 'db' | 'config'> & { modelId: string }): Promise<TComparison> {
  const { db, config, modelId } = opts;
  if (!readRegistryFolders(config).some((m) => m.id === modelId)) throw new AppError('NOT_FOUND', MODEL_MESSAGES.notFound);
  const state = await readRegistryState({ db });
  const rows = await db
    .select({
      result: analyses.result,
      timings: analyses.timings,
      patient: chats.profileId,
      chatId: chats.id,
      impression: reports.impression,
      probabilities: shadowOutputs.probabilities,
      thresholds: shadowOutputs.thresholds,
      inferenceMs: shadowOutputs.inferenceMs,
      rssMb: shadowOutputs.rssMb,
    })
    .from(shadowOutputs)
    .innerJoin(analyses, eq(analyses.id, shadowOutputs.analysisId))
    .innerJoin(chats, eq(chats.id, analyses.chatId))
    .innerJoin(reports, eq(reports.analysisId, analyses.id))
    .where(
      and(
        eq(shadowOutputs.modelId, modelId),
        isNotNull(reports.signedAt),
        isNotNull(shadowOutputs.probabilities),
        eq(analyses.status, 'completed'),
      ),
    );

  type TFindingCases = { display: string; liveThreshold: number; shadowThreshold: number; cases: TPairedCase[] };
  const perFinding = new Map<string, TFindingCases>();
  const patients = new Set<string>();
  const liveMs: number[] = [];
  const shadowMs: number[] = [];
  let rss: number | null = null;
  let studies = 0;
  for (const r of rows) {
    const parsed = ZStoredResult.safeParse(r.result);
    if (!parsed.success || !r.probabilities) continue;
    const result = parsed.data;
    const patient = r.patient ?? r.chatId;
    const present = impressionLabels(r.impression, result.findings);
    studies++;
    patients.add(patient);
    const total = r.timings?.pipelineMs;
    if (typeof total === 'number') liveMs.push(total);
    shadowMs.push(r.inferenceMs);
    rss = Math.max(rss ?? 0, r.rssMb);
    for (const f of result.findings) {
      const shadow = r.probabilities[f.label];
      const shadowThreshold = r.thresholds[f.label];
      if (shadow === undefined || shadowThreshold === undefined) continue;
      const entry = perFinding.get(f.label) ?? {
        display: f.display,
        liveThreshold: f.threshold,
        shadowThreshold,
        cases: [],
      };
      entry.cases.push({ patient, present: present.has(f.label), live: f.probability, shadow });
      perFinding.set(f.label, entry);
    }
  }

  const findings = [...perFinding.entries()].map(([label, e]) => {
    const present = e.cases.map((c) => c.present);
    const a = pairedAurocs(e.cases, COMPARISON_RESAMPLES, COMPARISON_SEED);
    const side = (scores: number[], threshold: number, au: typeof a.live) => ({
      threshold,
      auroc: au,
      ...flagRateAndPpv(scores, present, threshold),
    });
    return {
      label,
      display: e.display,
      studies: e.cases.length,
      present: present.filter(Boolean).length,
      live: side(
        e.cases.map((c) => c.live),
        e.liveThreshold,
        a.live,
      ),
      shadow: side(
        e.cases.map((c) => c.shadow),
        e.shadowThreshold,
        a.shadow,
      ),
      difference: a.difference,
    };
  });
  return {
    modelId,
    liveModelId: state.live,
    studies,
    patients: patients.size,
    resamples: COMPARISON_RESAMPLES,
    findings,
    timing: { liveMsPerStudy: mean(liveMs), shadowMsPerStudy: mean(shadowMs) },
    memory: { shadowRssMb: rss },
    note: MODEL_MESSAGES.readsNotReference,
  };
}
