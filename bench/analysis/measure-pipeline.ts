import { analyseFilm, loadModel, overlayCodingFor, drawOverlay } from '../../worker/src/pipeline/run-pipeline.js';
import { decodeUpload } from '../../server/src/services/analysis/decode-upload.js';
import { heatGrid } from '../../worker/src/pipeline/heat-grid.js';

/**
 * The worker's pure stages in this process (no queue, no storage) on the images as the server
 * stores them: the pipeline's own stage times, and the overlay render for the top finding (or
 * the first map) at the stored image's size, in the coding the worker picks for the stored film
 * (a JPEG over a JPEG film). One warm-up run first (model load, JIT).
 */
export async function measurePipeline(modelDir: string, images: { data: Buffer; megapixels: number }[]) {
  const model = await loadModel(modelDir);
  const stored = await Promise.all(
    images.map(async (i) => {
      const { data, mediaType } = await decodeUpload(i.data);
      return { data, mediaType, megapixels: i.megapixels };
    }),
  );
  await analyseFilm(stored[0]!.data, model);
  const stages: Record<string, number[]> = {};
  const overlay: { ms: number; megapixels: number; coding: string }[] = [];
  for (const img of stored) {
    const { result, film } = await analyseFilm(img.data, model);
    for (const [k, v] of Object.entries(result.timingsMs)) (stages[`pipeline: ${k}`] ??= []).push(v);
    // Every finding's heat grid, as the worker sends them (issue 42).
    const g0 = performance.now();
    for (const h of result.heatmaps) heatGrid(h);
    (stages['pipeline: heat grids (all findings)'] ??= []).push(performance.now() - g0);
    const heatmap = result.heatmaps.find((h) => h.label === result.topFinding) ?? result.heatmaps[0];
    if (!heatmap || !film) continue;
    // The worker's coding for this film first; then a PNG as well when that was a JPEG, for films stored as PNG.
    const worker = overlayCodingFor(img.mediaType);
    for (const coding of worker === 'image/png' ? [worker] : [worker, 'image/png' as const]) {
      const t0 = performance.now();
      await drawOverlay(film, heatmap, coding);
      overlay.push({ ms: performance.now() - t0, megapixels: img.megapixels, coding });
    }
  }
  return { stages, overlay };
}
