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
  nastyValue,
  objectWithBadText,
  POLLUTION_BODIES,
  rawBody,
  trpcProcedures,
  wellFormed,
  type TProcedure,
} from './fuzz-kit.js';
import { createFuzzApp, createFuzzWorld, fuzzAsEveryCaller, healthy } from './fuzz-setup.js';
import { TEXT_MESSAGES } from '../../server/src/lib/inspect-text.js';

type TInput =
  | { kind: 'value'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string }
  | { kind: 'batch'; value: unknown };

function inputArb(p: TProcedure, ids: string[]): fc.Arbitrary<TInput> {
  return fc.oneof(
    { weight: 5, arbitrary: nastyObject(p.inputKeys, ids).map((value): TInput => ({ kind: 'value', value })) },
    { weight: 2, arbitrary: nastyValue(ids).map((value): TInput => ({ kind: 'value', value })) },
    {
      weight: 1,
      arbitrary: rawBody.map((r): TInput => ({ kind: 'raw', text: r.payload, contentType: r.contentType })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...POLLUTION_BODIES(p.inputKeys))
        .map((text): TInput => ({ kind: 'raw', text, contentType: 'application/json' })),
    },
    // tRPC's batch form: {"0": input, "1": ...}, with hostile indexes too.
    {
      weight: 1,
      arbitrary: fc
        .dictionary(fc.constantFrom('0', '1', '-1', '__proto__', 'x', '99999999'), nastyObject(p.inputKeys, ids), {
          maxKeys: 3,
        })
        .map((value): TInput => ({ kind: 'batch', value })),
    },
  );
}

/** The call as the web client makes it (queries as GET ?input=, mutations as POST), or hostile variants. */
function toInject(
  p: TProcedure,
  input: TInput,
  wrongMethod: boolean,
  headers: Record<string, string>,
  cookies?: Record<string, string>,
): InjectOptions {
  const asGet = (p.type === 'query') !== wrongMethod;
  const batch = input.kind === 'batch';
  const path = batch ? `/trpc/${p.path},${p.path}?batch=1` : `/trpc/${p.path}`;
  const text = input.kind === 'raw' ? input.text : JSON.stringify(input.value ?? null);
  const sep = path.includes('?') ? '&' : '?';
  if (asGet)
    return {
      method: 'GET',
      url: `${path}${sep}input=${encodeURIComponent(wellFormed(text.slice(0, 50_000)))}`,
      headers,
      ...(cookies ? { cookies } : {}),
    };
  const contentType = input.kind === 'raw' ? input.contentType : 'application/json';
  return {
    method: 'POST',
    url: path,
    headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
    payload: text,
    ...(cookies ? { cookies } : {}),
  };
}

describe('fuzzing every tRPC procedure (never a 5xx, never a crash, no prototype pollution)', () => {
  let t: TestApp;
  const procedures = trpcProcedures();
  let cases = 0;
  const started = Date.now();

  beforeAll(async () => {
    t = await createFuzzApp();
  });
  afterAll(async () => {
    console.log(
      `tRPC fuzz: ${cases} cases over ${procedures.length} procedures x 4 callers in ${((Date.now() - started) / 1000).toFixed(1)} s (FUZZ_RUNS=${FUZZ_RUNS})`,
    );
    await t.close();
  });

  test('the procedure list comes from appRouter itself', () => {
    assert.ok(procedures.length >= 20, `found ${procedures.length}`);
    assert.ok(procedures.find((p) => p.path === 'auth.login')?.inputKeys.includes('email'));
  });

  test('every procedure, as anonymous, bearer, cookie and garbage-credential callers', async () => {
    await fuzzAsEveryCaller(t, procedures, (p, world, caller) =>
      fc.asyncProperty(inputArb(p, world.ids), fc.boolean(), async (input, wrongMethod) => {
        cases++;
        await expectNo5xx(
          t.app,
          toInject(p, input, wrongMethod, caller.headers(), caller.cookies?.()),
          `${p.path} (${p.type}) as ${caller.name}`,
        );
      }),
    );
    assert.ok(await healthy(t.app), 'still serving after the fuzz');
    assertPrototypeClean('the whole tRPC fuzz');
  });

  test('a NUL or a lone surrogate anywhere in an input answers 400 with the text message (issue 23 N4)', async () => {
    const world = await createFuzzWorld(t);
    const bearer = world.callers.find((c) => c.name === 'bearer')!;
    for (const p of procedures) {
      await fc.assert(
        fc.asyncProperty(objectWithBadText(p.inputKeys), fc.boolean(), async (value, batch) => {
          cases++;
          const input: TInput = batch ? { kind: 'batch', value: { 0: value } } : { kind: 'value', value };
          // JSON.stringify writes a lone surrogate as a \ud800 escape, which survives the URL too.
          const res = await t.app.inject(toInject(p, input, false, bearer.headers()));
          assert.equal(res.statusCode, 400, `${p.path}: ${res.body.slice(0, 200)}`);
          assert.equal(res.json().message, TEXT_MESSAGES.invalid);
        }),
        { numRuns: FUZZ_RUNS, endOnFailure: true },
      );
    }
  });

  test('unknown procedures and malformed batch paths answer 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.constantFrom('GET', 'POST'), async (name, method) => {
        cases++;
        const path = encodeURIComponent(name.replace(/[\uD800-\uDFFF]/g, '')) || 'x';
        await expectNo5xx(
          t.app,
          {
            method,
            url: `/trpc/${path}?batch=1&input=%7B%7D`,
            headers: { 'content-type': 'application/json' },
            payload: method === 'POST' ? '{}' : undefined,
          },
          'unknown procedure',
        );
      }),
      { numRuns: FUZZ_RUNS * 5 },
    );
  });
});
