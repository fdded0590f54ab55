import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/**
 * `npm run test:quick`'s choice of files (scripts/test-quick.sh): the test files that import a
 * file changed since the base ref (its commits, staged, unstaged and new files), directly or
 * through any chain of modules, printed one per line. The chain stops at the app's composition
 * roots: almost every integration file boots the app, and the app imports every service, so
 * following them would pick the whole suite for any change to the server (vitest's --changed
 * does, 8 minutes for one changed helper). A changed root itself still picks its importers, and
 * a changed service picks the test files of its domain, which reach it over HTTP.
 */
const ROOTS = new Set(['server/src/app.ts', 'server/src/trpc/router.ts', 'tests/helpers/test-app.ts']);
const DIRS = ['server', 'worker', 'common', 'contracts', 'scripts', 'tests', 'bench'];
const ALIASES: Record<string, string> = { '@contracts/': 'contracts/', '@common/': 'common/' };

function git(args: string[]): string[] {
  return execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
}

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => /\.tsx?$/.test(f) && !f.includes('node_modules'));
}

/** The repository file an import specifier names, or null for a package. */
function resolveImport(from: string, spec: string): string | null {
  const alias = Object.keys(ALIASES).find((a) => spec.startsWith(a));
  const base = alias
    ? ALIASES[alias] + spec.slice(alias.length)
    : spec.startsWith('.')
      ? join(dirname(from), spec)
      : null;
  if (base === null) return null;
  const path = normalize(base);
  for (const candidate of [path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.tsx'), path, `${path}.ts`]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

export function quickTests(base: string): string[] {
  const changed = new Set(
    [
      ...git(['diff', '--name-only', `${base}...HEAD`]),
      ...git(['diff', '--name-only', 'HEAD']),
      ...git(['ls-files', '--others', '--exclude-standard']),
    ].map((f) => normalize(f)),
  );
  const importers = new Map<string, string[]>();
  for (const file of DIRS.flatMap(sources)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
      const target = resolveImport(file, m[1]!);
      if (target) importers.set(target, [...(importers.get(target) ?? []), file]);
    }
  }
  const reached = new Set<string>(changed);
  const queue = [...changed];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (ROOTS.has(file) && !changed.has(file)) continue;
    for (const importer of importers.get(file) ?? []) {
      if (reached.has(importer)) continue;
      reached.add(importer);
      queue.push(importer);
    }
  }
  // What reaches a service only through the app: the tests of its domain (services/site → tests/site).
  for (const file of changed) {
    const domain = /^server\/src\/services\/([^/]+)\//.exec(file)?.[1];
    if (domain) for (const t of sources(join('tests', domain))) reached.add(t);
  }
  return [...reached].filter((f) => f.startsWith('tests/') && f.endsWith('.test.ts') && existsSync(f)).sort();
}

const here = relative(process.cwd(), new URL(import.meta.url).pathname);
if (process.argv[1] && relative(process.cwd(), process.argv[1]) === here) {
  for (const f of quickTests(process.argv[2] ?? 'main')) console.log(f);
}
