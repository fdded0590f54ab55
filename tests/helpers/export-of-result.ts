import { EXPORT_DISCLAIMER, EXPORT_SCHEMA_ID, ZExportReport, type TExportReport } from '@contracts/schemas/export.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';

/**
 * The JSON export of a stored result for Test Patient (61), as the export service would build it,
 * without a database: for the tests that render the same facts as FHIR, PDF and DOCX.
 */
export function exportOfResult(
  result: TStoredResult,
  o: { reportText: string; topFinding: TExportReport['topFinding'] },
): TExportReport {
  const now = new Date().toISOString();
  return ZExportReport.parse({
    schema: EXPORT_SCHEMA_ID,
    generatedAt: now,
    chat: { id: crypto.randomUUID(), title: 'X-Ray Analysis', createdAt: now },
    analysis: { id: crypto.randomUUID(), status: 'completed', createdAt: now, completedAt: now },
    patient: { name: 'Test Patient', age: 61, medicalHistory: [] },
    model: { name: result.modelName, version: result.modelVersion, cardUrl: 'http://localhost:3000/model-card' },
    gate: { accepted: true, reason: null, flags: [] },
    findings: result.findings,
    notAssessed: result.notAssessed,
    anatomy: result.anatomy,
    projection: result.projection ?? null,
    withdrawn: result.withdrawn ?? [],
    topFinding: o.topFinding,
    report: { format: 'markdown', text: o.reportText },
    heatmap: null,
    disclaimer: EXPORT_DISCLAIMER,
  });
}
