import { AppError } from '../../lib/app-error.js';
import { AUTH_MESSAGES } from '@contracts/schemas/auth.js';
import { SETTINGS_MESSAGES } from '@contracts/schemas/settings.js';
import type { TAuth } from './resolve-session.js';

/** For REST shims: the signed-in user, or 401 (which makes the client log out, as the spec says). */
export function requireAuth(auth: TAuth | null): TAuth {
  if (!auth) throw new AppError('UNAUTHORIZED', AUTH_MESSAGES.authRequired);
  return auth;
}

/**
 * Account-level changes (password, deletion, wiping data) need a password session: a personal
 * API key handed to a batch script must not be able to take over or destroy the account.
 */
export function requirePasswordSession(auth: TAuth): TAuth & { sessionId: string } {
  if (auth.via !== 'session' || !auth.sessionId) throw new AppError('FORBIDDEN', SETTINGS_MESSAGES.sessionOnly);
  return { ...auth, sessionId: auth.sessionId };
}
