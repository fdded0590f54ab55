/**
 * Site calibration for IT, without the web client: proposes per-finding thresholds from a
 * labelled results CSV (`npm run batch` with a label column) for the shipped model, with the
 * same rules as the Site tab. It prints the proposal and changes nothing: to apply it, send the
 * same CSV from the Site tab or to POST /api/site/calibration/propose, then PUT /api/site/calibration.
 */
import { readFile } from 'node:fs/promises';
import { CliUsageError, intFlag, parseCliArgs, runCli } from '@common/cli-args.js';
import { buildProposal } from '../server/src/services/site/build-proposal.js';
import { csvCases } from '../server/src/services/site/collect-cases.js';
import { readModelIdentity } from '../server/src/services/site/read-model-identity.js';

const USAGE = `Usage: npm run calibrate -- results.csv [--target-sensitivity 0.9] [--min-cases 30] [--model models/cxr] [--json]

Proposes site thresholds (Youden, or the highest threshold keeping the target sensitivity) from a
labelled results CSV. Exit codes: 0 proposed, 1 refused (too few cases) or unreadable input, 2 usage.`;

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

runCli(USAGE, async () => {
  const { values, positionals } = parseCliArgs(process.argv.slice(2), {
    'target-sensitivity': { type: 'string' },
    'min-cases': { type: 'string' },
    model: { type: 'string' },
    json: { type: 'boolean' },
  });
  const file = positionals[0];
  if (!file) throw new CliUsageError('name the results CSV');
  const target = values['target-sensitivity'] === undefined ? null : Number(values['target-sensitivity']);
  if (target !== null && !(target >= 0.5 && target < 1))
    throw new CliUsageError('--target-sensitivity must be from 0.5 to 0.999');
  const minCases = intFlag('min-cases', values['min-cases'], 30, 10, 1_000_000);
  const model = readModelIdentity(values.model ?? process.env.MODEL_DIR ?? 'models/cxr');
  if (!model) throw new Error('cannot read the model manifest');
  const cases = csvCases(await readFile(file, 'utf8'), model.modelVersion);
  const out = buildProposal(
    model.findings,
    cases,
    target === null ? { kind: 'youden' } : { kind: 'target-sensitivity', sensitivity: target },
    minCases,
  );
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ modelVersion: model.modelVersion, modelSha256: model.sha256, ...out }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(
      `Model ${model.modelVersion} (sha256 ${model.sha256.slice(0, 12)}…), ${target === null ? 'Youden' : `target sensitivity ${pct(target)}`}\n`,
    );
    for (const f of out.findings) {
      process.stdout.write(
        `${f.display}: site threshold ${f.threshold.toFixed(2)}, model default ${f.defaultThreshold.toFixed(2)}; ` +
          `${f.cases} cases (${f.positives} present); sensitivity ${pct(f.sensitivity)} (95 % CI ${pct(f.sensitivityCi95[0])}–${pct(f.sensitivityCi95[1])}), ` +
          `specificity ${pct(f.specificity)} (95 % CI ${pct(f.specificityCi95[0])}–${pct(f.specificityCi95[1])})\n`,
      );
    }
    for (const s of out.skipped) process.stdout.write(`${s.finding}: not calibrated: ${s.reason}\n`);
  }
  if (out.findings.length === 0) {
    process.stderr.write(
      `Not enough labelled cases to calibrate any finding (at least ${minCases} each, 5 present and 5 absent).\n`,
    );
    return 1;
  }
  return 0;
});
