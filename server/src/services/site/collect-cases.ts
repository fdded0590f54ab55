import { eq } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import type { TDb } from '../../db/client.js';
import { findingFeedback } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { SITE_MESSAGES } from '@contracts/schemas/site.js';
import type { TCase } from './calibration-math.js';

export type TCasesByFinding = Map<string, TCase[]>;

/**
 * Every clinician reading given on results of this model version, across the site's accounts:
 * the model's probability then, and whether the clinician reads the finding as present. Only
 * scores and readings leave this function (no chat, patient or note).
 */
export async function feedbackCases(opts: { db: TDb; modelVersion: string }): Promise<TCasesByFinding> {
  const { db, modelVersion } = opts;

  const rows = await db
    .select({
      finding: findingFeedback.finding,
      score: findingFeedback.modelProbability,
      reading: findingFeedback.reading,
    })
    .from(findingFeedback)
    .where(eq(findingFeedback.modelVersion, modelVersion));
  const out: TCasesByFinding = new Map();
  for (const r of rows) {
    const list = out.get(r.finding) ?? [];
    list.push({ score: r.score, present: r.reading === 'present' });
    out.set(r.finding, list);
  }
  return out;
}

/**
 * Cases from a labelled results CSV as `npm run batch` writes it: `label` names the true
 * findings (';'-separated, anything else means none), `p_<finding>` the model's probability.
 * Only films the gate accepted and that this model version read are used.
 */
export function csvCases(text: string, modelVersion: string): TCasesByFinding {
  let rows: Record<string, string>[];
  try {
    rows = parse(text, {
      bom: true,
      columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
      skip_empty_lines: true,
      relax_column_count: false,
    });
  } catch {
    throw new AppError('BAD_REQUEST', SITE_MESSAGES.csvInvalid);
  }
  const header = rows[0] ? Object.keys(rows[0]) : [];
  const findings = header.filter((h) => h.startsWith('p_')).map((h) => h.slice(2));
  if (!header.includes('label') || !header.includes('status') || findings.length === 0)
    throw new AppError('BAD_REQUEST', SITE_MESSAGES.csvInvalid);
  const out: TCasesByFinding = new Map(findings.map((f) => [f, []]));
  for (const row of rows) {
    if (row.status !== 'completed' || row.accepted === 'false') continue;
    if (row.model_version && row.model_version !== modelVersion) continue;
    const truth = new Set(
      (row.label ?? '')
        .split(';')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    );
    for (const f of findings) {
      const score = Number(row[`p_${f}`]);
      if (row[`p_${f}`] === '' || !Number.isFinite(score)) continue;
      out.get(f)!.push({ score, present: truth.has(f) });
    }
  }
  return out;
}
