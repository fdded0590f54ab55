import fp from 'fastify-plugin';

/** Deeper than any body a route takes (the deepest is a few levels); deeper is refused, not walked. */
export const MAX_BODY_DEPTH = 32;

const INVALID = { success: false, message: 'The request contains invalid characters', code: 'BAD_REQUEST' } as const;
const TOO_DEEP = { success: false, message: 'The request body is nested too deeply', code: 'BAD_REQUEST' } as const;

/**
 * Walks a parsed body with an explicit stack (no recursion, so no depth can overflow it) and
 * answers what is wrong with it: a U+0000 in a string or key, or nesting past MAX_BODY_DEPTH.
 * Byte buffers are not text and are skipped; the body limit bounds the work.
 */
export function inspectBody(body: unknown): 'nul' | 'too-deep' | null {
  const stack: { value: unknown; depth: number }[] = [{ value: body, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, depth } = item;
    if (typeof value === 'string') {
      if (value.includes('\0')) return 'nul';
      continue;
    }
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) continue;
    if (depth >= MAX_BODY_DEPTH) return 'too-deep';
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\0')) return 'nul';
      stack.push({ value: child, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000: refuse it at the door (400) rather than fail deep in a
 * query. tRPC's adapter hands its JSON body over unparsed (a string, checked as text); other
 * routes get the parsed object. Nothing is logged: a bad body is the caller's mistake.
 */
export default fp(async (app) => {
  app.addHook('preValidation', async (req, reply) => {
    if (typeof req.body === 'string') {
      if (req.body.includes('\\u0000') || req.body.includes('\0')) return reply.status(400).send(INVALID);
      return;
    }
    const problem = inspectBody(req.body);
    if (problem) return reply.status(400).send(problem === 'nul' ? INVALID : TOO_DEEP);
  });
});
