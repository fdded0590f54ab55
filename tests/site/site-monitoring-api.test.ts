import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { analyses, findingFeedback } from '../../server/src/db/schema.js';
import { createChat, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { rest, trpc, TEST_ENV } from '../history/http.js';

/**
 * The drift monitor (issue 17) on a synthetic drifted batch: PSI against a hand-made
 * reference equals the hand-computed value, agreement below the floor raises a banner, a
 * missing reference shows no PSI at all, and only site administrators may read it.
 */
const ADMIN = `monitor-admin-${Date.now()}@example.org`;
const modelDir = mkdtempSync(join(tmpdir(), 'cxr-monitor-model-'));
const refPath = join(modelDir, 'drift-reference.json');
writeFileSync(
  join(modelDir, 'manifest.json'),
  JSON.stringify({
    modelVersion: '7.0.0-drift',
    sha256: 'c'.repeat(64),
    uncertainMargin: 0,
    findings: [
      { label: 'pneumonia', display: 'Pneumonia', threshold: 0.4 },
      { label: 'covid19', display: 'COVID-19', threshold: 0.3 },
    ],
  }),
);
function writeReference(): void {
  writeFileSync(
    refPath,
    JSON.stringify({
      modelVersion: '7.0.0-drift',
      modelSha256: 'c'.repeat(64),
      binEdges: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1],
      films: 100,
      splits: [{ dataset: 'synthetic', split: 'val', used: 100 }],
      findings: { pneumonia: { n: 100, counts: Array(10).fill(10) }, covid19: { n: 100, counts: Array(10).fill(10) } },
    }),
  );
}

describe('site monitoring API', () => {
  let t: TestApp;
  let admin: TTestUser;
  let clinician: TTestUser;

  beforeAll(async () => {
    writeReference();
    t = await createTestApp({
      env: { ...TEST_ENV, SITE_ADMIN_EMAILS: ADMIN, MODEL_DIR: modelDir, SITE_AGREEMENT_FLOOR: '0.7' },
    });
    admin = await createUser(t.deps, { email: ADMIN });
    clinician = await createUser(t.deps);
    // The drifted batch: 20 films all scoring 0.85 for pneumonia (the reference is uniform), one gate refusal.
    for (let i = 0; i < 20; i++) {
      const { chat, analysis } = await createChat(t.deps, clinician.user.id, { analysisStatus: 'completed' });
      const findings = [
        { label: 'pneumonia', display: 'Pneumonia', probability: 0.85, threshold: 0.4, call: 'positive' },
        { label: 'covid19', display: 'COVID-19', probability: (i % 10) / 10 + 0.05, threshold: 0.3, call: 'negative' },
      ];
      await t.deps.db
        .update(analyses)
        .set({ modelVersion: '7.0.0-drift', result: { modelVersion: '7.0.0-drift', findings } })
        .where(eq(analyses.id, analysis!.id));
      if (i < 4) {
        await t.deps.db.insert(findingFeedback).values({
          userId: clinician.user.id,
          chatId: chat.id,
          analysisId: analysis!.id,
          finding: 'pneumonia',
          verdict: i < 2 ? 'agree' : 'disagree',
          reading: i < 2 ? 'present' : 'absent',
          modelVersion: '7.0.0-drift',
          modelProbability: 0.85,
          modelCall: 'positive',
        });
      }
    }
    await createChat(t.deps, clinician.user.id, { analysisStatus: 'refused' });
  });
  afterAll(async () => t?.close());

  test('PSI of the drifted week equals the hand-computed value; agreement and the banners follow', async () => {
    const r = await rest(t.app, 'GET', '/api/site/monitoring?weeks=4', admin.token);
    assert.equal(r.status, 200);
    const data = (
      r.body as {
        data: {
          weeks: {
            analyses: number;
            refused: number;
            psi: Record<string, number | null>;
            agreement: Record<string, number | null>;
          }[];
          alerts: string[];
        };
      }
    ).data;
    assert.equal(data.weeks.length, 4);
    const now = data.weeks.at(-1)!;
    assert.equal(now.analyses, 21);
    assert.equal(now.refused, 1);
    // Uniform reference (0.1 per bin) against all 20 scores in bin 8 (others floored at 1e-4):
    // 9·(1e-4 − 0.1)·ln(1e-4/0.1) + (1 − 0.1)·ln(1/0.1) = 8.283089355
    assert.ok(Math.abs(now.psi.pneumonia! - 8.283089355) < 1e-6, String(now.psi.pneumonia));
    // COVID-19 scores spread two per bin, like the reference: no shift.
    assert.ok(Math.abs(now.psi.covid19!) < 1e-9);
    assert.equal(now.agreement.pneumonia, 0.5);
    assert.equal(now.agreement.covid19, null);
    assert.equal(data.weeks[0]!.psi.pneumonia, null);
    assert.equal(data.alerts.length, 2);
    assert.match(data.alerts[0]!, /Pneumonia: score distribution shifted/);
    assert.match(data.alerts[1]!, /Pneumonia: clinician agreement below 70 %/);
    // Aggregates only: no chat id, account or name in the answer.
    assert.ok(!JSON.stringify(r.body).includes(clinician.user.id));
  });

  test('no reference file: no PSI values and no invented numbers', async () => {
    rmSync(refPath);
    try {
      const r = await trpc(t.app, 'query', 'site.monitoring', admin.token, { weeks: 2 });
      const data = r.data as { reference: unknown; weeks: { psi: Record<string, number | null> }[] };
      assert.equal(data.reference, null);
      for (const w of data.weeks) assert.deepEqual(w.psi, { pneumonia: null, covid19: null });
    } finally {
      writeReference();
    }
  });

  test('a reference made for another model (a model swap): not applied, and the admin is told which model it was for', async () => {
    writeFileSync(
      refPath,
      JSON.stringify({
        ...JSON.parse(readFileSync(refPath, 'utf8')),
        modelVersion: '2.0.0',
        modelSha256: 'd'.repeat(64),
      }),
    );
    utimesSync(refPath, 1_700_000_500, 1_700_000_500);
    try {
      const r = await trpc(t.app, 'query', 'site.monitoring', admin.token, { weeks: 2 });
      const data = r.data as {
        reference: unknown;
        staleReference: { modelVersion: string; message: string } | null;
        weeks: { psi: Record<string, number | null> }[];
      };
      assert.equal(data.reference, null);
      assert.equal(data.staleReference?.modelVersion, '2.0.0');
      assert.match(data.staleReference?.message ?? '', /made for model 2\.0\.0, not applied to model 7\.0\.0-drift/);
      for (const w of data.weeks) assert.deepEqual(w.psi, { pneumonia: null, covid19: null });
    } finally {
      writeReference();
    }
  });

  test('access: clinician 403, anonymous 401', async () => {
    assert.equal((await rest(t.app, 'GET', '/api/site/monitoring', clinician.token)).status, 403);
    assert.equal((await rest(t.app, 'GET', '/api/site/monitoring', null)).status, 401);
    assert.equal((await rest(t.app, 'GET', '/api/site/monitoring?weeks=0', admin.token)).status, 400);
  });
});
