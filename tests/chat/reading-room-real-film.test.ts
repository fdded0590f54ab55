import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyses } from '../../server/src/db/schema.js';
import { CONDITION_NOTES } from '../../server/src/knowledge/cxr-conditions.js';
import { metricsForResult } from '../../server/src/knowledge/model-metrics.js';
import { isCalled } from '@contracts/finding-call.js';
import { ZStoredResult, type TStoredResult } from '@contracts/schemas/analysis.js';
import type { TReport } from '@contracts/schemas/report.js';
import { DISCLAIMER, pct } from '../../server/src/services/analysis/compose-report.js';
import { bearer, createProfile, createUser, type TTestUser } from '../helpers/factories.js';
import { askChat } from '../helpers/ask-chat.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testPatientName } from '../helpers/test-patients.js';
import { MODEL_DIR, modelInstalled, radiograph, uploadBody } from '../analysis/support/fixtures.js';
import { postMultipart } from '../helpers/post-multipart.js';
import { startAnalysisWorker, type TestAnalysisWorker } from '../analysis/support/start-analysis-worker.js';

/**
 * The reading room's questions (issue 41) asked in the chat of a real film analysed by the real
 * pipeline (the shipped ONNX models, queue, worker, finalizer), the patient's second study: each
 * answer is checked against what the report panel shows (GET /api/analyses/{id}/report) and the
 * stored result.
 */
describe.skipIf(!modelInstalled() && 'no model installed')("the reading room's chat on a real second study", () => {
  let t: TestApp;
  let u: TTestUser;
  let w: TestAnalysisWorker;
  let chatId = '';
  let analysisId = '';
  let result: TStoredResult;
  let report: TReport;

  beforeAll(async () => {
    t = await createTestApp({
      background: true,
      env: { MODEL_DIR, ANALYSIS_WAIT_MS: '30000', ANALYSIS_TIMEOUT_MS: '30000' },
    });
    u = await createUser(t.deps);
    w = startAnalysisWorker(t.deps);
    const profileId = (await createProfile(t.deps, u.user.id)).id;
    // A normal film, then an adult COVID-19 film of the same patient: the second has a prior.
    for (const label of ['normal', 'covid19'] as const) {
      const body = uploadBody(
        await radiograph({ label, index: label === 'covid19' ? 1 : 0, side: 800 }),
        { full_name: testPatientName('Reading'), age: 61 },
        [{ name: 'profile_id', value: profileId }],
      );
      const res = await postMultipart(t.app, '/api/chat/analyzer', body, u.token);
      assert.equal(res.statusCode, 200, res.body);
      const data = (res.json() as { data: { chat_id: string; analysis_id: string; status: string } }).data;
      assert.equal(data.status, 'completed');
      chatId = data.chat_id;
      analysisId = data.analysis_id;
    }
    const [row] = await t.deps.db.select().from(analyses).where(eq(analyses.id, analysisId));
    result = ZStoredResult.parse(row!.result);
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/analyses/${analysisId}/report`,
      headers: bearer(u.token),
    });
    assert.equal(got.statusCode, 200, got.body);
    report = (got.json() as { data: TReport }).data;
  });
  afterAll(async () => {
    await w?.close();
    await t?.close();
  });

  const ask = async (query: string): Promise<string> => {
    const answer = await askChat(t, u.token, chatId, query);
    assert.ok(answer.includes(DISCLAIMER), query);
    assert.doesNotMatch(answer, /Do you mean/, query);
    return answer;
  };

  test('"draft the report" gives the report panel\'s four sections word for word, with the prior compared', async () => {
    const answer = await ask('Draft the report');
    const { examination, comparison, findings, impression } = report.sections;
    assert.ok(answer.includes(`**EXAMINATION**\n${examination}`), answer);
    assert.ok(answer.includes(`**COMPARISON**\n${comparison}`), answer);
    assert.ok(answer.includes(`**FINDINGS**\n${findings}`), answer);
    assert.ok(answer.includes(`**IMPRESSION**\n${impression}`), answer);
    assert.match(comparison, /^Compared with the study (of|uploaded on) \d{4}-\d{2}-\d{2}/);
    assert.match(answer, /radiologist edits and signs the report in the report panel/);
  });

  test("the impression and the most important finding are the draft's impression and its first flagged line", async () => {
    assert.ok((await ask('write the impression line')).includes(report.sections.impression));
    const top = await ask('what is the most important finding?');
    const flagged = result.findings.filter((f) => f.label !== 'abnormal' && isCalled(f.call));
    if (flagged.length) {
      const first = report.sections.impression.split('\n')[0]!.replace(/^1\. /, '').replace(/\.$/, '');
      assert.ok(top.includes(`the first line of the drafted impression: **${first}**`), `${first}\n${top}`);
    } else assert.match(top, /^No finding flagged\./);
  });

  test('lines and tubes: not assessed, a reader checks them', async () => {
    const answer = await ask('any lines or tubes?');
    assert.match(answer, /not assess lines, tubes, pacemakers or other devices/);
    assert.match(answer, /A reader must check every line, tube and device on the film/);
    assert.doesNotMatch(answer, /\b(is|are) (present|absent|seen|visible)\b/i);
  });

  test("why is the top finding flagged: this film's probability and point, and the shipped card's figure", async () => {
    const f = result.findings.find((x) => x.label === result.topFinding);
    assert.ok(f, 'the film has a flagged finding');
    const answer = await ask(`Why is the ${CONDITION_NOTES[f.label]!.aliases[0]} flagged?`);
    assert.ok(answer.startsWith(`**${f.display} is flagged`), answer);
    assert.ok(answer.includes(`its calibrated probability, ${pct(f.probability)}, is at or above`), answer);
    assert.ok(answer.includes(pct(f.threshold)), answer);
    const card = metricsForResult(MODEL_DIR, result)?.findings[f.label];
    if (card?.auc) assert.ok(answer.includes(`ROC AUC ${card.auc.toFixed(3)}`), answer);
  });

  test('"what changed since the prior study?" is the timeline\'s comparison', async () => {
    const answer = await ask('What changed since the prior study?');
    assert.match(
      answer,
      /^Compared with the study (of|uploaded on) \d{4}-\d{2}-\d{2}( \(no study date recorded\))? \(model /,
    );
  });
});
