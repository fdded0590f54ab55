import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

export interface TTestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Claims of each test person, by their `sub`. */
  accounts: Map<string, Record<string, unknown>>;
  /** Who "types their password" at the IdP on the next login. */
  nextLogin: string;
  /** Follows the IdP's redirects from an authorization URL as a signed-in person's browser would; returns the callback URL. */
  signIn(authorizationUrl: string): Promise<URL>;
  /** A back-channel logout token signed with the IdP's key (or `key: 'foreign'`, one it never published). */
  logoutToken(claims: { sub?: string; sid?: string; jti?: string }, key?: 'idp' | 'foreign'): Promise<string>;
  /**
   * Seconds the IdP's clock runs ahead of ours (negative: behind). Non-zero re-signs each ID
   * token the token endpoint returns with its times moved by that much, and with `nbf` (as
   * Entra ID sends) at its shifted `iat`, as an IdP with a wrong clock would issue it.
   */
  clockOffset: number;
  /** The IdP's `sid` of the person's last login. */
  lastSid(): string | undefined;
  stop(): Promise<void>;
}

/**
 * panva's oidc-provider (OpenID Certified) on 127.0.0.1, in-process: the tests' real OpenID
 * Provider. Its login and consent screens are skipped: /interaction answers as if `nextLogin`
 * signed in and consented, so the test drives the real authorization, token, userinfo, JWKS and
 * end-session endpoints.
 */
export async function startOidcProvider(opts: {
  redirectUri: string;
  postLogoutUri: string;
  backchannelUri: string;
  /**
   * The IdP's own login and consent pages (oidc-provider's dev interactions: any login name is
   * the `sub`, any password) for a browser to fill in; otherwise `nextLogin` signs in unseen.
   */
  interactive?: boolean;
}): Promise<TTestIdp> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const foreign = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'idp-key', alg: 'RS256', use: 'sig' };
  let provider: Provider | null = null;
  let sid: string | undefined;
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const idp: TTestIdp = {
    issuer,
    clientId: 'cxr-app',
    clientSecret: 'a-test-client-secret-of-enough-length',
    accounts: new Map(),
    nextLogin: '',
    clockOffset: 0,
    signIn,
    logoutToken,
    lastSid: () => sid,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const configuration: Configuration = {
    clients: [
      {
        client_id: idp.clientId,
        client_secret: idp.clientSecret,
        redirect_uris: [opts.redirectUri],
        post_logout_redirect_uris: [opts.postLogoutUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        // Makes the IdP put `sid` in ID tokens; nothing is posted there unless someone confirms
        // a logout on the IdP's page, which the tests do not.
        backchannel_logout_uri: opts.backchannelUri,
        backchannel_logout_session_required: true,
      },
    ],
    jwks: { keys: [jwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    // Claims in the ID token itself, as Entra ID and Keycloak send them.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: opts.interactive === true },
      rpInitiatedLogout: { enabled: true },
      backchannelLogout: { enabled: true },
    },
    pkce: { required: () => true },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-cookie-key'] },
    findAccount: (_ctx, id) => {
      const claims = idp.accounts.get(id);
      return claims ? { accountId: id, claims: () => ({ sub: id, ...claims }) } : undefined;
    },
  };
  provider = new Provider(issuer, configuration);
  provider.on('server_error', () => undefined);

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (!provider) return;
    if (idp.clockOffset && req.method === 'POST' && req.url === '/token') shiftIdToken(res, idp.clockOffset);
    if (opts.interactive || !req.url?.startsWith('/interaction/')) return provider.callback()(req, res);
    const details = await provider.interactionDetails(req, res);
    const accountId = idp.nextLogin;
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } });
  }

  /** Rewrites the token endpoint's answer on its way out: the ID token's times moved by `offset`. */
  function shiftIdToken(res: ServerResponse, offset: number) {
    const end = res.end.bind(res) as (chunk?: unknown) => ServerResponse;
    res.end = ((chunk?: unknown) => {
      void (async () => {
        const body = JSON.parse(String(chunk)) as { id_token?: string };
        if (body.id_token) {
          const payload = JSON.parse(Buffer.from(body.id_token.split('.')[1] ?? '', 'base64url').toString()) as {
            iat: number;
            exp: number;
          };
          const iat = payload.iat + offset;
          body.id_token = await new SignJWT({ ...payload, iat, exp: payload.exp + offset, nbf: iat })
            .setProtectedHeader({ alg: 'RS256', kid: 'idp-key' })
            .sign(privateKey);
        }
        const text = JSON.stringify(body);
        if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(text));
        end(text);
      })();
      return res;
    }) as typeof res.end;
  }

  async function signIn(authorizationUrl: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 10; hop++) {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      for (const c of res.headers.getSetCookie()) {
        const [pair = ''] = c.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`the IdP answered ${res.status} without a redirect`);
      url = new URL(location, url);
      if (url.href.startsWith(opts.redirectUri)) {
        const session = await provider?.Session.adapter.find(jar.get('_session') ?? '');
        sid = (session as { authorizations?: Record<string, { sid?: string }> } | undefined)?.authorizations?.[
          idp.clientId
        ]?.sid;
        return url;
      }
    }
    throw new Error('too many redirects at the IdP');
  }

  async function logoutToken(claims: { sub?: string; sid?: string; jti?: string }, key: 'idp' | 'foreign' = 'idp') {
    return new SignJWT({
      events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
      ...(claims.sid ? { sid: claims.sid } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-key', typ: 'logout+jwt' })
      .setIssuer(issuer)
      .setAudience(idp.clientId)
      .setIssuedAt()
      .setJti(claims.jti ?? crypto.randomUUID())
      .setSubject(claims.sub ?? '')
      .sign(key === 'idp' ? privateKey : foreign.privateKey);
  }

  return idp;
}
