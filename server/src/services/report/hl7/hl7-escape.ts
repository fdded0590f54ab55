/**
 * One HL7 v2 value as data (issue 46 H3): the delimiters `|^~\&` as their escape sequences, and
 * every control character (0x00-0x1F, 0x7F) as `\Xhh\`, so no value can end a segment (CR), open or
 * close an MLLP frame (VT, FS) or split a field. Every field and component of the ORU goes through
 * this; `@medplum/core`'s Hl7Message joins what it is given and escapes nothing. Pure.
 */
export function hl7Escape(v: string): string {
  return (
    v
      .replace(/\\/g, '\\E\\')
      .replace(/\|/g, '\\F\\')
      .replace(/\^/g, '\\S\\')
      .replace(/~/g, '\\R\\')
      .replace(/&/g, '\\T\\')
      // eslint-disable-next-line no-control-regex -- control characters are what is escaped
      .replace(/[\x00-\x1f\x7f]/g, (c) => `\\X${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}\\`)
  );
}

/** The reverse, for reading a received message (the tests' listener reads what a RIS would file). */
export function hl7Unescape(v: string): string {
  return v.replace(/\\(E|F|S|R|T|X[0-9A-Fa-f]+)\\/g, (_, e: string) => {
    if (e.startsWith('X')) return String.fromCharCode(...(e.slice(1).match(/../g) ?? []).map((h) => parseInt(h, 16)));
    return { E: '\\', F: '|', S: '^', R: '~', T: '&' }[e]!;
  });
}
