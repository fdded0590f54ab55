import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { pino } from 'pino';
import { loggerOptions } from '@common/logger.js';
import { users } from '../../server/src/db/schema.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { TEST_PATIENT_MARKER, testPatientName } from '../helpers/test-patients.js';

/** A logger with the server's and worker's options, writing its lines into an array. */
function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { log: pino(loggerOptions({ LOG_LEVEL: 'info' }), stream), lines };
}

/**
 * D1: a database error quotes the query's parameters (drizzle's "params: …", pg's `detail`
 * "Key (email)=(…) already exists"). The one error serializer must log what went wrong (type,
 * code, constraint, stack frames) and never those values.
 */
describe.each(testBackends())('the error serializer on %s', (backend) => {
  let t: TestApp;
  let dbError: unknown;
  const name = testPatientName('Serializer');
  const email = `${TEST_PATIENT_MARKER.toLowerCase()}-${crypto.randomUUID()}@example.org`;

  beforeAll(async () => {
    t = await createTestApp({ backend });
    const row = { name, email, passwordHash: 'x' };
    await t.deps.db.insert(users).values(row);
    // A unique violation whose parameters and detail carry the patient name and email.
    dbError = await t.deps.db
      .insert(users)
      .values(row)
      .then(
        () => null,
        (err: unknown) => err,
      );
    assert.ok(dbError, 'the duplicate insert failed');
    assert.match(
      JSON.stringify(dbError, Object.getOwnPropertyNames(dbError)) + String(dbError),
      new RegExp(TEST_PATIENT_MARKER, 'i'),
      'the raw error does carry the values',
    );
  });
  afterAll(async () => {
    await t.close();
  });

  test('logged as { err }, as an error argument, and as a cause: no parameter reaches the line', () => {
    const { log, lines } = capturingLogger();
    log.error({ err: dbError }, 'query failed');
    log.error(dbError as Error);
    log.error({ err: new Error('wrapped', { cause: dbError }) }, 'wrapped failure');
    assert.equal(lines.length, 3);
    for (const line of lines) {
      assert.doesNotMatch(line, new RegExp(TEST_PATIENT_MARKER, 'i'));
      assert.doesNotMatch(line, /Serializer/);
    }
    const first = JSON.parse(lines[0] ?? '{}') as { err: Record<string, unknown> };
    const codes = JSON.stringify(first.err);
    assert.match(codes, /23505/, 'the SQLSTATE is kept');
    assert.match(codes, /users_email_uq/, 'the constraint name is kept');
    assert.match(
      String((first.err.stack as string | undefined) ?? JSON.stringify(first.err)),
      /\bat /,
      'stack frames are kept',
    );
  });
});
