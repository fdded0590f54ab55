/**
 * bench:dicom-node (issue 24): the DICOM node end to end on this machine. The app runs as
 * processes (server with the node, WORKERS worker processes, default 1), Debian's Orthanc is the
 * PACS that receives the results, and dcmtk's storescu pushes COUNT (default 100) DX chest
 * instances made from the committed test films in one association. Prints the time until every
 * SR is back in Orthanc and the throughput per worker process; a JSON line last.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startE2eApp } from '../../tests/helpers/e2e-app.js';
import { buildDxInstance } from '../../tests/helpers/build-dx-instance.js';
import { freePort, startOrthanc } from '../../tests/helpers/start-orthanc.js';
import { signUpViaApi } from '../../tests/e2e/support/client-ui.js';
import { confirmDicomOwner } from '../../tests/e2e/support/confirm-dicom-owner.js';
import { testRadiographs } from '../../tests/analysis/support/fixtures.js';

const run = promisify(execFile);
const COUNT = Number(process.env.COUNT ?? 100);
const WORKERS = Number(process.env.WORKERS ?? 1);
const NODE_AE = 'CXR_AI';

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dicom-'));
  const nodePort = await freePort();
  const orthanc = await startOrthanc({ node: { ae: NODE_AE, port: nodePort } });
  const email = `bench-${Date.now()}@example.org`;
  const app = await startE2eApp(
    {
      DICOM_PORT: String(nodePort),
      DICOM_AE_TITLE: NODE_AE,
      DICOM_ALLOWED_CALLERS: 'STORESCU@127.0.0.1',
      DICOM_DESTINATION: `${orthanc.aet}@127.0.0.1:${orthanc.dicomPort}`,
      DICOM_OWNER_EMAIL: email,
      RATE_LIMIT_DISABLED: 'true',
      LOG_LEVEL: 'warn',
    },
    { worker: true },
  );
  const extra = Array.from({ length: WORKERS - 1 }, () =>
    spawn(process.execPath, ['--import', 'tsx', 'worker/src/main.ts'], { env: app.env, stdio: 'ignore' }),
  );
  try {
    await signUpViaApi(app.url, { email });
    // The node takes studies only once its owner has followed the mailed link (issue 36, S11).
    await confirmDicomOwner(app);
    const files: string[] = [];
    for (let i = 0; i < COUNT; i++) {
      const dx = await buildDxInstance({ index: i % testRadiographs().length, side: 512, patientId: `BENCH-${i}` });
      const file = join(dir, `dx-${i}.dcm`);
      writeFileSync(file, dx.bytes);
      files.push(file);
    }
    const started = performance.now();
    await run('storescu', ['-aet', 'STORESCU', '-aec', NODE_AE, '127.0.0.1', String(nodePort), ...files], {
      maxBuffer: 1 << 24,
    });
    const stored = performance.now();
    let srs = 0;
    for (;;) {
      const found = await orthanc.rest<string[]>('/tools/find', {
        method: 'POST',
        body: JSON.stringify({ Level: 'Instance', Query: { Modality: 'SR' } }),
      });
      srs = found.length;
      if (srs >= COUNT) break;
      if (performance.now() - started > 30 * 60_000) throw new Error(`only ${srs} of ${COUNT} SRs after 30 min`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const done = performance.now();
    const totalS = (done - started) / 1000;
    const perWorker = COUNT / totalS / WORKERS;
    console.log(`instances: ${COUNT} DX (512x512, 8-bit) via storescu, one association; worker processes: ${WORKERS}`);
    console.log(`storescu finished (all C-STOREs answered): ${((stored - started) / 1000).toFixed(1)} s`);
    console.log(`every SR back in Orthanc: ${totalS.toFixed(1)} s (${(COUNT / totalS).toFixed(2)} instances/s)`);
    console.log(`throughput per worker process: ${perWorker.toFixed(2)} instances/s`);
    console.log(
      JSON.stringify({
        bench: 'dicom-node',
        instances: COUNT,
        workers: WORKERS,
        storescuSeconds: Number(((stored - started) / 1000).toFixed(2)),
        allSrBackSeconds: Number(totalS.toFixed(2)),
        instancesPerSecond: Number((COUNT / totalS).toFixed(3)),
        instancesPerSecondPerWorker: Number(perWorker.toFixed(3)),
      }),
    );
  } finally {
    for (const w of extra) w.kill('SIGTERM');
    await app.close();
    await orthanc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
