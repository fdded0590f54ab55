/**
 * `npm run model -- import <file.onnx> --contract torchxrayvision --name <name>` or
 * `--contract manifest --manifest <file.json>`: brings a site's own ONNX classifier into the model
 * registry (issue 47, docs/models.md). It checks the graph, runs it on the committed fixture
 * films and writes MODEL_REGISTRY_DIR/<name>/; a site admin then shadows it in Settings → Site →
 * Models. Exit codes: 0 imported, 1 refused or failed, 2 usage.
 */
import { userInfo } from 'node:os';
import { loadBaseConfig, modelRegistryDir } from '@contracts/config/base-config.js';
import { CliUsageError, parseCliArgs, runCli } from '@common/cli-args.js';
import { importModel } from '../../worker/src/models/import-model.js';

const USAGE = `Usage: npm run model -- import <file.onnx> --contract torchxrayvision --name NAME [--version V] [--by WHO]
       npm run model -- import <file.onnx> --contract manifest --manifest FILE.json --name NAME [--version V] [--by WHO]

  --contract  torchxrayvision: one 1x224x224 channel scaled to [-1024, 1024], the whole film
              centre-cropped, 18 logits in torchxrayvision's pathology order (docs/models.md);
              manifest: the manifest states input, scaling, crop and each output's finding
  --name      the model's id in the registry (lower-case letters, digits, dashes)
  --version   its version (default 1, or the manifest's)
  --by        who imports it, for the registry's record (default the system user)
Writes MODEL_REGISTRY_DIR/NAME (default DATA_DIR/models/NAME). Files over MODEL_IMPORT_MAX_MB
(default 512) are refused.`;

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv[0] !== 'import') throw new CliUsageError(argv[0] ? `Unknown command ${argv[0]}.` : 'Give a command.');
  const { values, positionals } = parseCliArgs(argv.slice(1), {
    contract: { type: 'string' },
    name: { type: 'string' },
    version: { type: 'string' },
    manifest: { type: 'string' },
    by: { type: 'string' },
  });
  if (positionals.length !== 1) throw new CliUsageError('Give one .onnx file.');
  const contract = values.contract;
  if (contract !== 'torchxrayvision' && contract !== 'manifest')
    throw new CliUsageError('--contract must be torchxrayvision or manifest.');
  if (!values.name) throw new CliUsageError('--name is required.');
  const config = loadBaseConfig();
  const maxMb = config.MODEL_IMPORT_MAX_MB;
  const entry = await importModel({
    file: positionals[0]!,
    contract,
    name: values.name,
    version: values.version,
    manifestFile: values.manifest,
    registryDir: modelRegistryDir(config),
    shippedDir: config.MODEL_DIR,
    maxBytes: maxMb * 1024 * 1024,
    importedBy: values.by ?? userInfo().username,
  });
  process.stdout.write(
    `imported ${entry.id} (${entry.name} ${entry.version}, sha256 ${entry.sha256}, opset ${entry.opset}); ` +
      `fixture films: ${entry.fixtureRuns.map((r) => `${r.film} ${r.accepted ? (r.topFinding ?? 'none') : 'refused'}`).join('; ')}\n` +
      'It is a candidate without operating points: shadow it in Settings → Site → Models, and measure them with ' +
      `npm run batch -- cohort.csv --model ${entry.id} --calibrate before it can go live.\n`,
  );
  return 0;
}

runCli(USAGE, main);
