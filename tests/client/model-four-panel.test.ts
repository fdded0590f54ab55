import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { heartStory } from '@contracts/heart-story.js';
import {
  ctrLine,
  enlargedHeartText,
  findingValueText,
  PANEL_CALL_TEXT,
  projectionText,
} from '@contracts/finding-text.js';

// The findings panel and the heart-size box (client/src/features/chat/components/findings-bars.tsx,
// heart-size.tsx) speak model 4's words through these shared functions (issue 31 items 3 and 7).
const anatomy = { ctr: 0.612, ctrReference: 0.5 };

describe('findings panel', () => {
  test('"Likely" only from 50 %; flagged below it reads "Possible — flagged for review, 11.8%"', () => {
    assert.equal(findingValueText({ probability: 0.118, call: 'possible' }), 'Possible — flagged for review, 11.8%');
    assert.equal(findingValueText({ probability: 0.81, call: 'positive' }), '81% Likely');
    assert.equal(findingValueText({ probability: 0.02, call: 'negative' }), '2% not flagged');
    assert.equal(PANEL_CALL_TEXT.uncertain, 'Uncertain');
  });
});

describe('heart size', () => {
  test('a called cardiomegaly with a measured CTR reads "Enlarged cardiac silhouette — CTR 0.61 on a PA film (reference 0.50)"', () => {
    const pa = { call: 'PA', probabilityAP: 0.12, source: 'model' } as const;
    const cm = (call: 'positive' | 'possible' | 'uncertain', probability = 0.81) => [
      { label: 'cardiomegaly', display: 'Cardiomegaly', probability, threshold: 0.3, call },
    ];
    assert.equal(heartStory(anatomy, pa, cm('positive'))?.state, 'enlarged');
    assert.equal(heartStory(anatomy, pa, cm('possible', 0.38))?.state, 'possibly_enlarged');
    assert.equal(heartStory(anatomy, pa, cm('uncertain', 0.3))?.state, 'above_reference_not_flagged');
    assert.equal(heartStory({ ...anatomy, ctr: null }, pa, cm('positive'))?.headline, null, 'never without a CTR');
    assert.equal(
      enlargedHeartText(anatomy, pa),
      'Enlarged cardiac silhouette — CTR 0.61 on a PA film (reference 0.50)',
    );
    assert.equal(
      ctrLine(anatomy, pa),
      'Cardiothoracic ratio 0.61 on a PA film (usual upper reference 0.50 on an adult PA film)',
    );
    assert.equal(projectionText(pa), 'PA (read by the model, probability of AP 12%)');
  });

  test('on an AP film the heart is said to be magnified; a DICOM tag is named as the source', () => {
    const ap = { call: 'AP', probabilityAP: null, source: 'dicom' } as const;
    assert.equal(
      enlargedHeartText(anatomy, ap),
      'Enlarged cardiac silhouette — CTR 0.61 on an AP film (reference 0.50 on PA films; the heart is magnified on AP films, so the ratio reads higher than on a PA film)',
    );
    assert.match(ctrLine(anatomy, ap)!, /on an AP film .*the heart is magnified on AP films/);
    assert.equal(projectionText(ap), "AP (from the image's DICOM ViewPosition)");
    assert.equal(
      ctrLine(anatomy, null),
      'Cardiothoracic ratio 0.61 (usual upper reference 0.50 on an adult PA film)',
      'an older result without a projection reads as before',
    );
  });
});
