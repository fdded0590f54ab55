import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './start-orthanc.js';

export interface TStoreScp {
  ae: string;
  port: number;
  stop(): Promise<void>;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

/** dcmtk's storescp as the hospital PACS on a free loopback port: it answers C-ECHO and stores into a temp dir. */
export async function startStoreScp(ae = 'TEST_PACS'): Promise<TStoreScp> {
  const dir = mkdtempSync(join(tmpdir(), 'storescp-'));
  const port = await freePort();
  const proc: ChildProcess = spawn('storescp', ['--aetitle', ae, '--output-directory', dir, String(port)], {
    stdio: 'ignore',
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; !(await listening(port)); i++) {
    if (i > 100 || proc.exitCode !== null) {
      await stop();
      throw new Error('storescp did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ae, port, stop };
}
