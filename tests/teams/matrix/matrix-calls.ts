import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/test-app.js';

/**
 * The matrix's answers are HTTP statuses, read the way each client reads them: a REST status, a
 * tRPC status (single or batched), and for a subscription (SSE) the status of the error event
 * the stream carries, or 200 when it delivers data.
 */

const authOf = (token: string | null) => (token ? { authorization: `Bearer ${token}` } : {});

export async function restStatus(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  token: string | null,
  body?: unknown,
): Promise<number> {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...authOf(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return res.statusCode;
}

export async function rawStatus(
  t: TestApp,
  req: { method: 'POST' | 'GET'; url: string; headers?: Record<string, string>; payload?: Buffer | string },
  token: string | null,
): Promise<LightMyRequestResponse> {
  return t.app.inject({ ...req, headers: { ...req.headers, ...authOf(token) } });
}

export type TProcKind = 'query' | 'mutation';

function trpcRequest(kind: TProcKind, path: string, token: string | null, input: unknown, batch: boolean) {
  const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
  const url = `/trpc/${path}${batch ? '?batch=1' : ''}`;
  if (kind === 'query') {
    const q = input === undefined ? '' : `${batch ? '&' : '?'}input=${enc(input)}`;
    return { method: 'GET' as const, url: url + q, headers: authOf(token) };
  }
  return {
    method: 'POST' as const,
    url,
    headers: { ...authOf(token), 'content-type': 'application/json' },
    payload: JSON.stringify(input ?? null),
  };
}

export async function trpcStatus(
  t: TestApp,
  kind: TProcKind,
  path: string,
  token: string | null,
  input?: unknown,
): Promise<number> {
  return (await t.app.inject(trpcRequest(kind, path, token, input, false))).statusCode;
}

/**
 * Several procedures in one batched request (`/trpc/a,b?batch=1`), as the web client sends them.
 * Every item must get the same answer (the matrix's), which is then the request's status; items
 * that disagree fail the row with what each answered.
 */
export async function batchStatus(
  t: TestApp,
  kind: TProcKind,
  calls: { path: string; input: unknown }[],
  token: string | null,
): Promise<number> {
  const input = Object.fromEntries(calls.map((c, i) => [String(i), c.input]));
  const res = await t.app.inject(trpcRequest(kind, calls.map((c) => c.path).join(','), token, input, true));
  const items = res.json() as { error?: { data?: { httpStatus?: number } } }[];
  // Refused before tRPC reads the batch (a team key: plugins/auth.ts): one answer for the request.
  if (!Array.isArray(items)) return res.statusCode;
  const statuses = items.map((it) => it.error?.data?.httpStatus ?? 200);
  if (new Set(statuses).size !== 1) throw new Error(`batched items disagree: ${statuses.join(', ')}`);
  return statuses[0] ?? res.statusCode;
}

/**
 * A subscription over SSE, as the web client's httpSubscriptionLink opens it. The stream ends by
 * itself for the cases in the matrix (a finished analysis, a finished reply), so inject returns.
 */
export async function sseStatus(t: TestApp, path: string, token: string | null, input: unknown): Promise<number> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
    headers: { ...authOf(token), accept: 'text/event-stream' },
  });
  if (res.statusCode !== 200 || !String(res.headers['content-type']).includes('text/event-stream'))
    return res.statusCode;
  const error = /event: serialized-error\ndata: (.*)\n/.exec(res.body);
  if (error?.[1]) return (JSON.parse(error[1]) as { data?: { httpStatus?: number } }).data?.httpStatus ?? 500;
  if (!/\n\ndata: ./.test(res.body.replace('event: connected\ndata: {}\n', '')))
    throw new Error(`subscription sent nothing: ${res.body.slice(0, 200)}`);
  return 200;
}
