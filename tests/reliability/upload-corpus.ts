import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { multipart } from '../helpers/post-multipart.js';
import { TEST_PATIENT_MARKER } from '../helpers/test-patients.js';

/** One file of the hostile-upload corpus and what the server must do with it. */
export interface TCorpusItem {
  name: string;
  filename: string;
  contentType: string;
  data: Buffer;
  expect: { refused: { status: number; message: string } } | { accepted: true };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A ~100-byte PNG whose header declares width×height 8-bit grey pixels: a decompression bomb. */
export function pixelBombPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    // One filtered row of zeros: a decoder that trusts the header would allocate 400 MB first.
    pngChunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small chest-film-like grey image (gradient + noise), so the real decoders have work to do. */
function greyRaw(w: number, h: number): Buffer {
  const px = Buffer.alloc(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) px[y * w + x] = (x * 3 + y * 5 + ((x * y) % 17)) & 0xff;
  return px;
}

export const APPENDED_HTML = '<html><body><script>alert("polyglot")</script></body></html>';
/** Patient data an unsuspecting scanner leaves in EXIF; the stored image must not carry it. */
export const EXIF_SECRET = `${TEST_PATIENT_MARKER} EXIF Patient`;

export async function buildUploadCorpus(): Promise<TCorpusItem[]> {
  const w = 96;
  const h = 96;
  const grey = () => sharp(greyRaw(w, h), { raw: { width: w, height: h, channels: 1 } });
  const jpeg = await grey().jpeg({ quality: 90 }).toBuffer();
  const png = await grey().png().toBuffer();
  const invalid = { refused: { status: 415, message: 'Please upload a valid image file (JPEG, PNG, WebP)' } };
  const zipLocalHeader = Buffer.concat([
    Buffer.from('PK\x03\x04', 'latin1'),
    Buffer.alloc(26),
    Buffer.from('evil.html'),
  ]);
  const rgb = sharp(greyRaw(w, h * 3), { raw: { width: w, height: h, channels: 3 } });
  const longDescription = `${EXIF_SECRET} `.repeat(2500).slice(0, 60_000);
  return [
    {
      name: 'zero bytes',
      filename: 'empty.jpg',
      contentType: 'image/jpeg',
      data: Buffer.alloc(0),
      expect: { refused: { status: 400, message: 'Please upload an X-ray image' } },
    },
    {
      name: 'truncated JPEG',
      filename: 'cut.jpg',
      contentType: 'image/jpeg',
      data: jpeg.subarray(0, Math.floor(jpeg.length / 2)),
      expect: invalid,
    },
    {
      name: 'truncated PNG',
      filename: 'cut.png',
      contentType: 'image/png',
      data: png.subarray(0, Math.floor(png.length / 2)),
      expect: invalid,
    },
    {
      name: 'wrong magic bytes (JPEG body, first bytes zeroed)',
      filename: 'x.jpg',
      contentType: 'image/jpeg',
      data: Buffer.concat([Buffer.alloc(4), jpeg.subarray(4)]),
      expect: invalid,
    },
    { name: 'GIF', filename: 'x.gif', contentType: 'image/gif', data: await grey().gif().toBuffer(), expect: invalid },
    {
      name: '20000x20000 pixel bomb PNG',
      filename: 'bomb.png',
      contentType: 'image/png',
      data: pixelBombPng(20_000, 20_000),
      expect: { refused: { status: 413, message: 'The image has too many pixels (at most 50 megapixels)' } },
    },
    {
      name: 'SVG with script',
      filename: 'x.svg',
      contentType: 'image/svg+xml',
      data: Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>`,
      ),
      expect: invalid,
    },
    {
      name: 'PDF renamed to .jpg',
      filename: 'scan.jpg',
      contentType: 'image/jpeg',
      data: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
      expect: invalid,
    },
    {
      name: 'HTML labelled image/png',
      filename: 'x.png',
      contentType: 'image/png',
      data: Buffer.from(APPENDED_HTML),
      expect: invalid,
    },
    {
      name: 'polyglot: JPEG + appended HTML and ZIP',
      filename: 'poly.jpg',
      contentType: 'image/jpeg',
      data: Buffer.concat([jpeg, Buffer.from(APPENDED_HTML), zipLocalHeader]),
      expect: { accepted: true },
    },
    {
      name: 'polyglot: PNG + appended HTML',
      filename: 'poly.png',
      contentType: 'image/png',
      data: Buffer.concat([png, Buffer.from(APPENDED_HTML)]),
      expect: { accepted: true },
    },
    {
      name: 'CMYK JPEG',
      filename: 'cmyk.jpg',
      contentType: 'image/jpeg',
      data: await rgb.clone().toColourspace('cmyk').jpeg().toBuffer(),
      expect: { accepted: true },
    },
    {
      name: '16-bit greyscale PNG',
      filename: 'g16.png',
      contentType: 'image/png',
      data: await grey().toColourspace('grey16').png().toBuffer(),
      expect: { accepted: true },
    },
    {
      name: 'JPEG with a ~60 KB EXIF block (patient name, GPS)',
      filename: 'exif.jpg',
      contentType: 'image/jpeg',
      data: await grey()
        .jpeg()
        .withExif({
          IFD0: { ImageDescription: longDescription, Artist: EXIF_SECRET },
          IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' },
        })
        .toBuffer(),
      expect: { accepted: true },
    },
  ];
}

/** A multipart body as a browser would send it: the patient fields, then the image. */
export function multipartBody(
  item: Pick<TCorpusItem, 'filename' | 'contentType' | 'data'>,
  profile: Record<string, string>,
) {
  return multipart([
    { name: 'profile', value: JSON.stringify(profile) },
    { name: 'image', value: item.data, filename: item.filename, type: item.contentType },
  ]);
}
