import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'bullmq';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { MODEL_UPLOADS_DIR, QueueName } from '@contracts/queues.js';
import type { TRegistry, TRegistryModel } from '@contracts/schemas/models.js';
import { auditLog } from '../../server/src/db/schema.js';
import { createModelImportProcessor } from '../../worker/src/jobs/process-model-import.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { xrvGraphManifest, xrvShapedOnnx } from '../helpers/onnx-graph.js';
import { multipart, type TFormPart } from '../helpers/post-multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { rest, TEST_ENV } from '../history/http.js';

/**
 * Issue 47: a site admin imports a model by API (POST /api/site/models, multipart). The server
 * streams it into a staging folder and never loads it; the worker's model-import job (the real
 * processor, on this app's Redis and queue prefix) runs the CLI's checks and answers; the import
 * is in the registry's history with who and in the audit log. Refusals come back in the import's
 * own words, and no upload is left in `.uploads` whatever the outcome. Graphs are built here.
 */
const ADMIN = `import-admin-${Date.now()}@example.org`;

let work: string;
let registryDir: string;
let t: TestApp;
let worker: Worker;
let admin: TTestUser;
let clinician: TTestUser;

const onnxPart = (bytes: Uint8Array | Buffer): TFormPart => ({
  name: 'file',
  value: Buffer.from(bytes),
  filename: 'model.onnx',
  type: 'application/octet-stream',
});

async function post(parts: TFormPart[], token = admin.token) {
  const body = multipart(parts);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/site/models',
    payload: body.payload,
    headers: { ...body.headers, ...bearer(token) },
  });
  return { status: res.statusCode, body: res.json() as { success: boolean; message: string; data?: { model: TRegistryModel } } };
}

const fields = (name: string, contract = 'torchxrayvision'): TFormPart[] => [
  { name: 'contract', value: contract },
  { name: 'name', value: name },
];

/** Nothing of any upload stays in the staging folder. */
async function assertNoUploads() {
  const left = await readdir(path.join(registryDir, MODEL_UPLOADS_DIR)).catch(() => []);
  assert.deepEqual(left, []);
}

async function refused(parts: TFormPart[], status: number, message: RegExp) {
  const res = await post(parts);
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(res.body.success, false);
  assert.match(res.body.message, message);
  await assertNoUploads();
}

const registry = async (): Promise<TRegistry> =>
  ((await rest(t.app, 'GET', '/api/site/models', admin.token)).body as { data: TRegistry }).data;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'cxr-import-api-'));
  registryDir = path.join(work, 'models');
  t = await createTestApp({
    env: {
      ...TEST_ENV,
      SITE_ADMIN_EMAILS: ADMIN,
      MODEL_REGISTRY_DIR: registryDir,
      MODEL_IMPORT_MAX_MB: '0.5',
      MODEL_IMPORT_WAIT_MS: '60000',
    },
  });
  admin = await createUser(t.deps, { email: ADMIN, name: 'Dr Import Admin' });
  clinician = await createUser(t.deps);
  // The worker process's import job, in this process (worker/src/main.ts runs the same processor).
  worker = new Worker(QueueName.ModelImport, createModelImportProcessor({ config: t.deps.config }), {
    connection: t.deps.redis,
    prefix: t.deps.config.QUEUE_PREFIX,
    concurrency: 1,
  });
  worker.on('error', () => undefined);
});
afterAll(async () => {
  await worker?.close();
  await t?.close();
  await rm(work, { recursive: true, force: true });
});

describe('model import by API (issue 47)', () => {
  test('site admins only: a clinician is refused before anything is stored', async () => {
    const res = await post([...fields('nope'), onnxPart(xrvShapedOnnx())], clinician.token);
    assert.equal(res.status, 403);
    const anon = await t.app.inject({ method: 'POST', url: '/api/site/models', ...multipart(fields('nope')) });
    assert.equal(anon.statusCode, 401);
    await assertNoUploads();
  });

  test('a torchxrayvision-shaped model is imported as a candidate, with who in the history and the audit log', async () => {
    const res = await post([...fields('xrv-api'), { name: 'version', value: '3' }, onnxPart(xrvShapedOnnx())]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.message, /^xrv-api imported as a candidate\. Fixture films: normal-covid-normal-6288\.jpg /);
    assert.equal(res.body.data?.model.id, 'xrv-api');
    assert.equal(res.body.data?.model.status, 'candidate');
    assert.equal(res.body.data?.model.version, '3');
    assert.equal(res.body.data?.model.importedBy, 'Dr Import Admin');
    await assertNoUploads();

    const r = await registry();
    const m = r.models.find((x) => x.id === 'xrv-api');
    assert.equal(m?.status, 'candidate');
    assert.equal(m?.contract, 'torchxrayvision');
    assert.equal(m?.operatingPoints, false);
    assert.deepEqual(
      r.history.map((e) => [e.action, e.modelId, e.by]),
      [['import', 'xrv-api', 'Dr Import Admin']],
    );
    const audits = await t.deps.db
      .select({ outcome: auditLog.outcome, details: auditLog.details })
      .from(auditLog)
      .where(like(auditLog.action, 'site.model.import'));
    assert.deepEqual(
      audits.map((a) => [a.outcome, (a.details as { model: string }).model]),
      [['success', 'xrv-api']],
    );

    // The same name again: 409, the registry's folder untouched.
    await refused([...fields('xrv-api'), onnxPart(xrvShapedOnnx())], 409, /a model named xrv-api is already in the registry/);
  });

  test('refusals come back in the import\'s words and leave nothing behind', async () => {
    await refused(
      [...fields('rgb'), onnxPart(xrvShapedOnnx({ inputShape: [1, 3, 224, 224] }))],
      422,
      /the input is float32 \[1, 3, 224, 224\]; torchxrayvision's contract needs float32 \[1, 1, 224, 224\]/,
    );
    await refused(
      [...fields('two'), onnxPart(xrvShapedOnnx({ extraInput: true }))],
      422,
      /the graph has 2 inputs \(img, extra\); a model takes exactly one image input/,
    );
    await refused(
      [...fields('old'), onnxPart(xrvShapedOnnx({ opset: 9 }))],
      422,
      /the graph uses opset 9; the import needs opset 11 or newer/,
    );
    // Over MODEL_IMPORT_MAX_MB (0.5 here): refused while it streams, before any worker is asked.
    await refused(
      [...fields('big'), onnxPart(Buffer.alloc(1024 * 1024, 1))],
      413,
      /the file is over 0\.5 MB; the limit is 0\.5 MB \(MODEL_IMPORT_MAX_MB\)/,
    );
    // The form's own mistakes, before the worker.
    await refused([...fields('nofile')], 400, /Send the model as the multipart file part "file"/);
    await refused([...fields('bad', 'keras'), onnxPart(xrvShapedOnnx())], 400, /contract must be torchxrayvision or manifest/);
    await refused([...fields('Bad Name'), onnxPart(xrvShapedOnnx())], 400, /^name: a model name is 1-48 lower-case/);
    await refused([...fields('nomanifest', 'manifest'), onnxPart(xrvShapedOnnx())], 400, /needs the manifest/);
    const names = (await registry()).models.map((m) => m.id).sort();
    assert.deepEqual(names.filter((n) => n !== 'shipped'), ['xrv-api']);
  });

  test('a manifest naming a finding the product does not know is refused; a known one imports', async () => {
    const manifest = xrvGraphManifest(['atelectasis', 'dragon_scales']);
    const manifestPart = (): TFormPart => ({
      name: 'manifest',
      value: JSON.stringify(manifest),
      filename: 'manifest.json',
      type: 'application/json',
    });
    await refused(
      [...fields('own', 'manifest'), manifestPart(), onnxPart(xrvShapedOnnx())],
      422,
      /the manifest names findings the product does not know: dragon_scales/,
    );
    manifest.findings[1]!.label = 'pleural_effusion';
    const res = await post([...fields('own', 'manifest'), manifestPart(), onnxPart(xrvShapedOnnx())]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data?.model.contract, 'manifest');
    await assertNoUploads();
    const audits = await t.deps.db
      .select({ outcome: auditLog.outcome })
      .from(auditLog)
      .where(like(auditLog.action, 'site.model.import'));
    // Every refusal the worker gave is audited as a failure; the form's own mistakes never reached it.
    assert.deepEqual(audits.map((a) => a.outcome).sort(), ['failure', 'failure', 'failure', 'failure', 'failure', 'success', 'success']);
  });

  test('no worker: a bounded wait, then 503 saying so, the job withdrawn and the upload removed', async () => {
    await worker.close();
    // The app's own config object (read per request): a short wait instead of a minute.
    Object.assign(t.deps.config, { MODEL_IMPORT_WAIT_MS: 1000 });
    await refused(
      [...fields('orphan'), onnxPart(xrvShapedOnnx())],
      503,
      /No worker took the model within 1 s: is a worker running\? Nothing was imported/,
    );
    assert.equal((await registry()).models.some((m) => m.id === 'orphan'), false);
  });
});
