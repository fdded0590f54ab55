import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';

/**
 * The ceiling for bench:rps: a bare Fastify route that runs the SQL history.list runs (as drizzle
 * emitted it, same parameters, rows as arrays like drizzle asks for them) through `pg` with the
 * app's pool size, one statement after the other, and answers the rows as JSON. No session, no
 * tRPC, no audit: what the read costs at the database and on the wire.
 */
interface TCaptured {
  sql: string;
  params: unknown[];
}
const [port, queriesFile, databaseUrl, poolSize] = process.argv.slice(2);
const queries = JSON.parse(readFileSync(queriesFile ?? '', 'utf8')) as TCaptured[];
const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(poolSize) });
const app = Fastify({ logger: false });
app.get('/bare', async (_req, reply) => {
  const results: unknown[][] = [];
  for (const q of queries) results.push((await pool.query({ text: q.sql, values: q.params, rowMode: 'array' })).rows);
  return reply.type('application/json').send(JSON.stringify(results));
});
await app.listen({ host: '127.0.0.1', port: Number(port) });
process.send?.('ready');
