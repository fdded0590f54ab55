import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { parseModelFacts } from '../../client/src/features/docs/parse-model-facts.js';
import { MODEL_DIR, modelInstalled } from '../analysis/support/fixtures.js';

/** The /docs figures come from the model card's measured results, never typed by hand. */
describe('docs model figures (from metrics.json)', () => {
  test('a model-1 card: one accuracy and a macro AUC, no per-finding figures', () => {
    const f = parseModelFacts({
      modelName: 'm1',
      modelVersion: '1.0.0',
      accuracy: 0.964,
      macroAuc: 0.995,
      testImages: 1792,
      numberOfFindings: 5,
      classes: ['normal'],
    });
    assert.equal(f?.accuracy, 0.964);
    assert.equal(f?.macroAuc, 0.995);
    assert.deepEqual(f?.figures, []);
  });

  test('a model-2 card: a figure per shipped finding, in the card order, none for the not-assessed ones', () => {
    const f = parseModelFacts({
      schemaVersion: 2,
      modelName: 'm2',
      modelVersion: '2.0.0',
      testImages: 2213,
      numberOfFindings: 2,
      findingLabels: ['pneumonia', 'covid19'],
      findings: {
        covid19: {
          display: 'COVID-19 pattern',
          auc: 0.896,
          aucCi95: [0.839, 0.946],
          population: 'QU-Ex',
          figureFrom: 'test split',
          shipped: true,
        },
        pneumonia: {
          display: 'Pneumonia',
          auc: 0.94,
          aucCi95: [0.912, 0.963],
          population: 'adults',
          figureFrom: 'test split',
          shipped: true,
        },
        edema: {
          display: 'Edema',
          auc: 0.781,
          aucCi95: [0.673, 0.892],
          population: 'NIH',
          figureFrom: 'cv',
          shipped: false,
        },
      },
    });
    assert.equal(f?.accuracy, null);
    assert.deepEqual(
      f?.figures.map((x) => [x.label, x.auc, x.ci95[0]]),
      [
        ['pneumonia', 0.94, 0.912],
        ['covid19', 0.896, 0.839],
      ],
    );
  });

  test('a card with neither headline figures nor usable finding figures gives no facts', () => {
    assert.equal(
      parseModelFacts({
        numberOfFindings: 1,
        findingLabels: ['x'],
        findings: { x: { auc: null, aucCi95: [null, null] } },
      }),
      null,
    );
    assert.equal(parseModelFacts(null), null);
  });

  test.skipIf(!modelInstalled() && 'no model installed')(
    'the shipped card has a figure for every shipped finding',
    () => {
      const raw = JSON.parse(readFileSync(join(MODEL_DIR, 'metrics.json'), 'utf8')) as {
        numberOfFindings: number;
        accuracy?: number;
      };
      const f = parseModelFacts(raw);
      assert.ok(f, 'metrics.json parses');
      if (raw.accuracy === undefined) assert.equal(f.figures.length, raw.numberOfFindings);
    },
  );
});
