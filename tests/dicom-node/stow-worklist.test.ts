import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances } from '../../server/src/db/schema.js';
import { createApiKey } from '../../server/src/services/api-key/create-api-key.js';
import { finalizeAnalysis } from '../../server/src/services/analysis/finalize-analysis.js';
import { advanceInstances } from '../../server/src/services/dicom-node/advance-instances.js';
import { STOW_KEY_REQUIRED } from '../../server/src/dicomweb/stow-routes.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { sampleResult, workerResultOf } from '../analysis/support/fixtures.js';
import { related } from '../helpers/stow-body.js';

describe('STOW-RS at /dicomweb/studies and the worklist', () => {
  let t: TestApp;
  let u: TTestUser;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    u = await createUser(t.deps);
    key = (await createApiKey({ db: t.deps.db, meta: null, userId: u.user.id, name: 'router' })).key;
  });
  afterAll(async () => {
    await t.close();
  });

  const stow = (body: ReturnType<typeof related>, auth: Record<string, string> = bearer(key)) =>
    t.app.inject({
      method: 'POST',
      url: '/dicomweb/studies',
      payload: body.payload,
      headers: { ...body.headers, ...auth },
    });

  test('other methods at /dicomweb/studies answer 405 JSON, other /dicomweb paths 404 JSON (issue 36 Info)', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/dicomweb/studies?PatientID=1', headers: bearer(key) });
      assert.equal(res.statusCode, 405, method);
      assert.equal(res.headers.allow, 'POST');
      assert.equal(res.json().code, 'METHOD_NOT_ALLOWED');
    }
    assert.equal((await t.app.inject({ method: 'HEAD', url: '/dicomweb/studies' })).statusCode, 405);
    const other = await t.app.inject({ method: 'GET', url: '/dicomweb/studies/1.2.3/series' });
    assert.equal(other.statusCode, 404);
    assert.equal(other.json().code, 'NOT_FOUND');
  });

  test('without an API key: 401, and nothing is recorded; a session token is not a key', async () => {
    const dx = await buildDxInstance();
    assert.equal((await stow(related([dx.bytes]), {})).statusCode, 401);
    const withSession = await stow(related([dx.bytes]), bearer(u.token));
    assert.equal(withSession.statusCode, 401);
    assert.equal(withSession.json().message, STOW_KEY_REQUIRED);
    assert.equal((await t.deps.db.select().from(dicomInstances)).length, 0);
  });

  test('with a key: a DX is queued, a CT skipped with its reason, an unreadable part failed (202 with both sequences)', async () => {
    const dx = await buildDxInstance({ patientId: 'STOW-1' });
    const ct = await buildDxInstance({ modality: 'CT', patientId: 'STOW-2' });
    const res = await stow(related([dx.bytes, ct.bytes, Buffer.from('not dicom at all')]));
    assert.equal(res.statusCode, 202, res.body);
    assert.match(String(res.headers['content-type']), /application\/dicom\+json/);
    const body = res.json();
    const refs = body['00081199'].Value.map((i: Record<string, { Value: string[] }>) => i['00081155']!.Value[0]);
    assert.deepEqual(refs.sort(), [dx.sopInstanceUid, ct.sopInstanceUid].sort());
    assert.equal(body['00081198'].Value.length, 1);
    const [dxRow] = await t.deps.db
      .select()
      .from(dicomInstances)
      .where(eq(dicomInstances.sopInstanceUid, dx.sopInstanceUid));
    assert.equal(dxRow?.status, 'queued');
    assert.equal(dxRow?.source, 'stow');
    assert.equal(dxRow?.userId, u.user.id);
    const [ctRow] = await t.deps.db
      .select()
      .from(dicomInstances)
      .where(eq(dicomInstances.sopInstanceUid, ct.sopInstanceUid));
    assert.equal(ctRow?.status, 'skipped');
    assert.match(ctRow?.reason ?? '', /Modality CT/);
    // The same instance again: recorded once, no second analysis.
    assert.equal((await stow(related([dx.bytes]))).statusCode, 200);
    assert.equal(
      (await t.deps.db.select().from(dicomInstances).where(eq(dicomInstances.sopInstanceUid, dx.sopInstanceUid)))
        .length,
      1,
    );
  });

  test('the worklist puts the study with a positive finding first, filters, and shows nothing to another account', async () => {
    const calm = await buildDxInstance({ patientId: 'WL-CALM', patientName: 'CALM^CASE', index: 3 });
    const sick = await buildDxInstance({ patientId: 'WL-SICK', patientName: 'SICK^CASE', index: 4 });
    assert.equal((await stow(related([calm.bytes, sick.bytes]))).statusCode, 200);
    const negative = sampleResult({
      findings: sampleResult().findings.map((f) => ({ ...f, probability: 0.01, call: 'negative' as const })),
      topFinding: null,
    });
    for (const [dx, result] of [
      [calm, negative],
      [sick, sampleResult()],
    ] as const) {
      const [row] = await t.deps.db
        .select()
        .from(dicomInstances)
        .where(eq(dicomInstances.sopInstanceUid, dx.sopInstanceUid));
      await finalizeAnalysis({
        ...t.deps,
        job: { analysisId: row!.analysisId!, result: workerResultOf(result), heatmap: null },
      });
    }
    assert.ok((await advanceInstances({ ...t.deps, sendQueue: null })) >= 2);

    const list = await sessionCaller(t.deps, u).worklist.list({});
    const names = list.items.map((i) => i.patientName);
    assert.ok(names.indexOf('CASE SICK') < names.indexOf('CASE CALM'), names.join(', '));
    // A flagged finding the site has not made urgent reads Review (issue 42); the calm film is Routine.
    assert.equal(list.items[0]?.urgency, 'review');
    assert.equal(list.items[0]?.status, 'analysed');
    assert.equal(
      list.items[0]?.lead?.display,
      'Pneumonia',
      'the most probable called finding (the summary score left out)',
    );
    assert.ok(list.items[0]?.chatId);
    const calmItem = list.items.find((i) => i.patientName === 'CASE CALM');
    assert.equal(calmItem?.urgency, 'routine');
    assert.equal(list.items.at(-1)?.urgency, 'none', 'skipped studies last');

    const skippedOnly = await sessionCaller(t.deps, u).worklist.list({ statuses: ['skipped'] });
    assert.ok(skippedOnly.items.length >= 1 && skippedOnly.items.every((i) => i.status === 'skipped'));
    const reviewOnly = await sessionCaller(t.deps, u).worklist.list({ urgencies: ['review'] });
    assert.deepEqual(
      reviewOnly.items.map((i) => i.patientName),
      ['CASE SICK'],
    );

    const other = await createUser(t.deps);
    assert.deepEqual((await sessionCaller(t.deps, other).worklist.list({})).items, []);
  });
});
