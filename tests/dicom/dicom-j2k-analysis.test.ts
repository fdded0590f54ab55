import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { analyses, messages } from '../../server/src/db/schema.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { writeDicom } from '../helpers/write-dicom.js';
import { radiograph } from '../analysis/support/fixtures.js';
import { multipart, postMultipart } from '../helpers/post-multipart.js';
import {
  startAnalysisWorker,
  testModelDir,
  type TestAnalysisWorker,
} from '../analysis/support/start-analysis-worker.js';

const modelDir = testModelDir();

/**
 * A JPEG 2000 DICOM radiograph, written by the test with OpenJPEG's encoder, goes through the
 * spec's upload API, the queue and the real pipeline in a worker, and ends as a stored report.
 */
describe(`a JPEG 2000 DICOM radiograph analysed end to end (${modelDir})`, () => {
  let t: TestApp;
  let u: TTestUser;
  let w: TestAnalysisWorker | undefined;

  beforeAll(async () => {
    t = await createTestApp({
      background: true,
      env: { MODEL_DIR: modelDir, ANALYSIS_WAIT_MS: '30000', ANALYSIS_TIMEOUT_MS: '30000' },
    });
    u = await createUser(t.deps);
    w = startAnalysisWorker(t.deps);
  });
  afterAll(async () => {
    await w?.close();
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
      const res = await postMultipart(t.app, '/api/chat/analyzer', body, u.token);
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
