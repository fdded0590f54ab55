import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../../server/src/app.js';
import { loadConfig } from '@contracts/config/server-config.js';
import { openDeps } from '../../server/src/open-deps.js';

/**
 * `npm run bench:login-timing`: how long a failed login takes for an email that has an account
 * (wrong password) and for one that does not, with the production argon2 settings. The two should
 * be indistinguishable; the requirement is checked structurally in tests/auth/enumeration.test.ts
 * (one argon2 verification either way), this prints the figures. BENCH_N sets the sample size.
 */
const N = Number(process.env.BENCH_N ?? 60);
const dataDir = mkdtempSync(join(tmpdir(), 'cxr-bench-'));
process.env.PGLITE_DIR ??= 'memory://';
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  DATABASE_URL: process.env.DATABASE_URL ?? '',
  QUEUE_PREFIX: `bench${process.pid}`,
  LOGIN_FAILURES_PER_ACCOUNT: '1000000',
  LOGIN_FAILURES_PER_IP: '1000000',
  AUTH_ATTEMPTS_PER_IP_PER_MINUTE: '1000000',
});
const opened = await openDeps(config);
const app = await buildApp({ deps: opened.deps, pingDb: opened.pingDb, logger: false });
await app.ready();

async function timeLogin(email: string, password: string, expect: number): Promise<number> {
  const start = process.hrtime.bigint();
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (res.statusCode !== expect) throw new Error(`expected ${expect}, got ${res.statusCode}: ${res.body}`);
  return ms;
}

function summary(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
  return `median ${at(0.5).toFixed(1)} ms   p10 ${at(0.1).toFixed(1)}   p90 ${at(0.9).toFixed(1)}`;
}

try {
  const email = `bench-${process.pid}@example.org`;
  const password = 'bench password 123';
  const signup = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: { name: 'Dr Bench', email, password },
  });
  if (signup.statusCode !== 200) throw new Error(`signup failed: ${signup.body}`);
  const known: number[] = [];
  const unknown: number[] = [];
  const ok: number[] = [];
  for (let i = 0; i < 5; i++) await timeLogin(`warmup-${i}@example.org`, 'wrong password', 401);
  // Interleaved so drift in machine load hits both series alike.
  for (let i = 0; i < N; i++) {
    known.push(await timeLogin(email, 'wrong password', 401));
    unknown.push(await timeLogin(`nobody-${i}-${process.pid}@example.org`, 'wrong password', 401));
    if (i % 4 === 0) ok.push(await timeLogin(email, password, 200));
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? Number.NaN;
  const diff = med(unknown) - med(known);
  console.log(
    `failed login timing, argon2id m=${config.ARGON2_MEMORY_KIB} t=${config.ARGON2_TIME_COST} p=${config.ARGON2_PARALLELISM}, n=${N} each, ${opened.deps.config.DATABASE_URL ? 'postgres' : 'pglite'}`,
  );
  console.log(`  known email, wrong password  ${summary(known)}`);
  console.log(`  unknown email                ${summary(unknown)}`);
  console.log(`  difference of medians        ${diff.toFixed(1)} ms (${((100 * diff) / med(known)).toFixed(1)}%)`);
  console.log(`  (successful login, n=${ok.length}: ${summary(ok)})`);
} finally {
  await app.close();
  await opened.close();
  rmSync(dataDir, { recursive: true, force: true });
}
