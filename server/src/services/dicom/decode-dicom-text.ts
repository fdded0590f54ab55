/**
 * Text of a DICOM data set decoded by its Specific Character Set (0008,0005; PS3.3 C.12.1.1.2,
 * PS3.5 6.1). dicom-parser reads one byte a character, so `Müller` sent in UTF-8 came back as
 * `MÃ¼ller` and a NUL cut a PatientID short (issue 36, S8). Browser-safe: TextDecoder only.
 */

/** Single-byte sets by defined term (without and with code extensions), as WHATWG labels. */
const SINGLE_BYTE: Record<string, string> = {
  'IR 100': 'latin1',
  'IR 101': 'iso-8859-2',
  'IR 109': 'iso-8859-3',
  'IR 110': 'iso-8859-4',
  'IR 144': 'iso-8859-5',
  'IR 127': 'iso-8859-6',
  'IR 126': 'iso-8859-7',
  'IR 138': 'iso-8859-8',
  'IR 148': 'iso-8859-9',
  'IR 203': 'iso-8859-15',
  'IR 166': 'windows-874',
};
/** Multi-byte sets without code extensions. */
const WHOLE: Record<string, string> = { 'ISO_IR 192': 'utf-8', GB18030: 'gb18030', GBK: 'gbk' };
/** The final byte of `ESC 2/13 F` (designate a 96-character set to G1) for each Latin-type set. */
const G1_FINAL: Record<number, string> = {
  0x41: 'IR 100',
  0x42: 'IR 101',
  0x43: 'IR 109',
  0x44: 'IR 110',
  0x4c: 'IR 144',
  0x47: 'IR 127',
  0x46: 'IR 126',
  0x48: 'IR 138',
  0x4d: 'IR 148',
  0x62: 'IR 203',
  0x54: 'IR 166',
};
/** Where an ISO 2022 value goes back to its initial sets (PS3.5 6.1.2.5.3): ^ = \ CR LF TAB FF. */
const RESETS = new Set([0x5e, 0x3d, 0x5c, 0x0d, 0x0a, 0x09, 0x0c]);
const ESC = 0x1b;
const REPLACEMENT = '\ufffd';

const tables = new Map<string, string[]>();
/** The upper half (0x80-0xFF) of a single-byte set; ISO-8859-1 by code point (WHATWG's latin1 is windows-1252). */
function upperHalf(set: string): string[] {
  let t = tables.get(set);
  if (!t) {
    const label = SINGLE_BYTE[set] ?? 'latin1';
    const decoder = label === 'latin1' ? null : new TextDecoder(label);
    t = Array.from({ length: 128 }, (_, i) =>
      decoder ? decoder.decode(new Uint8Array([i + 0x80])) : String.fromCharCode(i + 0x80),
    );
    tables.set(set, t);
  }
  return t;
}

function decodeSingleByte(bytes: Uint8Array, set: string | null): string {
  const upper = set ? upperHalf(set) : null;
  let out = '';
  for (const b of bytes) out += b < 0x80 ? String.fromCharCode(b) : (upper?.[b - 0x80] ?? REPLACEMENT);
  return out;
}

/** ISO 2022 with Latin-type G1 sets switched by escape sequences; other escapes give U+FFFD. */
function decodeIso2022(bytes: Uint8Array, initial: string | null): string {
  let g1 = initial;
  let unsupported = false;
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === ESC) {
      const [i1, f] = [bytes[i + 1], bytes[i + 2]];
      if (i1 === 0x2d && f !== undefined && G1_FINAL[f]) [g1, unsupported] = [G1_FINAL[f]!, false];
      else if (i1 === 0x28 && (f === 0x42 || f === 0x4a)) unsupported = false;
      else unsupported = true;
      i += i1 === 0x24 && (bytes[i + 2] === 0x28 || bytes[i + 2] === 0x29) ? 3 : 2;
      continue;
    }
    if (RESETS.has(b)) [g1, unsupported] = [initial, false];
    if (unsupported) out += b < 0x20 || RESETS.has(b) ? String.fromCharCode(b) : REPLACEMENT;
    else out += b < 0x80 ? String.fromCharCode(b) : (upperHalf(g1 ?? '')[b - 0x80] ?? REPLACEMENT);
  }
  return out;
}

/** Decodes a text value's bytes as the data set's Specific Character Set declares (its raw value). */
export function decodeDicomText(bytes: Uint8Array, specificCharacterSet: string | null | undefined): string {
  const terms = (specificCharacterSet ?? '').split('\\').map((t) => t.trim().toUpperCase());
  const first = terms[0] ?? '';
  if (terms.some((t) => t.startsWith('ISO 2022'))) {
    const set = first.replace(/^ISO 2022 /, '');
    return decodeIso2022(bytes, SINGLE_BYTE[set] ? set : null);
  }
  const whole = WHOLE[first];
  if (whole) return new TextDecoder(whole).decode(bytes);
  // The default repertoire is ASCII; undeclared 8-bit text is read as Latin-1, as most senders mean it.
  const set = first.replace(/^ISO_IR /, 'IR ');
  return decodeSingleByte(bytes, SINGLE_BYTE[set] ? set : 'IR 100');
}
