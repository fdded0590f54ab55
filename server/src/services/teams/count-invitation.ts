import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { RateLimiter } from '../../lib/rate-limit.js';
import { TEAM_MESSAGES } from '@contracts/schemas/team.js';

const HOUR_MS = 3600_000;

/**
 * The mail limits of team invitations (issue 39 S5: one account sent 150 e-mails to one address in
 * 4.6 s across three teams): INVITATIONS_PER_EMAIL_PER_HOUR to a recipient address whatever team
 * or admin sends them, and INVITATIONS_PER_ACCOUNT_PER_HOUR from one inviting account. Counted in
 * Redis like the password-reset limits (INCR is atomic, so concurrent invitations cannot all pass),
 * and every attempt that would send mail counts, refused or not.
 */
export async function countInvitation(
  opts: Pick<AppDeps, 'redis' | 'config'> & { userId: string; email: string },
): Promise<void> {
  const { config } = opts;
  const rl = new RateLimiter(opts.redis, config.QUEUE_PREFIX);
  const [toAddress, fromAccount] = await Promise.all([
    rl.hit(rl.key('invite-email', opts.email), HOUR_MS),
    rl.hit(rl.key('invite-account', opts.userId), HOUR_MS),
  ]);
  if (fromAccount.count > config.INVITATIONS_PER_ACCOUNT_PER_HOUR)
    throw new AppError('TOO_MANY_REQUESTS', TEAM_MESSAGES.tooManyInvitesFromAccount);
  if (toAddress.count > config.INVITATIONS_PER_EMAIL_PER_HOUR)
    throw new AppError('TOO_MANY_REQUESTS', TEAM_MESSAGES.tooManyInvitesToAddress);
}
