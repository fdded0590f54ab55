import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'vitest';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import { createMemoryWorker } from '../helpers/create-memory-worker.js';

// The analysis job on the model under test (MODEL_DIR, else models/cxr) with in-memory stand-ins
// for the image store, Redis and the result queue: what goes back to the server.
const MODEL_DIR = loadBaseConfig().MODEL_DIR;
const modelTwo =
  (JSON.parse(await readFile(`${MODEL_DIR}/manifest.json`, 'utf8')) as { anatomy?: unknown }).anatomy !== undefined;

const run = createMemoryWorker(MODEL_DIR);

test('the result payload carries the anatomy result and not-assessed list (model 2) and every finding heat grid', async () => {
  const { outcome, payload, stored } = await run('tests/fixtures/xray/covid-1.jpg');
  assert.equal(outcome.status, 'completed');
  const r = payload.result as Record<string, unknown> & {
    topFinding: string | null;
    heatmaps: { label: string; width: number; height: number }[];
  };
  if (modelTwo) {
    const a = r.anatomy as {
      ctr: number | null;
      ctrReference: number;
      lungBox: number[] | null;
      contours: { lung: string; heart: string };
      flags: string[];
    };
    assert.ok(a, 'anatomy in the payload');
    assert.equal(typeof a.contours.lung, 'string');
    assert.ok(Array.isArray(a.flags));
    assert.ok(Array.isArray(r.notAssessed));
    assert.ok(JSON.stringify(a).length < 100_000, 'small enough for the queue');
  } else {
    assert.ok(!('anatomy' in r) && !('notAssessed' in r), 'model 1 payloads are unchanged');
  }
  // Every finding's heat values travel as a small grid (the finalizer keeps the flagged ones), never the raw map.
  for (const h of r.heatmaps) assert.ok(!('data' in h) && 'grid' in h, 'a grid, no raw map in the payload');
  if (r.topFinding) {
    assert.ok(payload.heatmap && stored.has(payload.heatmap.storageKey));
    assert.equal(r.heatmaps[0]!.label, payload.heatmap.label, 'the overlay finding first');
  }
});

test('a refused image goes back without an anatomy result or overlay', async () => {
  const { outcome, payload } = await run('tests/fixtures/gate/ct_slice.png');
  assert.equal(outcome.status, 'refused');
  assert.equal(payload.heatmap, null);
  if (modelTwo) assert.equal(payload.result.anatomy, null);
});
