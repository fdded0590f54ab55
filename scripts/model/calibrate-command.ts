import { loadBaseConfig, modelRegistryDir } from '@contracts/config/base-config.js';
import { CliUsageError, parseCliArgs } from '@common/cli-args.js';
import { calibrateModel, CalibrationRefused } from './calibrate-model.js';

/** `npm run batch -- cohort.csv --model NAME --calibrate`: exit 0 measured, 1 refused, 2 usage. */
export async function calibrateCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCliArgs(argv, { model: { type: 'string' }, calibrate: { type: 'boolean' } });
  if (positionals.length !== 1 || !values.model)
    throw new CliUsageError('--calibrate needs one cohort CSV and --model NAME (an imported model).');
  const config = loadBaseConfig();
  try {
    const points = await calibrateModel({
      cohort: positionals[0]!,
      modelId: values.model,
      dirs: { shipped: config.MODEL_DIR, registry: modelRegistryDir(config) },
      log: (line) => process.stderr.write(`${line}\n`),
    });
    for (const f of points.findings)
      process.stdout.write(
        `${f.label}: threshold ${f.threshold.toFixed(4)}, sensitivity ${f.sensitivity.toFixed(3)}, specificity ${f.specificity.toFixed(3)}, AUROC ${f.auroc?.toFixed(3) ?? '-'} (${f.positives} present, ${f.negatives} absent)\n`,
      );
    process.stdout.write(
      `${values.model}: operating points from ${points.studies} films written; it can be promoted now.\n`,
    );
    return 0;
  } catch (err) {
    if (err instanceof CalibrationRefused) {
      process.stderr.write(`batch: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
