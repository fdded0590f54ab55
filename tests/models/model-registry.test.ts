import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { analyses, auditLog, reports, shadowOutputs } from '../../server/src/db/schema.js';
import { shadowModel } from '../../server/src/services/models/change-model-status.js';
import { impressionLabels } from '../../server/src/services/models/impression-labels.js';
import type { TComparison, TRegistry } from '@contracts/schemas/models.js';
import { ZStoredResult } from '@contracts/schemas/analysis.js';
import { SETTINGS_MESSAGES } from '@contracts/schemas/settings.js';
import { importTestModel, writeOperatingPoints } from '../helpers/import-test-model.js';
import { createProfile, createUser, type TTestUser } from '../helpers/factories.js';
import { postMultipart } from '../helpers/post-multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { rest, trpc, TEST_ENV } from '../history/http.js';
import { radiograph, uploadBody } from '../analysis/support/fixtures.js';
import { startAnalysisWorker, type TestAnalysisWorker } from '../analysis/support/start-analysis-worker.js';

/**
 * Issue 47 end to end on the real app, queue and worker: an imported torchxrayvision-shaped model
 * (built here, random weights) is shadowed, runs after each live report on its own queue, its
 * outputs are stored apart and reach no clinician surface; the comparison on signed studies is
 * recomputed here from the stored rows; promotion needs operating points and enough studies (or
 * confirm), changes what new analyses use and nothing stored; rollback returns; all on record.
 */
const ADMIN = `models-admin-${Date.now()}@example.org`;
const SHADOW = 'xrv-shadow';

let work: string;
let t: TestApp;
let w: TestAnalysisWorker;
let admin: TTestUser;
let clinician: TTestUser;

async function upload(profileId: string, label: 'normal' | 'pneumonia' | 'covid19', index: number) {
  const body = uploadBody(await radiograph({ label, index, side: 600 }), { full_name: 'Reg Patient', age: 50 }, [
    { name: 'profile_id', value: profileId },
  ]);
  const res = await postMultipart(t.app, '/api/chat/analyzer', body, admin.token);
  assert.equal(res.statusCode, 200, res.body);
  const data = res.json().data as { analysis_id: string; chat_id: string; status: string };
  assert.equal(data.status, 'completed');
  return data;
}

async function waitForShadow(analysisId: string) {
  for (let i = 0; i < 150; i++) {
    const rows = await t.deps.db.select().from(shadowOutputs).where(eq(shadowOutputs.analysisId, analysisId));
    if (rows[0]) return rows[0];
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no shadow output');
}

async function sign(analysisId: string, impression: string) {
  const url = `/api/analyses/${analysisId}/report`;
  type TGot = { data: { sections: Record<string, string>; revision: unknown } };
  const got = (await rest(t.app, 'GET', url, admin.token)).body as TGot;
  const sections = { ...got.data.sections, impression };
  const put = await rest(t.app, 'PUT', url, admin.token, { sections, revision: got.data.revision });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  // Signed at the revision just read, as a reader does (issue 49).
  const now = (await rest(t.app, 'GET', url, admin.token)).body as TGot;
  const signed = await rest(t.app, 'POST', `${url}/sign`, admin.token, { revision: now.data.revision });
  assert.equal(signed.status, 200, JSON.stringify(signed.body));
}

/** AUROC as the share of (present, absent) pairs ranked right, ties half: the definition, pair by pair. */
function pairwiseAuroc(scores: number[], present: boolean[]): number | null {
  let wins = 0;
  let pairs = 0;
  scores.forEach((p, i) => {
    if (!present[i]) return;
    scores.forEach((n, j) => {
      if (present[j]) return;
      pairs++;
      wins += p > n ? 1 : p === n ? 0.5 : 0;
    });
  });
  return pairs ? wins / pairs : null;
}

const registry = async (): Promise<TRegistry> =>
  ((await rest(t.app, 'GET', '/api/site/models', admin.token)).body as { data: TRegistry }).data;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cxr-registry-'));
  const registryDir = path.join(work, 'models');
  await importTestModel(work, registryDir, SHADOW);
  t = await createTestApp({
    background: true,
    env: {
      ...TEST_ENV,
      SITE_ADMIN_EMAILS: ADMIN,
      MODEL_REGISTRY_DIR: registryDir,
      MODEL_PROMOTE_MIN_STUDIES: '50',
      ANALYSIS_WAIT_MS: '30000',
      ANALYSIS_TIMEOUT_MS: '30000',
    },
  });
  admin = await createUser(t.deps, { email: ADMIN });
  clinician = await createUser(t.deps);
  w = startAnalysisWorker(t.deps);
});
afterAll(async () => {
  await w?.close();
  await t?.close();
  await rm(work, { recursive: true, force: true });
});

describe('shadow outputs are kept apart (issue 47)', () => {
  test('only the registry services read or write shadow_outputs: no clinician, export, SR or worklist code can', async () => {
    const { readdir } = await import('node:fs/promises');
    const files = (await readdir('server/src', { recursive: true })).filter((f) => f.endsWith('.ts'));
    const readers: string[] = [];
    for (const f of files) {
      const text = await readFile(path.join('server/src', f), 'utf8');
      if (/shadowOutputs|shadow_outputs/.test(text)) readers.push(f);
    }
    assert.deepEqual(readers.sort(), ['db/schema.ts', 'services/models/compare-models.ts', 'services/models/run-shadows.ts']);
  });
});

describe('model registry (issue 47)', () => {
  const made: { analysis_id: string; chat_id: string }[] = [];

  test('the registry lists the shipped model live and the import as a candidate; site admins only', async () => {
    assert.equal((await rest(t.app, 'GET', '/api/site/models', null)).status, 401);
    assert.equal((await rest(t.app, 'GET', '/api/site/models', clinician.token)).status, 403);
    assert.equal((await rest(t.app, 'POST', `/api/site/models/${SHADOW}/shadow`, clinician.token)).status, 403);
    assert.equal((await trpc(t.app, 'query', 'site.models', clinician.token)).status, 403);
    const r = await registry();
    const shipped = r.models.find((m) => m.id === 'shipped');
    assert.equal(shipped?.status, 'live');
    assert.equal(shipped?.contract, 'shipped');
    const imported = r.models.find((m) => m.id === SHADOW);
    assert.equal(imported?.status, 'candidate');
    assert.equal(imported?.contract, 'torchxrayvision');
    assert.equal(imported?.importedBy, 'ops');
    assert.equal(imported?.operatingPoints, false);
    assert.match(imported!.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(r.history, []);
  });

  test('limits: a shadow past MODEL_MAX_SHADOWS or the memory limit is refused with the figures', async () => {
    const opts = { ...t.deps, meta: null, userId: admin.user.id, modelId: SHADOW };
    await assert.rejects(
      shadowModel({ ...opts, config: { ...t.deps.config, MODEL_MAX_SHADOWS: 0 } }),
      /At most 0 models can run in shadow at once/,
    );
    await assert.rejects(
      shadowModel({ ...opts, config: { ...t.deps.config, MODEL_MEMORY_LIMIT_MB: 10 } }),
      /xrv-shadow needs about \d+ MB of worker memory; the live model and the shadows already take \d+ MB of the 10 MB allowed/,
    );
  });

  test("promotion and rollback need a signed-in session: a site admin's API key may read the registry, not change the live model", async () => {
    const made = await rest(t.app, 'POST', '/api/api-keys', admin.token, { name: 'registry script' });
    assert.equal(made.status, 201);
    const key = (made.body as { data: { key: string } }).data.key;
    assert.equal((await rest(t.app, 'GET', '/api/site/models', key)).status, 200);
    for (const [method, url, body] of [
      ['POST', `/api/site/models/${SHADOW}/promote`, { confirm: true }],
      ['POST', '/api/site/models/rollback', undefined],
    ] as const) {
      const res = await rest(t.app, method, url, key, body);
      assert.equal(res.status, 403, url);
      assert.equal((res.body as { message: string }).message, SETTINGS_MESSAGES.sessionOnly);
    }
    assert.equal((await trpc(t.app, 'mutation', 'site.promoteModel', key, { id: SHADOW, confirm: true })).status, 403);
    assert.equal((await trpc(t.app, 'mutation', 'site.rollbackModel', key)).status, 403);
    assert.equal((await registry()).models.find((m) => m.status === 'live')?.id, 'shipped');
  });

  test('shadow: runs after each live report, stored apart, never on a clinician surface', async () => {
    const res = await rest(t.app, 'POST', `/api/site/models/${SHADOW}/shadow`, admin.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await registry()).models.find((m) => m.id === SHADOW)?.status, 'shadow');
    const patients = await Promise.all([0, 1, 2].map(() => createProfile(t.deps, admin.user.id)));
    const films: ['normal' | 'pneumonia' | 'covid19', number][] = [
      ['normal', 0],
      ['pneumonia', 0],
      ['covid19', 0],
      ['normal', 1],
      ['pneumonia', 1],
      ['covid19', 1],
    ];
    for (const [i, [label, index]] of films.entries()) made.push(await upload(patients[i % 3]!.id, label, index));
    for (const m of made) {
      const out = await waitForShadow(m.analysis_id);
      assert.equal(out.modelVersion, '1');
      assert.ok(out.probabilities && Object.keys(out.probabilities).length === 15);
      const [a] = await t.deps.db.select().from(analyses).where(eq(analyses.id, m.analysis_id));
      assert.equal(a?.modelId, 'shipped');
      // The live result names the live model only.
      assert.notEqual(ZStoredResult.parse(a!.result).modelName, SHADOW);
    }
    // Nothing a clinician reads carries the shadow model: the report, the chat, the exports.
    const m = made[0]!;
    const surfaces = [
      await rest(t.app, 'GET', `/api/analyses/${m.analysis_id}/report`, admin.token),
      await rest(t.app, 'GET', `/api/export/${m.chat_id}.json`, admin.token),
      await rest(t.app, 'GET', `/api/export/${m.chat_id}.fhir.json`, admin.token),
      await trpc(t.app, 'query', 'history.get', admin.token, { chatId: m.chat_id }),
      await trpc(t.app, 'query', 'analysis.get', admin.token, { analysisId: m.analysis_id }),
    ];
    for (const s of surfaces) {
      assert.equal(s.status, 200);
      const text = s.res.body;
      assert.ok(!text.includes(SHADOW), `${s.res.statusCode} ${text.slice(0, 200)}`);
    }
  });

  test('comparison on signed studies: recomputed here from the stored rows and reports', async () => {
    // The radiologist names pleural effusion on half the studies and removes the rest of the draft.
    const impressions = [
      '1. Pleural effusion, small.',
      '1. Consolidation right lower zone. 2. Pleural effusion.',
      '1. No pleural effusion. Atelectasis at the left base.',
      '1. Normal chest.',
      '1. Pleural effusion and atelectasis.',
      '1. Consolidation.',
    ];
    for (const [i, m] of made.entries()) await sign(m.analysis_id, impressions[i]!);
    const res = await rest(t.app, 'GET', `/api/site/models/${SHADOW}/comparison`, admin.token);
    assert.equal(res.status, 200);
    const c = (res.body as { data: TComparison }).data;
    assert.equal(c.studies, 6);
    assert.equal(c.patients, 3);
    assert.match(c.note, /department's signed reads.*not a reference standard/);
    assert.ok(c.timing.shadowMsPerStudy! > 0 && c.memory.shadowRssMb! > 0);

    // Independently: the stored rows, the signed impressions, pair-by-pair AUROC.
    const rows = await t.deps.db
      .select({ result: analyses.result, impression: reports.impression, shadow: shadowOutputs.probabilities })
      .from(analyses)
      .innerJoin(reports, eq(reports.analysisId, analyses.id))
      .innerJoin(shadowOutputs, eq(shadowOutputs.analysisId, analyses.id))
      .where(
        inArray(
          analyses.id,
          made.map((m) => m.analysis_id),
        ),
      );
    for (const label of ['pleural_effusion', 'atelectasis', 'consolidation']) {
      const f = c.findings.find((x) => x.label === label);
      assert.ok(f, label);
      const live: number[] = [];
      const shadow: number[] = [];
      const present: boolean[] = [];
      for (const r of rows) {
        const result = ZStoredResult.parse(r.result);
        const lf = result.findings.find((x) => x.label === label)!;
        live.push(lf.probability);
        shadow.push(r.shadow![label]!);
        present.push(impressionLabels(r.impression, result.findings).has(label));
      }
      assert.equal(f.studies, 6);
      assert.equal(f.present, present.filter(Boolean).length);
      assert.equal(label === 'pleural_effusion' ? f.present : 3, 3);
      const la = pairwiseAuroc(live, present);
      const sa = pairwiseAuroc(shadow, present);
      assert.ok(Math.abs(f.live.auroc!.value - la!) < 1e-12);
      assert.ok(Math.abs(f.shadow.auroc!.value - sa!) < 1e-12);
      assert.ok(Math.abs(f.difference!.value - (sa! - la!)) < 1e-12);
      for (const iv of [f.live.auroc!, f.shadow.auroc!, f.difference!]) assert.ok(iv.low <= iv.value && iv.value <= iv.high);
      const flagged = shadow.map((p) => p >= f.shadow.threshold);
      assert.equal(f.shadow.flagRate, flagged.filter(Boolean).length / 6);
      const hits = flagged.filter((x, i) => x && present[i]).length;
      assert.equal(f.shadow.ppv, flagged.some(Boolean) ? hits / flagged.filter(Boolean).length : null);
    }
    // "No pleural effusion" is not a mention; a removed finding is absent.
    assert.equal(
      impressionLabels('1. No pleural effusion.', [{ label: 'pleural_effusion', display: 'Pleural effusion' }]).size,
      0,
    );
  });

  test('promotion needs operating points and enough studies (or confirm); it changes new analyses only; rollback returns', async () => {
    const promote = (body?: unknown) => rest(t.app, 'POST', `/api/site/models/${SHADOW}/promote`, admin.token, body);
    let res = await promote();
    assert.equal(res.status, 409);
    assert.match((res.body as { message: string }).message, /has no operating points measured on this site's cases/);

    await writeOperatingPoints(path.join(t.deps.config.MODEL_REGISTRY_DIR!, SHADOW, 'registry.json'));

    res = await promote();
    assert.equal(res.status, 409);
    assert.match(
      (res.body as { message: string }).message,
      /xrv-shadow has been compared on 6 signed studies; promotion needs 50 \(MODEL_PROMOTE_MIN_STUDIES\), or send \{ "confirm": true \}/,
    );
    const before = await t.deps.db.select().from(analyses).where(eq(analyses.id, made[0]!.analysis_id));
    res = await promote({ confirm: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const r = await registry();
    assert.equal(r.models.find((m) => m.id === SHADOW)?.status, 'live');
    assert.equal(r.models.find((m) => m.id === 'shipped')?.status, 'retired');

    const patient = await createProfile(t.deps, admin.user.id);
    const after = await upload(patient.id, 'pneumonia', 2);
    const [a] = await t.deps.db.select().from(analyses).where(eq(analyses.id, after.analysis_id));
    assert.equal(a?.modelId, SHADOW);
    assert.equal(ZStoredResult.parse(a!.result).modelName, SHADOW);
    // Nothing stored changed.
    const again = await t.deps.db.select().from(analyses).where(eq(analyses.id, made[0]!.analysis_id));
    assert.deepEqual(again[0]!.result, before[0]!.result);
    assert.equal(again[0]!.modelId, 'shipped');

    res = await rest(t.app, 'POST', '/api/site/models/rollback', admin.token);
    assert.equal(res.status, 200);
    assert.match((res.body as { message: string }).message, /shipped is live again/);
    const back = await upload(patient.id, 'normal', 2);
    const [b] = await t.deps.db.select().from(analyses).where(eq(analyses.id, back.analysis_id));
    assert.equal(b?.modelId, 'shipped');
    const [x] = await t.deps.db.select().from(analyses).where(eq(analyses.id, after.analysis_id));
    assert.equal(ZStoredResult.parse(x!.result).modelName, SHADOW);
    assert.equal((await rest(t.app, 'POST', '/api/site/models/rollback', admin.token)).status, 409);

    const h = (await registry()).history;
    assert.deepEqual(
      h.map((e) => [e.action, e.from, e.to]),
      [
        ['rollback', SHADOW, 'shipped'],
        ['promote', 'shipped', SHADOW],
        ['shadow', null, null],
      ],
    );
    assert.ok(h.every((e) => e.by === admin.user.name && !Number.isNaN(Date.parse(e.at))));
    const promoted = h[1]!;
    assert.equal(promoted.confirmed, true);
    assert.equal(promoted.comparison?.studies, 6);
    assert.ok(promoted.comparison?.findings.some((f) => f.label === 'pleural_effusion'));
    const audits = await t.deps.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(like(auditLog.action, 'site.model.%'));
    assert.deepEqual(audits.map((e) => e.action).sort(), ['site.model.promote', 'site.model.rollback', 'site.model.shadow']);
  });
});
