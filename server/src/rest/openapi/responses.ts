import { z } from 'zod';
import type { RouteOptions } from 'fastify';
import type { TRouteAuth } from '../../plugins/auth.js';

/** The spec's error envelope, answered by every route for every 4xx/5xx (handle-error.ts). */
export const ZErrorEnvelope = z.object({
  success: z.literal(false),
  message: z.string().describe('Safe to show to the user; never contains patient data'),
  code: z.string().describe('Application error code, e.g. NOT_FOUND, BAD_REQUEST, UNAUTHORIZED'),
});

export const ZOk = z.object({ success: z.literal(true), message: z.string() });

export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), message: z.string().optional(), data });

/** An error response with its own description, for the statuses a route adds to the standard ones. */
export const errorResponse = (description: string) => ZErrorEnvelope.describe(description);

const STANDARD = {
  400: 'Invalid input: the first validation message',
  401: 'Not signed in (the web client logs out on 401)',
  403: 'Refused: a cross-site request, or an API key where a password session is needed',
  429: 'Too many requests from this address; wait a minute',
  500: 'Unexpected failure; the details are only in the server log',
  503: 'The database or image storage is unavailable; try again in a minute',
} as const;

/**
 * The error statuses every route can answer, from what it declares: its auth level (401, 403),
 * input schemas (400), a mutation (403 for a cross-site cookie request), and for all of them
 * the rate limit (429) and the generic 500/503. A route's own entries win.
 */
export function standardResponses(
  route: Pick<RouteOptions, 'method' | 'schema'>,
  auth: TRouteAuth,
): Record<number, z.ZodType> {
  const schema = route.schema ?? {};
  const mutation = !['GET', 'HEAD'].includes(String(route.method));
  const statuses: (keyof typeof STANDARD)[] = [429, 500, 503];
  if (schema.body || schema.params || schema.querystring) statuses.push(400);
  if (auth !== 'public') statuses.push(401);
  if (
    auth === 'password-session' ||
    auth === 'key-manager' ||
    auth === 'site-admin' ||
    auth === 'site-admin-session' ||
    mutation
  )
    statuses.push(403);
  return Object.fromEntries(statuses.map((s) => [s, errorResponse(STANDARD[s])]));
}

/** How credentials travel; public routes carry none. */
export function securityOf(auth: TRouteAuth): Record<string, string[]>[] {
  return auth === 'public' ? [] : [{ bearer: [] }, { cookie: [] }];
}
