import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import type { Mask } from '../../worker/src/pipeline/anatomy.js';
import { basalBorderBand, heartBorderObscured } from '../../worker/src/pipeline/check-heart-border.js';
import { readProjection } from '../../worker/src/pipeline/read-projection.js';
import type { FindingResult, Heatmap } from '../../worker/src/pipeline/types.js';

// Issue 42 items 4 and 7 in the worker: a CTR whose basal heart border a flagged opacity or
// effusion hides is not measurable; a DICOM view the model contradicts with p >= 0.8 is flagged.

const W = 40;
/** Two lung fields (x 4-17 and 22-35, y 4-35) and a heart between them in the lower half (x 15-24, y 20-33). */
function masks(): { lung: Mask; heart: Mask } {
  const lung = new Uint8Array(W * W);
  const heart = new Uint8Array(W * W);
  for (let y = 4; y <= 35; y++)
    for (let x = 0; x < W; x++) {
      if ((x >= 4 && x <= 17) || (x >= 22 && x <= 35)) lung[y * W + x] = 1;
      if (y >= 20 && y <= 33 && x >= 15 && x <= 24) {
        heart[y * W + x] = 1;
        lung[y * W + x] = 0;
      }
    }
  return { lung: { width: W, height: W, data: lung }, heart: { width: W, height: W, data: heart } };
}

/** A map hot in the rectangle given, 0.05 elsewhere in the lungs. */
function map(label: string, lung: Mask, x0: number, x1: number, y0: number, y1: number): Heatmap {
  const data = new Float32Array(W * W);
  for (let y = 0; y < W; y++)
    for (let x = 0; x < W; x++)
      if (lung.data[y * W + x]) data[y * W + x] = x >= x0 && x <= x1 && y >= y0 && y <= y1 ? 1 : 0.05;
  return { label, width: W, height: W, data };
}

const effusion = (call: FindingResult['call']): FindingResult => ({
  label: 'pleural_effusion',
  display: 'Pleural effusion',
  probability: 0.6,
  threshold: 0.3,
  call,
});

describe('the heart border check', () => {
  const m = masks();

  test('the band follows the heart border in the lower half of the heart only', () => {
    const band = basalBorderBand(m.lung, m.heart);
    assert.equal(band[28 * W + 13], 1, 'right heart border, low');
    assert.equal(band[10 * W + 13], 0, 'upper zone: not the basal border');
    assert.equal(band[28 * W + 5], 0, 'lateral lung: not touching');
  });

  test('a flagged effusion hot along the basal heart border hides it; elsewhere, or not flagged, it does not', () => {
    // Hot along both sides of the basal border (the band's mean must reach BORDER_HEAT_FROM, 0.8).
    const atBorder = [map('pleural_effusion', m.lung, 4, 35, 24, 35)];
    const lateral = [map('pleural_effusion', m.lung, 4, 7, 4, 12)];
    assert.equal(heartBorderObscured(m, [effusion('positive')], atBorder), true);
    assert.equal(heartBorderObscured(m, [effusion('possible')], atBorder), true);
    assert.equal(heartBorderObscured(m, [effusion('negative')], atBorder), false, 'not flagged');
    assert.equal(heartBorderObscured(m, [effusion('positive')], lateral), false, 'away from the heart');
    const mass = { ...effusion('positive'), label: 'mass', display: 'Mass' };
    assert.equal(heartBorderObscured(m, [mass], [map('mass', m.lung, 4, 35, 24, 35)]), false, 'no silhouette sign');
  });
});

describe('projection disagreement', () => {
  const spec = { model: 'classifier' as const, output: 'projection', temperature: 1, bias: 0, threshold: 0.5 };
  const outputs = (logit: number) => ({ projection: { data: new Float32Array([logit]), dims: [1, 1] } });

  test('a DICOM PA the model reads as AP with p >= 0.8 disagrees; below 0.8, or without a tag, it does not', () => {
    assert.equal(readProjection(spec, outputs(2.3), 'PA')?.disagrees, true); // p(AP) 0.91
    assert.equal(readProjection(spec, outputs(0.85), 'PA')?.disagrees, false); // p(AP) 0.70
    assert.equal(readProjection(spec, outputs(-2.3), 'AP')?.disagrees, true); // p(PA) 0.91
    assert.equal(readProjection(spec, outputs(2.3), null)?.disagrees, false);
    assert.equal(readProjection(spec, outputs(2.3), 'PA')?.call, 'PA', 'the tag still decides the call');
  });
});
