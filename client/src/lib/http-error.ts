/**
 * A failed plain-HTTP call (the multipart upload, which tRPC cannot carry). `message` is safe to
 * show: the server's message or the caller's fallback. `status` 0 means no response arrived.
 */
export class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
