import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createAnalysedChat } from '../export/analysed-chat.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { rest, TEST_ENV } from '../history/http.js';

type TRes = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Issue 17: the clinician's assessment is exported beside the model's call (JSON and FHIR). */
describe('feedback in exports', () => {
  let t: TestApp;
  let owner: TTestUser;
  let chatId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: TEST_ENV });
    owner = await createUser(t.deps);
    chatId = (await createAnalysedChat(t.deps, owner.user.id)).chat.id;
    const r = await rest(t.app, 'POST', '/api/feedback', owner.token, {
      chat_id: chatId,
      finding: 'pneumonia',
      verdict: 'disagree',
      note: 'atelectasis',
    });
    assert.equal(r.status, 200);
  });
  afterAll(async () => t?.close());

  test("JSON: the finding carries the clinician's verdict, reading and note; findings without feedback carry none", async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: `/api/export/${chatId}.json`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    assert.equal(r.statusCode, 200);
    const doc = JSON.parse(r.body) as { findings: TRes[] };
    const pneumonia = doc.findings.find((f) => f.label === 'pneumonia');
    assert.deepEqual(
      { ...pneumonia?.clinicianAssessment, updatedAt: undefined },
      { verdict: 'disagree', reading: 'absent', note: 'atelectasis', updatedAt: undefined },
    );
    assert.equal(doc.findings.find((f) => f.label === 'covid19')?.clinicianAssessment, undefined);
  });

  test("FHIR: the finding's Observation has the assessment as a note", async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: `/api/export/${chatId}.fhir.json`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    assert.equal(r.statusCode, 200);
    const bundle = JSON.parse(r.body) as { entry: { resource: TRes }[] };
    const obs = bundle.entry
      .map((e) => e.resource)
      .find((x) => x.resourceType === 'Observation' && x.code?.coding?.[0]?.code === 'pneumonia');
    assert.deepEqual(obs?.note, [
      { text: "Clinician's assessment: disagrees with the model, reads absent (atelectasis)" },
    ]);
  });
});
