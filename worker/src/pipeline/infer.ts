import * as ort from 'onnxruntime-node';
import type { LoadedModel, ManifestInput } from './types.js';

export interface OutputTensor {
  data: Float32Array;
  dims: readonly number[];
}

const sessions = new Map<string, Promise<ort.InferenceSession>>();

/** Threads per inference; one by default so several worker processes can share a CPU. */
let intraOpThreads = 1;

/**
 * Sets the threads per inference for the sessions created after this call; the worker passes
 * its config's ORT_INTRA_OP_THREADS at boot, so a typo there is a config error, not a fallback.
 */
export function setIntraOpThreads(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new Error(`intra-op threads must be a positive integer, got ${n}`);
  intraOpThreads = n;
}

/** One ONNX session per model file, created on first use; concurrent callers share the promise. */
export function getSession(file: string): Promise<ort.InferenceSession> {
  let s = sessions.get(file);
  if (!s) {
    s = ort.InferenceSession.create(file, {
      intraOpNumThreads: intraOpThreads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      executionMode: 'sequential',
    });
    // A failed load must not poison the cache for the next attempt.
    s.catch(() => sessions.delete(file));
    sessions.set(file, s);
  }
  return s;
}

/** Closes a file's session (a model the worker no longer serves): its memory goes back. */
export async function releaseSession(file: string): Promise<void> {
  const s = sessions.get(file);
  if (!s) return;
  sessions.delete(file);
  await s.then((session) => session.release()).catch(() => undefined);
}

/** Runs one ONNX file on a batch of preprocessed images (NCHW float32) shaped by `spec`. */
export async function runOnnx(
  file: string,
  spec: ManifestInput,
  input: Float32Array,
  batch = 1,
): Promise<Record<string, OutputTensor>> {
  const session = await getSession(file);
  const { channels, height, width, name } = spec;
  const feeds = { [name]: new ort.Tensor('float32', input, [batch, channels, height, width]) };
  const results = await session.run(feeds);
  const out: Record<string, OutputTensor> = {};
  for (const [k, t] of Object.entries(results)) {
    out[k] = { data: t.data as Float32Array, dims: t.dims };
  }
  return out;
}

/** Runs the classifier on a batch of preprocessed images. */
export function infer(model: LoadedModel, input: Float32Array, batch = 1): Promise<Record<string, OutputTensor>> {
  return runOnnx(model.modelPath, model.manifest.input, input, batch);
}

/** Runs the anatomy stage (segmentation masks and, for model 2, the gate) on one preprocessed image. */
export function inferAnatomy(model: LoadedModel, input: Float32Array): Promise<Record<string, OutputTensor>> {
  const spec = model.manifest.anatomy;
  if (!spec || !model.anatomyPath) throw new Error('the model has no anatomy stage');
  return runOnnx(model.anatomyPath, spec.input, input);
}
