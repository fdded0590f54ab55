import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { loadModel, runPipeline } from '../../worker/src/pipeline/run-pipeline.js';

// Written by models/train/make_fixtures.py: the Python reference pipeline (PIL decode, numpy
// preprocessing, PyTorch forward pass) on the images under tests/fixtures/.
interface Case {
  file: string;
  accepted: boolean;
  reason: string | null;
  flags: string[];
  probabilities: Record<string, number>;
}
const fixtures = JSON.parse(await readFile('models/cxr/parity-fixtures.json', 'utf8')) as { modelSha256: string; tolerance: number; cases: Case[] };
const model = await loadModel('models/cxr');

test('fixtures were made with the shipped model', () => {
  assert.equal(fixtures.modelSha256, model.manifest.sha256);
  assert.ok(fixtures.cases.length >= 10);
});

for (const c of fixtures.cases) {
  test(`TypeScript matches Python on ${c.file}`, async () => {
    const r = await runPipeline(await readFile(c.file), model);
    assert.equal(r.gate.accepted, c.accepted, 'gate decision');
    assert.equal(r.gate.code ?? null, c.reason, 'refusal reason');
    assert.deepEqual([...r.gate.flags].sort(), [...c.flags].sort(), 'flags');
    const ts = Object.fromEntries(r.findings.map((f) => [f.label, f.probability]));
    assert.deepEqual(Object.keys(ts).sort(), Object.keys(c.probabilities).sort());
    for (const [label, p] of Object.entries(c.probabilities)) {
      const d = Math.abs(ts[label]! - p);
      assert.ok(d <= fixtures.tolerance, `${label}: TypeScript ${ts[label]} vs Python ${p} (|diff| ${d.toExponential(2)})`);
    }
  });
}
