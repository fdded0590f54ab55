import { createHash } from 'node:crypto';
import { access, copyFile, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-node';
import { parseModelManifest } from '@contracts/model/manifest.js';
import { XRV_INPUT, XRV_PATHOLOGIES } from '@contracts/model/torchxrayvision.js';
import {
  SHIPPED_MODEL_ID,
  ZModelId,
  ZRegistryEntry,
  type TFixtureRun,
  type TModelContract,
  type TRegistryEntry,
} from '@contracts/model/registry.js';
import { loadModel, runPipeline } from '../pipeline/run-pipeline.js';
import { readAnatomyStage, type TAnatomyStage } from './borrow-anatomy-stage.js';
import { torchxrayvisionManifest } from './build-manifest.js';
import { productFindings } from './product-findings.js';
import { OnnxHeaderError, readOnnxHeader } from './read-onnx-header.js';

/** The oldest opset the import accepts: onnxruntime keeps running older ones, but exporters of today write 11+. */
export const MIN_OPSET = 11;

/**
 * The committed films every import runs on (tests/fixtures/cxr/README.md says where they come
 * from), found from this file so the worker process, the CLI and the tests read the same ones
 * whatever their working directory.
 */
export const FIXTURE_FILMS = [
  'normal-covid-normal-6288.jpg',
  'pneumonia-bacterial-kermany-person1307-bacteria-3278.jpg',
  'covid19-covid-covid-2944.jpg',
].map((f) => fileURLToPath(new URL(`../../../tests/fixtures/cxr/${f}`, import.meta.url)));

/**
 * An import that does not fit: the message says what and why, and nothing was written.
 * `conflict`: the registry already holds the name (the file itself may be fine).
 */
export class ImportRefused extends Error {
  override name = 'ImportRefused';
  constructor(
    message: string,
    readonly kind: 'refused' | 'conflict' = 'refused',
  ) {
    super(message);
  }
}

export interface TImportOptions {
  file: string;
  contract: Exclude<TModelContract, 'shipped'>;
  name: string;
  version?: string | undefined;
  /** With contract 'manifest': the manifest stating input, scaling, crop and each output's finding. */
  manifestFile?: string | undefined;
  registryDir: string;
  shippedDir: string;
  maxBytes: number;
  importedBy: string;
  fixtures?: string[];
  now?: Date;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

/**
 * Checks an ONNX file against its contract, runs it on the fixture films and, when everything
 * fits, writes its registry folder (model.onnx, manifest.json as it will be served, registry.json).
 * A refusal throws ImportRefused before anything is written. A new model is a candidate with
 * no operating points: it may be shadowed, and goes live only after `npm run batch -- … --calibrate`.
 */
export async function importModel(opts: TImportOptions): Promise<TRegistryEntry> {
  const id = ZModelId.safeParse(opts.name);
  if (!id.success) throw new ImportRefused(`--name: ${id.error.issues[0]!.message}`);
  if (id.data === SHIPPED_MODEL_ID)
    throw new ImportRefused(`"${SHIPPED_MODEL_ID}" is the shipped model's name`, 'conflict');
  const dir = path.join(opts.registryDir, id.data);
  if (await exists(dir)) throw new ImportRefused(`a model named ${id.data} is already in the registry`, 'conflict');

  const size = (await stat(opts.file)).size;
  if (size > opts.maxBytes)
    throw new ImportRefused(`the file is ${mb(size)}; the limit is ${mb(opts.maxBytes)} (MODEL_IMPORT_MAX_MB)`);
  const bytes = new Uint8Array(await readFile(opts.file));
  let header;
  try {
    header = readOnnxHeader(bytes);
  } catch (err) {
    if (err instanceof OnnxHeaderError) throw new ImportRefused(`not an ONNX model file (${err.message})`);
    throw err;
  }
  if (header.opset < MIN_OPSET)
    throw new ImportRefused(`the graph uses opset ${header.opset}; the import needs opset ${MIN_OPSET} or newer`);
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(bytes);
  } catch (err) {
    throw new ImportRefused(`onnxruntime cannot load the graph: ${(err as Error).message.split('\n')[0]}`);
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  try {
    if (session.inputNames.length !== 1)
      throw new ImportRefused(
        `the graph has ${session.inputNames.length} inputs (${session.inputNames.join(', ')}); a model takes exactly one image input`,
      );
    const stage = await readAnatomyStage(opts.shippedDir);
    const manifest = await manifestFor(opts, session, { sha256, opset: header.opset }, stage);
    checkShapes(manifest, session, opts.contract);
    return await writeFolder(opts, { id: id.data, dir, bytes, sha256, opset: header.opset, manifest, stage });
  } finally {
    await session.release();
  }
}

type TParsedManifest = Extract<ReturnType<typeof parseModelManifest>, { ok: true }>['manifest'];

async function manifestFor(
  opts: TImportOptions,
  session: ort.InferenceSession,
  known: { sha256: string; opset: number },
  stage: TAnatomyStage | null,
): Promise<TParsedManifest> {
  const displays = await productFindings(opts.shippedDir);
  let raw: Record<string, unknown>;
  if (opts.contract === 'torchxrayvision') {
    if (session.outputNames.length !== 1)
      throw new ImportRefused(
        `the graph has ${session.outputNames.length} outputs; torchxrayvision's contract has one (${XRV_PATHOLOGIES.length} logits)`,
      );
    raw = torchxrayvisionManifest({
      name: opts.name,
      version: opts.version ?? '1',
      ...known,
      inputName: session.inputNames[0]!,
      outputName: session.outputNames[0]!,
      displays,
    });
  } else {
    if (!opts.manifestFile) throw new ImportRefused('--contract manifest needs --manifest <file.json>');
    let given: Record<string, unknown>;
    try {
      given = JSON.parse(await readFile(opts.manifestFile, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new ImportRefused(`cannot read the manifest: ${(err as Error).message}`);
    }
    // The served file is the imported one, whatever name and digest the given manifest had.
    raw = {
      ...given,
      modelName: given.modelName ?? opts.name,
      modelVersion: opts.version ?? given.modelVersion ?? '1',
      file: 'model.onnx',
      sha256: known.sha256,
      opset: known.opset,
      contract: 'manifest',
    };
  }
  if (raw.anatomy !== undefined || raw.gate !== undefined)
    throw new ImportRefused(
      "an imported model brings no anatomy stage or gate of its own: the shipped model's runs in front of it (docs/models.md)",
    );
  // The shipped anatomy stage and its chest-film gate run in front of every imported classifier.
  const parsed = parseModelManifest(stage ? { ...raw, anatomy: stage.anatomy, gate: stage.gate } : raw);
  if (!parsed.ok) throw new ImportRefused(`the manifest does not fit the contract: ${parsed.error}`);
  const m = parsed.manifest;
  const unknown = (m.findings ?? []).map((f) => f.label).filter((l) => !displays.has(l));
  if (unknown.length)
    throw new ImportRefused(
      `the manifest names findings the product does not know: ${unknown.join(', ')} (known: ${[...displays.keys()].join(', ')})`,
    );
  if (!m.findings?.length) throw new ImportRefused('the manifest maps no output to a product finding');
  return m;
}

/** The graph's input and each head's output against the manifest (a named dimension passes as any size). */
function checkShapes(m: TParsedManifest, session: ort.InferenceSession, contract: TImportOptions['contract']): void {
  const input = session.inputMetadata[0];
  const want = [1, m.input.channels, m.input.height, m.input.width];
  const shape = input?.isTensor ? input.shape : [];
  const fits =
    shape.length === 4 && shape.every((d, i) => typeof d !== 'number' || d === want[i] || (i === 0 && d < 0));
  if (!fits || (input?.isTensor && input.type !== 'float32')) {
    const whose = contract === 'torchxrayvision' ? "torchxrayvision's contract" : 'the manifest';
    throw new ImportRefused(
      `the input is ${input?.isTensor ? input.type : 'not a tensor'} [${shape.join(', ')}]; ${whose} needs float32 [${want.join(', ')}]`,
    );
  }
  if (
    contract === 'torchxrayvision' &&
    (m.input.height !== XRV_INPUT.height || m.input.channels !== XRV_INPUT.channels)
  )
    throw new ImportRefused('torchxrayvision input drifted');
  for (const h of m.heads) {
    const i = session.outputNames.indexOf(h.output);
    if (i < 0)
      throw new ImportRefused(`the graph has no output named ${h.output} (it has ${session.outputNames.join(', ')})`);
    const meta = session.outputMetadata[i];
    const dims = meta?.isTensor ? meta.shape : [];
    const last = dims[dims.length - 1];
    if (dims.length !== 2 || (typeof last === 'number' && last !== h.labels.length))
      throw new ImportRefused(
        `output ${h.output} is [${dims.join(', ')}]; head ${h.name} needs [1, ${h.labels.length}] (${h.labels.length} outputs)`,
      );
  }
}

async function writeFolder(
  opts: TImportOptions,
  got: {
    id: string;
    dir: string;
    bytes: Uint8Array;
    sha256: string;
    opset: number;
    manifest: TParsedManifest;
    stage: TAnatomyStage | null;
  },
): Promise<TRegistryEntry> {
  await mkdir(opts.registryDir, { recursive: true });
  // Written beside the registry and renamed into place: a half-written folder is never a model.
  const tmp = path.join(opts.registryDir, `.importing-${got.id}-${process.pid}`);
  await rm(tmp, { recursive: true, force: true });
  await mkdir(tmp);
  try {
    await writeFile(path.join(tmp, 'model.onnx'), got.bytes);
    if (got.stage) await copyFile(got.stage.source, path.join(tmp, got.stage.anatomy.file));
    await writeFile(path.join(tmp, 'manifest.json'), `${JSON.stringify(got.manifest, null, 2)}\n`);
    const fixtureRuns = await runFixtures(tmp, opts.fixtures ?? FIXTURE_FILMS);
    const entry = ZRegistryEntry.parse({
      id: got.id,
      name: got.manifest.modelName,
      version: got.manifest.modelVersion,
      contract: opts.contract,
      file: 'model.onnx',
      sha256: got.sha256,
      bytes: got.bytes.length,
      opset: got.opset,
      importedAt: (opts.now ?? new Date()).toISOString(),
      importedBy: opts.importedBy,
      fixtureRuns,
      operatingPoints: null,
    });
    await writeFile(path.join(tmp, 'registry.json'), `${JSON.stringify(entry, null, 2)}\n`);
    await rename(tmp, got.dir);
    return entry;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** The worker's own pipeline on each fixture film: it must load, run and give a probability in [0, 1] per finding. */
async function runFixtures(dir: string, films: string[]): Promise<TFixtureRun[]> {
  const model = await loadModel(dir);
  const runs: TFixtureRun[] = [];
  for (const film of films) {
    const t0 = performance.now();
    let result;
    try {
      result = await runPipeline(await readFile(film), model);
    } catch (err) {
      throw new ImportRefused(`the model fails on fixture film ${path.basename(film)}: ${(err as Error).message}`);
    }
    const bad = result.findings.find((f) => !(f.probability >= 0 && f.probability <= 1));
    if (bad) throw new ImportRefused(`on fixture film ${path.basename(film)} ${bad.label} is not a probability`);
    runs.push({
      film: path.basename(film),
      accepted: result.gate.accepted,
      topFinding: result.topFinding,
      ms: Math.round(performance.now() - t0),
    });
  }
  if (!runs.some((r) => r.accepted)) throw new ImportRefused('the pipeline refused every fixture film with this model');
  return runs;
}
