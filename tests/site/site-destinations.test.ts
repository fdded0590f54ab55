import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { Hl7Message } from '@medplum/core';
import { auditLog, siteSettings } from '../../server/src/db/schema.js';
import { TEST_PATIENT, type TSiteDestinations } from '@contracts/schemas/site-destinations.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { listenMllp, type TMllpListener } from '../helpers/mllp-listener.js';
import { freePort } from '../helpers/start-orthanc.js';
import { startStoreScp, type TStoreScp } from '../helpers/start-storescp.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { rest, trpc, TEST_ENV } from '../history/http.js';

const data = (r: { body: unknown }) => (r.body as { data: TSiteDestinations }).data;
const dest = (d: TSiteDestinations, kind: 'hl7' | 'dicom') => d.destinations.find((x) => x.kind === kind)!;

/**
 * Issue 49 item 7: Settings → Site's destinations, tested against real peers before go-live: an
 * MLLP listener as the RIS (each message parsed by @medplum/core's HL7 parser) and dcmtk's
 * storescp as the PACS. The last result of each is kept in site settings and audited.
 */
for (const backend of testBackends()) {
  describe(`site destinations: Send test to the RIS and the PACS on ${backend}`, () => {
    const ADMIN = `dest-admin-${backend}-${Date.now()}@example.org`;
    let t: TestApp;
    let admin: TTestUser;
    let clinician: TTestUser;
    let ris: TMllpListener;
    let pacs: TStoreScp;
    let closedPort: number;
    beforeAll(async () => {
      // The RIS accepts the first test and refuses the second (AE).
      ris = await listenMllp(0, ['AA', 'AE']);
      pacs = await startStoreScp('TEST_PACS');
      closedPort = await freePort();
      t = await createTestApp({
        backend,
        env: {
          ...TEST_ENV,
          SITE_ADMIN_EMAILS: ADMIN,
          DICOM_AE_TITLE: 'CXR_AI',
          REPORT_HL7_DESTINATION: `127.0.0.1:${ris.port}`,
          REPORT_HL7_TIMEOUT_MS: '3000',
          DICOM_DESTINATION: `${pacs.ae}@127.0.0.1:${pacs.port}`,
        },
      });
      admin = await createUser(t.deps, { email: ADMIN, name: 'Ivy IT-Lead' });
      clinician = await createUser(t.deps);
    });
    afterAll(async () => {
      await t?.close();
      await ris?.close();
      await pacs?.stop();
    });

    test('both destinations are listed as configured, never tested yet; not for a clinician', async () => {
      const res = await rest(t.app, 'GET', '/api/site/destinations', admin.token);
      assert.equal(res.status, 200);
      const d = data(res);
      assert.equal(dest(d, 'hl7').address, `127.0.0.1:${ris.port}`);
      assert.equal(dest(d, 'dicom').address, `TEST_PACS@127.0.0.1:${pacs.port}`);
      assert.equal(dest(d, 'hl7').lastTest, null);
      assert.equal(d.callingAe, 'CXR_AI');
      assert.equal((await rest(t.app, 'GET', '/api/site/destinations', clinician.token)).status, 403);
      const refused = await rest(t.app, 'POST', '/api/site/destinations/test', clinician.token, { destination: 'hl7' });
      assert.equal(refused.status, 403);
      assert.equal(ris.received.length, 0, "a clinician's test sends nothing");
      assert.equal((await trpc(t.app, 'query', 'site.destinations', clinician.token)).status, 403);
    });

    test('HL7: a test ORU for an obviously test patient; ACK AA passes, ACK AE fails; each kept and audited', async () => {
      const res = await rest(t.app, 'POST', '/api/site/destinations/test', admin.token, { destination: 'hl7' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(ris.received.length, 1);
      const message = Hl7Message.parse(ris.received[0]!);
      assert.equal(message.getSegment('MSH')?.getField(9)?.toString(), 'ORU^R01^ORU_R01');
      assert.equal(message.getSegment('PID')?.getField(3)?.getComponent(1), TEST_PATIENT.id);
      assert.match(message.getSegment('PID')?.getField(5)?.toString() ?? '', /^TEST/);
      const obx = message.getAllSegments('OBX').map((s) => s.getField(5)?.toString() ?? '');
      assert.ok(
        obx.some((l) => /do not file/i.test(l)),
        'the report text says it is a test',
      );
      const ok = dest(data(res), 'hl7').lastTest;
      assert.equal(ok?.ok, true);
      assert.equal(ok?.detail, 'Accepted: the RIS answered ACK AA');
      assert.equal(ok?.by, 'Ivy IT-Lead');

      // The tRPC twin: the same service, the same answer shape.
      const second = await trpc(t.app, 'mutation', 'site.testDestination', admin.token, { destination: 'hl7' });
      assert.equal(second.status, 200);
      const refused = dest(second.data as TSiteDestinations, 'hl7').lastTest;
      assert.equal(refused?.ok, false);
      assert.equal(refused?.detail, 'Refused: the RIS answered ACK AE');

      // Kept in site settings: a fresh read says the same.
      const [row] = await t.deps.db.select().from(siteSettings).where(eq(siteSettings.key, 'destination_test_hl7'));
      assert.equal((row?.value as { detail: string }).detail, refused?.detail);
      assert.equal(
        dest(data(await rest(t.app, 'GET', '/api/site/destinations', admin.token)), 'hl7').lastTest?.ok,
        false,
      );
      const audit = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'site.destination.test'));
      assert.deepEqual(
        audit.map((a) => a.outcome),
        ['success', 'failure'],
      );
    });

    test('DICOM: a C-ECHO to storescp passes; to a port with no PACS it fails with the network reason', async () => {
      const res = await rest(t.app, 'POST', '/api/site/destinations/test', admin.token, { destination: 'dicom' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const ok = dest(data(res), 'dicom').lastTest;
      assert.equal(ok?.ok, true);
      assert.equal(ok?.detail, 'C-ECHO answered Success');

      // The same site with its PACS down: a second app pointing at a port nobody listens on.
      const down = await createTestApp({
        backend,
        env: { ...TEST_ENV, SITE_ADMIN_EMAILS: ADMIN, DICOM_DESTINATION: `TEST_PACS@127.0.0.1:${closedPort}` },
      });
      try {
        const other = await createUser(down.deps, { email: ADMIN });
        const failed = await rest(down.app, 'POST', '/api/site/destinations/test', other.token, {
          destination: 'dicom',
        });
        assert.equal(failed.status, 200);
        const last = dest(data(failed), 'dicom').lastTest;
        assert.equal(last?.ok, false);
        assert.match(last?.detail ?? '', /^Network error \(ECONNREFUSED\)/);
        // No RIS configured there: the test says so and keeps nothing.
        const none = await rest(down.app, 'POST', '/api/site/destinations/test', other.token, { destination: 'hl7' });
        assert.equal(none.status, 400);
        assert.match(JSON.stringify(none.body), /set REPORT_HL7_DESTINATION/);
        const [kept] = await down.deps.db
          .select()
          .from(siteSettings)
          .where(eq(siteSettings.key, 'destination_test_hl7'));
        assert.equal(kept, undefined);
      } finally {
        await down.close();
      }
    });

    test('STOW forwarding is editable over REST as over tRPC, and listed with the destinations', async () => {
      const team = await trpc(t.app, 'mutation', 'team.create', admin.token, { name: 'Radiology' });
      const teamId = (team.data as { id: string }).id;
      const on = await rest(t.app, 'PUT', '/api/site/stow-forwarding', admin.token, { teamId, forward: true });
      assert.equal(on.status, 200, JSON.stringify(on.body));
      const listed = await rest(t.app, 'GET', '/api/site/stow-forwarding', admin.token);
      assert.deepEqual(
        (listed.body as { data: { teams: { teamId: string }[] } }).data.teams.map((x) => x.teamId),
        [teamId],
      );
      const all = data(await rest(t.app, 'GET', '/api/site/destinations', admin.token));
      assert.deepEqual(
        all.stowForwarding.teams.map((x) => x.name),
        ['Radiology'],
      );
      const off = await rest(t.app, 'PUT', '/api/site/stow-forwarding', admin.token, { teamId, forward: false });
      assert.equal((off.body as { data: { teams: unknown[] } }).data.teams.length, 0);
      const bad = await rest(t.app, 'PUT', '/api/site/stow-forwarding', admin.token, {
        email: 'nobody@example.org',
        forward: true,
      });
      assert.equal(bad.status, 404);
      assert.equal(
        (await rest(t.app, 'PUT', '/api/site/stow-forwarding', clinician.token, { teamId, forward: true })).status,
        403,
      );
    });
  });
}
