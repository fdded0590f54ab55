import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';

interface TLockEntry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  link?: boolean;
}

/** A file as a hard link (same bytes, no copy); a plain copy where the two folders cannot share one. */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

/** One package's own files; its nested node_modules holds packages of their own (other lock entries). */
function linkTree(from: string, to: string, top: boolean): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    if (top && e.name === 'node_modules') continue;
    const [src, dst] = [join(from, e.name), join(to, e.name)];
    if (e.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
    else if (e.isDirectory()) linkTree(src, dst, false);
    else linkOrCopy(src, dst);
  }
}

/** The `.bin` links npm makes beside the packages, as the checkout has them, for linked packages only. */
function linkBins(repo: string, root: string, packages: readonly string[]): void {
  const linked = new Set(packages);
  for (const folder of new Set(
    packages.map((p) => p.slice(0, p.lastIndexOf('node_modules/') + 'node_modules'.length)),
  )) {
    const bin = join(repo, folder, '.bin');
    if (!existsSync(bin)) continue;
    for (const name of readdirSync(bin)) {
      const target = readlinkSync(join(bin, name));
      const into = relative(repo, resolve(bin, target)).split(sep).join('/');
      const owner = [...linked].find((p) => into.startsWith(`${p}/`));
      if (!owner) continue;
      mkdirSync(join(root, folder, '.bin'), { recursive: true });
      symlinkSync(target, join(root, folder, '.bin', name));
    }
  }
}

/**
 * What `npm ci --omit=dev` puts in `root`/node_modules, made from the checkout's node_modules
 * without a download, an unpack or an install script: every package the lock file does not mark
 * `dev`, file by file as hard links, and their `.bin` links. It is the same tree because the
 * checkout's node_modules was installed from this lock file (each package's version is checked
 * against it) and an install script only writes inside its own package, whose files are taken
 * as they are. Compared with a real install (diff -r), only argon2's build/Makefile and
 * config.gypi differ (they name the folder it was compiled in), and npm's own record
 * node_modules/.package-lock.json is absent (nothing at run time reads it). Optional packages the checkout lacks are the ones
 * npm skipped for this platform. Not a symlink per package: Node resolves one to its real path
 * and would then find the dev dependencies beside it, so a missing production dependency would
 * go unnoticed. Returns how many packages it linked, or null (nothing linked) when the checkout
 * is not what the lock file installs: a package missing or at another version.
 */
export function linkProductionModules(repo: string, root: string): number | null {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, TLockEntry>;
  };
  const packages: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || entry.dev) continue;
    const manifest = join(repo, path, 'package.json');
    if (!existsSync(manifest)) {
      if (entry.optional) continue;
      return null;
    }
    if (entry.link) return null;
    const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string };
    if (version !== entry.version) return null;
    packages.push(path);
  }
  for (const p of packages) linkTree(join(repo, p), join(root, p), true);
  linkBins(repo, root, packages);
  return packages.length;
}
