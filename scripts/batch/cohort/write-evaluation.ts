import { createHash } from 'node:crypto';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { TBatchArgs } from '../args.js';
import type { TResultRow } from '../results.js';
import type { TOtherRun } from './compare-runs.js';
import { evaluateCohort } from './evaluate-cohort.js';
import { renderPlots } from './render-plots.js';
import { writeSummaryMarkdown } from './write-summary-markdown.js';

const ZManifestIdentity = z.object({ modelVersion: z.string(), sha256: z.string() });

async function readManifest(modelDir: string): Promise<{ modelVersion: string; sha256: string } | null> {
  const text = await readFile(join(modelDir, 'manifest.json'), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return ZManifestIdentity.safeParse(JSON.parse(text)).data ?? null;
  } catch {
    return null;
  }
}

async function csvSha256(input: string): Promise<string | null> {
  if ((await stat(input)).isDirectory()) return null;
  return createHash('sha256')
    .update(await readFile(input))
    .digest('hex');
}

/** The command as typed, with the API key left out: the summary may be shared with a paper. */
export function commandLine(argv: readonly string[]): string {
  const shown = argv.map((a, i) =>
    argv[i - 1] === '--key' || /^cxr_/.test(a) ? '<key>' : a.replace(/^--key=.*/, '--key=<key>'),
  );
  return ['npm run batch --', ...shown].join(' ');
}

/**
 * Computes the evaluation of a labelled run and writes `<out>.summary.json`, `.summary.md`,
 * `.roc.png` and `.calibration.png`. Everything is computed before the first file is written,
 * and each file goes to a temporary name first, so a failure never leaves half a summary.
 */
export async function writeEvaluation(opts: {
  args: TBatchArgs;
  argv: readonly string[];
  rows: readonly TResultRow[];
  other: TOtherRun | null;
}): Promise<string[]> {
  const { args } = opts;
  const files = {
    json: `${args.out}.summary.json`,
    md: `${args.out}.summary.md`,
    roc: `${args.out}.roc.png`,
    calibration: `${args.out}.calibration.png`,
  };
  const { summary, roc } = evaluateCohort({
    rows: opts.rows,
    settings: { seed: args.seed, resamples: args.resamples },
    other: opts.other,
    reproducibility: {
      command: commandLine(opts.argv),
      date: new Date().toISOString(),
      csvSha256: await csvSha256(args.input),
      manifest: await readManifest(args.modelDir),
    },
    plots: { roc: basename(files.roc), calibration: basename(files.calibration) },
  });
  const plots = await renderPlots(summary, roc);
  const contents: [string, string | Buffer][] = [
    [files.json, `${JSON.stringify(summary, null, 2)}\n`],
    [files.md, writeSummaryMarkdown(summary)],
    [files.roc, plots.roc],
    [files.calibration, plots.calibration],
  ];
  for (const [file, content] of contents) await writeFile(`${file}.tmp`, content);
  for (const [file] of contents) await rename(`${file}.tmp`, file);
  return [files.md, files.json, files.roc, files.calibration];
}
