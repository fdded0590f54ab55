import type { FastifyInstance } from 'fastify';
import { bearer } from './factories.js';

export interface TFormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** A multipart/form-data body, byte for byte what a browser sends (hostile parts included). */
export function multipart(parts: TFormPart[]) {
  const boundary = `----cxr${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`;
    chunks.push(Buffer.from(head), Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POSTs a multipart body (from `multipart` or `uploadBody`) as the holder of `token`. */
export function postMultipart(
  app: FastifyInstance,
  url: '/api/chat/analyzer' | '/api/chat/upload',
  body: ReturnType<typeof multipart>,
  token: string,
) {
  return app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...bearer(token) } });
}

/** POSTs one file as the upload form's only field, as the holder of `token`. */
export function postUploadFile(
  app: FastifyInstance,
  token: string,
  file: { value: Buffer; filename: string; type: string },
) {
  return postMultipart(app, '/api/chat/upload', multipart([{ name: 'image', ...file }]), token);
}
