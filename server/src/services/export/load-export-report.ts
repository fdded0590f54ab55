import { projectionDisagrees } from '@contracts/finding-text.js';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { analyses, messages, storedImages } from '../../db/schema.js';
import { withClinicianAssessments } from '../feedback/with-clinician-assessments.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { currentCall, isCalled } from '@contracts/finding-call.js';
import { ZAnatomy, ZNotAssessed, ZProjection, ZStoredHeatmap, ZWithdrawn } from '@contracts/schemas/analysis.js';
import {
  EXPORT_DISCLAIMER,
  EXPORT_MESSAGES,
  EXPORT_SCHEMA_ID,
  ZExportFinding,
  type TExportFinding,
  type TExportReport,
} from '@contracts/schemas/export.js';
import { ownedRow, rowAccess } from '../data-access/find-owned.js';
import { IMAGE_NOT_FOUND } from '../images/get-owned-image.js';
import { getOwnedChat } from '../history/get-owned-chat.js';
import { NO_MEDICAL_HISTORY } from '../history/format-medical-history.js';
import { findPriorAnalysis } from '../timeline/find-prior-analysis.js';
import { readReport } from '../report/read-report.js';
import { loadExportStudy, type TExportStudy } from './load-export-study.js';
import { signedExport } from './signed-export.js';

/**
 * The export plus the patient's previous analysis (same profile), which the FHIR bundle
 * references, and the study's identifiers the FHIR bundle files under. Not part of the closed
 * JSON schema: the JSON export is parsed with ZExportReport, which leaves them out; the JSON, PDF
 * and DOCX mention the prior through the report's own "Compared with the analysis of …" section.
 */
export type TLoadedExport = TExportReport & {
  prior: { analysisId: string; createdAt: string } | null;
  study: TExportStudy;
};

/** The parts of the stored analysis result an export reads (analyses.result JSONB). */
const ZResultForExport = z.object({
  modelName: z.string(),
  modelVersion: z.string(),
  gate: z.object({
    accepted: z.boolean(),
    reason: z.string().nullable().default(null),
    flags: z.array(z.string()).default([]),
  }),
  // A 'positive' below 50 % stored before 'possible' existed is exported as what it is.
  findings: z
    .array(ZExportFinding)
    .default([])
    .transform((l) => l.map((f) => ({ ...f, call: currentCall(f) }))),
  notAssessed: z.array(ZNotAssessed).default([]),
  // As in the stored result: a malformed anatomy is left out, the findings still export.
  anatomy: ZAnatomy.nullish().catch(null),
  projection: ZProjection.nullish().catch(null),
  withdrawn: z.array(ZWithdrawn).default([]).catch([]),
  topFinding: z.string().nullable().default(null),
  heatmaps: z.array(ZStoredHeatmap).default([]).catch([]),
});

/** Each flagged finding with its heat values when the analysis kept them (@6; older analyses have none). */
function withHeatmaps(result: z.output<typeof ZResultForExport>): TExportFinding[] {
  const grids = new Map(result.heatmaps.map((h) => [h.label, h.grid]));
  return result.findings.map(({ heatmap: _stored, ...f }) => {
    const grid = isCalled(f.call) ? grids.get(f.label) : undefined;
    return grid ? { ...f, heatmap: grid } : f;
  });
}

export function modelCardUrl(publicUrl: string): string {
  return new URL('/model-card', publicUrl).toString();
}

function ageOf(text: string): number | null {
  const n = Number(text.trim());
  return text.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= 150 ? n : null;
}

/** 'Allergies: penicillin; Smoker: yes' → ['Allergies: penicillin', 'Smoker: yes']; 'None' → []. */
function historyEntries(text: string): string[] {
  if (text.trim() === '' || text.trim() === NO_MEDICAL_HISTORY) return [];
  return text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Everything an export shows, read once: the chat (ownership checked: a foreign chat is "not
 * found"), its newest finished analysis, the written report and the heatmap overlay.
 */
export async function loadExportReport(
  opts: Pick<AppDeps, 'db' | 'images' | 'config' | 'log'> & { userId: string; chatId: string },
): Promise<TLoadedExport> {
  const { db, userId, chatId } = opts;
  const chat = await getOwnedChat({ db, userId, chatId });
  const [analysis] = await db
    .select()
    .from(analyses)
    .where(
      and(
        eq(analyses.chatId, chat.id),
        rowAccess(analyses, userId, 'read'),
        inArray(analyses.status, ['completed', 'refused']),
      ),
    )
    .orderBy(desc(analyses.createdAt))
    .limit(1);
  const parsed = ZResultForExport.safeParse(analysis?.result);
  if (!analysis || !parsed.success) throw new AppError('CONFLICT', EXPORT_MESSAGES.noAnalysis);
  const result = parsed.data;

  const [report] = await db
    .select({ content: messages.content })
    .from(messages)
    .where(and(eq(messages.chatId, chat.id), eq(messages.analysisId, analysis.id)))
    .limit(1);
  const top = result.findings.find((f) => f.label === result.topFinding) ?? null;
  const prior =
    chat.profileId && analysis.status === 'completed'
      ? await findPriorAnalysis({
          db,
          userId,
          profileId: chat.profileId,
          analysisId: analysis.id,
          createdAt: analysis.createdAt,
        })
      : null;
  const findings = await withClinicianAssessments({
    db,
    userId,
    analysisId: analysis.id,
    findings: withHeatmaps(result),
  });
  // The radiologist's report (issue 41): once signed, every format says what was signed (issue 49).
  const signed = signedExport(await readReport({ db, analysisId: analysis.id, canSign: false }), findings);
  return {
    schema: EXPORT_SCHEMA_ID,
    generatedAt: new Date().toISOString(),
    chat: { id: chat.id, title: chat.title, createdAt: chat.createdAt.toISOString() },
    analysis: {
      id: analysis.id,
      status: analysis.status === 'refused' ? 'refused' : 'completed',
      createdAt: analysis.createdAt.toISOString(),
      completedAt: analysis.completedAt?.toISOString() ?? null,
    },
    patient: {
      name: chat.patient.full_name,
      age: ageOf(chat.patient.age),
      medicalHistory: historyEntries(chat.patient.medical_history),
    },
    model: {
      name: result.modelName,
      version: analysis.modelVersion ?? result.modelVersion,
      cardUrl: modelCardUrl(opts.config.PUBLIC_URL),
    },
    gate: result.gate,
    findings,
    notAssessed: result.notAssessed,
    anatomy: result.anatomy ?? null,
    // Always said in an export, also for results stored before the worker wrote it (issue 42 item 7).
    projection: result.projection ? { ...result.projection, disagrees: projectionDisagrees(result.projection) } : null,
    withdrawn: result.withdrawn,
    topFinding: top ? { label: top.label, display: top.display } : null,
    report: { format: 'markdown', text: report?.content ?? '', signed },
    heatmap: await loadHeatmap({ ...opts, userId, imageId: analysis.heatmapImageId }),

    disclaimer: EXPORT_DISCLAIMER,
    prior: prior ? { analysisId: prior.analysisId, createdAt: prior.createdAt.toISOString() } : null,
    study: await loadExportStudy({
      db,
      publicUrl: opts.config.PUBLIC_URL,
      analysisId: analysis.id,
      chatId: chat.id,
      profileId: chat.profileId,
    }),
  };
}

async function loadHeatmap(
  opts: Pick<AppDeps, 'db' | 'images' | 'log'> & { userId: string; imageId: string | null },
): Promise<TExportReport['heatmap']> {
  const { db, images, log, userId, imageId } = opts;
  if (!imageId) return null;
  const [row] = await db
    .select({ storageKey: storedImages.storageKey, mediaType: storedImages.mediaType })
    .from(storedImages)
    .where(ownedRow(storedImages, imageId, userId, IMAGE_NOT_FOUND, 'read'))
    .limit(1);
  if (!row) return null;
  try {
    return { mediaType: row.mediaType, dataBase64: (await images.get(row.storageKey)).toString('base64') };
  } catch (err) {
    // A missing overlay file should not block the report; the export says there is none.
    log.warn({ err, imageId }, 'heatmap file missing for export');
    return null;
  }
}
