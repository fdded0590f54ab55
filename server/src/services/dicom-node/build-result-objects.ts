import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { airReportContent, notAnalysedContent } from './build-air-content.js';
import { buildHeatmapSc } from './build-heatmap-sc.js';
import { buildParametricMaps } from './build-parametric-map.js';
import { buildReportSr } from './build-report-sr.js';
import { resultContext, type TDataset, type TSourceInstance } from './result-object-base.js';

export type { TSourceInstance } from './result-object-base.js';

export interface TResultObjects {
  studyUid: string;
  /** The secondary capture; null for a film that was not analysed. */
  secondaryCapture: TDataset | null;
  report: TDataset;
  /** One Parametric Map per flagged finding with kept heat values (issue 42); none for older results. */
  parametricMaps: TDataset[];
  /** In the order they are sent: the secondary capture (when there is one), the SR, the parametric maps. */
  datasets: TDataset[];
}

/**
 * The objects sent back to the PACS for one analysed film, in its study, each in a new series:
 * the secondary capture (the heatmap overlay, or the film when nothing was called, with its
 * legend), the IHE AIR SR (TID 1500) with one measurement group per shipped finding, and a
 * Parametric Map of each flagged finding's heat values.
 */
export async function buildResultObjects(opts: {
  source: TSourceInstance;
  image: Buffer;
  result: TStoredResult;
  /** The finding whose heatmap `image` shows; null or absent when `image` is the film itself. */
  heatmapLabel?: string | null;
  now?: Date;
}): Promise<TResultObjects> {
  const { result } = opts;
  const ctx = resultContext(opts.source, opts.now ?? new Date());
  const sc = await buildHeatmapSc({ ctx, result, image: opts.image, heatmapLabel: opts.heatmapLabel ?? null });
  const sr = buildReportSr({
    ctx,
    model: result,
    content: airReportContent(result, ctx.film),
    seriesDescription: 'AI findings (assistive)',
  });
  const maps = buildParametricMaps(ctx, result);
  return {
    studyUid: ctx.studyUid,
    secondaryCapture: sc,
    report: sr,
    parametricMaps: maps,
    datasets: [sc, sr, ...maps],
  };
}

/**
 * The one object sent for a film the image check refused: an SR in the film's study saying it was
 * not analysed and why, so the reader does not wait for results that will never come.
 */
export function buildNotAnalysedObjects(opts: {
  source: TSourceInstance;
  result: TStoredResult;
  reason: string;
  now?: Date;
}): TResultObjects {
  const ctx = resultContext(opts.source, opts.now ?? new Date());
  const sr = buildReportSr({
    ctx,
    model: opts.result,
    content: notAnalysedContent(opts.result, ctx.film, opts.reason),
    seriesDescription: 'AI: not analysed',
  });
  return { studyUid: ctx.studyUid, secondaryCapture: null, report: sr, parametricMaps: [], datasets: [sr] };
}
