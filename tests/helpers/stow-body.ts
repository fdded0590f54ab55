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
