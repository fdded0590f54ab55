import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig, type TConfig } from '@contracts/config/server-config.js';

export type TBackend = 'pglite' | 'postgres';

/**
 * The database backends this run covers: PGlite always, and the PostgreSQL server named by
 * TEST_DATABASE_URL (the test command sets it after making sure the server runs).
 */
export function testBackends(): TBackend[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export function uniqueSuffix(): string {
  return randomBytes(6).toString('hex');
}

/** Creates a throwaway database on the test PostgreSQL server; returns its URL and a dropper. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const name = `cxr_t_${uniqueSuffix()}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A config for one test: its own data dir, queue prefix and (for postgres) database. */
export function testConfig(overrides: Record<string, string> = {}): TConfig {
  const dataDir = mkdtempSync(join(tmpdir(), 'cxr-test-'));
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    QUEUE_PREFIX: `t${uniqueSuffix()}`,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    PUBLIC_URL: 'http://localhost:3000',
    // Refusals are sent at once in tests (the hold has its own: tests/hardening/hold-refusals.test.ts).
    REFUSAL_DELAY_MS: '0',
    // The test command runs PGlite in memory (scripts/test.sh); the config is where the server reads it.
    ...(process.env.PGLITE_DIR ? { PGLITE_DIR: process.env.PGLITE_DIR } : {}),
    ...overrides,
  });
}
