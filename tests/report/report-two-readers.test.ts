import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { reports, studyClaims } from '../../server/src/db/schema.js';
import { REPORT_MESSAGES, type TReport } from '@contracts/schemas/report.js';
import { HISTORY_MESSAGES } from '@contracts/schemas/history.js';
import type { TWorklist, TWorklistStudyState } from '@contracts/schemas/worklist.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { analysedChat } from '../analysis/support/fixtures.js';
import { rest, TEST_ENV, trpc } from '../history/http.js';
import { seedRows, seedWorld, type TWorld } from '../teams/matrix/matrix-world.js';

/**
 * Issue 49 item 4 "two readers, one truth" and issue 46 M3, H4, I1: a team's browser upload is
 * claimed like a network study and offered by "Sign and next"; every save, signature and addendum
 * names the revision it was read at, a stale one is refused in words and overwrites nothing; a
 * team study's report is written by the reader holding its claim, and the signature ends the
 * claim; a chat whose report is signed cannot be deleted; an impression needs a visible character.
 */
const STALE = (name: string) =>
  new RegExp(
    `^This report was changed by ${name} at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: reload it to see their changes$`,
  );

for (const backend of testBackends()) {
  describe(`two readers, one report on ${backend}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp({ backend, env: { ...TEST_ENV } });
    });
    afterAll(async () => {
      await t?.close();
    });

    type TAnswer = { status: number; report: TReport; message: string };
    const api = async (
      method: 'GET' | 'PUT' | 'POST',
      url: string,
      who: TTestUser,
      body?: unknown,
    ): Promise<TAnswer> => {
      const r = await rest(t.app, method, url, who.token, body);
      const json = r.body as { data: TReport; message: string };
      return { status: r.status, report: json.data, message: json.message };
    };
    const reportUrl = (analysisId: string) => `/api/analyses/${analysisId}/report`;
    const stored = async (analysisId: string) =>
      (await t.deps.db.select().from(reports).where(eq(reports.analysisId, analysisId)))[0]!;
    const claimRow = async (studyId: string) =>
      (await t.deps.db.select().from(studyClaims).where(eq(studyClaims.studyId, studyId)))[0];
    const sectionsWith = (r: TReport, impression: string) => ({ ...r.sections, impression });

    test('B saves, A signs at a stale then the current revision; B is refused after; nothing is overwritten', async () => {
      const w = await seedWorld(t);
      const rows = await seedRows(t, w.teamId, w.users.author.user.id);
      const a = w.users.radiologist;
      const b = w.users.author;
      const url = reportUrl(rows.analysisId);
      const claim = (who: TTestUser) => rest(t.app, 'POST', `/api/worklist/${rows.analysisId}/claim`, who.token);

      // The upload is claimable (issue 49: it had no claim at all).
      assert.equal((await claim(b)).status, 200);
      const read = await api('GET', url, a);
      assert.equal(read.status, 200);
      assert.equal(typeof read.report.revision, 'number');
      const r0 = read.report.revision;

      // M3: A, not holding the claim, can neither save nor sign: 409 naming the holder, REST and tRPC.
      const heldBy = REPORT_MESSAGES.heldBy(b.user.name);
      const aSave = await api('PUT', url, a, { sections: sectionsWith(read.report, '1. A was here.'), revision: r0 });
      assert.deepEqual([aSave.status, aSave.message], [409, heldBy]);
      assert.deepEqual(
        [(await api('POST', `${url}/sign`, a, { revision: r0 })).status, (await stored(rows.analysisId)).status],
        [409, 'draft'],
      );
      const twin = await trpc(t.app, 'mutation', 'report.sign', a.token, { analysisId: rows.analysisId, revision: r0 });
      assert.deepEqual([twin.status, twin.error?.message], [409, heldBy]);

      const bText = '1. Pleural effusion, right.';
      const bSave = await api('PUT', url, b, { sections: sectionsWith(read.report, bText), revision: r0 });
      assert.equal(bSave.status, 200, bSave.message);
      assert.equal(bSave.report.revision, r0 + 1);
      assert.equal((await rest(t.app, 'DELETE', `/api/worklist/${rows.analysisId}/claim`, b.token)).status, 200);
      assert.equal((await claim(a)).status, 200);

      // A read the report before B's save: A's save and signature are refused, naming B.
      const stale = await api('PUT', url, a, { sections: sectionsWith(read.report, '1. A overwrites.'), revision: r0 });
      assert.equal(stale.status, 409);
      assert.match(stale.message, STALE(b.user.name));
      const staleSign = await api('POST', `${url}/sign`, a, { revision: r0 });
      assert.equal(staleSign.status, 409);
      assert.match(staleSign.message, STALE(b.user.name));
      const twinStale = await trpc(t.app, 'mutation', 'report.edit', a.token, {
        analysisId: rows.analysisId,
        revision: r0,
        sections: sectionsWith(read.report, '1. A overwrites.'),
      });
      assert.equal(twinStale.status, 409);
      assert.match(twinStale.error!.message, STALE(b.user.name));
      let row = await stored(rows.analysisId);
      assert.deepEqual([row.status, row.impression, row.revision], ['draft', bText, r0 + 1], 'nothing overwritten');

      // At the current revision A signs; the signature ends A's claim.
      const signed = await api('POST', `${url}/sign`, a, { revision: r0 + 1 });
      assert.equal(signed.status, 200, signed.message);
      assert.equal(signed.report.status, 'final');
      assert.equal(signed.report.sections.impression, bText);
      assert.equal((await claimRow(rows.analysisId))?.claimedBy, null);
      const state = await trpc(t.app, 'query', 'worklist.study', a.token, { analysisId: rows.analysisId });
      assert.equal((state.data as TWorklistStudyState).claim, null);

      // B, still at r0 + 1, saves and signs: refused naming A; the signed report is A's signature of B's text.
      const late = await api('PUT', url, b, { sections: sectionsWith(read.report, '1. Late edit.'), revision: r0 + 1 });
      assert.equal(late.status, 409);
      assert.match(late.message, STALE(a.user.name));
      const lateSign = await api('POST', `${url}/sign`, b, { revision: r0 + 1 });
      assert.equal(lateSign.status, 409);
      assert.match(lateSign.message, STALE(a.user.name));
      row = await stored(rows.analysisId);
      assert.deepEqual([row.status, row.impression, row.signedByName], ['final', bText, a.user.name]);

      // An addendum names its revision too.
      const staleAdd = await api('POST', `${url}/addenda`, b, { text: 'Unchanged.', revision: r0 + 1 });
      assert.equal(staleAdd.status, 409);
      assert.match(staleAdd.message, STALE(a.user.name));
      const added = await api('POST', `${url}/addenda`, b, { text: 'Unchanged.', revision: signed.report.revision });
      assert.equal(added.status, 200, added.message);
      assert.equal(added.report.revision, signed.report.revision + 1);
      const again = await api('POST', `${url}/addenda`, a, { text: 'Twice.', revision: signed.report.revision });
      assert.equal(again.status, 409);
      assert.match(again.message, STALE(b.user.name));
      assert.equal((await stored(rows.analysisId)).status, 'amended');
    });

    test('a team study nobody claimed: save and sign say claim it first; no revision at all is a 400', async () => {
      const w = await seedWorld(t);
      const rows = await seedRows(t, w.teamId, w.users.author.user.id);
      const url = reportUrl(rows.analysisId);
      const { report } = await api('GET', url, w.users.admin);
      const put = await api('PUT', url, w.users.admin, { sections: report.sections, revision: report.revision });
      assert.deepEqual([put.status, put.message], [409, REPORT_MESSAGES.claimFirst]);
      const sign = await api('POST', `${url}/sign`, w.users.admin, { revision: report.revision });
      assert.deepEqual([sign.status, sign.message], [409, REPORT_MESSAGES.claimFirst]);
      const bare = await api('PUT', url, w.users.admin, { sections: report.sections });
      assert.equal(bare.status, 400);
      const twin = await trpc(t.app, 'mutation', 'report.sign', w.users.admin.token, { analysisId: rows.analysisId });
      assert.equal(twin.status, 400);
      assert.equal((await stored(rows.analysisId)).revision, report.revision);
    });

    test('"Sign and next" offers a team upload and claims it; the worklist shows who reads it', async () => {
      const w = await seedWorld(t);
      const rows = await seedRows(t, w.teamId, w.users.author.user.id);
      const next = await trpc(t.app, 'mutation', 'worklist.next', w.users.radiologist.token, { team: w.teamId });
      assert.equal(next.status, 200, JSON.stringify(next.body));
      assert.deepEqual(next.data, { id: rows.analysisId, chatId: rows.chatId });
      const list = await trpc(t.app, 'query', 'worklist.list', w.users.clinician.token, { team: w.teamId });
      const item = (list.data as TWorklist).items.find((i) => i.id === rows.analysisId);
      assert.equal(item?.source, 'upload');
      assert.equal(item?.claim?.userId, w.users.radiologist.user.id);
      // The other radiologist is refused the claim, naming the reader; nothing else is left to offer.
      const taken = await rest(t.app, 'POST', `/api/worklist/${rows.analysisId}/claim`, w.users.author.token);
      assert.equal(taken.status, 409);
      const again = await trpc(t.app, 'mutation', 'worklist.next', w.users.author.token, { team: w.teamId });
      assert.equal(again.data, null);
    });

    test('signed rows show no reader (a claim left from before is not shown) and list as unclaimed', async () => {
      const w = await seedWorld(t);
      const rows = await seedRows(t, w.teamId, w.users.author.user.id);
      const r = w.users.radiologist;
      await trpc(t.app, 'mutation', 'worklist.claim', r.token, { id: rows.analysisId });
      const { report } = await api('GET', reportUrl(rows.analysisId), r);
      assert.equal(
        (await api('POST', `${reportUrl(rows.analysisId)}/sign`, r, { revision: report.revision })).status,
        200,
      );
      // As a study signed before signatures ended claims (migration 0018 drops those): claimed again in SQL.
      await t.deps.db
        .update(studyClaims)
        .set({ claimedBy: r.user.id, claimedAt: sql`now()` })
        .where(eq(studyClaims.studyId, rows.analysisId));
      const list = async (input: Record<string, unknown>) =>
        ((await trpc(t.app, 'query', 'worklist.list', r.token, { team: w.teamId, ...input })).data as TWorklist).items;
      const item = (await list({})).find((i) => i.id === rows.analysisId);
      assert.equal(item?.report?.status, 'final');
      assert.equal(item?.claim, null);
      assert.ok((await list({ reader: 'unclaimed' })).some((i) => i.id === rows.analysisId));
      assert.ok(!(await list({ reader: 'mine' })).some((i) => i.id === rows.analysisId));
    });

    test('an impression of only a zero-width space is empty: refused when saved and when signed', async () => {
      const u = await createUser(t.deps);
      const { analysisId } = await analysedChat(t.deps, u.user.id);
      const url = reportUrl(analysisId);
      const { report } = await api('GET', url, u);
      for (const empty of ['\u200b', ' \u200b\u200d\ufeff ', '\u2060'])
        assert.equal(
          (await api('PUT', url, u, { sections: sectionsWith(report, empty), revision: report.revision })).status,
          400,
          JSON.stringify(empty),
        );
      // A draft stored with one (before this rule): the signature is refused, in words.
      await t.deps.db.update(reports).set({ impression: '\u200b' }).where(eq(reports.analysisId, analysisId));
      const sign = await api('POST', `${url}/sign`, u, { revision: report.revision });
      assert.deepEqual([sign.status, sign.message], [400, REPORT_MESSAGES.impressionRequired]);
      assert.equal((await stored(analysisId)).status, 'draft');
    });

    test('a chat whose report is signed cannot be deleted, by its author, an admin or a radiologist', async () => {
      const w: TWorld = await seedWorld(t);
      const rows = await seedRows(t, w.teamId, w.users.author.user.id);
      const r = w.users.radiologist;
      await trpc(t.app, 'mutation', 'worklist.claim', r.token, { id: rows.analysisId });
      const { report } = await api('GET', reportUrl(rows.analysisId), r);
      assert.equal(
        (await api('POST', `${reportUrl(rows.analysisId)}/sign`, r, { revision: report.revision })).status,
        200,
      );
      for (const who of [w.users.author, w.users.admin, r]) {
        const viaRest = await rest(t.app, 'DELETE', '/api/history/delete', who.token, { chat_id: rows.chatId });
        assert.deepEqual(
          [viaRest.status, (viaRest.body as { message: string }).message],
          [409, HISTORY_MESSAGES.signedReport],
        );
        const viaTrpc = await trpc(t.app, 'mutation', 'history.delete', who.token, { chatId: rows.chatId });
        assert.deepEqual([viaTrpc.status, viaTrpc.error?.message], [409, HISTORY_MESSAGES.signedReport]);
      }
      assert.equal((await stored(rows.analysisId)).status, 'final', 'the signed report is still there');

      // A personal chat with a draft report is deleted as before.
      const u = await createUser(t.deps);
      const { chatId, analysisId } = await analysedChat(t.deps, u.user.id);
      assert.equal((await api('GET', reportUrl(analysisId), u)).report.status, 'draft');
      assert.equal((await trpc(t.app, 'mutation', 'history.delete', u.token, { chatId })).status, 200);
    });
  });
}
