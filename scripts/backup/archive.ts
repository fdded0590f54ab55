import { execFile } from 'node:child_process';
import { chmod, mkdtemp } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { BackupError } from './backup-format.js';

const run = promisify(execFile);

/** Packs a backup directory into one .tar.gz (system tar: present on every Linux host). */
export async function createArchive(dir: string, archivePath: string): Promise<void> {
  await run('tar', ['-czf', archivePath, '-C', dir, '.']);
  await chmod(archivePath, 0o600);
}

/**
 * Unpacks an archive into a private temp directory. GNU tar refuses members that climb out of
 * the target ('..', absolute paths), and the manifest's keys are validated again afterwards.
 */
export async function extractArchive(archivePath: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cxr-restore-'));
  try {
    await run('tar', ['-xzf', resolve(archivePath), '-C', dir, '--no-same-owner', '--no-same-permissions']);
  } catch (err) {
    const detail =
      err instanceof Error ? (err as Error & { stderr?: string }).stderr?.trim() || err.message : String(err);
    throw new BackupError(
      `The backup archive ${archivePath} is corrupt or unreadable (${detail}). Nothing was restored.`,
    );
  }
  return dir;
}
