import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { test } from 'vitest';
import { isCalled } from '@contracts/finding-call.js';
import { heatGridBytes } from '@contracts/heat-grid.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import { loadModel } from '../../worker/src/pipeline/run-pipeline.js';
import { keepFlaggedHeatmaps } from '../../server/src/services/analysis/keep-flagged-heatmaps.js';
import { createMemoryWorker } from '../helpers/create-memory-worker.js';

// Issue 42: a heatmap for every flagged finding. The analysis job on the shipped model (MODEL_DIR,
// else models/cxr) and the committed fixture films, with in-memory stand-ins for storage and queues.
const MODEL_DIR = loadBaseConfig().MODEL_DIR;
const FILMS = 'tests/fixtures/cxr';

test('every flagged finding of every fixture film has a heatmap grid inside the lungs, and the overlay is drawn', async () => {
  const model = await loadModel(MODEL_DIR);
  const summary = new Set(model.findings.filter((f) => f.summary).map((f) => f.label));
  const run = createMemoryWorker(MODEL_DIR);
  const files = (await readdir(FILMS)).filter((f) => f.endsWith('.jpg'));
  let flaggedSeen = 0;
  let filmsWithSeveral = 0;
  for (const file of files) {
    const { payload } = await run(`${FILMS}/${file}`);
    if (!payload.result.gate.accepted) continue;
    // The finalizer's view of it: the stored result keeps the flagged findings' heatmaps.
    const parsed = ZStoredResult.parse({ ...payload.result, gate: { ...payload.result.gate, reason: null } });
    const { result } = keepFlaggedHeatmaps(parsed, payload.heatmap?.label ?? null);
    const flagged = result.findings.filter((f) => isCalled(f.call));
    flaggedSeen += flagged.length;
    if (flagged.filter((f) => !summary.has(f.label)).length > 1) filmsWithSeveral++;
    assert.deepEqual(
      result.heatmaps.map((h) => h.label).sort(),
      flagged.map((f) => f.label).sort(),
      `${file}: one heatmap per flagged finding`,
    );
    for (const h of result.heatmaps) {
      assert.ok(h.grid, `${file}: ${h.label} keeps its heat values`);
      const bytes = heatGridBytes(h.grid);
      assert.ok(bytes, `${file}: ${h.label} grid fills ${h.grid.width} x ${h.grid.height}`);
      assert.ok(
        bytes.some((v) => v > 128),
        `${file}: ${h.label} has heat`,
      );
      // Confined to the lungs: the grid's corners lie outside every lung field.
      const { width: w, height: ht } = h.grid;
      for (const k of [0, w - 1, (ht - 1) * w, ht * w - 1])
        assert.equal(bytes[k], 0, `${file}: corner outside the lungs`);
    }
    if (flagged.some((f) => !summary.has(f.label))) {
      assert.ok(payload.heatmap, `${file}: a flagged finding, so an overlay is drawn`);
      assert.equal(result.heatmaps[0]!.label, payload.heatmap.label, `${file}: the overlay's finding comes first`);
    }
  }
  assert.ok(flaggedSeen > 0 && filmsWithSeveral > 0, 'the fixtures flag findings, some films several');
}, 120_000);

test('the stored result drops heatmaps of findings no longer flagged and the overlay with them', () => {
  const base = ZStoredResult.parse({
    modelVersion: 'x',
    modelName: 'x',
    gate: { accepted: true, reason: null, flags: [] },
    findings: [
      { label: 'a', display: 'A', probability: 0.3, threshold: 0.2, call: 'possible' },
      { label: 'b', display: 'B', probability: 0.6, threshold: 0.2, call: 'positive' },
      { label: 'c', display: 'C', probability: 0.1, threshold: 0.2, call: 'negative' },
    ],
    topFinding: 'b',
    heatmaps: ['c', 'a', 'b'].map((label) => ({ label, width: 128, height: 128 })),
    image: { width: 10, height: 10 },
  });
  const kept = keepFlaggedHeatmaps(base, 'a');
  assert.deepEqual(
    kept.result.heatmaps.map((h) => h.label),
    ['a', 'b'],
  );
  assert.equal(kept.overlayLabel, 'a');
  assert.equal(keepFlaggedHeatmaps(base, 'c').overlayLabel, null);
  assert.deepEqual(
    keepFlaggedHeatmaps(base, 'c').result.heatmaps.map((h) => h.label),
    ['b', 'a'],
  );
});
