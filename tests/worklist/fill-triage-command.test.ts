import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, test } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { analyses, dicomInstances } from '../../server/src/db/schema.js';
import { openDeps } from '../../server/src/open-deps.js';
import { triageColumns } from '../../server/src/services/dicom-node/worklist-triage.js';
import { createUser } from '../helpers/factories.js';
import { pgliteSnapshot, testConfig } from '../helpers/test-config.js';
import { finding as f, resultOf, seedStudies } from './seed-studies.js';

const run = promisify(execFile);

/**
 * `npm run db:fill-triage` (issue 40 item 7): the one-off that took the triage back-fill off the
 * worklist's read path. Run as an operator would, on the embedded database with the server stopped.
 */
describe('npm run db:fill-triage', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cxr-fill-triage-'));
  const dirs = { DATABASE_URL: '', DATA_DIR: dataDir, PGLITE_DIR: join(dataDir, 'pg') };
  const open = () => openDeps(testConfig(dirs), undefined, { pgliteSnapshot: pgliteSnapshot() });
  const command = async () =>
    (await run(process.execPath, ['--import', 'tsx', 'scripts/fill-triage.ts'], { env: { ...process.env, ...dirs } }))
      .stdout;
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test('fills the triage of results stored without it, and leaves the others alone', async () => {
    const results = [
      resultOf(f('pneumothorax', 0.81, 0.08, 'positive'), f('edema', 0.01, 0.025, 'negative')),
      resultOf(f('edema', 0.118, 0.025, 'positive')), // stored before 'possible': its lead reads possible
      { garbage: true },
    ];
    let opened = await open();
    const u = await createUser(opened.deps);
    const ids = await seedStudies(opened.deps, { userId: u.user.id }, [
      ...results.map((result, i) => ({
        status: 'analysed' as const,
        result,
        withTriage: false,
        createdAt: new Date(i),
      })),
      { status: 'analysed', result: results[0], createdAt: new Date(9) },
    ]);
    // The analyses' triage columns and last write, in the order the studies were seeded.
    const rows = async () => {
      const found = await opened.deps.db
        .select({ instanceId: dicomInstances.id, updatedAt: analyses.updatedAt, ...TRIAGE })
        .from(dicomInstances)
        .innerJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
        .where(inArray(dicomInstances.id, ids));
      return ids.map((id) => {
        const { instanceId: _, updatedAt, ...triage } = found.find((r) => r.instanceId === id)!;
        return { updatedAt, triage };
      });
    };
    const before = await rows();
    assert.deepEqual(
      before.map((r) => r.triage.triageAssessed),
      [null, null, null, true],
    );
    await opened.close();

    assert.equal(await command(), 'worklist triage filled for 3 stored results\n');
    opened = await open();
    const after = await rows();
    await opened.close();
    results.forEach((result, i) => assert.deepEqual(after[i]!.triage, triageColumns(result)));
    assert.equal(after[1]!.triage.leadCall, 'possible');
    assert.equal(after[2]!.triage.triageAssessed, false, 'an unreadable result is assessed as nothing: pending');
    assert.deepEqual(after[3], before[3], 'a row stored with its triage is not written');
  });
});

const TRIAGE = {
  triageAssessed: analyses.triageAssessed,
  calledLabels: analyses.calledLabels,
  anyPositive: analyses.anyPositive,
  anyUncertain: analyses.anyUncertain,
  leadDisplay: analyses.leadDisplay,
  leadProbability: analyses.leadProbability,
  leadCall: analyses.leadCall,
};
