import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { z } from 'zod';
import { appRouter } from '../../server/src/trpc/router.js';

/** How many generated cases per (route or procedure, caller); FUZZ_RUNS=1000 for a long soak. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 20);

export interface TRoute {
  method: string;
  url: string;
}

/**
 * Every route the app registered, read back from printRoutes' tree (each line is a segment
 * under its parent, indented four characters per level). Static client assets are left out:
 * they take no input.
 */
export function registeredRoutes(app: FastifyInstance): TRoute[] {
  const stack: string[] = [];
  const out: TRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    const path = (depth > 0 ? (stack[depth - 1] ?? '') : '') + (m[2] ?? '');
    stack[depth] = path;
    stack.length = depth + 1;
    if (path.startsWith('/assets/') || path === '/index.html') continue;
    for (const method of (m[3] ?? '').split(', ')) {
      if (method !== 'HEAD' && method !== 'TRACE' && method !== 'OPTIONS') out.push({ method, url: path });
    }
  }
  return out;
}

export interface TProcedure {
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  inputKeys: string[];
}

/** Collects the object keys a zod schema expects (best effort through wrappers), to aim the fuzzer. */
function keysOf(schema: unknown, seen = new Set<unknown>(), out = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return out;
  seen.add(schema);
  const s = schema as { shape?: Record<string, unknown>; _zod?: { def?: Record<string, unknown> } };
  if (s.shape && typeof s.shape === 'object') {
    for (const [k, v] of Object.entries(s.shape)) {
      out.add(k);
      keysOf(v, seen, out);
    }
  }
  const def = s._zod?.def ?? {};
  for (const k of ['innerType', 'in', 'out', 'element', 'left', 'right', 'valueType', 'schema'])
    keysOf(def[k], seen, out);
  for (const o of (def.options as unknown[] | undefined) ?? []) keysOf(o, seen, out);
  return out;
}

/** Every tRPC procedure with the keys its input schema knows. */
export function trpcProcedures(): TProcedure[] {
  const procs = (
    appRouter as unknown as {
      _def: { procedures: Record<string, { _def: { type: TProcedure['type']; inputs: z.ZodType[] } }> };
    }
  )._def.procedures;
  return Object.entries(procs).map(([path, p]) => ({
    path,
    type: p._def.type,
    inputKeys: [...p._def.inputs.reduce((acc, i) => keysOf(i, new Set(), acc), new Set<string>())],
  }));
}

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\uD800',
  '\uDC00',
  'a\uD800b',
  '\uDBFF\uDBFF',
  'ok\u0000',
  '\u0000\uDFFF',
  '\uFFFF',
  '\u202Eevil',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x10',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' OR 1=1 --",
  '"; drop table users; --',
  '../../../../etc/passwd',
  '%2e%2e%2f',
  '${7*7}',
  '{{7*7}}',
  'Z̷̢̛a̵l̶g̸o̷',
  '👩‍⚕️🫁',
  '山田太郎',
  'ﷺ',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '__proto__',
  'constructor',
];

/** Strings that break things: odd unicode, lone surrogates, huge ones, injection payloads. */
export function nastyString(extra: string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string() },
    { weight: 2, arbitrary: fc.string({ unit: 'binary' }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS, ...extra) },
    { weight: 1, arbitrary: fc.constantFrom(...(extra.length ? extra : ['x'])) },
    { weight: 1, arbitrary: fc.constantFrom('A'.repeat(100_000), '😀'.repeat(30_000), 'a@'.repeat(20_000) + '.org') },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.emailAddress() },
  );
}

/** A string PostgreSQL cannot store: a NUL or half a surrogate pair somewhere in it (issue 23 N4). */
export const badText: fc.Arbitrary<string> = fc
  .tuple(
    fc.string({ maxLength: 20 }),
    fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF'),
    fc.string({ maxLength: 20 }),
  )
  .map(([a, bad, b]) => a + bad + b);

/**
 * A body shaped like the real one (its keys, ordinary strings) with one bad string in it: as a
 * value, deeper down, or as a key. The rest stays plain so that nothing else (a `__proto__` key,
 * a 100,000-character string) is refused first.
 */
export function objectWithBadText(keys: string[]): fc.Arbitrary<Record<string, unknown>> {
  const known = keys.length ? keys : ['id'];
  const plain = fc.dictionary(fc.constantFrom(...known), fc.string({ maxLength: 30 }), { maxKeys: 4 });
  return fc
    .tuple(plain, fc.constantFrom(...known), badText, fc.constantFrom('value', 'nested', 'key'))
    .map(([body, key, bad, where]) => ({
      ...body,
      ...(where === 'value' ? { [key]: bad } : where === 'nested' ? { [key]: [{ note: bad }] } : { [bad]: 'x' }),
    }));
}

/** Any JSON value, with nasty strings and numbers at the leaves. */
export function nastyValue(extra: string[]): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    nastyString(extra),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -0, -1, 2 ** 53 + 1, 1e308, -1e308, true, false, null),
  );
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(leaf, { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.dictionary(nastyString(), leaf, { maxKeys: 4 }) },
  );
}

/** Bodies shaped like the real ones (the expected keys) with wrong or hostile values, plus noise. */
export function nastyObject(keys: string[], extra: string[]): fc.Arbitrary<Record<string, unknown>> {
  const known = keys.length ? keys : ['id'];
  return fc.oneof(
    fc.record(Object.fromEntries(known.map((k) => [k, nastyValue(extra)])), { requiredKeys: [] }),
    fc.dictionary(fc.oneof(fc.constantFrom(...known), nastyString()), nastyValue(extra), { maxKeys: 6 }),
    fc.jsonValue().map((v) => ({ [known[0] ?? 'id']: v })),
  );
}

/** Raw JSON texts that try to reach Object.prototype through the parser or a naive merge. */
export const POLLUTION_BODIES = (keys: string[]): string[] => [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  ...keys.flatMap((k) => [
    `{"${k}":{"__proto__":{"polluted":"yes"}}}`,
    `{"${k}":{"constructor":{"prototype":{"polluted":"yes"}}}}`,
    `{"${k}":"x","__proto__":{"polluted":"yes","isAdmin":true}}`,
  ]),
  '{"customFields":{"__proto__":"x","constructor":"y","prototype":"z"}}',
  '[{"__proto__":{"polluted":"yes"}}]',
];

/** Raw bodies: broken JSON, random text, and the right JSON under the wrong content type. */
export const rawBody = fc.record({
  payload: fc.oneof(
    fc.string(),
    fc.constantFrom(
      '{',
      '{"a":',
      '[1,2',
      '{"a":1}}',
      'null',
      '""',
      '\u0000',
      '{"a":"\\ud800"}',
      '{"a":"\\udc00x"}',
      '{"a\\ud800":1}',
      '{"a":["\\u0000"]}',
      '1'.repeat(2_000_000),
    ),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=xyz',
    'application/json; charset=utf-16',
    'application/xml',
    'application/octet-stream',
    '',
  ),
});

const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype).sort().join(',');

/** Object.prototype must look exactly as it did when the process started. */
export function assertPrototypeClean(context: string): void {
  const probe = {} as Record<string, unknown>;
  assert.equal(probe.polluted, undefined, `Object.prototype polluted after ${context}`);
  assert.equal(probe.isAdmin, undefined, `Object.prototype polluted after ${context}`);
  assert.equal(
    Object.getOwnPropertyNames(Object.prototype).sort().join(','),
    PROTO_KEYS,
    `Object.prototype changed after ${context}`,
  );
}

export interface TCaller {
  name: string;
  headers: () => Record<string, string>;
  cookies?: () => Record<string, string>;
}

/** Sends one case; fails the property on any 5xx (or a crash: inject rejects) and on pollution. */
export async function expectNo5xx(app: FastifyInstance, opts: InjectOptions, context: string): Promise<number> {
  const res = await app.inject(opts);
  if (res.statusCode >= 500) {
    const body = res.body.length > 300 ? `${res.body.slice(0, 300)}…` : res.body;
    assert.fail(
      `${context}: ${String(opts.method)} ${String(opts.url).slice(0, 200)} answered ${res.statusCode} ${body}`,
    );
  }
  assertPrototypeClean(context);
  return res.statusCode;
}

/** Replaces lone surrogates (which cannot be percent-encoded) with U+FFFD. */
export function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
