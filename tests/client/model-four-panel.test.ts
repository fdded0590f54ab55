import assert from 'node:assert/strict';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, test } from 'vitest';
import { HeartSize } from '../../client/src/features/chat/components/heart-size.js';
import { findingValueText } from '../../client/src/features/chat/components/findings-bars.js';

// The findings panel and the heart-size box speak model 4's words (issue 31 items 3 and 7).
const anatomy = {
  ctr: 0.612,
  ctrReference: 0.5,
  lungBox: null,
  contours: { lung: '', heart: '' },
  flags: [],
};
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

describe('findings panel', () => {
  test('"Likely" only from 50 %; flagged below it reads "Possible — flagged for review, 11.8%"', () => {
    assert.equal(findingValueText({ probability: 0.118, call: 'possible' }), 'Possible — flagged for review, 11.8%');
    assert.equal(findingValueText({ probability: 0.81, call: 'positive' }), '81% Likely');
    assert.equal(findingValueText({ probability: 0.02, call: 'negative' }), '2% Unlikely');
  });
});

describe('heart size', () => {
  test('a called cardiomegaly reads "Enlarged cardiac silhouette — CTR 0.61 on a PA film (reference 0.50)"; the projection is named', () => {
    const html = renderToStaticMarkup(
      createElement(HeartSize, {
        anatomy,
        projection: { call: 'PA', probabilityAP: 0.12, source: 'model' },
        findings: [{ label: 'cardiomegaly', call: 'positive' }],
        patientAge: '61',
      }),
    );
    const t = text(html);
    assert.ok(t.includes('Enlarged cardiac silhouette — CTR 0.61 on a PA film (reference 0.50)'), t);
    assert.ok(t.includes('Cardiothoracic ratio 0.61 on a PA film'));
    assert.ok(t.includes('Projection: PA (read by the model, probability of AP 12%)'));
  });

  test('on an AP film the heart is said to be magnified; without a call there is no "enlarged" line', () => {
    const t = text(
      renderToStaticMarkup(
        createElement(HeartSize, {
          anatomy,
          projection: { call: 'AP', probabilityAP: null, source: 'dicom' },
          findings: [{ label: 'cardiomegaly', call: 'negative' }],
          patientAge: '61',
        }),
      ),
    );
    assert.ok(!t.includes('Enlarged cardiac silhouette'), t);
    assert.ok(t.includes('on an AP film'));
    assert.ok(t.includes('the heart is magnified on AP films'));
    assert.ok(t.includes("Projection: AP (from the image's DICOM ViewPosition)"));
  });
});
