import * as ort from 'onnxruntime-node';
import type { LoadedModel } from './types.js';

export interface OutputTensor {
  data: Float32Array;
  dims: readonly number[];
}

const sessions = new Map<string, Promise<ort.InferenceSession>>();

/** Threads per inference; one by default so several worker processes can share a CPU. */
function threads(): number {
  const n = Number(process.env.ORT_INTRA_OP_THREADS ?? 1);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** One ONNX session per model file, created on first use; concurrent callers share the promise. */
export function getSession(model: LoadedModel): Promise<ort.InferenceSession> {
  let s = sessions.get(model.modelPath);
  if (!s) {
    s = ort.InferenceSession.create(model.modelPath, {
      intraOpNumThreads: threads(),
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      executionMode: 'sequential',
    });
    // A failed load must not poison the cache for the next attempt.
    s.catch(() => sessions.delete(model.modelPath));
    sessions.set(model.modelPath, s);
  }
  return s;
}

/** Runs the network on a batch of preprocessed images (NCHW float32). */
export async function infer(model: LoadedModel, input: Float32Array, batch = 1): Promise<Record<string, OutputTensor>> {
  const session = await getSession(model);
  const { channels, height, width, name } = model.manifest.input;
  const feeds = { [name]: new ort.Tensor('float32', input, [batch, channels, height, width]) };
  const results = await session.run(feeds);
  const out: Record<string, OutputTensor> = {};
  for (const [k, t] of Object.entries(results)) {
    out[k] = { data: t.data as Float32Array, dims: t.dims };
  }
  return out;
}
