import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { worklistLeadText } from '@contracts/finding-story.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { editAndSignRest, reportRest } from '../helpers/sign-report.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { sampleResultV2 } from '../analysis/support/fixtures.js';
import { seedProfileStudies } from '../timeline/seed-profile-studies.js';
import { namedFinding as f } from './seed-studies.js';

/**
 * Issue 49 item 1: once a report is signed, the worklist row's lead and the patient timeline say
 * what the radiologist signed (the first line of the signed impression, then the addenda), not
 * the AI's lead finding, which the radiologist may have removed.
 */
describe('the worklist lead and the timeline after signing', () => {
  let t: TestApp;
  let u: TTestUser;
  let profileId = '';
  let studies: { chatId: string; analysisId: string }[] = [];
  const ai = sampleResultV2({
    findings: [
      f('lung_opacity', 'Airspace opacity', 0.718, 0.62, 'positive'),
      f('pleural_thickening', 'Pleural thickening', 0.22, 0.204, 'possible'),
    ],
    topFinding: 'lung_opacity',
  });

  beforeAll(async () => {
    t = await createTestApp();
    u = await createUser(t.deps, { name: 'Dr Lead Signer' });
    ({ profileId, studies } = await seedProfileStudies(t.deps, u.user.id, [
      { result: ai, createdAt: new Date('2026-11-28T06:00:00Z'), studyDate: '20261128' },
      { result: ai, createdAt: new Date('2026-11-29T06:00:00Z'), studyDate: '20261129' },
    ]));
    const report = reportRest(t, u.token);
    const signed = await editAndSignRest(report, studies[1]!.analysisId, {
      impression: '1. Pleural effusion.\n2. No focal consolidation.',
    });
    await report(studies[1]!.analysisId, 'POST', '/addenda', {
      text: 'Small effusion confirmed on the lateral.',
      revision: signed.revision,
    });
    // The first study's report stays a draft: the AI's words still lead its row.
    await report(studies[0]!.analysisId, 'GET', '');
  });
  afterAll(async () => {
    await t?.close();
  });

  test("worklist: the signed row is led by the signed impression's first line; the draft row by the AI's finding", async () => {
    const list = await sessionCaller(t.deps, u).worklist.list({});
    const byChat = new Map(list.items.map((i) => [i.chatId, i]));
    const signed = byChat.get(studies[1]!.chatId)!;
    assert.equal(signed.report?.status, 'amended');
    assert.equal(signed.report?.lead, 'Pleural effusion.');
    const draft = byChat.get(studies[0]!.chatId)!;
    assert.equal(draft.report?.status, 'draft');
    assert.equal(draft.report?.lead, null);
    assert.equal(worklistLeadText(draft.lead), 'Airspace opacity 72%');
  });

  test('timeline (REST and tRPC): the signed entry carries the signed impression, signer and addenda; the draft none', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/profile/${u.user.id}/${profileId}/timeline`,
      headers: bearer(u.token),
    });
    assert.equal(res.statusCode, 200, res.body);
    const entries = res.json().data.analyses as {
      analysis_id: string;
      signed_report: {
        status: string;
        lead: string;
        impression: string;
        signed_by: string;
        addenda: { text: string; signed_by: string }[];
      } | null;
    }[];
    assert.deepEqual(
      entries.map((e) => e.analysis_id),
      studies.map((s) => s.analysisId),
    );
    assert.equal(entries[0]!.signed_report, null);
    const signed = entries[1]!.signed_report!;
    assert.equal(signed.status, 'amended');
    assert.equal(signed.lead, 'Pleural effusion.');
    assert.equal(signed.impression, '1. Pleural effusion.\n2. No focal consolidation.');
    assert.equal(signed.signed_by, 'Dr Lead Signer');
    assert.deepEqual(
      signed.addenda.map((a) => [a.text, a.signed_by]),
      [['Small effusion confirmed on the lateral.', 'Dr Lead Signer']],
    );
    const trpc = await sessionCaller(t.deps, u).profile.timeline({ profileId });
    assert.deepEqual(trpc.analyses, res.json().data.analyses);
  });
});
