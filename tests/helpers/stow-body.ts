import assert from 'node:assert/strict';

/** A STOW-RS body: each instance an application/dicom part. */
export function related(parts: Buffer[]) {
  const boundary = `stow${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts)
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`), p, Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}` },
  };
}

/** Sends `parts` by STOW-RS to a running app with a bearer key (a team key or a session token); 200 asserted. */
export async function stowStudies(baseUrl: string, key: string, parts: Buffer[]): Promise<void> {
  const { payload, headers } = related(parts);
  const res = await fetch(`${baseUrl}/dicomweb/studies`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...headers },
    body: payload,
  });
  assert.equal(res.status, 200, await res.text());
}
