import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A TCP port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface TOrthanc {
  aet: string;
  httpPort: number;
  dicomPort: number;
  /** GET/POST on its REST API (JSON answers). */
  rest<T = unknown>(path: string, init?: { method?: string; body?: string | Buffer }): Promise<T>;
  restBytes(path: string): Promise<Buffer>;
  stop(): Promise<void>;
}

/**
 * Debian's Orthanc as the hospital PACS: a private instance with a temp config and storage on
 * free ports, listening on loopback only, that knows the node under test as a modality.
 */
export async function startOrthanc(opts: { node: { ae: string; port: number }; aet?: string }): Promise<TOrthanc> {
  const dir = mkdtempSync(join(tmpdir(), 'orthanc-'));
  const httpPort = await freePort();
  const dicomPort = await freePort();
  const aet = opts.aet ?? 'ORTHANC';
  const config = {
    Name: 'test-pacs',
    StorageDirectory: join(dir, 'db'),
    IndexDirectory: join(dir, 'db'),
    HttpPort: httpPort,
    DicomPort: dicomPort,
    DicomAet: aet,
    RemoteAccessAllowed: false,
    AuthenticationEnabled: false,
    HttpServerEnabled: true,
    DicomCheckCalledAet: false,
    DicomAlwaysAllowStore: true,
    DicomAlwaysAllowEcho: true,
    DicomModalities: { cxr: [opts.node.ae, '127.0.0.1', opts.node.port] },
    Plugins: [],
    StableAge: 1,
  };
  writeFileSync(join(dir, 'orthanc.json'), JSON.stringify(config));
  const proc: ChildProcess = spawn('/usr/sbin/Orthanc', [join(dir, 'orthanc.json')], { stdio: 'ignore' });
  const base = `http://127.0.0.1:${httpPort}`;
  const call = async (path: string, init?: { method?: string; body?: string | Buffer }) => {
    const body: string | Uint8Array<ArrayBuffer> | undefined =
      init?.body === undefined || typeof init.body === 'string' ? init?.body : new Uint8Array(init.body);
    const res = await fetch(`${base}${path}`, { method: init?.method ?? 'GET', body });
    if (!res.ok) throw new Error(`Orthanc ${path}: ${res.status}`);
    return res;
  };
  const stop = async () => {
    if (proc.exitCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i++) {
    try {
      await call('/system');
      break;
    } catch (err) {
      if (i > 200 || proc.exitCode !== null) {
        await stop();
        throw new Error('Orthanc did not start', { cause: err });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    aet,
    httpPort,
    dicomPort,
    rest: async <T>(path: string, init?: { method?: string; body?: string | Buffer }) =>
      (await (await call(path, init)).json()) as T,
    restBytes: async (path: string) => Buffer.from(await (await call(path)).arrayBuffer()),
    stop,
  };
}
