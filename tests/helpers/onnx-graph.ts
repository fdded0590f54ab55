/**
 * A minimal ONNX writer (issue 47): the ONNX file format is a protobuf (onnx.proto3: ModelProto →
 * GraphProto → NodeProto / TensorProto / ValueInfoProto), and the few fields a small float graph
 * needs are written here by hand, so the tests and the bench build their models at run time
 * instead of downloading any. Field numbers are onnx.proto's.
 */

type TAttr = { i: number } | { f: number } | { ints: number[] };

export interface TOnnxNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attrs?: Record<string, TAttr>;
}

export interface TOnnxTensor {
  name: string;
  dims: number[];
  data: Float32Array;
}

export interface TOnnxValue {
  name: string;
  /** A number is a fixed size; a string a named (batch) dimension. */
  shape: (number | string)[];
}

export interface TOnnxGraph {
  opset: number;
  nodes: TOnnxNode[];
  initializers: TOnnxTensor[];
  inputs: TOnnxValue[];
  outputs: TOnnxValue[];
}

/** A growing byte buffer with the protobuf wire encodings. */
class Writer {
  private chunks: Uint8Array[] = [];
  private length = 0;

  raw(b: Uint8Array): this {
    this.chunks.push(b);
    this.length += b.length;
    return this;
  }

  varint(n: number): this {
    const out: number[] = [];
    let v = BigInt(n);
    if (v < 0n) v += 1n << 64n; // int64 negatives take ten bytes
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      out.push(byte);
    } while (v > 0n);
    return this.raw(Uint8Array.from(out));
  }

  int(field: number, n: number): this {
    return this.varint(field << 3).varint(n);
  }

  float(field: number, f: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, f, true);
    return this.varint((field << 3) | 5).raw(b);
  }

  bytes(field: number, b: Uint8Array): this {
    return this.varint((field << 3) | 2)
      .varint(b.length)
      .raw(b);
  }

  string(field: number, s: string): this {
    return this.bytes(field, new TextEncoder().encode(s));
  }

  message(field: number, w: Writer): this {
    return this.bytes(field, w.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

const FLOAT = 1;

function attribute(name: string, a: TAttr): Writer {
  const w = new Writer().string(1, name);
  if ('i' in a) return w.int(3, a.i).int(20, 2);
  if ('f' in a) return w.float(2, a.f).int(20, 1);
  for (const v of a.ints) w.int(8, v);
  return w.int(20, 7);
}

function node(n: TOnnxNode, index: number): Writer {
  const w = new Writer();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(3, `${n.op.toLowerCase()}_${index}`).string(4, n.op);
  for (const [name, a] of Object.entries(n.attrs ?? {})) w.message(5, attribute(name, a));
  return w;
}

function tensor(t: TOnnxTensor): Writer {
  const w = new Writer();
  for (const d of t.dims) w.int(1, d);
  w.int(2, FLOAT).string(8, t.name);
  return w.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

function valueInfo(v: TOnnxValue): Writer {
  const shape = new Writer();
  for (const d of v.shape) shape.message(1, typeof d === 'number' ? new Writer().int(1, d) : new Writer().string(2, d));
  const tensorType = new Writer().int(1, FLOAT).message(2, shape);
  return new Writer().string(1, v.name).message(2, new Writer().message(1, tensorType));
}

/** The .onnx bytes of a graph (IR version 8, the default domain at `opset`). */
export function encodeOnnx(g: TOnnxGraph): Uint8Array {
  const graph = new Writer();
  g.nodes.forEach((n, i) => graph.message(1, node(n, i)));
  graph.string(2, 'graph');
  for (const t of g.initializers) graph.message(5, tensor(t));
  for (const v of g.inputs) graph.message(11, valueInfo(v));
  for (const v of g.outputs) graph.message(12, valueInfo(v));
  return new Writer()
    .int(1, 8)
    .string(2, 'chest-doctor-ai tests')
    .message(7, graph)
    .message(8, new Writer().string(1, '').int(2, g.opset))
    .finish();
}

/** Deterministic small random weights (mulberry32), uniform in [-scale, scale]. */
export function randomWeights(n: number, seed: number, scale: number): Float32Array {
  let a = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1) * scale;
  }
  return out;
}

export interface TXrvShapedOptions {
  opset?: number;
  /** [N, C, H, W] of the one input (default [1, 1, 224, 224]). */
  inputShape?: (number | string)[];
  /** Outputs of the last layer (default 18). */
  outputs?: number;
  /** A second graph input added to the logits: what the import refuses as "more than one input". */
  extraInput?: boolean;
  seed?: number;
}

/**
 * A torchxrayvision-shaped classifier: one [1, 1, 224, 224] input, 18 logits, small random weights
 * (Conv 7x7 stride 4 → Relu → GlobalAveragePool → Flatten → Gemm). The weights are scaled for
 * inputs in [-1024, 1024] so the logits spread over the sigmoid instead of saturating.
 */
export function xrvShapedOnnx(opts: TXrvShapedOptions = {}): Uint8Array {
  const shape = opts.inputShape ?? [1, 1, 224, 224];
  const channels = typeof shape[1] === 'number' ? shape[1] : 1;
  const k = 4;
  const n = opts.outputs ?? 18;
  const seed = opts.seed ?? 7;
  const nodes: TOnnxNode[] = [
    {
      op: 'Conv',
      inputs: ['img', 'conv_w', 'conv_b'],
      outputs: ['c1'],
      attrs: { kernel_shape: { ints: [7, 7] }, strides: { ints: [4, 4] }, pads: { ints: [3, 3, 3, 3] } },
    },
    { op: 'Relu', inputs: ['c1'], outputs: ['r1'] },
    { op: 'GlobalAveragePool', inputs: ['r1'], outputs: ['g1'] },
    { op: 'Flatten', inputs: ['g1'], outputs: ['f1'], attrs: { axis: { i: 1 } } },
    { op: 'Gemm', inputs: ['f1', 'fc_w', 'fc_b'], outputs: [opts.extraInput ? 'pre' : 'logits'] },
  ];
  const inputs: TOnnxValue[] = [{ name: 'img', shape }];
  if (opts.extraInput) {
    nodes.push({ op: 'Add', inputs: ['pre', 'extra'], outputs: ['logits'] });
    inputs.push({ name: 'extra', shape: [1, n] });
  }
  return encodeOnnx({
    opset: opts.opset ?? 17,
    nodes,
    initializers: [
      { name: 'conv_w', dims: [k, channels, 7, 7], data: randomWeights(k * channels * 49, seed, 1 / 2048) },
      { name: 'conv_b', dims: [k], data: randomWeights(k, seed + 1, 0.1) },
      { name: 'fc_w', dims: [k, n], data: randomWeights(k * n, seed + 2, 4) },
      { name: 'fc_b', dims: [n], data: randomWeights(n, seed + 3, 0.5) },
    ],
    inputs,
    outputs: [{ name: 'logits', shape: [1, n] }],
  });
}

/** A manifest-contract manifest for xrvShapedOnnx's graph: outputs o0..o17, `findings` mapped in order to o0, o1, …. */
export function xrvGraphManifest(
  findings: string[],
  input: Record<string, unknown> = {},
): {
  schemaVersion: 2;
  input: Record<string, unknown>;
  heads: { name: string; output: string; activation: 'sigmoid'; labels: string[] }[];
  findings: { label: string; source: { head: string; label: string } }[];
} {
  return {
    schemaVersion: 2,
    input: {
      name: 'img',
      layout: 'NCHW',
      channels: 1,
      height: 224,
      width: 224,
      scale: 1,
      mean: [0],
      std: [1],
      ...input,
    },
    heads: [
      { name: 'h', output: 'logits', activation: 'sigmoid', labels: Array.from({ length: 18 }, (_, i) => `o${i}`) },
    ],
    findings: findings.map((label, i) => ({ label, source: { head: 'h', label: `o${i}` } })),
  };
}
