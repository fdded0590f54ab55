import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyses, messages } from '../../server/src/db/schema.js';
import { ZStoredResult, type TStoredResult } from '@contracts/schemas/analysis.js';
import { changeOf } from '../../server/src/services/timeline/compare-results.js';
import { loadChangeRule } from '../../server/src/services/timeline/load-change-margin.js';
import { bearer, createProfile, createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testPatientName } from '../helpers/test-patients.js';
import { radiograph, uploadBody } from '../analysis/support/fixtures.js';
import { postMultipart } from '../helpers/post-multipart.js';
import {
  startAnalysisWorker,
  testModelDir,
  type TestAnalysisWorker,
} from '../analysis/support/start-analysis-worker.js';

const modelDir = testModelDir();
const pct = (p: number) => `${(p * 100).toFixed(1)}%`;

describe('patient timeline: two analyses of one profile (real pipeline)', () => {
  let t: TestApp;
  let u: TTestUser;
  let other: TTestUser;
  let w: TestAnalysisWorker | undefined;
  let profileId: string;
  const done: { chatId: string; analysisId: string; result: TStoredResult; createdAt: Date }[] = [];
  const caller = (x: TTestUser) => sessionCaller(t.deps, x);

  async function analyse(label: 'pneumonia' | 'normal', user = u, profile = profileId) {
    const body = uploadBody(
      await radiograph({ label, side: 900 }),
      { full_name: testPatientName('Timeline'), age: 61 },
      [{ name: 'profile_id', value: profile }],
    );
    return postMultipart(t.app, '/api/chat/analyzer', body, user.token);
  }

  beforeAll(async () => {
    t = await createTestApp({
      background: true,
      env: { MODEL_DIR: modelDir, ANALYSIS_WAIT_MS: '30000', ANALYSIS_TIMEOUT_MS: '30000' },
    });
    u = await createUser(t.deps);
    other = await createUser(t.deps);
    profileId = (await createProfile(t.deps, u.user.id)).id;
    w = startAnalysisWorker(t.deps);
    for (const label of ['pneumonia', 'normal'] as const) {
      const res = await analyse(label);
      assert.equal(res.statusCode, 200, res.body);
      const { chat_id: chatId, analysis_id: analysisId, status } = res.json().data;
      assert.equal(status, 'completed');
      const [row] = await t.deps.db.select().from(analyses).where(eq(analyses.id, analysisId));
      done.push({ chatId, analysisId, result: ZStoredResult.parse(row!.result), createdAt: row!.createdAt });
    }
  });
  afterAll(async () => {
    await w?.close();
    await t?.close();
  });

  test("the first report has no comparison; the second holds it with both figures, both calls and the rule's change words", async () => {
    const [first, second] = done as [(typeof done)[0], (typeof done)[0]];
    const report = async (id: string) =>
      (await t.deps.db.select().from(messages).where(eq(messages.analysisId, id)))[0]!.content;
    assert.doesNotMatch(await report(first.analysisId), /Compared with the/);
    const text = await report(second.analysisId);
    // Browser uploads carry no StudyDate: the prior is dated by its upload, and the heading says so.
    const uploaded = first.createdAt.toISOString().slice(0, 10);
    assert.ok(text.includes(`### Compared with the study uploaded on ${uploaded} (no study date recorded)`), text);
    const rule = loadChangeRule(modelDir);
    const before = new Map(first.result.findings.map((f) => [f.label, f]));
    for (const now of second.result.findings) {
      const prev = before.get(now.label)!;
      const spread = rule.spreads[now.label];
      const change = changeOf(prev, now, rule.margin, spread);
      // Within the measured spread nothing is named, whatever the calls did.
      if (spread !== undefined && Math.abs(now.probability - prev.probability) <= spread)
        assert.equal(change, 'unchanged');
      const within =
        change === 'unchanged' && spread !== undefined
          ? ` (within ±${(spread * 100).toFixed(1)} points, the measured test-retest spread)`
          : '';
      const row = `| ${now.display} | ${pct(prev.probability)} (${prev.call}) | ${pct(now.probability)} (${now.call}) | ${change}${within} |`;
      assert.ok(text.includes(row), `missing row: ${row}\n${text}`);
    }
    const a = first.result.anatomy?.ctr ?? null;
    const b = second.result.anatomy?.ctr ?? null;
    if (a !== null && b !== null)
      assert.ok(text.includes(`Cardiothoracic ratio ${a.toFixed(2)} → ${b.toFixed(2)}`), text);
  });

  test('REST and tRPC timelines return both analyses, oldest first, with probabilities, calls and CTR', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/profile/${u.user.id}/${profileId}/timeline`,
      headers: bearer(u.token),
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.success, true);
    assert.deepEqual(
      body.data.analyses.map((x: { analysis_id: string }) => x.analysis_id),
      done.map((d) => d.analysisId),
    );
    for (const [i, entry] of body.data.analyses.entries()) {
      const d = done[i]!;
      assert.equal(entry.chat_id, d.chatId);
      assert.equal(entry.created_at, d.createdAt.toISOString());
      assert.equal(entry.model_version, d.result.modelVersion);
      assert.deepEqual(entry.findings, Object.fromEntries(d.result.findings.map((f) => [f.label, f.probability])));
      assert.deepEqual(entry.calls, Object.fromEntries(d.result.findings.map((f) => [f.label, f.call])));
      assert.equal(entry.ctr, d.result.anatomy?.ctr ?? undefined);
    }
    const trpc = await caller(u).profile.timeline({ profileId });
    assert.deepEqual(trpc.analyses, body.data.analyses);
    assert.deepEqual(
      trpc.labels.map((l) => l.label),
      done[1]!.result.findings.map((f) => f.label),
    );
  });

  test('the grounded chat compares with the previous X-ray from the stored results only', async () => {
    const ask = (chatId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/chat/chat',
        headers: bearer(u.token),
        payload: { chat_id: chatId, query: 'What changed since last time?' },
      });
    const second = await ask(done[1]!.chatId);
    assert.equal(second.statusCode, 200, second.body);
    const answer: string = second.json().data.response;
    assert.ok(
      answer.includes(`Compared with the study uploaded on ${done[0]!.createdAt.toISOString().slice(0, 10)}`),
      answer,
    );
    const f = done[1]!.result.findings[0]!;
    assert.ok(answer.includes(`${f.display}: **`) && answer.includes(pct(f.probability)), answer);
    const first = await ask(done[0]!.chatId);
    assert.match(first.json().data.response, /no earlier analysis to compare with/);
  });

  test('exports of the second analysis mention the prior; FHIR references it', async () => {
    const get = (file: string) => t.app.inject({ method: 'GET', url: `/api/export/${file}`, headers: bearer(u.token) });
    const json = (await get(`${done[1]!.chatId}.json`)).json();
    assert.match(json.report.text, /Compared with the study uploaded on/);
    assert.equal(json.prior, undefined, 'the closed JSON schema is unchanged');
    const fhir = (await get(`${done[1]!.chatId}.fhir.json`)).json();
    const report = fhir.entry
      .map((e: { resource: Record<string, unknown> }) => e.resource)
      .find((r: { resourceType: string }) => r.resourceType === 'DiagnosticReport');
    const ref = report.extension[0].extension.find((e: { url: string }) => e.url === 'reference').valueReference;
    assert.deepEqual(ref.identifier, { system: 'urn:chest-doctor-ai:analysis', value: done[0]!.analysisId });
    const firstFhir = (await get(`${done[0]!.chatId}.fhir.json`)).json();
    assert.equal(firstFhir.entry[0].resource.extension, undefined);
  });

  test("access: another account's profile answers exactly like a missing one (REST, tRPC, analyzer)", async () => {
    const missing = randomUUID();
    const rest = (user: TTestUser, userId: string, pid: string) =>
      t.app.inject({ method: 'GET', url: `/api/profile/${userId}/${pid}/timeline`, headers: bearer(user.token) });
    const foreign = await rest(other, other.user.id, profileId);
    const absent = await rest(other, other.user.id, missing);
    assert.equal(foreign.statusCode, 404);
    assert.deepEqual(foreign.json(), absent.json());
    assert.deepEqual((await rest(other, u.user.id, profileId)).json(), absent.json());
    assert.equal((await rest(u, u.user.id, 'not-a-uuid')).statusCode, 404);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/profile/${u.user.id}/${profileId}/timeline` })).statusCode,
      401,
    );
    const err = async (p: Promise<unknown>) =>
      p.then(
        () => assert.fail('expected an error'),
        (e: { code: string; message: string }) => [e.code, e.message],
      );
    assert.deepEqual(
      await err(caller(other).profile.timeline({ profileId })),
      await err(caller(other).profile.timeline({ profileId: missing })),
    );
    const upload = await analyse('normal', other, profileId);
    assert.equal(upload.statusCode, 404);
    assert.equal(upload.json().message, 'Profile not found');
  });
});
