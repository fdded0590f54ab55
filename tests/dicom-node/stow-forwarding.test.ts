import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { dicomInstances } from '../../server/src/db/schema.js';
import { createApiKey } from '../../server/src/services/api-key/create-api-key.js';
import { finalizeAnalysis } from '../../server/src/services/analysis/finalize-analysis.js';
import { advanceInstances } from '../../server/src/services/dicom-node/advance-instances.js';
import { receiveInstance } from '../../server/src/services/dicom-node/receive-instance.js';
import { sendResults } from '../../server/src/services/dicom-node/send-results.js';
import { DICOM_SEND_QUEUE } from '../../server/src/services/dicom-node/start-dicom-services.js';
import { createContextInner } from '../../server/src/trpc/context.js';
import { appRouter } from '../../server/src/trpc/router.js';
import { createCallerFactory } from '../../server/src/trpc/trpc.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { sampleResult, workerResultOf } from '../analysis/support/fixtures.js';
import { uniqueSuffix } from '../helpers/test-config.js';
import { related } from '../helpers/stow-body.js';

const ADMIN = `admin-${uniqueSuffix()}@example.org`;

/**
 * Issue 36 S2: any account's STOW results were C-STOREd to the hospital's PACS. Now only
 * instances the node received over DIMSE go back, and STOW results only for an account a site
 * administrator listed. The send queue is real (Redis); the destination is never reached: a
 * result that may not go is stopped before any association is opened.
 */
describe('whose results go to DICOM_DESTINATION (issue 36 S2)', () => {
  let t: TestApp;
  let stranger: TTestUser;
  let admin: TTestUser;
  let key: string;
  let sendQueue: Queue;

  beforeAll(async () => {
    t = await createTestApp({ env: { DICOM_DESTINATION: 'PACS@127.0.0.1:9', SITE_ADMIN_EMAILS: ADMIN } });
    stranger = await createUser(t.deps);
    admin = await createUser(t.deps, { email: ADMIN });
    key = (await createApiKey({ db: t.deps.db, meta: null, userId: stranger.user.id, name: 'script' })).key;
    sendQueue = new Queue(DICOM_SEND_QUEUE, { connection: t.deps.redis, prefix: t.deps.config.QUEUE_PREFIX });
  });
  afterAll(async () => {
    await sendQueue.close();
    await t.close();
  });

  /** The instance's row once its analysis has completed and the advancer has run. */
  async function analysed(sopInstanceUid: string) {
    const [row] = await t.deps.db
      .select()
      .from(dicomInstances)
      .where(eq(dicomInstances.sopInstanceUid, sopInstanceUid));
    assert.ok(row?.analysisId, 'queued for analysis');
    await finalizeAnalysis({
      ...t.deps,
      job: { analysisId: row.analysisId, result: workerResultOf(sampleResult()), heatmap: null },
    });
    await advanceInstances({ ...t.deps, sendQueue });
    const [after] = await t.deps.db.select().from(dicomInstances).where(eq(dicomInstances.id, row.id));
    assert.equal(after?.status, 'analysed');
    return after;
  }

  const stow = async (index: number) => {
    const dx = await buildDxInstance({ patientId: `OTHER-${index}`, patientName: 'SOMEONE^ELSE', index });
    const body = related([dx.bytes]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/dicomweb/studies',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(key) },
    });
    assert.equal(res.statusCode, 200, res.body);
    return analysed(dx.sopInstanceUid);
  };
  const queued = async (instanceId: string) => (await sendQueue.getJob(`send-${instanceId}`)) !== undefined;

  test("a self-registered account's STOW result is not queued for the PACS, and a send job for it sends nothing", async () => {
    const row = await stow(0);
    assert.equal(await queued(row.id), false);
    // A job queued before this rule (or by hand) is stopped by the same rule in the send job.
    assert.equal(await sendResults({ ...t.deps, instanceId: row.id }), false);
  });

  test('an instance received over DIMSE is queued as before', async () => {
    const dx = await buildDxInstance({ patientId: 'NODE-1', index: 1 });
    const r = await receiveInstance({
      ...t.deps,
      meta: { ip: '127.0.0.1', requestId: 'dimse' },
      userId: admin.user.id,
      bytes: dx.bytes,
      source: 'dimse',
      callingAe: 'PACS',
    });
    assert.equal(r.outcome, 'queued');
    const row = await analysed(dx.sopInstanceUid);
    assert.equal(await queued(row.id), true);
  });

  test('a site administrator turns forwarding on for one account, then off; nobody else may', async () => {
    const adminCaller = createCallerFactory(appRouter)(
      createContextInner({
        deps: t.deps,
        auth: { ...admin.user, userId: admin.user.id, sessionId: randomUUID(), via: 'session', siteAdmin: true },
      }),
    );
    await assert.rejects(
      sessionCaller(t.deps, stranger).site.setStowForwarding({ email: stranger.user.email, forward: true }),
      /Only site administrators/,
    );
    await assert.rejects(
      adminCaller.site.setStowForwarding({ email: 'nobody@example.org', forward: true }),
      /No account uses that email address/,
    );
    const on = await adminCaller.site.setStowForwarding({ email: stranger.user.email, forward: true });
    assert.deepEqual(
      on.items.map((i) => i.userId),
      [stranger.user.id],
    );
    const allowed = await stow(2);
    assert.equal(await queued(allowed.id), true, 'listed: its STOW results go to the PACS');

    const off = await adminCaller.site.setStowForwarding({ email: stranger.user.email, forward: false });
    assert.deepEqual(off.items, []);
    assert.deepEqual((await adminCaller.site.stowForwarding()).items, []);
    const later = await stow(3);
    assert.equal(await queued(later.id), false);
    assert.equal(await sendResults({ ...t.deps, instanceId: allowed.id }), false, 'revoked before its job ran');
  });
});
