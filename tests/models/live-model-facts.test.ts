import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { analyses } from '../../server/src/db/schema.js';
import type { TLiveModelCard, TRegistry } from '@contracts/schemas/models.js';
import { ZRegistryEntry, type TRegistryEntry } from '@contracts/model/registry.js';
import { measureTestRetest } from '../../scripts/measure-test-retest.js';
import { importTestModel } from '../helpers/import-test-model.js';
import { askChat } from '../helpers/ask-chat.js';
import { createProfile, createUser, type TTestUser } from '../helpers/factories.js';
import { postMultipart } from '../helpers/post-multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { rest, trpc, TEST_ENV } from '../history/http.js';
import { radiograph, uploadBody } from '../analysis/support/fixtures.js';
import { startAnalysisWorker, type TestAnalysisWorker } from '../analysis/support/start-analysis-worker.js';

/**
 * Issue 47: once an imported model is live, what the product says about a result comes from the
 * model that made it. The live card endpoint shows the imported model's registry figures and its
 * promotion's comparison (recomputed here from registry.json and the history); the chat quotes the
 * imported model's cohort figures (or says there are none) and never a shipped model's figure; a
 * comparison of results of two models, or of an imported model without a measured spread, calls
 * no change.
 */
const ADMIN = `live-card-admin-${Date.now()}@example.org`;
const IMPORTED = 'xrv-live';

let work: string;
let t: TestApp;
let w: TestAnalysisWorker;
let admin: TTestUser;
let clinician: TTestUser;
let profileId: string;
let entryFile: string;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function upload(label: 'normal' | 'pneumonia', index: number) {
  const body = uploadBody(await radiograph({ label, index, side: 600 }), { full_name: 'Card Patient', age: 50 }, [
    { name: 'profile_id', value: profileId },
  ]);
  const res = await postMultipart(t.app, '/api/chat/analyzer', body, clinician.token);
  assert.equal(res.statusCode, 200, res.body);
  const data = res.json().data as { analysis_id: string; chat_id: string; status: string };
  assert.equal(data.status, 'completed');
  return data;
}

const liveCard = async (token: string): Promise<TLiveModelCard> => {
  const res = await rest(t.app, 'GET', '/api/model-card/live', token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const viaTrpc = await trpc(t.app, 'query', 'modelCard.live', token);
  assert.equal(viaTrpc.status, 200);
  const data = (res.body as { data: TLiveModelCard }).data;
  assert.deepEqual((viaTrpc.body as { result: { data: TLiveModelCard } }).result.data, data);
  return data;
};

const readEntry = async (): Promise<TRegistryEntry> =>
  ZRegistryEntry.parse(JSON.parse(await readFile(entryFile, 'utf8')));

/** Every shipped finding's AUROC as the chat would print it (models/cxr/metrics.json). */
async function shippedFigures(): Promise<string[]> {
  const m = JSON.parse(await readFile('models/cxr/metrics.json', 'utf8')) as {
    testImages: number;
    findings: Record<string, { auc: number | null }>;
  };
  const aucs = Object.values(m.findings)
    .map((f) => f.auc)
    .filter((a): a is number => typeof a === 'number')
    .map((a) => `ROC AUC ${a.toFixed(3)}`);
  assert.ok(aucs.length > 5);
  return [...aucs, `${m.testImages.toLocaleString('en-US')} test images`];
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cxr-live-card-'));
  const registryDir = path.join(work, 'models');
  entryFile = await importTestModel(work, registryDir, IMPORTED);
  t = await createTestApp({
    background: true,
    env: {
      ...TEST_ENV,
      SITE_ADMIN_EMAILS: ADMIN,
      MODEL_REGISTRY_DIR: registryDir,
      ANALYSIS_WAIT_MS: '30000',
      ANALYSIS_TIMEOUT_MS: '30000',
    },
  });
  admin = await createUser(t.deps, { email: ADMIN });
  clinician = await createUser(t.deps);
  profileId = (await createProfile(t.deps, clinician.user.id)).id;
  w = startAnalysisWorker(t.deps);
});
afterAll(async () => {
  await w?.close();
  await t?.close();
  await rm(work, { recursive: true, force: true });
});

describe('the live model and its own figures (issue 47)', () => {
  let shippedMade: { analysis_id: string; chat_id: string };
  let importedMade: { analysis_id: string; chat_id: string };

  test('shipped live: the live card says so and nothing else; signed-in users only', async () => {
    assert.equal((await rest(t.app, 'GET', '/api/model-card/live', null)).status, 401);
    assert.deepEqual(await liveCard(clinician.token), { liveModelId: 'shipped', imported: null });
    shippedMade = await upload('pneumonia', 0);
  });

  test("imported live: the card is its registry.json and its promotion's comparison", async () => {
    const entry = await readEntry();
    entry.operatingPoints = {
      measuredAt: '2026-11-20T10:00:00.000Z',
      cohortSha256: 'c'.repeat(64),
      studies: 37,
      method: 'youden',
      findings: [
        { label: 'pleural_effusion', threshold: 0.41, positives: 12, negatives: 25, sensitivity: 0.75, specificity: 0.64, auroc: 0.7133 },
        { label: 'atelectasis', threshold: 0.52, positives: 9, negatives: 28, sensitivity: 0.5556, specificity: 0.8214, auroc: 0.6627 },
      ],
    };
    await writeFile(entryFile, JSON.stringify(entry));
    const res = await rest(t.app, 'POST', `/api/site/models/${IMPORTED}/promote`, admin.token, { confirm: true });
    assert.equal(res.status, 200, JSON.stringify(res.body));

    const card = await liveCard(clinician.token);
    const written = await readEntry();
    assert.equal(card.liveModelId, IMPORTED);
    const got = card.imported!;
    assert.deepEqual(
      {
        id: got.id,
        name: got.name,
        version: got.version,
        contract: got.contract,
        sha256: got.sha256,
        importedAt: got.importedAt,
        importedBy: got.importedBy,
        fixtureRuns: got.fixtureRuns,
        operatingPoints: got.operatingPoints,
      },
      {
        id: written.id,
        name: written.name,
        version: written.version,
        contract: written.contract,
        sha256: written.sha256,
        importedAt: written.importedAt,
        importedBy: written.importedBy,
        fixtureRuns: written.fixtureRuns,
        operatingPoints: written.operatingPoints,
      },
    );
    const history = ((await rest(t.app, 'GET', '/api/site/models', admin.token)).body as { data: TRegistry }).data
      .history;
    const promotion = history.find((e) => e.action === 'promote' && e.to === IMPORTED)!;
    assert.deepEqual(got.madeLive, {
      action: 'promote',
      from: 'shipped',
      by: promotion.by,
      at: promotion.at,
      confirmed: promotion.confirmed,
    });
    assert.equal(got.madeLive?.by, admin.user.name);
    assert.deepEqual(got.promotionComparison, promotion.comparison);
  });

  test('the site tools follow the live model: calibration pinned to it, no drift reference, its findings offered as urgent', async () => {
    const manifest = JSON.parse(await readFile(path.join(path.dirname(entryFile), 'manifest.json'), 'utf8')) as {
      modelVersion: string;
      sha256: string;
      findings: { label: string }[];
    };
    const cal = (await rest(t.app, 'GET', '/api/site/calibration', admin.token)).body as {
      data: { model: { version: string; sha256: string } | null };
    };
    assert.deepEqual(cal.data.model, { version: manifest.modelVersion, sha256: manifest.sha256 });
    const mon = (await rest(t.app, 'GET', '/api/site/monitoring?weeks=2', admin.token)).body as {
      data: { reference: unknown; staleReference: { message: string } | null; findings: { label: string }[] };
    };
    assert.equal(mon.data.reference, null);
    assert.match(mon.data.staleReference!.message, /the live model is xrv-live, imported by this site, which has no drift reference/);
    assert.deepEqual(
      mon.data.findings.map((f) => f.label),
      manifest.findings.map((f) => f.label),
    );
    const urgent = (await trpc(t.app, 'query', 'site.urgentFindings', admin.token)).body as {
      result: { data: { findings: { label: string }[] } };
    };
    const offered = new Set(manifest.findings.map((f) => f.label));
    assert.ok(urgent.result.data.findings.length > 0);
    assert.ok(urgent.result.data.findings.every((f) => offered.has(f.label)));
  });

  test("chat on the imported model's result: its cohort figures, never a shipped one", async () => {
    importedMade = await upload('pneumonia', 1);
    const [a] = await t.deps.db.select().from(analyses).where(eq(analyses.id, importedMade.analysis_id));
    assert.equal(a?.modelId, IMPORTED);
    const reply = await askChat(t, clinician.token, importedMade.chat_id, 'How accurate is this model?');
    const points = (await readEntry()).operatingPoints!;
    for (const p of points.findings) {
      assert.ok(reply.includes(`ROC AUC ${p.auroc!.toFixed(3)}`), reply);
      assert.ok(reply.includes(`sensitivity ${pct(p.sensitivity)} and specificity ${pct(p.specificity)}`), reply);
      assert.ok(reply.includes(`${p.positives + p.negatives} images, ${p.positives} positive`), reply);
    }
    assert.ok(reply.includes(`labelled cohort of ${points.studies} studies, measured ${points.measuredAt.slice(0, 10)}`));
    for (const shipped of await shippedFigures()) assert.ok(!reply.includes(shipped), `${shipped} in: ${reply}`);

    // The same question about the shipped model's earlier result quotes the shipped card.
    const before = await askChat(t, clinician.token, shippedMade.chat_id, 'How accurate is this model?');
    assert.ok((await shippedFigures()).some((s) => before.includes(s)), before);
  });

  test('an imported model without measured figures: the chat says none exist', async () => {
    const entry = await readEntry();
    await writeFile(entryFile, JSON.stringify({ ...entry, operatingPoints: null }));
    try {
      const reply = await askChat(t, clinician.token, importedMade.chat_id, 'How accurate is this model?');
      assert.match(reply, /No model card figures are available for the model that produced this result/);
      assert.match(reply, /no operating points measured on a labelled cohort/);
      assert.doesNotMatch(reply, /ROC AUC/);
      for (const shipped of await shippedFigures()) assert.ok(!reply.includes(shipped), `${shipped} in: ${reply}`);
    } finally {
      await writeFile(entryFile, JSON.stringify(entry));
    }
  });

  test('results of two models, or of an imported model without a measured spread: no change is called', async () => {
    // importedMade's prior is shippedMade: two models.
    const report = (await rest(t.app, 'GET', `/api/analyses/${importedMade.analysis_id}/report`, clinician.token))
      .body as { data: { sections: { comparison: string } } };
    assert.match(report.data.sections.comparison, /made by different models \(shipped then xrv-live\)/);
    assert.match(report.data.sections.comparison, /no change is called/);
    let reply = await askChat(t, clinician.token, importedMade.chat_id, 'What changed since the last study?');
    assert.match(reply, /made by different models \(shipped then xrv-live\)/);
    assert.match(reply, /\*\*not called\*\*/);
    assert.doesNotMatch(reply, /\*\*(new|resolved|higher|lower|unchanged)\*\*/);

    // A second result of the imported model: one model, but no measured test-retest spread.
    const again = await upload('normal', 1);
    reply = await askChat(t, clinician.token, again.chat_id, 'What changed since the last study?');
    assert.match(reply, /xrv-live has no measured test-retest spread/);
    assert.match(reply, /\*\*not called\*\*/);
    assert.doesNotMatch(reply, /\*\*(new|resolved|higher|lower|unchanged)\*\*/);
    assert.doesNotMatch(reply, /said only when the probability moved by more than/);

    // Once the site measures the imported model's spread in its folder, changes between its own results are called.
    const dir = path.dirname(entryFile);
    await writeFile(path.join(dir, 'test-retest.json'), JSON.stringify(await measureTestRetest(dir)));
    reply = await askChat(t, clinician.token, again.chat_id, 'What changed since the last study?');
    assert.doesNotMatch(reply, /no measured test-retest spread/);
    assert.doesNotMatch(reply, /\*\*not called\*\*/);
    assert.match(reply, /\*\*(new|resolved|higher|lower|unchanged)\*\*/);
    assert.match(reply, /said only when the probability moved by more than/);
  });
});
