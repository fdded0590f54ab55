import type { AppDeps, RequestMeta } from '../../deps.js';
import { isAppError } from '../../lib/app-error.js';
import { ZExportReport, type TExportFormat } from '@contracts/schemas/export.js';
import { recordAudit } from '../audit/record-audit.js';
import { buildFhirBundle } from './build-fhir.js';
import { loadExportReport } from './load-export-report.js';
import { renderDocx } from './render-docx.js';
import { renderPdf } from './render-pdf.js';

export interface TExportedFile {
  /** Ids only: a download name must not put the patient's name in a header or a file listing. */
  filename: string;
  contentType: string;
  body: Buffer;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const EXPORT_EXTENSIONS: Record<TExportFormat, string> = {
  pdf: 'pdf',
  docx: 'docx',
  json: 'json',
  fhir: 'fhir.json',
};

const CONTENT_TYPES: Record<TExportFormat, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  json: 'application/json; charset=utf-8',
  fhir: 'application/fhir+json; charset=utf-8',
};

async function render(format: TExportFormat, report: Awaited<ReturnType<typeof loadExportReport>>): Promise<Buffer> {
  switch (format) {
    case 'pdf':
      return renderPdf(report);
    case 'docx':
      return renderDocx(report);
    case 'json':
      // Parsed on the way out: a JSON export never leaves in a shape its schema does not describe.
      return Buffer.from(JSON.stringify(ZExportReport.parse(report), null, 2));
    case 'fhir':
      return Buffer.from(JSON.stringify(buildFhirBundle(report), null, 2));
  }
}

/**
 * One export of one of userId's chats, audited as 'export.<format>' with ids only. A foreign or
 * missing chat fails exactly like getOwnedChat does (NOT_FOUND) and is audited as a failure.
 */
export async function exportChat(
  opts: Pick<AppDeps, 'db' | 'images' | 'config' | 'log'> & {
    meta: RequestMeta | null;
    userId: string;
    chatId: string;
    format: TExportFormat;
  },
): Promise<TExportedFile> {
  const { db, images, config, log, meta, userId, chatId, format } = opts;
  const audit = (outcome: 'success' | 'failure', details: Record<string, string | number>) =>
    recordAudit({
      db,
      meta,
      entry: {
        actorUserId: userId,
        action: `export.${format}`,
        objectType: 'chat',
        objectId: UUID.test(chatId) ? chatId : null,
        outcome,
        details,
      },
    });
  try {
    const report = await loadExportReport({ db, images, config, log, userId, chatId });
    const body = await render(format, report);
    await audit('success', { analysisId: report.analysis.id, bytes: body.length });
    return {
      filename: `chest-xray-report-${report.chat.id.slice(0, 8)}.${EXPORT_EXTENSIONS[format]}`,
      contentType: CONTENT_TYPES[format],
      body,
    };
  } catch (err) {
    if (isAppError(err)) await audit('failure', { code: err.code });
    throw err;
  }
}
