import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { describe, test } from 'vitest';
import { isCalled } from '@contracts/finding-call.js';
import { loadBaseConfig } from '@contracts/config/base-config.js';
import type { Mask } from '../../worker/src/pipeline/anatomy.js';
import { lungHeatmaps } from '../../worker/src/pipeline/lung-heatmaps.js';
import {
  analyseFilm,
  loadModel,
  type LoadedModel,
  type ModelManifest,
} from '../../worker/src/pipeline/run-pipeline.js';
import { mapCorrelation } from '../../bench/heart-and-maps/map-correlation.js';

// Issue 48 item 4: a finding's map shows what is specific to it. Before, two flagged findings' maps on one
// film correlated at a median 0.96 on the external films (bench/heart-and-maps/map-distinctness-before.json):
// each was the film's "abnormal" picture. Now each shows its CAM less the mean of the shipped findings'
// (median 0.18, map-distinctness.json), a pleural finding may reach the pleura, and the measured heart shows
// its outline and CTR widths.

const MODEL_DIR = loadBaseConfig().MODEL_DIR;
const DIRS = ['tests/fixtures/cxr', 'tests/fixtures/xray'];

describe('maps that tell findings apart', () => {
  test('on the fixture films, two flagged findings maps correlate at 0.7 or less (median, and on most pairs)', async () => {
    const model = await loadModel(MODEL_DIR);
    const summary = new Set(model.findings.filter((f) => f.summary).map((f) => f.label));
    const corr: number[] = [];
    for (const dir of DIRS) {
      for (const file of (await readdir(dir)).filter((f) => f.endsWith('.jpg'))) {
        const { result } = await analyseFilm(await readFile(`${dir}/${file}`), model);
        const maps = new Map(result.heatmaps.map((h) => [h.label, h]));
        const flagged = result.findings.filter(
          (f) => isCalled(f.call) && !summary.has(f.label) && f.ageGroup !== 'pediatric' && maps.has(f.label),
        );
        for (let i = 0; i < flagged.length; i++)
          for (let j = i + 1; j < flagged.length; j++) {
            const c = mapCorrelation(maps.get(flagged[i]!.label)!, maps.get(flagged[j]!.label)!, 'grid');
            if (c !== null) corr.push(c);
          }
      }
    }
    // covid-676 alone flags five adult findings (ten pairs).
    assert.ok(corr.length >= 10, `${corr.length} pairs`);
    const sorted = [...corr].sort((a, b) => a - b);
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    assert.ok(median <= 0.7, `median correlation ${median.toFixed(3)}`);
    assert.ok(
      corr.filter((c) => c > 0.7).length <= corr.length / 4,
      `pairs above 0.7: ${corr.filter((c) => c > 0.7).length}`,
    );
  }, 120_000);

  const G = 64;
  const fill = (m: Mask, x0: number, y0: number, x1: number, y1: number): Mask => {
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) m.data[y * G + x] = 1;
    return m;
  };
  const empty = (): Mask => ({ width: G, height: G, data: new Uint8Array(G * G) });
  /** Three channels: an opacity, an effusion and the classifier's own cardiomegaly; the last finding is measured. */
  function model(): LoadedModel {
    const manifest = {
      cams: { output: 'cams', channels: ['opacity', 'effusion', 'cardio'] },
    } as unknown as ModelManifest;
    const f = (label: string, heatmap: string, extra = {}) => ({
      label,
      heatmap,
      display: label,
      threshold: 0.5,
      source: { head: 'h', label: heatmap },
      ...extra,
    });
    return {
      dir: '',
      modelPath: '',
      manifest,
      findings: [
        f('lung_opacity', 'opacity'),
        f('pleural_effusion', 'effusion'),
        f('cardiomegaly', 'cardio', { requiresCtr: true }),
      ],
      checks: {} as LoadedModel['checks'],
    };
  }
  // Opacity hot on the left of the CAM, effusion hot on the right, both hot in the middle row band.
  const cams = {
    dims: [1, 3, 7, 7],
    data: Float32Array.from({ length: 3 * 49 }, (_, k) => {
      const c = Math.floor(k / 49);
      const x = k % 7;
      return c === 0 ? 6 - x : c === 1 ? x : 0;
    }),
  };
  const lungs = fill(fill(empty(), 8, 8, 27, 55), 36, 8, 55, 55);
  const heart = fill(empty(), 24, 34, 39, 50);
  for (let k = 0; k < G * G; k++) if (heart.data[k]) lungs.data[k] = 0;
  const frame = { filmWidth: G, filmHeight: G, crop: { left: 0, top: 0, width: G, height: G } };

  test('a parenchymal map stays in the lungs, a pleural one reaches the rim around them, and each shows its own side', () => {
    const maps = new Map(lungHeatmaps(model(), cams, lungs, true, frame, heart).map((h) => [h.label, h]));
    const opacity = maps.get('lung_opacity')!;
    const effusion = maps.get('pleural_effusion')!;
    for (let k = 0; k < G * G; k++)
      if (!lungs.data[k]) assert.equal(opacity.data[k], 0, `opacity outside the lungs at ${k}`);
    // Two cells right of the right-hand lung's outer edge (x 57), mid height: the pleural rim.
    assert.ok(effusion.data[30 * G + 57]! > 0, 'the effusion map reaches past the lung edge');
    assert.equal(effusion.data[30 * G + 63], 0, 'but not to the film edge');
    assert.ok(opacity.data[30 * G + 10]! > 0.5 && opacity.data[30 * G + 50] === 0, 'opacity: left hot, right cold');
    assert.ok(effusion.data[30 * G + 50]! > 0.5 && effusion.data[30 * G + 10] === 0, 'effusion: right hot, left cold');
    assert.ok(mapCorrelation(opacity, effusion, 'grid')! < 0);
  });

  test('the measured heart shows its outline and the CTR widths, not a lung map', () => {
    const card = lungHeatmaps(model(), cams, lungs, true, frame, heart).find((h) => h.label === 'cardiomegaly')!;
    assert.ok(card);
    assert.equal(card.data[42 * G + 24], 1, 'left heart border');
    assert.equal(card.data[42 * G + 39], 1, 'right heart border');
    assert.equal(card.data[36 * G + 31], 0, 'inside the heart, away from the outline and the width line');
    assert.equal(card.data[20 * G + 15], 0, 'upper lung: no heat');
    // The thorax width runs along the lungs' widest row (every row from 8 to 55 is as wide: the first, 8).
    assert.equal(card.data[8 * G + 30], 1, 'the thorax width line crosses the midline');
  });
});
