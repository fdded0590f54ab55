import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { docxText } from '../export/docx-text.js';
import { analysedChat } from '../analysis/support/fixtures.js';
import { STATUS, checkFhirBundle } from '../export/fhir-check.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The parts of FHIR R4's DiagnosticReport JSON schema (fhir.schema.json) a signed report relies on. */
const REFERENCE = { type: 'object', required: ['reference'], properties: { reference: { type: 'string' } } };
const DIAGNOSTIC_REPORT = {
  type: 'object',
  required: ['resourceType', 'status', 'code', 'resultsInterpreter', 'performer'],
  properties: {
    resourceType: { const: 'DiagnosticReport' },
    status: { enum: STATUS.DiagnosticReport },
    code: { type: 'object', required: ['coding'] },
    issued: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T' },
    resultsInterpreter: { type: 'array', minItems: 1, items: REFERENCE },
    performer: { type: 'array', minItems: 1, items: REFERENCE },
    presentedForm: {
      type: 'array',
      items: { type: 'object', required: ['contentType', 'data'], properties: { data: { type: 'string' } } },
    },
  },
};

describe('the FHIR, PDF and DOCX exports of a signed report', () => {
  let t: TestApp;
  let u: TTestUser;
  beforeAll(async () => {
    t = await createTestApp();
    u = await createUser(t.deps);
  });
  afterAll(async () => {
    await t.close();
  });

  test('preliminary while a draft; final with the radiologist as resultsInterpreter and the device as performer; amended after an addendum', async () => {
    const { chatId, analysisId } = await analysedChat(t.deps, u.user.id);
    const validate = new Ajv({ strict: false }).compile(DIAGNOSTIC_REPORT);
    const fhir = async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/export/${chatId}.fhir.json`,
        headers: bearer(u.token),
      });
      assert.equal(res.statusCode, 200);
      const bundle = res.json() as { entry: { resource: Record<string, unknown> }[] };
      assert.deepEqual(checkFhirBundle(bundle), []);
      const byType = (type: string) => bundle.entry.map((e) => e.resource).filter((r) => r.resourceType === type);
      return { report: byType('DiagnosticReport')[0]!, byType };
    };
    assert.equal((await fhir()).report.status, 'preliminary');
    const caller = sessionCaller(t.deps, u);
    await caller.report.sign({ analysisId });
    const signed = await fhir();
    assert.ok(validate(signed.report), JSON.stringify(validate.errors));
    assert.equal(signed.report.status, 'final');
    const [practitioner] = signed.byType('Practitioner');
    const [device] = signed.byType('Device');
    assert.deepEqual(signed.report.resultsInterpreter, [{ reference: `urn:uuid:${String(practitioner!.id)}` }]);
    assert.deepEqual(signed.report.performer, [{ reference: `urn:uuid:${String(device!.id)}` }]);
    assert.deepEqual(practitioner!.name, [{ text: u.user.name }]);
    const form = (signed.report.presentedForm as { data: string }[])[0]!;
    assert.match(Buffer.from(form.data, 'base64').toString('utf8'), /^EXAMINATION: .*IMPRESSION:\n1\. Pneumonia/s);
    await caller.report.addAddendum({ analysisId, text: 'Correction.' });
    const amended = await fhir();
    assert.ok(validate(amended.report), JSON.stringify(validate.errors));
    assert.equal(amended.report.status, 'amended');
  });

  test('PDF and DOCX say FINAL with the signer and carry the signed sections; a draft does not', async () => {
    const { chatId, analysisId } = await analysedChat(t.deps, u.user.id);
    const dir = mkdtempSync(join(tmpdir(), 'signed-export-'));
    const text = async (format: 'pdf' | 'docx') => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/export/${chatId}.${format}`,
        headers: bearer(u.token),
      });
      assert.equal(res.statusCode, 200);
      const path = join(dir, `r.${format}`);
      writeFileSync(path, res.rawPayload);
      const raw = format === 'pdf' ? execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }) : docxText(path);
      return raw.replace(/\s+/g, ' ');
    };
    assert.doesNotMatch(await text('pdf'), /FINAL/);
    await sessionCaller(t.deps, u).report.sign({ analysisId });
    for (const format of ['pdf', 'docx'] as const) {
      const body = await text(format);
      assert.match(body, /Radiology report — FINAL/, format);
      assert.match(body, new RegExp(`FINAL: signed by ${u.user.name} at \\d{4}-`), format);
      assert.match(body, /IMPRESSION 1\. Pneumonia: 87\.3% Likely/, format);
    }
  });
});
