import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, findingFeedback, reports } from '../../server/src/db/schema.js';
import type { TReport } from '@contracts/schemas/report.js';
import { ABNORMAL_UNNAMED, draftSections, NO_ACUTE } from '../../server/src/services/report/draft-sections.js';
import { impressionChanges } from '../../server/src/services/report/impression-changes.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { analysedChat, sampleResult, sampleResultV2 } from '../analysis/support/fixtures.js';
import { seedRows, seedWorld } from '../teams/matrix/matrix-world.js';

const facts = (result = sampleResultV2()) => ({
  result,
  age: 60,
  studyDate: '2026-11-02',
  source: 'dicom' as const,
  comparison: null,
});

describe('the drafted report (pure)', () => {
  test('sections by region in short sentences, the heart by its ratio, impression numbered, likely only', () => {
    const result = sampleResultV2({ projection: { call: 'PA', probabilityAP: null, source: 'dicom' } });
    const s = draftSections(facts(result));
    assert.equal(s.examination, 'Chest radiograph, PA view, 2026-11-02.');
    assert.equal(s.comparison, 'None available.');
    assert.match(s.findings, /^Lungs: No pneumonia \/ lung opacity or COVID-19 pattern flagged\.$/m);
    assert.match(s.findings, /^Heart and mediastinum: Heart size enlarged, CTR 0\.56 on a PA film\.$/m);
    // An older result's "uncertain" effusion is a low-confidence flag, never an impression item.
    assert.match(s.findings, /^Low-confidence flags for review: Pleural effusion\.$/m);
    assert.match(s.findings, /^Not assessed: hernia, fibrosis and atelectasis; lines, tubes and devices\.$/m);
    assert.equal(s.impression, '1. Cardiomegaly, CTR 0.56 on a PA film.');
  });

  test('nothing likely: "No acute cardiopulmonary abnormality." or, with triage up, one line asking for review', () => {
    const calls = (pneumonia: 'negative' | 'uncertain' | 'possible', triage: 'negative' | 'positive') =>
      sampleResult({
        findings: sampleResult().findings.map((f) => ({
          ...f,
          call: f.label === 'pneumonia' ? pneumonia : f.label === 'abnormal' ? triage : 'negative',
        })),
      });
    assert.equal(draftSections(facts(calls('negative', 'negative'))).impression, NO_ACUTE);
    assert.equal(draftSections(facts(calls('possible', 'negative'))).impression, NO_ACUTE);
    assert.equal(draftSections(facts(calls('uncertain', 'positive'))).impression, ABNORMAL_UNNAMED);
    const possible = draftSections(facts(calls('possible', 'positive')));
    assert.equal(possible.impression, ABNORMAL_UNNAMED);
    assert.match(possible.findings, /^Low-confidence flags for review: Pneumonia\.$/m);
  });
});

describe("the reader's feedback stored at signing (pure)", () => {
  // The AI called the effusion likely (so the draft named it) and the pneumothorax possible (kept out of it).
  const findings = [
    { label: 'pleural_effusion', display: 'Pleural effusion', call: 'positive' },
    { label: 'pneumothorax', display: 'Pneumothorax', call: 'possible' },
  ] as const;
  const changes = (impression: string) =>
    impressionChanges(findings, impression).map((c) => `${c.finding.label} ${c.change}`);

  test("the signed impression is read by the chat's rule: a negation before the name, a finding by its note's names", () => {
    assert.deepEqual(changes('1. Pleural effusion, not large.'), []);
    assert.deepEqual(changes('1. No pleural effusion.'), ['pleural_effusion removed']);
    // A word after the name that undoes it: the signer removed the AI's effusion.
    assert.deepEqual(changes('1. The pleural effusion has resolved.'), ['pleural_effusion removed']);
    // "Effusion" alone names it, as the chat reads it: kept, not removed; the pneumothorax added.
    assert.deepEqual(changes('1. Small right effusion.\n2. Small apical pneumothorax.'), ['pneumothorax added']);
  });
});

for (const backend of testBackends()) {
  describe(`the report of an analysis on ${backend}`, () => {
    let t: TestApp;
    let u: TTestUser;
    let token: string;
    const api = async (method: 'GET' | 'PUT' | 'POST', url: string, tok: string, body?: unknown) => {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...bearer(tok), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
      });
      return { status: res.statusCode, body: res.json() as { data: TReport; message: string } };
    };

    beforeAll(async () => {
      t = await createTestApp({ backend });
      u = await createUser(t.deps);
      token = u.token;
    });
    afterAll(async () => {
      await t.close();
    });

    test('the finalizer drafts it; the owner edits, signs (then 409), adds addenda; sign and addenda are audited', async () => {
      const { analysisId } = await analysedChat(t.deps, u.user.id);
      const [row] = await t.deps.db.select().from(reports).where(eq(reports.analysisId, analysisId));
      assert.equal(row?.status, 'draft');
      assert.match(row!.impression, /^1\. Pneumonia\.\n2\. Bacterial pneumonia\.$/);
      const url = `/api/analyses/${analysisId}/report`;
      const got = await api('GET', url, token);
      assert.equal(got.status, 200);
      assert.equal(got.body.data.status, 'draft');
      assert.equal(got.body.data.signedBy, null);
      assert.match(got.body.data.draftedBy, /cxr-test test-1\.0\.0/);

      // The reader keeps pneumonia, drops bacterial pneumonia and adds the viral pattern.
      const sections = {
        ...got.body.data.sections,
        impression: '1. Pneumonia, right lower zone.\n2. Viral pneumonia pattern.',
      };
      const { revision } = got.body.data;
      const put = await api('PUT', url, token, { sections, revision });
      assert.equal(put.status, 200);
      assert.equal(put.body.data.sections.impression, sections.impression);
      assert.equal(put.body.data.revision, revision + 1, 'a save makes a new revision');
      const empty = await api('PUT', url, token, {
        sections: { ...sections, impression: ' ' },
        revision: revision + 1,
      });
      assert.equal(empty.status, 400);
      // Issue 49: a save or signature without the revision it was read at is refused, in words.
      const bare = await api('POST', `${url}/sign`, token, {});
      assert.equal(bare.status, 400);
      assert.match(bare.body.message, /revision/);

      const signed = await api('POST', `${url}/sign`, token, { revision: revision + 1 });
      assert.equal(signed.status, 200);
      assert.equal(signed.body.data.status, 'final');
      assert.equal(signed.body.data.signedBy, u.user.name);
      assert.ok(signed.body.data.signedAt);
      const now = signed.body.data.revision;
      assert.equal((await api('PUT', url, token, { sections, revision: now })).status, 409);
      assert.equal((await api('POST', `${url}/sign`, token, { revision: now })).status, 409);

      const feedback = await t.deps.db
        .select({
          finding: findingFeedback.finding,
          verdict: findingFeedback.verdict,
          reading: findingFeedback.reading,
        })
        .from(findingFeedback)
        .where(eq(findingFeedback.analysisId, analysisId));
      assert.deepEqual(
        feedback.sort((a, b) => a.finding.localeCompare(b.finding)),
        [
          { finding: 'pneumonia_bacterial', verdict: 'disagree', reading: 'absent' },
          { finding: 'pneumonia_viral', verdict: 'disagree', reading: 'present' },
        ],
      );

      const add = await api('POST', `${url}/addenda`, token, {
        text: 'Compared with the outside film: unchanged.',
        revision: now,
      });
      assert.equal(add.status, 200);
      assert.equal(add.body.data.status, 'amended');
      assert.deepEqual(
        add.body.data.addenda.map((a) => [a.text, a.signedBy]),
        [['Compared with the outside film: unchanged.', u.user.name]],
      );
      assert.equal((await api('POST', `${url}/addenda`, token, { text: '', revision: now + 1 })).status, 400);
      const audit = await t.deps.db
        .select({ action: auditLog.action, outcome: auditLog.outcome })
        .from(auditLog)
        .where(and(eq(auditLog.objectId, analysisId), eq(auditLog.actorUserId, u.user.id)));
      const actions = audit.map((a) => `${a.action}:${a.outcome}`);
      assert.ok(actions.includes('report.sign:success'), actions.join());
      assert.ok(actions.includes('report.sign:failure'), actions.join());
      assert.ok(actions.includes('report.addendum:success'), actions.join());
    });

    test('an addendum needs a signed report; another account gets 404', async () => {
      const { analysisId } = await analysedChat(t.deps, u.user.id);
      const url = `/api/analyses/${analysisId}/report`;
      assert.equal((await api('POST', `${url}/addenda`, token, { text: 'x', revision: 1 })).status, 409);
      const stranger = await createUser(t.deps);
      const other = stranger.token;
      assert.equal((await api('GET', url, other)).status, 404);
      assert.equal((await api('POST', `${url}/sign`, other, { revision: 1 })).status, 404);
      assert.equal((await api('GET', '/api/analyses/not-a-uuid/report', token)).status, 404);
    });

    test('in a team: a clinician reads and is refused edit, sign and addenda (403); a radiologist signs', async () => {
      const w = await seedWorld(t);
      const rows = await seedRows(t, w.teamId, w.users.author.user.id);
      const url = `/api/analyses/${rows.analysisId}/report`;
      const clinician = w.users.clinician.token;
      const read = await api('GET', url, clinician);
      assert.equal(read.status, 200);
      assert.equal(read.body.data.status, 'draft');
      assert.equal(read.body.data.canSign, false);
      assert.equal((await api('GET', url, w.users.radiologist.token)).body.data.canSign, true);
      const { revision } = read.body.data;
      assert.equal((await api('PUT', url, clinician, { sections: read.body.data.sections, revision })).status, 403);
      assert.equal((await api('POST', `${url}/sign`, clinician, { revision })).status, 403);
      assert.equal((await api('GET', url, w.users.otherTeam.token)).status, 404);
      // A team's upload is claimed before its report is signed (issues 46 M3, 49).
      const claim = await api('POST', `/api/worklist/${rows.analysisId}/claim`, w.users.radiologist.token);
      assert.equal(claim.status, 200, JSON.stringify(claim.body));
      const signed = await api('POST', `${url}/sign`, w.users.radiologist.token, { revision });
      assert.equal(signed.status, 200);
      assert.equal(signed.body.data.signedBy, w.users.radiologist.user.name);
      const after = signed.body.data.revision;
      assert.equal((await api('POST', `${url}/addenda`, clinician, { text: 'x', revision: after })).status, 403);
      assert.equal((await api('GET', url, clinician)).body.data.status, 'final');
    });
  });
}
