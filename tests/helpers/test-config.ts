import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig, type TConfig } from '@contracts/config/server-config.js';

export type TBackend = 'pglite' | 'postgres';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../server/src/db/migrations', import.meta.url));
/** Set by tests/setup/database-templates.ts: the file of a migrated PGlite data directory. */
export const PGLITE_SNAPSHOT_ENV = 'TEST_PGLITE_SNAPSHOT';
/** Set by tests/setup/database-templates.ts: this run's migrated PostgreSQL template database. */
export const PG_TEMPLATE_ENV = 'TEST_PG_TEMPLATE';

let snapshot: Blob | undefined;
/**
 * The migrated PGlite data directory this run starts every in-memory database from (read once
 * per worker), or undefined outside vitest's projects: then each database migrates from empty.
 */
export function pgliteSnapshot(): Blob | undefined {
  const path = process.env[PGLITE_SNAPSHOT_ENV];
  if (!path) return undefined;
  snapshot ??= new Blob([readFileSync(path)]);
  return snapshot;
}

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

/**
 * Creates a throwaway database on the test PostgreSQL server; returns its URL and a dropper. It
 * is a copy of this run's migrated template (where the global setup made one) unless `from` is
 * 'empty': what a test of the migrations themselves needs.
 */
export async function createPostgresDatabase(
  opts: { from?: 'template' | 'empty' } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const name = `cxr_t_${uniqueSuffix()}`;
  const template = opts.from === 'empty' ? undefined : process.env[PG_TEMPLATE_ENV];
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}${template ? ` template ${template}` : ''}`);
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
