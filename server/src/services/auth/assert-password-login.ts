import type { TConfig } from '@contracts/config/server-config.js';
import { SSO_MESSAGES } from '@contracts/schemas/sso.js';
import { AppError } from '../../lib/app-error.js';

/**
 * PASSWORD_LOGIN=off (docs/sso.md): password sign-in, sign-up and resets answer 403, in the
 * services so REST and tRPC refuse alike. API keys and `npm run site-admin` are unaffected.
 */
export function assertPasswordLogin(config: TConfig): void {
  if (config.PASSWORD_LOGIN === 'off') throw new AppError('FORBIDDEN', SSO_MESSAGES.passwordLoginOff);
}
