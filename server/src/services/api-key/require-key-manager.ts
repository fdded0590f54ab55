import { AppError } from '../../lib/app-error.js';
import { API_KEY_MESSAGES } from '@contracts/schemas/api-key.js';
import type { TAuth } from '../auth/resolve-session.js';

/**
 * Keys are managed from a password session only: a key handed to a batch script must not be
 * able to mint further keys (which would outlive its own revocation) or revoke the user's others.
 */
export function requireKeyManager(auth: TAuth): TAuth {
  if (auth.via !== 'session') throw new AppError('FORBIDDEN', API_KEY_MESSAGES.sessionOnly);
  return auth;
}
