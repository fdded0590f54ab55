import { and, eq, gte, sql, type SQLWrapper } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
import { analyses, findingFeedback } from '../../db/schema.js';
import type { TMonitoring, TMonitoringWeek } from '@contracts/schemas/site.js';
import { histogram, psi, PSI_ALERT, PSI_MIN_SCORES } from './psi.js';
import { readDriftReference } from './read-drift-reference.js';
import { isShipped, readLiveModel } from '../models/read-model-facts.js';

const week = (col: SQLWrapper) => sql<string>`to_char(date_trunc('week', ${col} at time zone 'UTC'), 'YYYY-MM-DD')`;

/** The Mondays (UTC) of the last `n` weeks, oldest first, this week included. */
export function lastMondays(n: number, now = new Date()): string[] {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return Array.from({ length: n }, (_, i) =>
    new Date(d.getTime() - (n - 1 - i) * 7 * 86_400_000).toISOString().slice(0, 10),
  );
}

/**
 * Weekly aggregates for the Site tab: analyses and gate refusals, each shipped finding's score
 * distribution against the validation reference as a PSI (only results of the reference's
 * model version count, and only in weeks with at least PSI_MIN_SCORES of them), and the
 * clinicians' agreement rate. Counts only: nothing about a patient, a chat or an account leaves
 * this function.
 */
export async function getMonitoring(
  opts: Pick<AppDeps, 'db' | 'config'> & { weeks: number; now?: Date },
): Promise<TMonitoring> {
  const { weeks, now = new Date() } = opts;
  const deps = opts;
  const mondays = lastMondays(weeks, now);
  const since = new Date(`${mondays[0]}T00:00:00Z`);
  // The live model's (issue 47): an imported model's folder holds no drift reference.
  const live = await readLiveModel(deps);
  const model = live.identity;
  const shipped = readDriftReference(live.dir) ?? readDriftReference(deps.config.MODEL_DIR);
  // A reference is the validation distribution of one model's weights: never applied to another.
  const ref = shipped && model && shipped.modelSha256 === model.sha256 ? shipped : null;
  const staleReference =
    shipped && !ref
      ? {
          modelVersion: shipped.modelVersion,
          message:
            `The drift reference was made for model ${shipped.modelVersion}, not applied to model ${model?.modelVersion ?? 'unknown'}` +
            `${isShipped(live.id) ? '' : ` (the live model is ${live.id}, imported by this site, which has no drift reference)`}: ` +
            'no drift figure is shown until a reference for the running model ships.',
        }
      : null;
  const findings = (model?.findings ?? []).map((f) => ({ label: f.label, display: f.display }));
  const bins = ref ? ref.binEdges.length - 1 : 0;

  const rows = await deps.db
    .select({
      week: week(analyses.createdAt),
      status: analyses.status,
      modelVersion: analyses.modelVersion,
      findings: sql<unknown>`${analyses.result}->'findings'`,
    })
    .from(analyses)
    .where(gte(analyses.createdAt, since));
  const fb = await deps.db
    .select({
      week: week(findingFeedback.updatedAt),
      finding: findingFeedback.finding,
      agree: sql<number>`count(*) filter (where ${findingFeedback.verdict} = 'agree')::int`,
      n: sql<number>`count(*)::int`,
    })
    .from(findingFeedback)
    .where(
      and(
        gte(findingFeedback.updatedAt, since),
        model ? eq(findingFeedback.modelVersion, model.modelVersion) : sql`true`,
      ),
    )
    .groupBy(sql`1`, findingFeedback.finding);

  const out: TMonitoringWeek[] = mondays.map((w) => {
    const inWeek = rows.filter((r) => r.week === w);
    const scores = new Map<string, number[]>();
    for (const r of inWeek) {
      if (r.status !== 'completed' || !ref || r.modelVersion !== ref.modelVersion || !Array.isArray(r.findings))
        continue;
      for (const f of r.findings as { label?: unknown; probability?: unknown }[]) {
        if (typeof f.label === 'string' && typeof f.probability === 'number')
          scores.set(f.label, [...(scores.get(f.label) ?? []), f.probability]);
      }
    }
    const psiOf: Record<string, number | null> = {};
    const agreement: Record<string, number | null> = {};
    const feedback: Record<string, number> = {};
    for (const { label } of findings) {
      const expected = ref?.findings[label]?.counts;
      const s = scores.get(label) ?? [];
      psiOf[label] = expected && s.length >= PSI_MIN_SCORES ? psi(expected, histogram(s, bins)) : null;
      const f = fb.find((x) => x.week === w && x.finding === label);
      agreement[label] = f && f.n > 0 ? f.agree / f.n : null;
      feedback[label] = f?.n ?? 0;
    }
    return {
      week: w,
      analyses: inWeek.length,
      refused: inWeek.filter((r) => r.status === 'refused').length,
      psi: psiOf,
      agreement,
      feedback,
    };
  });

  const floor = deps.config.SITE_AGREEMENT_FLOOR;
  const alerts: string[] = [];
  for (const { label, display } of findings) {
    const high = out.filter((w) => (w.psi[label] ?? 0) > PSI_ALERT);
    if (high.length)
      alerts.push(
        `${display}: score distribution shifted from validation (PSI above ${PSI_ALERT}) in the week of ${high.map((w) => w.week).join(', ')}`,
      );
    const low = out.filter((w) => w.agreement[label] != null && w.agreement[label]! < floor);
    if (low.length)
      alerts.push(
        `${display}: clinician agreement below ${Math.round(floor * 100)} % in the week of ${low.map((w) => w.week).join(', ')}`,
      );
  }
  return {
    weeks: out,
    reference: ref
      ? {
          modelVersion: ref.modelVersion,
          films: ref.films,
          splits: ref.splits.map((s) => `${s.dataset} ${s.split} (${s.used})`).join(', '),
        }
      : null,
    staleReference,
    findings,
    psiAlert: PSI_ALERT,
    psiMinScores: PSI_MIN_SCORES,
    agreementFloor: floor,
    alerts,
  };
}
