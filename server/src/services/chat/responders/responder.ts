import type { TPatientSnapshot } from '../../../db/schema.js';
import type { TModelMetrics } from '../../../knowledge/model-metrics.js';
import type { TMetricsSource } from '../../models/read-model-facts.js';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import type { TComparison } from '@contracts/schemas/timeline.js';
import type { TReport } from '@contracts/schemas/report.js';
import type { TReportFacts } from '../../report/draft-sections.js';

/** What a responder may know: the stored structured result, the patient snapshot and the chat so far. */
export interface TResponderContext {
  result: TStoredResult;
  patient: TPatientSnapshot;
  /** Earlier messages of the chat, oldest first (the report included). */
  history: { role: 'user' | 'assistant' | 'system'; content: string }[];
  query: string;
  /** The model card's figures for the model that produced the result; absent or null: none are quoted. */
  metrics?: TModelMetrics | null;
  /**
   * Where `metrics` come from: the shipped model card's evaluation, or (an imported model, issue 47)
   * the operating points measured on this site's labelled cohort; absent: the model card.
   */
  metricsSource?: TMetricsSource;
  /** This analysis compared with the patient's previous one (same profile); absent or null: there is none. */
  comparison?: TComparison | null;
  /**
   * What the analysis's report is drafted from (report/load-report-facts.ts), so "draft the
   * report" gives the report panel's draft word for word; absent or null: no draft is quoted.
   */
  reportFacts?: TReportFacts | null;
  /**
   * The analysis's stored report as its reader sees it (report/find-readable-report.ts): once it
   * is signed, or its draft edited, the report answers quote it rather than the AI's draft;
   * absent or null: none is stored, or the asker may not read it.
   */
  report?: TReport | null;
  /** The compared prior study's report as its reader sees it (signed: the comparison quotes it); absent or null: none. */
  priorReport?: TReport | null;
}

/**
 * Produces a follow-up answer as a stream of text chunks. Implementations: grounded (built in,
 * no external service) and OpenAI-compatible (a hospital's own LLM server).
 */
export interface Responder {
  readonly name: 'grounded' | 'openai';
  reply(ctx: TResponderContext, signal?: AbortSignal): AsyncIterable<string>;
}
