/**
 * Reads the top of an ONNX file's ModelProto (a protobuf): its IR version and the default
 * domain's opset. onnxruntime-node does not expose the opset, and the import refuses graphs
 * older than it supports (issue 47). Only the top-level fields are walked; the graph (field 7)
 * is skipped by its length, never parsed.
 */
export interface TOnnxHeader {
  irVersion: number;
  /** The opset of the default domain ('' or 'ai.onnx'). */
  opset: number;
}

export class OnnxHeaderError extends Error {}

class Reader {
  pos = 0;
  constructor(readonly b: Uint8Array) {}

  done(): boolean {
    return this.pos >= this.b.length;
  }

  varint(): number {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (this.pos >= this.b.length || shift > 63n) throw new OnnxHeaderError('truncated varint');
      const byte = this.b[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) break;
      shift += 7n;
    }
    return Number(BigInt.asIntN(64, result));
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else if (wire === 2) {
      const n = this.varint(); // read before pos is, so the length's own bytes count
      this.pos += n;
    } else throw new OnnxHeaderError(`unsupported wire type ${wire}`);
    if (this.pos > this.b.length) throw new OnnxHeaderError('truncated field');
  }

  bytes(): Uint8Array {
    const n = this.varint();
    if (this.pos + n > this.b.length) throw new OnnxHeaderError('truncated field');
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

function readOpsetId(b: Uint8Array): { domain: string; version: number } {
  const r = new Reader(b);
  let domain = '';
  let version = 0;
  while (!r.done()) {
    const key = r.varint();
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 1 && wire === 2) domain = new TextDecoder().decode(r.bytes());
    else if (field === 2 && wire === 0) version = r.varint();
    else r.skip(wire);
  }
  return { domain, version };
}

/** The IR version and default-domain opset; throws OnnxHeaderError when the bytes are not a ModelProto. */
export function readOnnxHeader(bytes: Uint8Array): TOnnxHeader {
  const r = new Reader(bytes);
  let irVersion = 0;
  let opset = 0;
  let sawGraph = false;
  while (!r.done()) {
    const key = r.varint();
    const field = key >>> 3;
    const wire = key & 7;
    if (field === 0) throw new OnnxHeaderError('field number 0');
    if (field === 1 && wire === 0) irVersion = r.varint();
    else if (field === 8 && wire === 2) {
      const id = readOpsetId(r.bytes());
      if (id.domain === '' || id.domain === 'ai.onnx') opset = id.version;
    } else {
      if (field === 7) sawGraph = true;
      r.skip(wire);
    }
  }
  if (!irVersion || !sawGraph) throw new OnnxHeaderError('no IR version or graph');
  if (!opset) throw new OnnxHeaderError('no default-domain opset');
  return { irVersion, opset };
}
