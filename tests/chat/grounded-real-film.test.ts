import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyses } from '../../server/src/db/schema.js';
import { ZStoredResult, type TStoredResult } from '@contracts/schemas/analysis.js';
import { DISCLAIMER, pct } from '../../server/src/services/analysis/compose-report.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { askChat } from '../helpers/ask-chat.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { MODEL_DIR, modelInstalled, radiograph, uploadBody } from '../analysis/support/fixtures.js';
import { postMultipart } from '../helpers/post-multipart.js';
import { startAnalysisWorker, type TestAnalysisWorker } from '../analysis/support/start-analysis-worker.js';

/**
 * Every intent of the chat asked about a real film analysed by the real pipeline (the shipped
 * ONNX models, through queue, worker and finalizer): each answer is to the point of its question
 * and quotes only the stored result's figures.
 */
describe.skipIf(!modelInstalled() && 'no model installed')('the follow-up chat on a real analysed film', () => {
  let t: TestApp;
  let u: TTestUser;
  let w: TestAnalysisWorker;
  let chatId = '';
  let result: TStoredResult;

  beforeAll(async () => {
    t = await createTestApp({
      background: true,
      env: { MODEL_DIR, ANALYSIS_WAIT_MS: '30000', ANALYSIS_TIMEOUT_MS: '30000' },
    });
    u = await createUser(t.deps);
    w = startAnalysisWorker(t.deps);
    const res = await postMultipart(
      t.app,
      '/api/chat/analyzer',
      // An adult COVID-19 film: model 5 flags adult findings on it (the pediatric films' findings are withheld without an age).
      uploadBody(await radiograph({ label: 'covid19', index: 1, side: 800 })),
      u.token,
    );
    assert.equal(res.statusCode, 200, res.body);
    const data = (res.json() as { data: { chat_id: string; analysis_id: string; status: string } }).data;
    assert.equal(data.status, 'completed');
    chatId = data.chat_id;
    const [row] = await t.deps.db.select().from(analyses).where(eq(analyses.id, data.analysis_id));
    result = ZStoredResult.parse(row!.result);
  });
  afterAll(async () => {
    await w?.close();
    await t?.close();
  });

  const metrics = JSON.parse(readFileSync(join(MODEL_DIR, 'metrics.json'), 'utf8')) as {
    findings?: Record<string, { sensitivity?: number | null; specificity?: number | null }>;
  };
  const CARD_FIGURES = Object.values(metrics.findings ?? {}).flatMap((f) =>
    [f.sensitivity, f.specificity].filter((v): v is number => typeof v === 'number').map(pct),
  );

  const ask = async (query: string): Promise<string> => {
    const answer = await askChat(t, u.token, chatId, query);
    assert.ok(answer.includes(DISCLAIMER), query);
    // Every percentage is this film's (a probability or threshold) or the model card's (a measured figure).
    const allowed = new Set([
      ...result.findings.flatMap((f) => [pct(f.probability), pct(f.threshold)]),
      ...CARD_FIGURES,
    ]);
    for (const q of answer.match(/\d+\.\d%/g) ?? []) assert.ok(allowed.has(q), `${query}: ${q} is not in the result`);
    return answer;
  };

  test('the worker stored the lung zones of every finding with a heatmap, shares summing to one', () => {
    assert.ok(result.topFinding, 'the film has a called finding');
    assert.ok(result.heatmapZones?.length);
    for (const z of result.heatmapZones!) {
      const sum = Object.values(z.zones).reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 0.01, `${z.label}: ${sum}`);
    }
  });

  test('every intent gets its own answer', async () => {
    const top = result.findings.find((f) => f.label === result.topFinding)!;
    const cases: [string, RegExp][] = [
      ['Summarise the result', /All figures, most probable first:/],
      [`Explain the ${top.display.split(' ')[0]!.toLowerCase()} finding`, /What it is:/],
      ['How big is the heart?', /cardiothoracic ratio|No cardiothoracic ratio was measured|not measurable/],
      ['What changed since the last X-ray?', /no earlier analysis to compare with/],
      ['How sure is the model?', /calibrated probabilities for this image/],
      ['How accurate is this model?', /Measured performance from the model card|No model card figures are available/],
      ['What should we do next?', /usual next steps|No finding flagged/],
      ['Should I start antibiotics?', /I can't decide whether to start \(or stop\) a treatment/],
      ['Does this patient need admission?', /I can't decide whether this patient needs admission/],
      ['Do I need a CT scan?', /I can't decide whether further imaging is needed/],
      ['What else could it be?', /a similar appearance can come from|no pattern to build a differential/],
      ['How do I explain this to the patient?', /plain-language explanation/],
      ['Is the X-ray normal?', /did not consider this image normal|could not decide|No finding flagged among those/],
      ['Is the image quality good enough?', /Image quality, from the automatic checks/],
      ['Which lobe is affected?', /heatmap evidence[\s\S]*zone[\s\S]*not lobes/],
      ['What does the heatmap show?', /What it does not show/],
    ];
    for (const [q, expected] of cases) assert.match(await ask(q), expected, q);
  });

  test('the model card answer quotes the shipped card for this model version', async () => {
    const answer = await ask('How accurate is this model?');
    assert.match(answer, /ROC AUC 0\.\d{3} \(95% CI 0\.\d{3}-0\.\d{3}\)/);
    assert.match(answer, new RegExp(result.modelVersion.replace(/\./g, '\\.')));
  });

  test('two questions in one message, then a follow-up from the history', async () => {
    const both = await ask('Where is the opacity and how big is the heart?');
    assert.match(both, /\*\*Where is the opacity\?\*\*[\s\S]*zone[\s\S]*\*\*how big is the heart\?\*\*/);
    const left = await ask('and the left side?');
    assert.match(left, /of the model's heatmap evidence inside the lungs lies in the patient's left lung/);
  });

  // Issue 49 item 10: the chat's last gaps, on the same real film.
  const PROBABILITY_LIST = /All figures, most probable first|calibrated probabilities for this image/;

  test('anatomy the model does not assess: each asked part answered as not assessed, never with the probability list', async () => {
    const cases: [string, RegExp][] = [
      ['Is the trachea central?', /\*\*The airway and the tracheal position: not assessed by the model\.\*\*/],
      [
        'Is the mediastinum widened?',
        /\*\*The mediastinum \(its width, position and contour\) and the hila: not assessed by the model\.\*\*/,
      ],
      [
        'Are the costophrenic angles clear?',
        /\*\*The costophrenic \(pleural\) angles: not assessed by the model\.\*\*/,
      ],
      ['are the bones ok', /\*\*The bones \(ribs, clavicles, shoulders and spine\): not assessed by the model\.\*\*/],
      ['How are the soft tissues?', /\*\*The soft tissues: not assessed by the model\.\*\*/],
      ['Is the left CP angle blunted?', /costophrenic \(pleural\) angles: not assessed/],
    ];
    for (const [q, expected] of cases) {
      const answer = await ask(q);
      assert.match(answer, expected, q);
      assert.match(answer, /A reader must check them on the film itself/, q);
      assert.doesNotMatch(answer, PROBABILITY_LIST, q);
      // Only the asked part: a trachea question does not list the bones.
      if (!/bone/.test(q)) assert.doesNotMatch(answer, /The bones \(ribs/, q);
    }
    const effusion = result.findings.find((f) => f.label === 'pleural_effusion');
    if (effusion) assert.ok((await ask('Are the costophrenic angles clear?')).includes(pct(effusion.probability)));
  });

  test("the result's own limits: projection, rotation, age and the card's external figures, read from metrics.json", async () => {
    const card = JSON.parse(readFileSync(join(MODEL_DIR, 'metrics.json'), 'utf8')) as {
      external: { caveat: string; films: number; candidates: Record<string, { auc: number }> };
    };
    for (const q of ['What would make this result less reliable?', 'Could the projection affect the result?']) {
      const answer = await ask(q);
      assert.doesNotMatch(answer, PROBABILITY_LIST, q);
      assert.match(answer, /^What could make this result less reliable here/, q);
      assert.match(answer, /\*\*Projection:\*\* (AP|PA) \(/, q);
      assert.match(answer, /\*\*Rotation, inspiration and exposure:\*\* not measured/, q);
      assert.match(answer, /\*\*Age:\*\* /, q);
      assert.ok(answer.includes(`The card's caveat: ${card.external.caveat}.`), q);
      assert.ok(answer.includes(`${card.external.films} films`), q);
      const flagged = result.findings.filter(
        (f) => f.label !== 'abnormal' && (f.call === 'positive' || f.call === 'possible'),
      );
      for (const f of flagged) {
        const c = card.external.candidates[f.label];
        if (c) assert.ok(answer.includes(`${f.display}: AUROC ${c.auc.toFixed(3)}`), `${q}: ${f.label}`);
      }
    }
  });
});
