import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ANALYSIS_MESSAGES, ZAnalysisPatient } from '@contracts/schemas/analysis.js';
import { PROFILE_MESSAGES, ZProfileAge, ZPatientName } from '@contracts/schemas/profile.js';
import { radiograph } from '../analysis/support/fixtures.js';
import { multipart, postMultipart, type TFormPart } from '../helpers/post-multipart.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { FAST_HASH_ENV, rest, signUpUser } from '../auth/auth-helpers.js';

/** Issue 23's Info items: each odd input gets the message that names its problem. */
describe('Info items (issue 23)', () => {
  let t: TestApp;
  let token: string;
  let image: Buffer;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...FAST_HASH_ENV, RATE_LIMIT_DISABLED: 'true' } });
    token = (await signUpUser(t.app)).token;
    image = await radiograph({ side: 256 });
  });
  afterAll(async () => {
    await t.close();
  });

  test('age "0x10" (and "1e2", "0b11") is refused, in profiles and uploads', () => {
    for (const age of ['0x10', '1e2', '0b11', ' 16abc']) {
      const p = ZProfileAge.safeParse(age);
      assert.equal(p.success, false, age);
      assert.equal(p.error?.issues[0]?.message, PROFILE_MESSAGES.age);
      const a = ZAnalysisPatient.safeParse({ age });
      assert.equal(a.error?.issues[0]?.message, ANALYSIS_MESSAGES.invalidAge, age);
    }
    assert.equal(ZProfileAge.parse(' 16 '), 16);
  });

  test('a 10,000-character patient name is told the maximum, not the minimum', async () => {
    assert.equal(ZPatientName.safeParse('A'.repeat(10_000)).error?.issues[0]?.message, PROFILE_MESSAGES.nameTooLong);
    const r = await rest(
      t.app,
      'POST',
      '/api/profile/create',
      { profile: { full_name: 'A'.repeat(10_000), age: '34' } },
      { bearer: token },
    );
    assert.equal(r.status, 400);
    assert.equal(r.body.message, PROFILE_MESSAGES.nameTooLong);
  });

  const upload = (parts: TFormPart[]) => postMultipart(t.app, '/api/chat/upload', multipart(parts), token);
  const file = { name: 'image', value: Buffer.alloc(0), filename: 'x.jpg', type: 'image/jpeg' };

  test('two files in one upload: one image at a time, not the size message', async () => {
    const res = await upload([
      { ...file, value: image },
      { ...file, value: image, filename: 'y.jpg' },
    ]);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().message, ANALYSIS_MESSAGES.oneImage);
  });

  test('more than 10 form fields: too many fields, not the size message', async () => {
    const fields = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, value: 'x' }));
    const res = await upload([...fields, { ...file, value: image }]);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().message, ANALYSIS_MESSAGES.tooManyFields);
  });
});
