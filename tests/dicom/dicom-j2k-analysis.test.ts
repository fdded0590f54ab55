import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { Queue, Worker } from 'bullmq';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import sharp from 'sharp';
import { analyses, messages } from '../../server/src/db/schema.js';
import { QueueName } from '@contracts/queues.js';
import { createAnalysisProcessor } from '../../worker/src/jobs/process-analysis.js';
import type { WorkerDeps } from '../../worker/src/worker-deps.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { writeDicom } from '../helpers/write-dicom.js';
import { MODEL_DIR, modelInstalled, multipart, radiograph } from '../analysis/support/fixtures.js';

// The shipped model when installed, else the pipeline's tiny test model (a real ONNX network).
const modelDir = modelInstalled() ? MODEL_DIR : 'tests/fixtures/tiny-model';

/**
 * A JPEG 2000 DICOM radiograph, written by the test with OpenJPEG's encoder, goes through the
 * spec's upload API, the queue and the real pipeline in a worker, and ends as a stored report.
 */
describe(`a JPEG 2000 DICOM radiograph analysed end to end (${modelDir})`, () => {
  let t: TestApp;
  let u: TTestUser;
  let worker: Worker;
  let resultQueue: Queue;

  beforeAll(async () => {
    t = await createTestApp({
      background: true,
      env: { MODEL_DIR: modelDir, ANALYSIS_WAIT_MS: '30000', ANALYSIS_TIMEOUT_MS: '30000' },
    });
    u = await createUser(t.deps);
    resultQueue = new Queue(QueueName.AnalysisResult, { connection: t.deps.redis, prefix: t.deps.config.QUEUE_PREFIX });
    const deps: WorkerDeps = {
      config: t.deps.config,
      redis: t.deps.redis,
      images: t.deps.images,
      resultQueue,
      log: pino({ level: 'silent' }),
    };
    worker = new Worker(QueueName.Analysis, createAnalysisProcessor(deps), {
      connection: t.deps.redis,
      prefix: t.deps.config.QUEUE_PREFIX,
      concurrency: 1,
    });
    worker.on('error', () => undefined);
  });
  afterAll(async () => {
    await worker?.close();
    await resultQueue?.close();
    await t?.close();
  });

  test(
    'POST /api/chat/analyzer with a JPEG 2000 Lossless DX film answers with the completed report',
    { timeout: 120_000 },
    async () => {
      const { data, info } = await sharp(await radiograph({ label: 'pneumonia', side: 640 }))
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const file = await writeDicom({
        width: info.width,
        height: info.height,
        pixels: Array.from(data, (v) => v * 16),
        bitsStored: 12,
        modality: 'DX',
        syntax: 'jpeg2000',
      });
      assert.equal(file.includes(Buffer.from('1.2.840.10008.1.2.4.90')), true, 'a JPEG 2000 Lossless transfer syntax');
      const body = multipart([{ name: 'image', value: file, filename: 'study.dcm', type: 'application/dicom' }]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/chat/analyzer',
        payload: body.payload,
        headers: { ...body.headers, ...bearer(u.token) },
      });
      assert.equal(res.statusCode, 200, res.body);
      const json = res.json();
      assert.equal(json.data.status, 'completed');
      const [analysis] = await t.deps.db.select().from(analyses).where(eq(analyses.id, json.data.analysis_id));
      assert.equal(analysis?.status, 'completed');
      const result = analysis!.result as { gate: { accepted: boolean }; findings: unknown[] };
      assert.equal(result.gate.accepted, true, 'the decoded film passes the radiograph gate');
      assert.ok(result.findings.length > 0);
      const [report] = await t.deps.db.select().from(messages).where(eq(messages.analysisId, json.data.analysis_id));
      assert.match(report?.content ?? '', /### Findings/);
    },
  );
});
