import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import type { TReport } from '@contracts/schemas/report.js';
import { signedLeadOf } from '@contracts/signed-lead.js';
import { findingMentions, signedAsPresent } from '../../server/src/services/chat/responders/signed-report-facts.js';

const signed = (impression: string, findings = ''): TReport => ({
  analysisId: '00000000-0000-4000-8000-000000000001',
  status: 'final',
  sections: { examination: 'Chest radiograph.', comparison: 'None.', findings, impression },
  draftedBy: 'cxr 5.0.0',
  signedBy: 'Dr Reader',
  signedAt: '2026-11-29T06:35:55.114Z',
  addenda: [],
  canSign: false,
  deliveries: [],
  revision: 3,
});
const effusion = { label: 'pleural_effusion', display: 'Pleural effusion' };

/** Issue 49: a finding the signed report negates or leaves out is never read as present. */
describe('what a signed report names as present', () => {
  test.each([
    ['1. Pleural effusion.', true],
    ['1. No acute abnormality.\n2. Small right effusion.', true],
    ['Pleural effusion, not large.', true],
    ['No pleural effusion.', false],
    ['The left effusion has resolved.', false],
    ['No acute cardiopulmonary abnormality.', false],
  ] as const)('%j names an effusion as present: %s', (impression, present) => {
    assert.equal(signedAsPresent(signed(impression), effusion), present);
  });

  test('the mentions are the signed sentences, numbered lines kept whole', () => {
    const r = signedAsPresent(signed('1. Pleural effusion.'), {
      label: 'pleural_thickening',
      display: 'Pleural thickening',
    });
    assert.equal(r, false);
    assert.deepEqual(
      findingMentions(signed('1. Pleural effusion.', 'Small left pleural effusion. Lungs clear.'), effusion),
      ['Small left pleural effusion.', '1. Pleural effusion.'],
    );
  });

  test("the worklist and timeline lead is the signed impression's first line, its number dropped", () => {
    assert.equal(signedLeadOf('1. Pleural effusion.\n2. No focal consolidation.'), 'Pleural effusion.');
    assert.equal(signedLeadOf('\n- No acute cardiopulmonary abnormality.'), 'No acute cardiopulmonary abnormality.');
    assert.equal(signedLeadOf('x'.repeat(400)).length, 160);
  });
});
