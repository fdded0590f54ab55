/**
 * Prints the gzipped size of the initial JavaScript of the built client (dist/client): the entry
 * script of index.html plus every chunk it preloads, i.e. what a first visit downloads before any
 * lazy page. Usage: `npm run build:size` (builds first). Exits 1 past the 250 KB budget.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = join(process.cwd(), 'dist', 'client');
const BUDGET_BYTES = 250 * 1024;

const html = readFileSync(join(DIST, 'index.html'), 'utf8');
const entry = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
const files = [...new Set([...entry, ...preloads])].filter((f): f is string => typeof f === 'string');
if (files.length === 0) throw new Error('no module script found in dist/client/index.html (run npm run build)');

let raw = 0;
let gz = 0;
for (const file of files) {
  const bytes = readFileSync(join(DIST, file.replace(/^\//, '')));
  const zipped = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += zipped;
  console.log(
    `${file.padEnd(48)} ${(bytes.length / 1024).toFixed(1).padStart(8)} KB  gzip ${(zipped / 1024).toFixed(1).padStart(7)} KB`,
  );
}
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`initial JS: ${files.length} file(s), ${kb(raw)} raw, ${kb(gz)} gzipped (budget ${kb(BUDGET_BYTES)})`);
if (gz > BUDGET_BYTES) {
  console.error('initial JS is over budget');
  process.exit(1);
}
