import type { TDb } from '../../db/client.js';
import type { TExportFinding } from '@contracts/schemas/export.js';
import { listFeedbackRows } from './list-feedback-rows.js';

/**
 * The exported findings with the author's feedback attached to each (the chat's owner is the
 * only one who can give it), so the clinician's reading travels beside the model's call.
 */
export async function withClinicianAssessments(opts: {
  db: TDb;
  userId: string;
  analysisId: string;
  findings: TExportFinding[];
}): Promise<TExportFinding[]> {
  const { db, userId, analysisId, findings } = opts;
  if (findings.length === 0) return findings;

  const rows = await listFeedbackRows({ db, userId, analysisId });
  const by = new Map(rows.map((r) => [r.finding, r]));
  return findings.map((f) => {
    const r = by.get(f.label);
    return r
      ? {
          ...f,
          clinicianAssessment: {
            verdict: r.verdict,
            reading: r.reading,
            note: r.note,
            updatedAt: r.updatedAt.toISOString(),
          },
        }
      : f;
  });
}
