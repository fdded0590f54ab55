import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { mailedLinkLanding, type TMailedLink } from '@contracts/schemas/mailed-link.js';
import { AppError } from '../lib/app-error.js';
import { ZOk } from './openapi/responses.js';

/** The 303 a mailed link answers with: on to Settings (Location), success false when refused. */
export const ZMailedLinkLanded = ZOk.extend({ success: z.boolean() }).describe(
  'On to Settings (Location), success false when refused',
);

/**
 * Follows a mailed confirmation link (issue 41 part 6). A browser (Accept: text/html) lands on
 * Settings, which says in words how it went, whether the link worked or was used, expired or
 * unknown; any other caller keeps the documented 400 for a refused link. A body goes with the
 * Location, so a script sees the same envelope as every other call.
 */
export async function landMailedLink(
  req: FastifyRequest,
  reply: FastifyReply,
  o: { link: TMailedLink; confirm: () => Promise<unknown>; messages: { confirmed: string; invalid: string } },
) {
  const browser = /\btext\/html\b/.test(req.headers.accept ?? '');
  try {
    await o.confirm();
  } catch (err) {
    if (!browser || !(err instanceof AppError) || err.code !== 'BAD_REQUEST') throw err;
    return reply
      .code(303)
      .header('location', mailedLinkLanding(o.link, 'invalid'))
      .send({ success: false, message: o.messages.invalid });
  }
  return reply
    .code(303)
    .header('location', mailedLinkLanding(o.link, 'confirmed'))
    .send({ success: true, message: o.messages.confirmed });
}
