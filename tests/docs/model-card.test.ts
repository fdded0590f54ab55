import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { parseModelCard } from '../../client/src/features/model-card/parse-model-card.js';
import { parseCardText } from '@contracts/model/card.js';
import { cardTextFromMarkdown, inlineOf } from '../../scripts/lib/card-text-from-markdown.js';

/** The /model-card page is built from the model's own files; nothing on it is typed by hand. */
const METRICS = {
  modelName: 'm2',
  modelVersion: '2.0.0',
  modelSha256: 'ab'.repeat(32),
  testImages: 100,
  shipRule: 'lower CI >= 0.7',
  findingLabels: ['covid19'],
  findings: {
    edema: {
      display: 'Edema',
      auc: 0.78,
      aucCi95: [0.67, 0.89],
      population: 'NIH',
      figureFrom: 'cv',
      n: 1486,
      positives: 107,
      shipped: false,
      threshold: null,
    },
    covid19: {
      display: 'COVID-19 pattern',
      auc: 0.896,
      aucCi95: [0.839, 0.946],
      population: 'QU-Ex',
      figureFrom: 'test split',
      n: 183,
      positives: 37,
      shipped: true,
      threshold: 0.275,
    },
  },
  targets: [{ population: 'QU-Ex', auc: 0.896, target: 0.8, met: true, from: 'test split' }, { auc: 1 }],
  groups: {
    'source=jsrt': { n: 25, labels: { nodule: { n: 16, calledAbnormal: 15, calledCovid19: 0 } }, abnormalAuc: null },
    'age_group=adult': { n: 1401, labels: {}, abnormalAuc: 0.84 },
  },
  anatomy: { lungDice: 0.958, heartDice: 'x', ctrMae: 0.011, ctrImages: 25 },
  gate: {
    rejectThreshold: 0.5,
    radiographs: { jsrt: { n: 25, netRefused: 0, deterministicRefused: 0, invertedCopies: { flaggedInverted: 1 } } },
    negatives: { noise: { n: 500, refused: 1 }, all: { n: 6500, refused: 0.999 } },
  },
};
const MANIFEST = {
  modelName: 'm2',
  modelVersion: '2.0.1',
  sha256: 'cd'.repeat(32),
  findings: [{ label: 'covid19', display: 'COVID-19 pattern', threshold: 0.275 }],
  notAssessed: [{ label: 'edema', display: 'Edema' }],
};

describe('model card page data (parse-model-card)', () => {
  test('identity comes from the manifest first, the figures from metrics.json, shipped findings first', () => {
    const c = parseModelCard({ metrics: METRICS, manifest: MANIFEST, evaluation: undefined, card: undefined });
    assert.equal(c.modelVersion, '2.0.1');
    assert.equal(c.sha256, 'cd'.repeat(32));
    assert.deepEqual(
      c.candidates.map((x) => [x.label, x.shipped, x.auc, x.ci95?.[0], x.threshold]),
      [
        ['covid19', true, 0.896, 0.839, 0.275],
        ['edema', false, 0.78, 0.67, null],
      ],
    );
    assert.deepEqual(
      c.targets.map((t) => [t.population, t.met]),
      [['QU-Ex', true]],
      'a target without a population is dropped',
    );
    assert.equal(c.anatomy.heartDice, null, 'a malformed figure is "not reported", not zero');
    assert.equal(c.anatomy.ctrMae, 0.011);
    assert.deepEqual(c.gate.allNegatives, { n: 6500, refused: 0.999 });
    assert.deepEqual(
      c.gate.negatives.map((n) => n.kind),
      ['noise'],
    );
    assert.equal(c.gate.radiographs[0]?.invertedFlagged, 1);
  });

  test('groups split into kind and name, with the per-label calls and per-output AUROC', () => {
    const c = parseModelCard({ metrics: METRICS, manifest: MANIFEST, evaluation: undefined, card: undefined });
    assert.deepEqual(
      c.groups.map((g) => [g.kind, g.name, g.n]),
      [
        ['source', 'jsrt', 25],
        ['age group', 'adult', 1401],
      ],
    );
    assert.deepEqual(c.groups[0]?.labels, [{ label: 'nodule', n: 16, called: { abnormal: 15, covid19: 0 } }]);
    assert.deepEqual(c.groups[0]?.aucs, [{ output: 'abnormal', auc: null }]);
  });

  test('evaluation.json stands in when metrics.json lacks the decisions and groups', () => {
    const evaluation = {
      evaluatedAt: '2026-01-01T00:00:00Z',
      decisions: { covid19: { auc: 0.9, aucCi95: [0.8, 0.95], population: 'QU-Ex', shipped: true } },
      byGroup: { 'source=x': { n: 3, labels: {} } },
      test: {
        'QU-Ex': {
          n: 183,
          positives: 37,
          auc: 0.9,
          aucCi95: [0.8, 0.95],
          sensitivity: 0.7,
          specificity: 0.8,
          threshold: 0.27,
          output: 'covid19',
        },
      },
    };
    const c = parseModelCard({ metrics: null, manifest: MANIFEST, evaluation, card: undefined });
    assert.equal(c.evaluatedAt, '2026-01-01T00:00:00Z');
    assert.deepEqual(
      c.candidates.map((x) => [x.label, x.display, x.shipped, x.threshold]),
      [
        ['covid19', 'COVID-19 pattern', true, 0.275],
        ['edema', 'Edema', false, null],
      ],
    );
    assert.equal(c.candidates[1]?.auc, null, 'a candidate with no figure in the files shows none');
    assert.deepEqual(
      c.groups.map((g) => g.name),
      ['x'],
    );
    assert.equal(c.populations[0]?.sensitivity, 0.7);
  });

  test('no model files at all: every field empty or null, nothing thrown', () => {
    const c = parseModelCard({ metrics: undefined, manifest: 'oops', evaluation: [1], card: 42 });
    assert.equal(c.modelVersion, null);
    assert.deepEqual(
      [c.candidates, c.targets, c.groups, c.populations, c.intendedUse, c.limitations],
      [[], [], [], [], [], []],
    );
    assert.equal(c.gate.allNegatives, null);
  });
});

describe('model card text (parse-card-text)', () => {
  const md = [
    '# Model card: m2 2.0.0',
    '',
    '_Generated by `models/train/cxr_train/evaluate/card.py`; no figure is typed by hand._',
    '',
    '**Assistive use only.** Not a medical device.',
    '',
    '## What it is',
    '',
    '- Classifier `model.onnx` and anatomy stage.',
    '- Backbone weights from [coral](https://example.org).',
    '',
    '## Shortcut checks',
    '',
    '| a | b |',
    '|---|---|',
    '',
    '**What this says about the shipped findings:** treat the figures as upper bounds.',
    '',
    '## Limits',
    '',
    '- The data: labels are noisy;',
    '  external films will score lower.',
    '- Findings not shipped are not assessed.',
  ].join('\n');

  test('intended use is the opening text without the file note; limits include bold-led conclusions', () => {
    const t = cardTextFromMarkdown(md);
    assert.deepEqual(t.intendedUse, [
      [{ text: 'Assistive use only.', strong: true }, { text: ' Not a medical device.' }],
    ]);
    assert.equal(t.howItWorks.length, 2);
    assert.deepEqual(t.howItWorks[1], [{ text: 'Backbone weights from coral.' }]);
    assert.deepEqual(
      t.limitations.map((b) => b.map((s) => s.text).join('')),
      [
        'The data: labels are noisy; external films will score lower.',
        'Findings not shipped are not assessed.',
        'What this says about the shipped findings: treat the figures as upper bounds.',
      ],
    );
  });

  test('card.json: the sections as data; a malformed file gives empty sections', () => {
    const blocks = [[{ text: 'Assistive use only.', strong: true as const }]];
    assert.deepEqual(parseCardText({ intendedUse: blocks, howItWorks: [], limitations: 'x' }), {
      intendedUse: blocks,
      howItWorks: [],
      limitations: [],
    });
    assert.deepEqual(parseCardText(null), { intendedUse: [], howItWorks: [], limitations: [] });
  });

  test('inline markdown becomes text with code and bold spans, never HTML', () => {
    assert.deepEqual(inlineOf('a `b` **c** <img src=x>'), [
      { text: 'a ' },
      { text: 'b', code: true },
      { text: ' ' },
      { text: 'c', strong: true },
      { text: ' <img src=x>' },
    ]);
  });
});

describe('the shipped model card', () => {
  const dir = process.env.MODEL_DIR ?? join('models', 'cxr');
  const has = (f: string) => existsSync(join(dir, f));
  test.skipIf(!has('metrics.json') || !has('manifest.json'))(
    'every shipped finding has its figure, and the card has intended use and limits',
    () => {
      const read = (f: string) =>
        has(f)
          ? f.endsWith('.json')
            ? JSON.parse(readFileSync(join(dir, f), 'utf8'))
            : readFileSync(join(dir, f), 'utf8')
          : undefined;
      const metrics = read('metrics.json') as { findingLabels?: string[] };
      const c = parseModelCard({
        metrics,
        manifest: read('manifest.json'),
        evaluation: read('evaluation.json'),
        card: read('card.json'),
      });
      assert.ok(c.modelVersion);
      for (const label of metrics.findingLabels ?? []) {
        const f = c.candidates.find((x) => x.label === label);
        assert.ok(f && f.shipped === true && f.auc !== null && f.ci95 !== null, `${label} has a figure`);
      }
      if (has('card.json')) {
        assert.ok(c.intendedUse.length > 0, 'intended use');
        assert.ok(c.limitations.length > 0, 'limitations');
        // Written from the markdown by the Python card writer; regenerate with
        // PYTHONPATH=models/train /usr/bin/python3 -m cxr_train.evaluate.card --only card-json
        const card = read('card.json') as { source?: string };
        if (card.source === 'MODEL_CARD.md')
          assert.deepEqual(parseCardText(card), cardTextFromMarkdown(read('MODEL_CARD.md')), 'card.json is stale');
      }
    },
  );
});
