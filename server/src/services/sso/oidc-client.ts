import * as client from 'openid-client';
import type { TConfig } from '@contracts/config/server-config.js';
import { AppError } from '../../lib/app-error.js';

export interface TOidcClient {
  /** The configured issuer exactly as discovery returned it. */
  issuer: string;
  /** The discovered configuration, from the cache when fresh; UNAVAILABLE when the IdP never answered. */
  configuration(): Promise<client.Configuration>;
}

const DISCOVERY_TIMEOUT_S = 5;
// After a failed discovery, wait this long before asking again, so a down IdP is not hammered.
const RETRY_AFTER_MS = 10_000;

/**
 * Discovery, cached per process. A failed refresh keeps the last good document (a short IdP
 * outage does not fail logins whose tokens the IdP can still issue), and nothing here runs
 * unless someone starts an SSO login: the login page and password login never wait on the IdP.
 */
export function createOidcClient(config: TConfig): TOidcClient {
  const issuer = config.OIDC_ISSUER;
  const clientId = config.OIDC_CLIENT_ID;
  if (!issuer || !clientId) throw new Error('createOidcClient needs OIDC_ISSUER and OIDC_CLIENT_ID');
  const metadata: Partial<client.ClientMetadata> = {
    client_secret: config.OIDC_CLIENT_SECRET,
    [client.clockTolerance]: config.OIDC_CLOCK_TOLERANCE_SECONDS,
  };
  const insecure = new URL(issuer).protocol === 'http:';
  let cached: { conf: client.Configuration; until: number } | null = null;
  let failedAt = 0;
  let inFlight: Promise<client.Configuration> | null = null;

  const discover = async () => {
    const conf = await client.discovery(new URL(issuer), clientId, metadata, undefined, {
      timeout: DISCOVERY_TIMEOUT_S,
      // Plain http only for an issuer configured as http (a test IdP on 127.0.0.1).
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
    });
    cached = { conf, until: Date.now() + config.OIDC_DISCOVERY_TTL_SECONDS * 1000 };
    return conf;
  };

  return {
    issuer,
    async configuration() {
      const now = Date.now();
      if (cached && cached.until > now) return cached.conf;
      if (!cached && now - failedAt < RETRY_AFTER_MS) throw unreachable();
      inFlight ??= discover().finally(() => (inFlight = null));
      try {
        return await inFlight;
      } catch (err) {
        failedAt = Date.now();
        if (cached) return cached.conf;
        throw unreachable(err);
      }
    },
  };
}

function unreachable(cause?: unknown): AppError {
  return new AppError('UNAVAILABLE', 'The identity provider cannot be reached', { cause });
}

const byConfig = new WeakMap<TConfig, TOidcClient>();

/** The process's client for this configuration, or null when SSO is off (OIDC_ISSUER unset). */
export function oidcClientFor(config: TConfig): TOidcClient | null {
  if (!config.OIDC_ISSUER) return null;
  let c = byConfig.get(config);
  if (!c) byConfig.set(config, (c = createOidcClient(config)));
  return c;
}
