import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** .dockerignore patterns as a predicate (last matching rule wins; `!` re-includes). */
export function dockerignore(text: string): (path: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const glob = (negate ? l.slice(1) : l).replace(/^\/+|\/+$/g, '');
      const source = glob
        .split('/')
        .map((seg) =>
          seg === '**'
            ? '.*'
            : seg
                .replace(/[.+^${}()|[\]\\]/g, '\\$&')
                .replace(/\*/g, '[^/]*')
                .replace(/\?/g, '[^/]'),
        )
        .join('/');
      // A pattern naming a directory excludes everything under it.
      return { negate, re: new RegExp(`^${source.replace(/\.\*\//g, '(?:.*/)?')}(?:/.*)?$`) };
    });
  return (path) => {
    let ignored = false;
    for (const r of rules) if (r.re.test(path)) ignored = !r.negate;
    return ignored;
  };
}

/**
 * The build context `docker build .` gets from this checkout, minus what git ignores: the
 * tracked and new (not ignored) files as they are in the working tree, then .dockerignore.
 * Nothing installed or built here (node_modules, dist, data) leaks in.
 */
export function makeBuildContext(repo: string, into: string): number {
  const ignored = dockerignore(
    existsSync(join(repo, '.dockerignore')) ? readFileSync(join(repo, '.dockerignore'), 'utf8') : '',
  );
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: repo,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  let n = 0;
  for (const f of files) {
    if (ignored(f) || !existsSync(join(repo, f))) continue;
    mkdirSync(dirname(join(into, f)), { recursive: true });
    cpSync(join(repo, f), join(into, f));
    n++;
  }
  return n;
}
