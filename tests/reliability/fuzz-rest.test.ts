import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import type { TestApp } from '../helpers/test-app.js';
import {
  assertPrototypeClean,
  expectNo5xx,
  FUZZ_RUNS,
  nastyObject,
  nastyString,
  objectWithBadText,
  POLLUTION_BODIES,
  rawBody,
  registeredRoutes,
  trpcProcedures,
  wellFormed,
  type TRoute,
} from './fuzz-kit.js';
import { createFuzzApp, createFuzzWorld, fuzzAsEveryCaller, healthy } from './fuzz-setup.js';
import { TEXT_MESSAGES } from '../../server/src/lib/inspect-text.js';
import { eq } from 'drizzle-orm';
import { users } from '../../server/src/db/schema.js';

// Keys the REST shims read: every tRPC input key (they share the zod schemas) plus the spec's
// snake_case REST names.
const KEYS = [
  ...new Set([
    ...trpcProcedures().flatMap((p) => p.inputKeys),
    'email',
    'password',
    'name',
    'token',
    'title',
    'chat_id',
    'profile_id',
    'full_name',
    'age',
    'medical_history',
    'current_password',
    'new_password',
    'message',
    'cursor',
    'limit',
    'key',
    'value',
    'fields',
  ]),
];

/** Fills :params with hostile segments: real ids, traversal, broken percent-encoding, huge. */
function urlArb(route: TRoute, ids: string[]): fc.Arbitrary<string> {
  const params = route.url.match(/:[A-Za-z_]+/g) ?? [];
  const segment = fc.oneof(
    nastyString(ids).map((s) => encodeURIComponent(wellFormed(s)).slice(0, 400)),
    fc.constantFrom('%', '%zz', '..', '%2e%2e', '.%00.', 'a/b', '%F0%9F', ' '),
  );
  const query = fc.oneof(
    fc.constant(''),
    fc.dictionary(nastyString(), nastyString(ids), { maxKeys: 3 }).map((d) => `?${new URLSearchParams(d).toString()}`),
    fc.constantFrom(
      '?__proto__[polluted]=yes',
      '?constructor[prototype][polluted]=yes',
      '?a=1&a=2&a[]=3',
      '?%',
      '?cursor=%00&limit=1e999',
    ),
  );
  return fc
    .tuple(fc.array(segment, { minLength: params.length, maxLength: params.length }), query)
    .map(([values, q]) => {
      let url = route.url;
      for (const [i, p] of params.entries()) url = url.replace(p, values[i] ?? 'x');
      return url + q;
    });
}

type TBody =
  { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; payload: string; contentType: string };

function bodyArb(ids: string[]): fc.Arbitrary<TBody> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<TBody>({ kind: 'none' }) },
    { weight: 5, arbitrary: nastyObject(KEYS, ids).map((value): TBody => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: fc.jsonValue().map((value): TBody => ({ kind: 'json', value })) },
    { weight: 2, arbitrary: rawBody.map((r): TBody => ({ kind: 'raw', ...r })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...POLLUTION_BODIES(KEYS))
        .map((payload): TBody => ({ kind: 'raw', payload, contentType: 'application/json' })),
    },
  );
}

function toInject(
  route: TRoute,
  url: string,
  body: TBody,
  headers: Record<string, string>,
  cookies: Record<string, string> | undefined,
): InjectOptions {
  const opts: InjectOptions = {
    method: route.method as InjectOptions['method'],
    url,
    headers: { ...headers },
    ...(cookies ? { cookies } : {}),
  };
  if (body.kind === 'json') {
    opts.headers = { ...opts.headers, 'content-type': 'application/json' };
    opts.payload = JSON.stringify(body.value ?? null);
  } else if (body.kind === 'raw') {
    if (body.contentType) opts.headers = { ...opts.headers, 'content-type': body.contentType };
    opts.payload = body.payload;
  }
  return opts;
}

describe('fuzzing every REST route (never a 5xx, never a crash, no prototype pollution)', () => {
  let t: TestApp;
  let routes: TRoute[] = [];
  let cases = 0;
  const started = Date.now();

  beforeAll(async () => {
    t = await createFuzzApp();
    routes = registeredRoutes(t.app).filter((r) => !r.url.startsWith('/trpc'));
  });
  afterAll(async () => {
    console.log(
      `REST fuzz: ${cases} cases over ${routes.length} routes x 4 callers in ${((Date.now() - started) / 1000).toFixed(1)} s (FUZZ_RUNS=${FUZZ_RUNS})`,
    );
    await t.close();
  });

  test('the route list is read from the app itself', () => {
    assert.ok(routes.length >= 20, `found ${routes.length} routes`);
    assert.ok(routes.some((r) => r.method === 'POST' && r.url === '/api/auth/login'));
    assert.ok(
      routes.some((r) => r.url.includes(':')),
      'parametrised routes are included',
    );
  });

  test('every route, as anonymous, bearer, cookie and garbage-credential callers', async () => {
    await fuzzAsEveryCaller(t, routes, (route, world, caller) =>
      fc.asyncProperty(urlArb(route, world.ids), bodyArb(world.ids), async (url, body) => {
        cases++;
        await expectNo5xx(
          t.app,
          toInject(route, url, body, caller.headers(), caller.cookies?.()),
          `${route.method} ${route.url} as ${caller.name}`,
        );
      }),
    );
    assert.ok(await healthy(t.app), 'still serving after the fuzz');
    assertPrototypeClean('the whole REST fuzz');
  });

  test('a NUL or a lone surrogate anywhere in a JSON body answers 400 with the text message (issue 23 N4)', async () => {
    const world = await createFuzzWorld(t);
    // A site administrator, so that the site routes reach the body check instead of answering 403 first.
    await t.deps.db.update(users).set({ siteAdminSince: new Date() }).where(eq(users.id, world.ids[0]!));
    const bearer = world.callers.find((c) => c.name === 'bearer')!;
    for (const route of routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))) {
      const url = route.url.replace(/:[A-Za-z_]+/g, world.ids[1] ?? 'x');
      await fc.assert(
        fc.asyncProperty(objectWithBadText(KEYS), async (value) => {
          cases++;
          const res = await t.app.inject(toInject(route, url, { kind: 'json', value }, bearer.headers(), undefined));
          assert.equal(res.statusCode, 400, `${route.method} ${route.url}: ${res.body.slice(0, 200)}`);
          assert.equal(res.json().message, TEXT_MESSAGES.invalid);
        }),
        { numRuns: FUZZ_RUNS, endOnFailure: true },
      );
    }
  });

  test('unknown paths and methods answer 404/405, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        fc.webPath(),
        fc.constantFrom('/api', '/trpc', '', '/api/images'),
        async (method, path, prefix) => {
          cases++;
          await expectNo5xx(
            t.app,
            { method: method as InjectOptions['method'], url: `${prefix}${path}` || '/' },
            'unknown path',
          );
        },
      ),
      { numRuns: FUZZ_RUNS * 5 },
    );
  });
});
