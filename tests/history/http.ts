import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** Env for these tests: cheap password hashing (factories hash once) and no rate limit. */
export const TEST_ENV = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', RATE_LIMIT_DISABLED: 'true' } as const;

export interface TResult {
  status: number;
  /** Parsed JSON, or null for a non-JSON body (an image). */
  body: unknown;
  res: LightMyRequestResponse;
}

function jsonOf(res: LightMyRequestResponse): unknown {
  return String(res.headers['content-type'] ?? '').includes('application/json') ? res.json() : null;
}

/** A REST call as the spec's client makes it: JSON body, Bearer token. */
export async function rest(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  token: string | null,
  body?: unknown,
): Promise<TResult> {
  const res = await app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: jsonOf(res), res };
}

/** A tRPC call over HTTP as the web client makes it (query: GET ?input=, mutation: POST). */
export async function trpc(
  app: FastifyInstance,
  kind: 'query' | 'mutation',
  path: string,
  token: string | null,
  input?: unknown,
): Promise<
  TResult & { data: unknown; error: { message: string; code: number; data: Record<string, unknown> } | undefined }
> {
  const auth = token ? { authorization: `Bearer ${token}` } : {};
  const res = await app.inject(
    kind === 'query'
      ? {
          method: 'GET',
          url: `/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`,
          headers: auth,
        }
      : {
          method: 'POST',
          url: `/trpc/${path}`,
          headers: { ...auth, 'content-type': 'application/json' },
          payload: JSON.stringify(input ?? null),
        },
  );
  const body = res.json() as {
    result?: { data: unknown };
    error?: { message: string; code: number; data: Record<string, unknown> };
  };
  return { status: res.statusCode, body, res, data: body.result?.data, error: body.error };
}

/** The part of an error answer that must not differ between a foreign id and a missing one. */
export function errorShape(r: TResult): unknown {
  const b = r.body as {
    error?: {
      message: string;
      code: number;
      data: { code: string; httpStatus: number; path: string; appCode?: string };
    };
  } | null;
  if (b && typeof b === 'object' && 'error' in b && b.error) {
    const { message, code, data } = b.error;
    return { status: r.status, message, code, dataCode: data.code, httpStatus: data.httpStatus, appCode: data.appCode };
  }
  return { status: r.status, body: r.body };
}
