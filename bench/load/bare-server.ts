import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/** A bare Fastify route answering fixed bytes (the app's own history.list answer): the ceiling. */
const [port, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile ?? '');
const app = Fastify({ logger: false });
app.get('/bare', async (_req, reply) => reply.type('application/json').send(body));
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.send?.('ready');
