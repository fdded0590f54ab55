import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  FINDING_NAMES,
  labelOfModelFinding,
  labelOfName,
  suggestLabel,
} from '../../scripts/batch/cohort/finding-names.js';
import { readTruth, truthFor } from '../../scripts/batch/cohort/read-truth.js';

/** Ground truth from `label` and `findings`: the one name mapping, typos, and what a row counts for. */
describe('finding names', () => {
  test("ChestX-ray14's names, the model's own and their spellings map to one label", () => {
    assert.equal(labelOfName('Effusion'), 'pleural_effusion');
    assert.equal(labelOfName('pleural effusion'), 'pleural_effusion');
    assert.equal(labelOfName('Pleural_Thickening'), 'pleural_thickening');
    assert.equal(labelOfName('COVID-19'), 'covid19');
    assert.equal(labelOfName('No Finding'), 'normal');
    assert.equal(labelOfName('Effusoin'), null);
    // A model that calls it "effusion" is scored against the same ground truth as one that says "pleural_effusion".
    assert.equal(labelOfModelFinding('effusion'), 'pleural_effusion');
    // A model label the mapping has never heard of still matches itself.
    assert.equal(labelOfModelFinding('new_thing'), 'new_thing');
  });

  test('docs/research.md prints the mapping as the code has it', () => {
    const doc = readFileSync('docs/research.md', 'utf8');
    for (const { label, names, implies } of FINDING_NAMES) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${label}\` |`));
      assert.ok(row, `${label} has a row`);
      for (const name of [...names, ...(implies ?? [])]) assert.ok(row.includes(`\`${name}\``), `${label}: ${name}`);
    }
  });

  test('a near miss is suggested, a free text is not', () => {
    assert.equal(suggestLabel('Effusoin'), 'pleural_effusion');
    assert.equal(suggestLabel('Pnemonia'), 'pneumonia');
    assert.equal(suggestLabel('viral COVID-19'), null);
    assert.equal(suggestLabel('bacterial Klebsiella'), null);
  });
});

describe('a row’s truth', () => {
  test('ChestX-ray14 multi-label rows', () => {
    const t = readTruth('abnormal', 'Atelectasis|Effusion|Infiltration');
    assert.equal(t?.kind, 'findings');
    assert.deepEqual([...(t?.findings ?? [])].sort(), ['atelectasis', 'infiltration', 'pleural_effusion']);
    assert.equal(truthFor(t!, 'pleural_effusion'), true);
    assert.equal(truthFor(t!, 'pneumonia'), false);
  });

  test('normal rows: the label, the findings cell, and a normal film with a remark', () => {
    assert.equal(readTruth('normal', null)?.kind, 'normal');
    assert.equal(readTruth('normal', '')?.kind, 'normal');
    assert.equal(readTruth(null, 'No Finding')?.kind, 'normal');
    const remark = readTruth('normal', 'No finding (COVID-19 negative)');
    assert.equal(remark?.kind, 'normal');
    assert.deepEqual(remark?.unrecognised, ['No finding (COVID-19 negative)']);
    assert.equal(truthFor(remark!, 'covid19'), false);
  });

  test('the old single label still works, and a subtype implies its finding', () => {
    assert.deepEqual([...(readTruth('pneumonia', null)?.findings ?? [])], ['pneumonia']);
    assert.deepEqual(
      [...(readTruth('pneumonia_bacterial', null)?.findings ?? [])],
      ['pneumonia_bacterial', 'pneumonia'],
    );
    assert.equal(readTruth(null, null), null);
    assert.equal(readTruth('', ''), null);
  });

  test('"abnormal" alone counts for triage only, never as a negative for every finding', () => {
    const t = readTruth('abnormal', null)!;
    assert.equal(t.kind, 'abnormal');
    assert.equal(truthFor(t, 'pneumonia'), null);
  });

  test('a typo leaves the film out of the finding it probably meant, with a message', () => {
    const t = readTruth('abnormal', 'Effusion|Infiltraton')!;
    assert.equal(t.kind, 'findings');
    assert.equal(truthFor(t, 'pleural_effusion'), true);
    assert.equal(truthFor(t, 'infiltration'), null);
    assert.equal(truthFor(t, 'mass'), false);
    assert.match(t.notes[0] ?? '', /"Infiltraton" is not known; did you mean infiltration\?/);
    assert.equal(truthFor(readTruth(null, 'Pneumonia|Pnemonia')!, 'pneumonia'), true, 'named right as well');
    const alone = readTruth(null, 'Efusion')!;
    assert.equal(alone.kind, 'abnormal');
  });

  test('free text beside a known label: the label counts, the text is reported', () => {
    const t = readTruth('covid19', 'viral COVID-19')!;
    assert.deepEqual([...t.findings], ['covid19']);
    assert.deepEqual(t.unrecognised, ['viral COVID-19']);
    assert.match(t.notes[0] ?? '', /not known to the mapping \(counted for no finding\)/);
  });
});
