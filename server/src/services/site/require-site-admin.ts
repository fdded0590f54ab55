import type { TConfig } from '@contracts/config/server-config.js';
import { SITE_MESSAGES } from '@contracts/schemas/site.js';
import { AppError } from '../../lib/app-error.js';
import type { TAuth } from '../auth/resolve-session.js';

/** Site administrators are named by the operator (SITE_ADMIN_EMAILS); the spec has no roles. */
export function isSiteAdmin(config: Pick<TConfig, 'SITE_ADMIN_EMAILS'>, auth: TAuth | null): boolean {
  return !!auth && config.SITE_ADMIN_EMAILS.includes(auth.email.toLowerCase());
}

/** 403 for a signed-in account that is not a site administrator (the caller has already answered 401 for anonymous). */
export function requireSiteAdmin(config: Pick<TConfig, 'SITE_ADMIN_EMAILS'>, auth: TAuth): TAuth {
  if (!isSiteAdmin(config, auth)) throw new AppError('FORBIDDEN', SITE_MESSAGES.adminsOnly);
  return auth;
}
