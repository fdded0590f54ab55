import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { createURL } from '@trpc/server/adapters/node-http';
import { inspectText, TEXT_MESSAGES, type TTextProblem } from '../lib/inspect-text.js';

/**
 * tRPC's adapter hands its JSON body over unparsed, and its GET input is JSON inside the query
 * (read as tRPC reads it, through its own URL): both are parsed here to be checked. A text that
 * does not parse is left to tRPC, which answers its own 400.
 */
function trpcProblem(req: FastifyRequest): TTextProblem | null {
  const texts: string[] = typeof req.body === 'string' ? [req.body] : [];
  let params: URLSearchParams;
  try {
    params = createURL(req.raw).searchParams;
  } catch {
    return null;
  }
  for (const [key, value] of params) {
    const problem = inspectText({ [key]: value });
    if (problem) return problem;
    if (key === 'input') texts.push(value);
  }
  for (const text of texts) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    const problem = inspectText(parsed);
    if (problem) return problem;
  }
  return null;
}

/**
 * Text PostgreSQL cannot store (U+0000, a lone UTF-16 surrogate) and bodies nested past
 * MAX_BODY_DEPTH are refused at the door (400) rather than failing deep in a query (issue 15
 * F2, issue 23 N4): body, query and path parameters alike. Multipart fields are read by their
 * route and go through the same inspectText (read-upload-parts.ts). Nothing is logged: a bad
 * body is the caller's mistake.
 */
export default fp(async (app) => {
  app.addHook('preValidation', async (req, reply) => {
    const problem = req.url.startsWith('/trpc/')
      ? (inspectText(req.params) ?? trpcProblem(req))
      : (inspectText(req.params) ?? inspectText(req.query) ?? inspectText(isStream(req.body) ? null : req.body));
    if (!problem) return;
    const message = problem === 'invalid' ? TEXT_MESSAGES.invalid : TEXT_MESSAGES.tooDeep;
    return reply.status(400).send({ success: false, message, code: 'BAD_REQUEST' });
  });
});

/** A body the route reads itself as a stream (STOW-RS, part by part): no parsed text to inspect. */
function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { pipe?: unknown }).pipe === 'function';
}
