import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ZBatchSummary, type TBatchSummary } from '@contracts/schemas/batch-summary.js';
import { formatCsv, parseCsvRecords } from '../../scripts/batch/csv.js';
import { MODEL_DIR, modelInstalled } from '../analysis/support/fixtures.js';
import { startE2eApp, type E2eApp } from '../helpers/e2e-app.js';
import { uniqueSuffix } from '../helpers/test-config.js';

/**
 * A research run end to end: the real `npm run batch` (a child process) against the real server
 * and worker, over the committed labelled cohort (tests/fixtures/batch-cohort-labels.csv: nine
 * films, multi-label findings, patients, groups, a typo). It reads the JSON, the Markdown and
 * both PNGs, then compares the run with a second "model" (the same results with pneumonia's
 * probabilities turned upside down) through --compare.
 */
const COHORT = 'tests/fixtures/batch-cohort-labels.csv';

function runCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/batch/batch.ts', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

const readSummary = async (out: string): Promise<TBatchSummary> =>
  ZBatchSummary.parse(JSON.parse(await readFile(`${out}.summary.json`, 'utf8')));

describe('a labelled cohort through npm run batch and the running app', () => {
  let app: E2eApp;
  let key: string;
  const dir = mkdtempSync(join(tmpdir(), 'cxr-cohort-'));
  const out = join(dir, 'results.csv');
  const realModel = modelInstalled();

  beforeAll(async () => {
    app = await startE2eApp({ MODEL_DIR: realModel ? MODEL_DIR : 'tests/fixtures/tiny-model' });
    const signup = await fetch(`${app.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Cohort Researcher',
        email: `cohort-${uniqueSuffix()}@example.test`,
        password: 'correct horse battery',
      }),
    });
    const { token } = (await signup.json()) as { token: string };
    const created = await fetch(`${app.url}/api/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'cohort test' }),
    });
    key = ((await created.json()) as { data: { key: string } }).data.key;
  });
  afterAll(async () => {
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const args = (extra: string[] = []) => [
    COHORT,
    '--api',
    app.url,
    '--key',
    key,
    '--out',
    out,
    '--seed',
    '3',
    '--bootstrap',
    '500',
    '--model-dir',
    realModel ? MODEL_DIR : 'tests/fixtures/tiny-model',
    ...extra,
  ];

  test('writes the summary JSON (schema-valid), the Markdown and both plots', { timeout: 300_000 }, async () => {
    const run = await runCli(args());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /CSV line 9: finding name "Cardiomegally" is not known; did you mean cardiomegaly\?/);
    const s = await readSummary(out);
    assert.equal(s.images, 9);
    assert.equal(s.analysed, 9, 'the image check accepts every fixture radiograph');
    assert.equal(s.clusters, 8, 'patient k3 has two films');
    assert.equal(s.groupedByPatient, true);
    assert.equal(s.reproducibility.seed, 3);
    assert.equal(s.reproducibility.bootstrapResamples, 500);
    assert.match(s.reproducibility.csvSha256 ?? '', /^[0-9a-f]{64}$/);
    assert.match(s.reproducibility.modelSha256 ?? '', /^[0-9a-f]{64}$/, s.reproducibility.modelSha256Note ?? '');
    assert.doesNotMatch(s.reproducibility.command, /cxr_/, 'the API key is not recorded');

    const pneumonia = s.findings.find((f) => f.finding === 'pneumonia');
    // Rows 7-9 (bacterial and viral pneumonia imply pneumonia) are positives. Model 4 shows pneumonia
    // for children only, so the adults' films carry no pneumonia probability: 2 pediatric negatives.
    assert.deepEqual([pneumonia?.positives, pneumonia?.negatives], [3, 2]);
    assert.ok(pneumonia?.auroc !== null && pneumonia?.aurocCi, 'an AUROC with an interval');
    assert.ok(pneumonia.aurocCi[0] <= pneumonia.auroc! && pneumonia.auroc! <= pneumonia.aurocCi[1]);
    assert.deepEqual([s.triage.positives, s.triage.negatives], [5, 4]);
    assert.deepEqual(Object.keys(s.groups), ['covid-qu', 'kermany']);
    assert.equal(s.groups.kermany?.films, 5);
    assert.deepEqual(
      s.unrecognised.map((u) => [u.name, u.suggestion]),
      [['Cardiomegally', 'cardiomegaly']],
    );
    if (realModel) {
      // Model 4 has a triage output ('Abnormal (triage)'); every name it does not report says why.
      assert.equal(s.triage.source, 'abnormal-output');
      assert.ok(s.notAssessed.every((n) => n.reason.length > 0));
      // The pediatric hints are reported for the Kermany children only (age given), scored there.
      const bacterial = s.findings.find((f) => f.finding === 'pneumonia_bacterial');
      assert.equal((bacterial?.positives ?? 0) + (bacterial?.negatives ?? 0), 5);
    }
    assert.ok(s.calibration.every((c) => c.bins.length === 10 && c.brier !== null));

    const md = await readFile(`${out}.summary.md`, 'utf8');
    assert.match(md, /\| pneumonia \| 3 \| 2 \| \d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\) \|/);
    assert.match(md, /## Group: kermany \(5 films\)/);
    assert.match(md, /!\[ROC curves\]\(results\.csv\.roc\.png\)/);
    for (const png of [`${out}.roc.png`, `${out}.calibration.png`]) {
      const meta = await sharp(png).metadata();
      assert.equal(meta.format, 'png');
      assert.equal(meta.width, 640);
    }
    assert.deepEqual(s.plots, { roc: 'results.csv.roc.png', calibration: 'results.csv.calibration.png' });
  });

  test(
    '--compare: the paired AUROC difference against another run of the same films',
    { timeout: 120_000 },
    async () => {
      const first = await readSummary(out);
      // A second "model": the same results with pneumonia's probabilities upside down, so its AUROC is 1 − ours.
      const [header, ...rows] = parseCsvRecords(await readFile(out, 'utf8')).map((r) => r.fields);
      const col = header!.indexOf('p_pneumonia');
      const flipped = rows.map((r) => r.map((v, i) => (i === col && v !== '' ? (1 - Number(v)).toFixed(4) : v)));
      const other = join(dir, 'other-results.csv');
      await writeFile(other, formatCsv(header!, flipped));

      const run = await runCli(args(['--compare', other]));
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, /9 images: 0 submitted, 9 already done/);
      const s = await readSummary(out);
      assert.deepEqual(s.findings, first.findings, 'the same seed gives the same figures and intervals');
      const pn = s.compare?.findings.find((f) => f.finding === 'pneumonia');
      assert.equal(pn?.films, 5, 'the films with a pneumonia probability (children only in model 4)');
      assert.ok(pn?.auroc !== null && pn?.aurocOther !== null && pn?.difference !== null);
      assert.ok(Math.abs(pn.aurocOther! - (1 - pn.auroc!)) < 0.02, `${pn.aurocOther} vs 1 - ${pn.auroc}`);
      assert.ok(pn.differenceCi && pn.differenceCi[0] <= pn.difference! && pn.difference! <= pn.differenceCi[1]);
      // summary.md escapes markdown punctuation in names (CommonMark renders them as written): read it rendered.
      const md = (await readFile(`${out}.summary.md`, 'utf8')).replace(/\\(.)/g, '$1');
      assert.match(md, /## Compared with .*other-results\.csv/);
    },
  );

  test('a row whose file is missing stops the run before any upload, and nothing is half-written', async () => {
    const csv = join(dir, 'broken.csv');
    // The film sits beside the CSV: the command reads only inside the CSV's folder.
    await copyFile(join(process.cwd(), 'tests/fixtures/cxr/normal-covid-normal-6288.jpg'), join(dir, 'normal.jpg'));
    await writeFile(csv, `path,findings\nnormal.jpg,normal\nnot-there.jpg,Effusion\n`);
    const brokenOut = join(dir, 'broken-results.csv');
    const run = await runCli([csv, '--api', app.url, '--key', key, '--out', brokenOut]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /CSV line 3: ENOENT/);
    for (const suffix of ['', '.summary.json', '.summary.md', '.roc.png', '.calibration.png'])
      assert.equal(existsSync(`${brokenOut}${suffix}`), false, suffix);
  });
});
