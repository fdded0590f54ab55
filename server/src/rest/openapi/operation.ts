import { z } from 'zod';

/** One REST operation as the OpenAPI document describes it. Paths use OpenAPI's `{param}`. */
export interface TOperation {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** false: no credential needed. */
  auth: boolean;
  params?: Record<string, string>;
  query?: Record<string, { description: string; schema: z.ZodType }>;
  body?: { schema: z.ZodType } | { multipart: z.ZodType };
  /** Status → description and JSON body schema (or a binary media type). */
  responses: Record<number, { description: string; schema?: z.ZodType; binary?: string[] }>;
}

/** The spec's error envelope, answered by every route for every 4xx/5xx. */
export const ZErrorEnvelope = z.object({
  success: z.literal(false),
  message: z.string().describe('Safe to show to the user; never contains patient data'),
  code: z.string().describe('Application error code, e.g. NOT_FOUND, BAD_REQUEST, UNAUTHORIZED'),
});

export const ZOk = z.object({ success: z.literal(true), message: z.string() });

export const envelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), message: z.string().optional(), data });

export const ERRORS = {
  400: { description: 'Invalid input: the first validation message', schema: ZErrorEnvelope },
  401: { description: 'Not signed in (the web client logs out on 401)', schema: ZErrorEnvelope },
  403: { description: 'Refused (cross-site request, wrong password, or an API key where a password session is needed)', schema: ZErrorEnvelope },
  404: { description: 'Not found; another account\'s id answers exactly like a missing one', schema: ZErrorEnvelope },
} as const;

export const authErrors = { 401: ERRORS[401], 403: ERRORS[403] };
