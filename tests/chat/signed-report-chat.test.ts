import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyses, dicomInstances } from '../../server/src/db/schema.js';
import type { TReport } from '@contracts/schemas/report.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { askChat } from '../helpers/ask-chat.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { finding, resultOf, seedStudies } from '../worklist/seed-studies.js';

const SIGNER = 'Dr Sasha Signer';

/**
 * "Draft the report" and "what is the impression" once the report is no longer the AI's draft
 * (issue 41): an edited draft is quoted as edited, a signed report with its signer, its date and
 * its addenda — the report the hospital received, never the AI's draft beside it.
 */
describe('the chat quotes the edited, then the signed report', () => {
  let t: TestApp;
  let u: TTestUser;
  let chatId = '';
  let analysisId = '';

  const api = async (method: 'GET' | 'PUT' | 'POST', path: string, payload?: object): Promise<TReport> => {
    const res = await t.app.inject({
      method,
      url: `/api/analyses/${analysisId}/report${path}`,
      headers: bearer(u.token),
      payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json() as { data: TReport }).data;
  };
  const ask = async (query: string): Promise<string> => {
    const answer = await askChat(t, u.token, chatId, query);
    assert.doesNotMatch(answer, /Do you mean/, query);
    return answer;
  };

  beforeAll(async () => {
    t = await createTestApp();
    u = await createUser(t.deps, { name: SIGNER });
    const [instance] = await seedStudies(t.deps, { userId: u.user.id }, [
      { status: 'analysed', result: resultOf(finding('mass', 0.9, 0.5, 'positive')), createdAt: new Date() },
    ]);
    const [row] = await t.deps.db
      .select({ analysisId: dicomInstances.analysisId, chatId: analyses.chatId })
      .from(dicomInstances)
      .innerJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
      .where(eq(dicomInstances.id, instance!));
    analysisId = row!.analysisId!;
    chatId = row!.chatId;
  });
  afterAll(async () => {
    await t?.close();
  });

  test('untouched, the AI draft; edited, the edited sections; signed, the signed text, signer, date and addenda', async () => {
    const draft = await api('GET', '');
    assert.equal(draft.status, 'draft');
    const drafted = await ask('draft the report');
    assert.match(drafted, /^The drafted report, written from the stored result only/);
    assert.ok(drafted.includes(draft.sections.impression));

    const edited = { ...draft.sections, impression: '1. Right upper zone mass, edited by the reader.' };
    await api('PUT', '', { sections: edited });
    const afterEdit = await ask('draft the report');
    assert.match(afterEdit, /^The draft in the report panel has been edited/);
    assert.ok(afterEdit.includes(edited.impression));
    assert.ok(afterEdit.includes(edited.findings));
    assert.ok(!afterEdit.includes(draft.sections.impression), 'not the AI impression');
    assert.match(
      await ask('what is the impression'),
      /has been edited; its impression as edited:\n\n1\. Right upper zone mass, edited by the reader\./,
    );

    const signed = await api('POST', '/sign');
    assert.equal(signed.status, 'final');
    const day = signed.signedAt!.slice(0, 10);
    const report = await ask('draft the report');
    assert.ok(report.startsWith(`The text of the signed report (final). Signed by ${SIGNER} on ${day} at `), report);
    for (const section of Object.values(edited)) assert.ok(report.includes(section));
    assert.doesNotMatch(report, /ADDENDA|until it is signed/);
    const impression = await ask('what is the impression');
    assert.ok(impression.startsWith(`The impression of the signed report (final). Signed by ${SIGNER} on ${day}`));
    assert.ok(impression.includes(edited.impression));
    assert.ok(!impression.includes(draft.sections.impression));

    await api('POST', '/addenda', { text: 'Compared with the outside film: unchanged.' });
    const amended = await ask('draft the report');
    assert.match(amended, /^The text of the signed report \(amended\)/);
    assert.match(
      amended,
      new RegExp(
        `\\*\\*ADDENDA\\*\\*\\n- Compared with the outside film: unchanged\\. \\(Signed by ${SIGNER} on ${day} at `,
      ),
    );
    assert.match(await ask('what is the impression'), /ADDENDA\*\*\n- Compared with the outside film/);
  });
});
