/**
 * npm run measure:test-retest [-- --model DIR --out FILE]
 *
 * The model's test-retest spread per finding (issue 49): every committed fixture radiograph
 * (tests/fixtures/cxr, tests/fixtures/xray) runs through the worker's real pipeline as it is, then
 * re-encoded (JPEG quality 90, 70, 50), flipped left-right and re-windowed (narrower, wider,
 * brighter); each variant's calibrated probability is compared with the original's. A finding's
 * spread is the 95th percentile (nearest rank) of those absolute changes over every film and
 * variant the gate accepted. The comparison with a prior study (services/timeline/compare-results.ts)
 * calls a move "higher" or "lower" only beyond it. Writes models/cxr/test-retest.json (schema:
 * contracts/model/test-retest.ts) and prints it.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { parseCliArgs, runCli } from '@common/cli-args.js';
import { ZTestRetest, type TTestRetest } from '@contracts/model/test-retest.js';
import { loadModel, runPipeline } from '../worker/src/pipeline/run-pipeline.js';
import type { LoadedModel } from '../worker/src/pipeline/types.js';

const FIXTURE_DIRS = ['tests/fixtures/cxr', 'tests/fixtures/xray'];

/** One way the same film could come back: its name, its kind, and how to make it from the original's bytes. */
const VARIANTS: { name: string; kind: string; make: (img: Buffer) => Promise<Buffer> }[] = [
  ...[90, 70, 50].map((quality) => ({
    name: `jpeg-q${quality}`,
    kind: 're-encoded',
    make: (img: Buffer) => sharp(img).jpeg({ quality }).toBuffer(),
  })),
  { name: 'flipped', kind: 'flipped', make: (img) => sharp(img).flop().png().toBuffer() },
  // Window changes as a viewer or a modality's LUT would make them: contrast up, down, and a brighter level.
  { name: 'window-narrow', kind: 're-windowed', make: (img) => sharp(img).linear(1.2, -25.5).png().toBuffer() },
  { name: 'window-wide', kind: 're-windowed', make: (img) => sharp(img).linear(0.8, 25.5).png().toBuffer() },
  { name: 'window-brighter', kind: 're-windowed', make: (img) => sharp(img).linear(1, 20).png().toBuffer() },
];

async function fixtureFilms(): Promise<string[]> {
  const out: string[] = [];
  for (const dir of FIXTURE_DIRS)
    for (const f of (await readdir(dir)).sort()) if (/\.(jpe?g|png)$/i.test(f)) out.push(path.join(dir, f));
  return out;
}

/** label → probability, or null when the gate refused the image. */
async function probabilities(model: LoadedModel, image: Buffer): Promise<Map<string, number> | null> {
  const r = await runPipeline(image, model);
  return r.gate.accepted ? new Map(r.findings.map((f) => [f.label, f.probability])) : null;
}

/** Nearest-rank percentile of non-empty values. */
function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? 0;
}

const round = (x: number): number => Number(x.toFixed(4));

export async function measureTestRetest(modelDir: string): Promise<TTestRetest> {
  const model = await loadModel(modelDir);
  const films = await fixtureFilms();
  const deltas = new Map<string, { all: number[]; byKind: Map<string, number> }>();
  for (const film of films) {
    const original = await readFile(film);
    const base = await probabilities(model, original);
    if (!base) continue;
    for (const v of VARIANTS) {
      const probs = await probabilities(model, await v.make(original));
      if (!probs) continue;
      for (const [label, p0] of base) {
        const p = probs.get(label);
        if (p === undefined) continue;
        const d = Math.abs(p - p0);
        const entry = deltas.get(label) ?? { all: [], byKind: new Map<string, number>() };
        entry.all.push(d);
        entry.byKind.set(v.kind, Math.max(entry.byKind.get(v.kind) ?? 0, d));
        deltas.set(label, entry);
      }
    }
  }
  return ZTestRetest.parse({
    modelVersion: model.manifest.modelVersion,
    films,
    variants: VARIANTS.map((v) => v.name),
    statistic:
      'spread: 95th percentile (nearest rank) of |p(variant) - p(original)| over every fixture film and variant the gate accepted; byKind: the largest change per kind of variant',
    findings: Object.fromEntries(
      [...deltas].map(([label, d]) => [
        label,
        {
          spread: round(percentile(d.all, 0.95)),
          n: d.all.length,
          byKind: Object.fromEntries([...d.byKind].map(([k, max]) => [k, { max: round(max) }])),
        },
      ]),
    ),
  });
}

async function main(): Promise<number> {
  const { values } = parseCliArgs(process.argv.slice(2), { model: { type: 'string' }, out: { type: 'string' } });
  const modelDir = typeof values.model === 'string' ? values.model : 'models/cxr';
  const out = typeof values.out === 'string' ? values.out : path.join(modelDir, 'test-retest.json');
  const measured = await measureTestRetest(modelDir);
  const text = `${JSON.stringify(measured, null, 2)}\n`;
  await writeFile(out, text);
  process.stdout.write(text);
  return 0;
}

const USAGE = 'Usage: npm run measure:test-retest [-- --model DIR --out FILE]';

if (import.meta.url === `file://${process.argv[1]}`) runCli(USAGE, main);
