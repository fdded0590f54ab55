import { API_KEY_MESSAGES } from '@contracts/schemas/api-key.js';
import { AUTH_MESSAGES } from '@contracts/schemas/auth.js';
import { SETTINGS_MESSAGES } from '@contracts/schemas/settings.js';
import { SITE_MESSAGES } from '@contracts/schemas/site.js';
import { AppError } from '../../lib/app-error.js';
import type { TAuth } from './resolve-session.js';

/**
 * What a call asks of its caller. A REST route declares it (`config: { auth }`, enforced by
 * plugins/auth.ts) and a tRPC procedure is built on it (trpc/trpc.ts); both admit through
 * admitCaller below, so the two surfaces cannot disagree:
 * - public: nothing (the handler may still read an optional credential, e.g. logout);
 * - user: any credential (session cookie, bearer session token or personal API key);
 * - password-session: a session from a password login, never an API key (account changes);
 * - key-manager: a session, never an API key (a key must not mint or revoke keys);
 * - site-admin: an account holding the role (users.site_admin_since: granted by the operator
 *   command or by verifying an address listed in SITE_ADMIN_EMAILS, never by signing up).
 * - site-admin-session: the same from a password session (applying or reverting thresholds
 *   changes every analysis, so an API key must not do it, as it must not delete the account).
 */
export type TAuthLevel = 'public' | 'user' | 'password-session' | 'key-manager' | 'site-admin' | 'site-admin-session';

export type TPasswordSession = TAuth & { sessionId: string };

/** The signed-in user, or 401 (which makes the client log out, as the spec says). */
export function requireAuth(auth: TAuth | null): TAuth {
  if (!auth) throw new AppError('UNAUTHORIZED', AUTH_MESSAGES.authRequired);
  return auth;
}

/**
 * Account-level changes (password, deletion, wiping data) need a password session: a personal
 * API key handed to a batch script must not be able to take over or destroy the account.
 */
export function requirePasswordSession(auth: TAuth): TPasswordSession {
  if (auth.via !== 'session' || !auth.sessionId) throw new AppError('FORBIDDEN', SETTINGS_MESSAGES.sessionOnly);
  return { ...auth, sessionId: auth.sessionId };
}

/**
 * Keys are managed from a password session only: a key handed to a batch script must not be
 * able to mint further keys (which would outlive its own revocation) or revoke the user's others.
 */
export function requireKeyManager(auth: TAuth): TAuth {
  if (auth.via !== 'session') throw new AppError('FORBIDDEN', API_KEY_MESSAGES.sessionOnly);
  return auth;
}

/**
 * The role is read from the account (resolved with the credential), not from SITE_ADMIN_EMAILS:
 * a listed address gave the role to whoever signed up with it first (issue 23 N3).
 */
export function isSiteAdmin(auth: TAuth | null): boolean {
  return auth?.siteAdmin === true;
}

/** 403 for a signed-in account that is not a site administrator. */
export function requireSiteAdmin(auth: TAuth): TAuth {
  if (!isSiteAdmin(auth)) throw new AppError('FORBIDDEN', SITE_MESSAGES.adminsOnly);
  return auth;
}

/** The caller a non-public level admits: 401 without a credential, 403 when the level refuses it. */
export function admitCaller(opts: { level: Exclude<TAuthLevel, 'public'>; auth: TAuth | null }): TAuth {
  const user = requireAuth(opts.auth);
  switch (opts.level) {
    case 'user':
      return user;
    case 'password-session':
      return requirePasswordSession(user);
    case 'key-manager':
      return requireKeyManager(user);
    case 'site-admin':
      return requireSiteAdmin(user);
    case 'site-admin-session':
      return requirePasswordSession(requireSiteAdmin(user));
  }
}
