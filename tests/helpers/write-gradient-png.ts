import { crc32, createDeflate } from 'node:zlib';

/**
 * An 8-bit gray (or RGB) PNG, each row one shade (a top-to-bottom gradient), written row by row through
 * a streaming deflate so that making it raises this process's peak RSS by almost nothing.
 */
export async function gradientPng(side: number, channels: 1 | 3 = 1): Promise<Buffer> {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr.set([8, channels === 1 ? 0 : 2, 0, 0, 0], 8); // 8-bit, gray or RGB, deflate, no filter method, no interlace
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(side * channels + 1);
  for (let y = 0; y < side; y++) {
    row.fill(40 + Math.floor((y / side) * 160), 1);
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', Buffer.concat(parts)), chunk('IEND', Buffer.alloc(0))]);
}
