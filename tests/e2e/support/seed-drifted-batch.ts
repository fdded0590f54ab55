import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TDb } from '../../../server/src/db/client.js';
import { analyses, chats, findingFeedback } from '../../../server/src/db/schema.js';
import { lastMondays } from '../../../server/src/services/site/get-monitoring.js';
import { testPatientName } from '../../helpers/test-patients.js';

/**
 * Stored results for the drift monitor (issue 17), written straight into the app's database: a
 * few weeks whose scores follow the shipped model's validation distribution, then a batch whose
 * scores are shifted, as after a scanner change or a re-trained model. Deterministic, so the
 * documentation screenshot looks the same on every run.
 */
interface TReference {
  modelVersion: string;
  binEdges: number[];
  findings: Record<string, { counts: number[] }>;
}
interface TManifestFinding {
  label: string;
  display: string;
  threshold: number;
}

export interface TSeedWeek {
  /** 0 is this week, 1 the week before, ... */
  weeksAgo: number;
  analyses: number;
  refused: number;
  /** Per finding label: log-odds added to its scores (0: the validation distribution). */
  shift: Record<string, number>;
  /** Per finding label: the share of the week's feedback on it that agrees with the model. */
  agreement: Record<string, number>;
}

/** mulberry32: a tiny seeded PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n scores spread over the reference's bins in its proportions (largest remainders), uniform within a bin. */
export function referenceScores(
  edges: readonly number[],
  counts: readonly number[],
  n: number,
  rand: () => number,
): number[] {
  const total = counts.reduce((a, b) => a + b, 0);
  const exact = counts.map((c) => (n * c) / total);
  const take = exact.map(Math.floor);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; take.reduce((a, b) => a + b, 0) < n; k++) take[order[k]![1]]! += 1;
  return take.flatMap((m, i) => Array.from({ length: m }, () => edges[i]! + (edges[i + 1]! - edges[i]!) * rand()));
}

const shifted = (p: number, shift: number) => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return 1 / (1 + Math.exp(-(Math.log(q / (1 - q)) + shift)));
};

/**
 * A moment inside that week: Wednesday noon, or for the current week a minute or so ago but never
 * before its Monday 00:00 UTC (a run just after midnight on a Monday put part of "this week" into
 * the last one, and the test saw too few films this week for a PSI).
 */
function whenIn(weeksAgo: number, i: number, now: Date): Date {
  const monday = Date.parse(`${lastMondays(weeksAgo + 1, now)[0]!}T00:00:00Z`);
  if (weeksAgo === 0) return new Date(Math.max(monday + i, now.getTime() - 60_000 - i * 1000));
  return new Date(monday + 2 * 86_400_000 + 12 * 3_600_000 + i * 1000);
}

/** Writes the weeks' analyses (and a clinician's feedback on some of them) for `userId`. */
export async function seedDriftedBatch(
  db: TDb,
  userId: string,
  modelDir: string,
  weeks: readonly TSeedWeek[],
  now = new Date(),
): Promise<void> {
  const ref = JSON.parse(readFileSync(join(modelDir, 'drift-reference.json'), 'utf8')) as TReference;
  const manifest = JSON.parse(readFileSync(join(modelDir, 'manifest.json'), 'utf8')) as {
    findings: TManifestFinding[];
  };
  const rand = prng(17);
  for (const w of weeks) {
    // Only findings the reference has bins for (a finding new in this model version has none yet).
    const byFinding = manifest.findings
      .filter((f) => (ref.findings[f.label]?.counts ?? []).length > 0)
      .map((f) => {
        const counts = ref.findings[f.label]?.counts ?? [];
        const scores = referenceScores(ref.binEdges, counts, w.analyses, rand).map((p) =>
          shifted(p, w.shift[f.label] ?? 0),
        );
        // Shuffled so that one film's findings are not all from the same end of their ranges.
        return {
          f,
          scores: scores
            .map((s) => [rand(), s] as const)
            .sort((a, b) => a[0] - b[0])
            .map(([, s]) => s),
        };
      });
    const total = w.analyses + w.refused;
    const chatRows = await db
      .insert(chats)
      .values(
        Array.from({ length: total }, (_, i) => ({
          userId,
          title: 'Batch film',
          patient: { full_name: testPatientName('Batch'), age: '60', medical_history: 'None' },
          createdAt: whenIn(w.weeksAgo, i, now),
        })),
      )
      .returning({ id: chats.id, createdAt: chats.createdAt });
    const analysisRows = await db
      .insert(analyses)
      .values(
        chatRows.map((c, i) => {
          const refused = i >= w.analyses;
          const findings = refused
            ? []
            : byFinding.map(({ f, scores }) => {
                const probability = scores[i]!;
                return {
                  label: f.label,
                  display: f.display,
                  probability,
                  threshold: f.threshold,
                  call: probability >= f.threshold ? 'positive' : 'negative',
                };
              });
          return {
            userId,
            chatId: c.id,
            status: refused ? ('refused' as const) : ('completed' as const),
            stage: refused ? 'refused' : 'done',
            modelVersion: ref.modelVersion,
            result: { modelVersion: ref.modelVersion, gate: { accepted: !refused }, findings },
            createdAt: c.createdAt,
            completedAt: c.createdAt,
          };
        }),
      )
      .returning({ id: analyses.id, chatId: analyses.chatId, createdAt: analyses.createdAt, result: analyses.result });
    // A clinician reviews every other film, each finding; the first `agreement` share of them agrees.
    const reviewed = analysisRows
      .filter((a) => a.result?.gate && (a.result.gate as { accepted: boolean }).accepted)
      .filter((_, i) => i % 2 === 0);
    const rows = reviewed.flatMap((a, k) =>
      (a.result as { findings: { label: string; probability: number; call: 'positive' | 'negative' }[] }).findings.map(
        (f) => {
          const agree = k < Math.round(reviewed.length * (w.agreement[f.label] ?? 1));
          const modelReads = f.call === 'positive' ? 'present' : 'absent';
          return {
            userId,
            chatId: a.chatId,
            analysisId: a.id,
            finding: f.label,
            verdict: agree ? ('agree' as const) : ('disagree' as const),
            reading: agree === (modelReads === 'present') ? ('present' as const) : ('absent' as const),
            modelVersion: ref.modelVersion,
            modelProbability: f.probability,
            modelCall: f.call,
            createdAt: a.createdAt,
            updatedAt: a.createdAt,
          };
        },
      ),
    );
    if (rows.length > 0) await db.insert(findingFeedback).values(rows);
  }
}
