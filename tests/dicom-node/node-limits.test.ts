import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { buildDxInstance } from '../helpers/build-dx-instance.js';
import { freePort } from '../helpers/start-orthanc.js';
import { associateRq, pduHeader, rawPeer } from '../helpers/dicom-pdus.js';
import { confirmOwnerForTest, untilNodeAccepts } from './support/node-owner.js';

const run = promisify(execFile);
const NODE_AE = 'CXR_AI';
const A_ABORT = 0x07;

/** storescu's whole output (it exits 0 on a refused store and prints the status). */
const storescu = (port: number, file: string) =>
  run('storescu', ['-v', '-aet', 'STORESCU', '-aec', NODE_AE, '127.0.0.1', String(port), file]).then(
    (r) => `${r.stdout}${r.stderr}`,
    (e: { stdout: string; stderr: string }) => `${e.stdout}${e.stderr}`,
  );

describe('the DICOM node holds its limits (issue 36: S1, S3, S6, S9, S10, Info)', () => {
  let t: TestApp;
  let port: number;
  const dir = mkdtempSync(join(tmpdir(), 'dicom-limits-'));

  beforeAll(async () => {
    port = await freePort();
    const ownerEmail = `limits-owner-${Date.now()}@example.org`;
    t = await createTestApp({
      background: true,
      env: {
        DICOM_PORT: String(port),
        DICOM_AE_TITLE: NODE_AE,
        DICOM_ALLOWED_CALLERS: 'STORESCU@localhost',
        DICOM_OWNER_EMAIL: ownerEmail,
        DICOM_ARTIM_TIMEOUT_MS: '400',
        DICOM_IDLE_TIMEOUT_MS: '600',
        DICOM_MAX_ASSOCIATIONS: '3',
        DICOM_MAX_ASSOCIATIONS_PER_ADDRESS: '2',
        DICOM_MAX_INSTANCE_BYTES: String(400 * 1024),
        DICOM_MAX_BYTES_IN_FLIGHT: String(200 * 1024),
      },
    });
    const owner = await createUser(t.deps, { email: ownerEmail });
    await confirmOwnerForTest(t, owner.user.id);
    await untilNodeAccepts(port, NODE_AE);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // First: the caps count every open connection, and the other tests' connections take a moment to close.
  test('S3: connections past the per-address and total caps are closed on arrival', async () => {
    const held = [await rawPeer(port), await rawPeer(port)];
    const third = await rawPeer(port);
    await third.closed(5000);
    const other = await rawPeer(port, '127.0.0.2');
    const fourth = await rawPeer(port, '127.0.0.3');
    await fourth.closed(5000);
    for (const p of [...held, other]) assert.equal(p.socket.readyState, 'open', 'the first ones are kept');
    for (const p of [...held, other]) p.socket.destroy();
    await Promise.all([...held, other].map((p) => p.closed()));
  });

  test('S1: a PDU header claiming 4 GB is aborted at once, and the node keeps answering', async () => {
    // The node may still count the previous test's connections for a moment (it runs in its own
    // thread): a connection refused over the cap is closed with nothing sent, so that one is retried.
    let got: Buffer = Buffer.alloc(0);
    for (let attempt = 0; attempt < 20 && got.length === 0; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 250));
      const peer = await rawPeer(port);
      peer.socket.write(Buffer.concat([pduHeader(1, 0xfffffff0), Buffer.alloc(64 * 1024)]));
      await peer.closed();
      got = peer.received();
    }
    assert.equal(got[0], A_ABORT, 'an A-ABORT, not silence while the PDU is collected');
    await run('echoscu', ['-aet', 'STORESCU', '-aec', NODE_AE, '127.0.0.1', String(port)]);
  });

  test('Info (issue 39): a PDU claiming 0xFFFFFFF0 bytes ends the connection on its header: the rest is not read', async () => {
    // A sender that ignores the node's FIN (half-open allowed) and streams zeros after the header
    // for as long as the node takes them. Ending the connection gracefully kept reading them for
    // the whole linger (2 s and more; the scan: 2.7 s, 2 GB).
    let got: Buffer = Buffer.alloc(0);
    let ms = 0;
    let sent = 0;
    for (let attempt = 0; attempt < 20 && got.length === 0; attempt += 1) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 250));
      const socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true });
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      let broken = false;
      socket.on('error', () => (broken = true));
      socket.on('close', () => (broken = true));
      const zeros = Buffer.alloc(64 * 1024);
      const started = Date.now();
      socket.write(pduHeader(1, 0xfffffff0));
      while (!broken && Date.now() - started < 10_000)
        if (!socket.write(zeros)) await new Promise((r) => setTimeout(r, 1));
      ms = Date.now() - started;
      sent = socket.bytesWritten;
      socket.destroy();
      got = Buffer.concat(chunks);
    }
    assert.equal(got[0], A_ABORT, 'the A-ABORT still goes out first');
    assert.ok(ms < 1500, `the node took zeros for ${ms} ms`);
    assert.ok(sent < 64 * 1024 * 1024, `${sent} bytes taken after the header`);
  });

  test('S1: the node answers while this (the web app) thread is blocked: DIMSE runs in its own thread', () => {
    // execFileSync holds this event loop until echoscu exits; a node on this loop could never answer it.
    const out = execFileSync(
      'echoscu',
      ['-v', '-to', '10', '-ta', '10', '-aet', 'STORESCU', '-aec', NODE_AE, '127.0.0.1', String(port)],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    assert.doesNotMatch(out, /failed|timeout/i);
  });

  test('Info: an A-RELEASE-RQ before any association is answered with an A-ABORT, not a release', async () => {
    const peer = await rawPeer(port);
    peer.socket.write(Buffer.concat([pduHeader(5, 4), Buffer.alloc(4)]));
    await peer.closed();
    assert.equal(peer.received()[0], A_ABORT);
  });

  test('S3: a connection that sends nothing is closed (ARTIM); an idle association is aborted', async () => {
    const silent = await rawPeer(port);
    await silent.closed();
    assert.equal(silent.received().length, 0);

    const idle = await rawPeer(port);
    idle.socket.write(associateRq('STORESCU', NODE_AE));
    await idle.closed();
    const got = idle.received();
    assert.equal(got[0], 0x02, 'the association was accepted (A-ASSOCIATE-AC)');
    assert.equal(got[got.readUInt32BE(2) + 6], A_ABORT, 'then aborted for idling');
  });

  test('S10 and S9: too large, and over the in-flight budget, are refused with 0xA700; the next instance is taken', async () => {
    const big = await buildDxInstance({ side: 700, patientId: 'BIG-1' }); // ~490 KB: over the 400 KB limit
    const file = join(dir, 'big.dcm');
    writeFileSync(file, big.bytes);
    assert.match(await storescu(port, file), /Refused: OutOfResources/);
    assert.doesNotMatch(await storescu(port, file), /Unknown Status/);

    const overBudget = await buildDxInstance({ side: 480, patientId: 'BUDGET-1' }); // ~230 KB: under the limit, over the budget
    writeFileSync(join(dir, 'budget.dcm'), overBudget.bytes);
    assert.match(await storescu(port, join(dir, 'budget.dcm')), /Refused: OutOfResources/);

    const small = await buildDxInstance({ side: 256, patientId: 'SMALL-1' });
    writeFileSync(join(dir, 'small.dcm'), small.bytes);
    assert.match(await storescu(port, join(dir, 'small.dcm')), /Success/);
  });

  test('S6: an instance that fails after it is recorded (too many pixels to decode) is answered 0xC000, not Success', async () => {
    const huge = await buildDxInstance({ side: 300, patientId: 'PIX-1', rows: 40_000, columns: 40_000 });
    writeFileSync(join(dir, 'pixels.dcm'), huge.bytes);
    const out = await storescu(port, join(dir, 'pixels.dcm'));
    assert.match(out, /Error: CannotUnderstand/);
    assert.doesNotMatch(out, /Success/);
  });
});
