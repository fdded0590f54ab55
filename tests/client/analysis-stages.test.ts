import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { AnalysisStage, isTerminalStage, toAnalysisStage } from '@contracts/analysis-stage.js';
import { statusOfStage } from '@contracts/schemas/analysis.js';
import { PROGRESS_STEPS, stepIndex } from '../../client/src/features/chat/lib/analysis-stages.js';

/** The client's checklist and live status come from the contract's one stage list and mapping. */
describe('analysis stages', () => {
  test("the checklist is the contract's list without the two failures, in its order", () => {
    assert.deepEqual(
      PROGRESS_STEPS.map((s) => s.stage),
      AnalysisStage.filter((s) => s !== 'refused' && s !== 'failed'),
    );
    assert.equal(stepIndex('writing'), 3);
    assert.equal(stepIndex('failed'), -1);
  });

  test('each stage maps to one status; the terminal stages end the analysis', () => {
    assert.deepEqual(
      AnalysisStage.map((s) => [s, statusOfStage(s), isTerminalStage(s)]),
      [
        ['queued', 'queued', false],
        ['checking', 'processing', false],
        ['analysing', 'processing', false],
        ['writing', 'processing', false],
        ['done', 'completed', true],
        ['refused', 'refused', true],
        ['failed', 'failed', true],
      ],
    );
    assert.equal(toAnalysisStage('writing'), 'writing');
    assert.equal(toAnalysisStage('unknown'), 'queued');
  });
});
