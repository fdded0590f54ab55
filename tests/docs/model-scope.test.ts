import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import { parseModelScope } from '../../client/src/features/docs/model-scope.js';
import { MODEL_DIR, modelInstalled } from '../analysis/support/fixtures.js';

/** The /docs page's "what the model assesses" comes from the manifest, never from a list typed by hand. */
describe('docs model scope (from the manifest)', () => {
  test('a model-2 manifest: shipped findings in order, the summary marked, not-assessed listed, heart size measured', () => {
    const scope = parseModelScope({
      modelName: 'cxr-lungcrop',
      modelVersion: '2.0.0',
      findings: [
        { label: 'abnormal', display: 'Abnormal (not normal)', summary: true, source: { head: 'main' } },
        { label: 'pneumothorax', display: 'Pneumothorax', source: { head: 'main' } },
        { label: 'nodule', source: { head: 'main' } },
      ],
      notAssessed: [
        { label: 'hernia', display: 'Hernia' },
        { label: 'fibrosis', display: 'Fibrosis' },
      ],
      anatomy: { file: 'anatomy.onnx' },
    });
    assert.deepEqual(scope, {
      modelName: 'cxr-lungcrop',
      modelVersion: '2.0.0',
      assessed: [
        { label: 'abnormal', display: 'Abnormal (not normal)', summary: true },
        { label: 'pneumothorax', display: 'Pneumothorax', summary: false },
        { label: 'nodule', display: 'nodule', summary: false },
      ],
      notAssessed: [
        { label: 'hernia', display: 'Hernia' },
        { label: 'fibrosis', display: 'Fibrosis' },
      ],
      measuresHeartSize: true,
    });
  });

  test('a manifest without findings, or no manifest, gives no scope (the page then names none)', () => {
    assert.equal(parseModelScope(null), null);
    assert.equal(parseModelScope({ findings: [] }), null);
    assert.equal(parseModelScope({ findings: 'x' }), null);
  });

  test.skipIf(!modelInstalled() && 'no model installed')(
    "the installed model's manifest parses to exactly its findings and not-assessed list",
    () => {
      const manifest = JSON.parse(readFileSync(`${MODEL_DIR}/manifest.json`, 'utf8')) as {
        findings: { label: string }[];
        notAssessed?: { label: string }[];
        anatomy?: unknown;
      };
      const scope = parseModelScope(manifest);
      assert.ok(scope);
      assert.deepEqual(
        scope.assessed.map((f) => f.label),
        manifest.findings.map((f) => f.label),
      );
      assert.deepEqual(
        scope.notAssessed.map((f) => f.label),
        (manifest.notAssessed ?? []).map((f) => f.label),
      );
      assert.equal(scope.measuresHeartSize, manifest.anatomy !== undefined);
    },
  );
});
