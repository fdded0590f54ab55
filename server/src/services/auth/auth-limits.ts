import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { minutesText, RateLimiter } from '../../lib/rate-limit.js';

const HOUR_MS = 3600_000;

export const LIMIT_MESSAGES = {
  login: (wait: string) => `Too many failed login attempts. Please try again in ${wait}.`,
  signup: 'Too many sign-up attempts. Please try again later.',
  reset: 'Too many password reset requests. Please try again later.',
  attempts: (wait: string) => `Too many sign-in attempts from this address. Please try again in ${wait}.`,
} as const;

/**
 * The security limits of the account calls. Keys are per email (whether or not an account exists,
 * so a lockout reveals nothing) and per client IP. They ignore RATE_LIMIT_DISABLED on purpose:
 * that switch is for the global request limiter only.
 */
export function authLimits(deps: Pick<AppDeps, 'redis' | 'config'>) {
  const { config } = deps;
  const rl = new RateLimiter(deps.redis, config.QUEUE_PREFIX);
  const loginWindowMs = config.LOGIN_FAILURE_WINDOW_MINUTES * 60_000;
  const loginKeys = (email: string, ip: string) =>
    [
      { key: rl.key('login-account', email), limit: config.LOGIN_FAILURES_PER_ACCOUNT },
      { key: rl.key('login-ip', ip), limit: config.LOGIN_FAILURES_PER_IP },
    ] as const;

  async function countOrRefuse(entries: readonly { key: string; limit: number }[], message: string): Promise<void> {
    const counts = await Promise.all(entries.map((e) => rl.hit(e.key, HOUR_MS)));
    if (counts.some((c, i) => c.count > (entries[i]?.limit ?? 0))) throw new AppError('TOO_MANY_REQUESTS', message);
  }

  return {
    /**
     * Every login, signup and reset attempt from an address counts here, successful or not, and
     * past AUTH_ATTEMPTS_PER_IP_PER_MINUTE it is refused before any argon2 work (issue 23 N6).
     * INCR is atomic, so the calls of one tRPC batch or of concurrent requests cannot all pass a
     * limit they exceed together. This, not the account's failure counter, is what stops a
     * parallel burst of guesses: that counter only sees attempts once they have failed.
     */
    async countAuthAttempt(ip: string): Promise<void> {
      const c = await rl.hit(rl.key('auth-attempt-ip', ip), 60_000);
      if (c.count > config.AUTH_ATTEMPTS_PER_IP_PER_MINUTE)
        throw new AppError('TOO_MANY_REQUESTS', LIMIT_MESSAGES.attempts(minutesText(c.resetInMs)));
    },
    /**
     * Refuses (429) while the account or the IP has used up its failed attempts. Attempts still
     * in flight are not failures (issue 23 N6: concurrent correct logins were refused), so
     * concurrent wrong guesses can pass this check together; countAuthAttempt bounds how many.
     */
    async assertLoginAllowed(email: string, ip: string): Promise<void> {
      for (const { key, limit } of loginKeys(email, ip)) {
        const { count, resetInMs } = await rl.peek(key);
        if (count >= limit) throw new AppError('TOO_MANY_REQUESTS', LIMIT_MESSAGES.login(minutesText(resetInMs)));
      }
    },
    /** A wrong password (at login, or as the current password in settings) counts here. */
    async recordLoginFailure(email: string, ip: string): Promise<void> {
      await Promise.all(loginKeys(email, ip).map((e) => rl.hit(e.key, loginWindowMs)));
    },
    /** A correct password clears the account's counter (not the IP's: that one guards many accounts). */
    async clearLoginFailures(email: string): Promise<void> {
      await rl.reset(rl.key('login-account', email));
    },
    /** Every sign-up attempt counts, successful or not, so probing for taken emails is capped. */
    async countSignup(email: string, ip: string): Promise<void> {
      await countOrRefuse(
        [
          { key: rl.key('signup-ip', ip), limit: config.SIGNUPS_PER_IP_PER_HOUR },
          { key: rl.key('signup-email', email), limit: config.SIGNUPS_PER_EMAIL_PER_HOUR },
        ],
        LIMIT_MESSAGES.signup,
      );
    },
    async countResetRequest(email: string, ip: string): Promise<void> {
      await countOrRefuse(
        [
          { key: rl.key('reset-ip', ip), limit: config.RESET_REQUESTS_PER_IP_PER_HOUR },
          { key: rl.key('reset-email', email), limit: config.RESET_REQUESTS_PER_EMAIL_PER_HOUR },
        ],
        LIMIT_MESSAGES.reset,
      );
    },
  };
}

export type AuthLimits = ReturnType<typeof authLimits>;
