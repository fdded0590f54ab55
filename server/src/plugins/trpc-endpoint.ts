import type { IncomingMessage } from 'node:http';
import type { AnyRouter, inferRouterContext } from '@trpc/server';
import { incomingMessageToRequest } from '@trpc/server/adapters/node-http';
import { resolveResponse, type HTTPErrorHandler } from '@trpc/server/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface TrpcEndpointOptions<TRouter extends AnyRouter> {
  /** Fastify's register option: the routes below live under it. */
  prefix: string;
  router: TRouter;
  maxBatchSize: number;
  createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Promise<inferRouterContext<TRouter>>;
  onError?: HTTPErrorHandler<TRouter, FastifyRequest>;
}

/**
 * tRPC at `<prefix>/:path`: what @trpc/server's Fastify adapter does (Fastify request to a fetch
 * Request, tRPC's own resolveResponse), except how the answer is written. The adapter hands
 * Fastify the fetch Response, whose body Fastify pipes through a web-to-Node stream; for the
 * JSON answers of queries and mutations this plugin reads the body once and sends the bytes,
 * which in a bare route measured about a third more requests a second (bench:rps drives
 * history.list through here). Anything else (the SSE streams of subscriptions) still goes to
 * Fastify as the Response, so it streams as before. Registered without fastify-plugin: its
 * body parsers stay inside the /trpc routes, like the adapter's.
 */
export default async function trpcEndpoint<TRouter extends AnyRouter>(
  app: FastifyInstance,
  opts: TrpcEndpointOptions<TRouter>,
): Promise<void> {
  // tRPC parses its own bodies: hand it the text, and multipart as the raw stream.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.removeContentTypeParser('multipart/form-data');
  app.addContentTypeParser('multipart/form-data', {}, (_req, body, done) => done(null, body));

  app.all<{ Params: { path: string } }>('/:path', async (req, reply) => {
    const incoming = req.raw as IncomingMessage & { body?: unknown };
    if ('body' in req) incoming.body = req.body;
    const response = await resolveResponse({
      router: opts.router,
      maxBatchSize: opts.maxBatchSize,
      req: incomingMessageToRequest(incoming, reply.raw, { maxBodySize: null }),
      path: req.params.path,
      error: null,
      createContext: () => opts.createContext({ req, res: reply }),
      onError: (o) => opts.onError?.({ ...o, req }),
    });
    if (!/^application\/json\b/.test(response.headers.get('content-type') ?? '')) return reply.send(response);
    reply.code(response.status);
    for (const [name, value] of response.headers) if (name !== 'set-cookie') reply.header(name, value);
    const cookies = response.headers.getSetCookie();
    if (cookies.length) reply.header('set-cookie', cookies);
    return reply.send(Buffer.from(await response.arrayBuffer()));
  });
}
