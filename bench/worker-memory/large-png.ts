/**
 * npm run bench:worker-memory [-- --side 7071] [-- --rgb 1]
 *
 * What one worker job costs for the cheapest image to send that is still accepted: a gray
 * gradient PNG just under the 50-megapixel cap (about 48 KB on the wire). Loads the shipped model, warms
 * up on a small film, then runs the worker's pure stages (decode → … → compose, and the overlay
 * render, as process-analysis.ts does) on the large one. Prints RSS before, peak RSS (the
 * process's maxRSS, so it includes anything freed since) and wall time. The last line is JSON.
 */
import { join } from 'node:path';
import { gradientPng } from '../../tests/helpers/write-gradient-png.js';
import { analyseFilm, loadModel, drawOverlay } from '../../worker/src/pipeline/run-pipeline.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const MB = 1024 * 1024;
const rssMb = () => Math.round(process.memoryUsage().rss / MB);
const maxRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function main(): Promise<void> {
  const side = arg('side', 7071);
  const channels = arg('rgb', 0) ? 3 : 1;
  const model = await loadModel(join(process.cwd(), 'models/cxr'));
  const warm = await analyseFilm(await gradientPng(512), model);
  if (warm.film && warm.result.heatmaps[0]) await drawOverlay(warm.film, warm.result.heatmaps[0]);
  const png = await gradientPng(side, channels);
  global.gc?.();
  const before = rssMb();
  const t0 = performance.now();
  const { result, film } = await analyseFilm(png, model);
  const heatmap = result.heatmaps[0];
  if (film && heatmap) await drawOverlay(film, heatmap);
  const ms = Math.round(performance.now() - t0);
  const out = {
    megapixels: Math.round((side * side) / 1e4) / 100,
    channels,
    pngKb: Math.round(png.length / 1024),
    gate: result.gate.code ?? (result.gate.accepted ? 'accepted' : 'refused'),
    rssBeforeMb: before,
    peakRssMb: maxRssMb(),
    rssAfterMb: rssMb(),
    wallMs: ms,
  };
  console.log(
    `${out.megapixels} MP PNG of ${out.pngKb} KB: RSS ${before} MB before, peak ${out.peakRssMb} MB, ${ms} ms (gate: ${out.gate})`,
  );
  console.log(JSON.stringify(out));
}

await main();
