import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session tokens, reset tokens and API keys. */
export function newToken(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Tokens are stored only as this hash; a stolen table yields nothing that logs in. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}
