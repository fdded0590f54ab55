import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { eq } from 'drizzle-orm';
import { ZExportReport } from '@contracts/schemas/export.js';
import { analyses, dicomInstances } from '../../server/src/db/schema.js';
import { docxText } from '../export/docx-text.js';
import { analysedChat, sampleResultV2 } from '../analysis/support/fixtures.js';
import { STATUS, checkFhirBundle } from '../export/fhir-check.js';
import { bearer, createUser, type TTestUser } from '../helpers/factories.js';
import { sessionCaller } from '../helpers/session-caller.js';
import { addendumAtRevision, signAtRevision } from '../helpers/sign-report.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { generatedAccession } from '../../server/src/services/report/hl7/load-oru-study.js';

/** The parts of FHIR R4's DiagnosticReport JSON schema (fhir.schema.json) a signed report relies on. */
const REFERENCE = { type: 'object', required: ['reference'], properties: { reference: { type: 'string' } } };
const CODEABLE = { type: 'object', required: ['coding'] };
const DIAGNOSTIC_REPORT = {
  type: 'object',
  required: ['resourceType', 'status', 'code', 'resultsInterpreter', 'performer', 'conclusion'],
  properties: {
    resourceType: { const: 'DiagnosticReport' },
    status: { enum: STATUS.DiagnosticReport },
    code: CODEABLE,
    issued: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T' },
    resultsInterpreter: { type: 'array', minItems: 1, items: REFERENCE },
    performer: { type: 'array', minItems: 1, items: REFERENCE },
    imagingStudy: { type: 'array', items: REFERENCE },
    conclusion: { type: 'string' },
    conclusionCode: { type: 'array', items: CODEABLE },
    identifier: {
      type: 'array',
      items: { type: 'object', required: ['value'], properties: { value: { type: 'string' } } },
    },
    presentedForm: {
      type: 'array',
      items: { type: 'object', required: ['contentType', 'data'], properties: { data: { type: 'string' } } },
    },
  },
};

/**
 * The model flags cardiomegaly and is uncertain about a pleural effusion; the radiologist signs
 * the opposite. Every export must then say what was signed (issue 49).
 */
const SIGNED_IMPRESSION = '1. Small left pleural effusion.\n2. No cardiomegaly.';
const squash = (s: string) => s.replace(/\s+/g, ' ');
type TRes = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

for (const backend of testBackends()) {
  describe(`the exports of a signed report on ${backend}`, () => {
    let t: TestApp;
    let u: TTestUser;
    const dir = mkdtempSync(join(tmpdir(), 'signed-export-'));
    beforeAll(async () => {
      t = await createTestApp({ backend });
      u = await createUser(t.deps);
    });
    afterAll(async () => {
      await t.close();
    });

    const download = async (chatId: string, ext: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/export/${chatId}.${ext}`, headers: bearer(u.token) });
      assert.equal(res.statusCode, 200, res.body);
      return res;
    };
    const fhir = async (chatId: string) => {
      const bundle = (await download(chatId, 'fhir.json')).json() as { entry: { resource: TRes }[] };
      assert.deepEqual(checkFhirBundle(bundle), []);
      const byType = (type: string) => bundle.entry.map((e) => e.resource).filter((r) => r.resourceType === type);
      const byRef = (ref: { reference: string }) =>
        bundle.entry.find((e) => `urn:uuid:${e.resource.id}` === ref.reference)?.resource;
      return { report: byType('DiagnosticReport')[0]!, byType, byRef };
    };
    const text = async (chatId: string, format: 'pdf' | 'docx') => {
      const path = join(dir, `${crypto.randomUUID()}.${format}`);
      writeFileSync(path, (await download(chatId, format)).rawPayload);
      return squash(format === 'pdf' ? execFileSync('pdftotext', [path, '-'], { encoding: 'utf8' }) : docxText(path));
    };
    /** A model-2 analysis whose draft the radiologist rewrites and signs. */
    const signedDifferently = async () => {
      const made = await analysedChat(t.deps, u.user.id, sampleResultV2());
      const caller = sessionCaller(t.deps, u);
      const draft = await caller.report.get({ analysisId: made.analysisId });
      await caller.report.edit({
        analysisId: made.analysisId,
        revision: draft.revision,
        sections: { ...draft.sections, findings: 'Lungs: small left pleural effusion.', impression: SIGNED_IMPRESSION },
      });
      await signAtRevision(caller, made.analysisId);
      return { ...made, caller, draft };
    };

    test('preliminary while a draft; final with the radiologist as performer and resultsInterpreter; amended after an addendum', async () => {
      const { chatId, analysisId } = await analysedChat(t.deps, u.user.id);
      const validate = new Ajv({ strict: false }).compile(DIAGNOSTIC_REPORT);
      const draft = await fhir(chatId);
      assert.equal(draft.report.status, 'preliminary');
      assert.equal(draft.byType('DiagnosticReport').length, 1);
      const caller = sessionCaller(t.deps, u);
      await signAtRevision(caller, analysisId);
      const signed = await fhir(chatId);
      assert.ok(validate(signed.report), JSON.stringify(validate.errors));
      assert.equal(signed.report.status, 'final');
      const [practitioner] = signed.byType('Practitioner');
      assert.deepEqual(signed.report.resultsInterpreter, [{ reference: `urn:uuid:${String(practitioner!.id)}` }]);
      assert.deepEqual(signed.report.performer, [{ reference: `urn:uuid:${String(practitioner!.id)}` }]);
      assert.deepEqual(practitioner!.name, [{ text: u.user.name }]);
      const form = (signed.report.presentedForm as { data: string }[])[0]!;
      assert.match(
        decode(form.data),
        /^Radiology report\n\nFINAL: signed by .*EXAMINATION:\n.*IMPRESSION:\n1\. Pneumonia/s,
      );
      await addendumAtRevision(caller, analysisId, 'Correction.');
      const amended = await fhir(chatId);
      assert.match(amended.report.text.div, /ADDENDUM \(signed by [^)]+\)<br\/>Correction\./);
      assert.ok(validate(amended.report), JSON.stringify(validate.errors));
      assert.equal(amended.report.status, 'amended');
    });

    test("FHIR after signing: conclusion, text and conclusionCode are the signed report's; the AI's output is a separate report authored by the Device", async () => {
      const { chatId, analysisId } = await signedDifferently();
      const { report, byType, byRef } = await fhir(chatId);
      assert.equal(report.conclusion, SIGNED_IMPRESSION);
      assert.match(report.text.div, /IMPRESSION<br\/>1\. Small left pleural effusion\.<br\/>2\. No cardiomegaly\./);
      assert.doesNotMatch(report.text.div, /AI output|Cardiomegaly: |74\.1%/);
      // Only what the signed impression states: the effusion (the model was uncertain), not the negated cardiomegaly.
      assert.deepEqual(
        report.conclusionCode.map((c: TRes) => c.coding[0].code),
        ['pleural_effusion'],
      );
      for (const r of byType('DiagnosticReport')) assert.equal(r.code.coding[0].code, '18748-4');
      // The AI's report: preliminary, its results the Observations, referenced from the signed one.
      const [, ai] = byType('DiagnosticReport');
      assert.equal(ai!.status, 'preliminary');
      assert.match(ai!.conclusion, /^AI output: .*Not stated in the signed report: Cardiomegaly\./);
      const link = report.extension.find((e: TRes) => e.url.endsWith('DiagnosticReport.supportingInfo'));
      assert.equal(link.extension[1].valueReference.reference, `urn:uuid:${ai!.id}`);
      const [device] = byType('Device');
      const [provenance] = byType('Provenance');
      assert.deepEqual(provenance!.agent[0].who, { reference: `urn:uuid:${device!.id}` });
      const targets = provenance!.target.map((r: TRes) => r.reference);
      assert.ok(targets.includes(`urn:uuid:${ai!.id}`));
      const cardiomegaly = ai!.result.map(byRef).find((o: TRes) => o.code.coding[0].code === 'cardiomegaly');
      assert.ok(targets.includes(`urn:uuid:${cardiomegaly.id}`));
      assert.deepEqual(cardiomegaly.device, { reference: `urn:uuid:${device!.id}` });
      // A finding the radiologist removed is never presented as present: its AI Observation says so.
      assert.match(cardiomegaly.note[0].text, /^Not stated in the signed report/);
      // A browser upload: the patient is this installation's chat record, there is no accession nor study UID.
      const [patient] = byType('Patient');
      assert.deepEqual(patient!.identifier[0].system, 'http://localhost:3000/fhir/sid/chat');
      assert.equal(patient!.identifier[0].value, chatId);
      // The accession the ORU's OBR-3 carries for an upload, issued by this installation.
      assert.deepEqual(report.identifier, [
        { system: 'http://localhost:3000/fhir/sid/report', value: analysisId },
        {
          use: 'usual',
          type: {
            coding: [
              { system: 'http://terminology.hl7.org/CodeSystem/v2-0203', code: 'ACSN', display: 'Accession ID' },
            ],
          },
          system: 'http://localhost:3000/fhir/sid/accession',
          value: generatedAccession(analysisId),
        },
      ]);
      assert.equal(report.imagingStudy, undefined);
      assert.equal(byType('ImagingStudy').length, 0);
    });

    test('FHIR of a DICOM study: Patient.identifier is the PatientID, identifier the accession, imagingStudy the Study Instance UID', async () => {
      const { chatId, analysisId } = await analysedChat(t.deps, u.user.id);
      const [row] = await t.deps.db.select().from(analyses).where(eq(analyses.id, analysisId));
      const uid = `1.2.826.0.1.3680043.8.498.${Date.now()}`;
      await t.deps.db.insert(dicomInstances).values({
        userId: u.user.id,
        teamId: row!.teamId,
        sopInstanceUid: `${uid}.1.1`,
        studyInstanceUid: uid,
        source: 'stow',
        modality: 'DX',
        analysisId,
        status: 'analysed',
        tags: { PatientID: 'MRN-4711', AccessionNumber: 'ACC-2026-0042', StudyDate: '20261126' },
      });
      for (const stage of ['draft', 'signed']) {
        if (stage === 'signed') await signAtRevision(sessionCaller(t.deps, u), analysisId);
        const { report, byType, byRef } = await fhir(chatId);
        const [patient] = byType('Patient');
        assert.deepEqual(patient!.identifier[0].type.coding[0].code, 'MR', stage);
        assert.equal(patient!.identifier[0].value, 'MRN-4711', stage);
        const accession = report.identifier.find((i: TRes) => i.type?.coding[0].code === 'ACSN');
        assert.equal(accession?.value, 'ACC-2026-0042', stage);
        assert.equal(accession?.system, undefined, `${stage}: the RIS's accession has no system of ours`);
        const study = byRef(report.imagingStudy[0]);
        assert.equal(study?.resourceType, 'ImagingStudy', stage);
        assert.deepEqual(study?.identifier[0], { system: 'urn:dicom:uid', value: `urn:oid:${uid}` }, stage);
        assert.equal(study?.started, '2026-11-26', stage);
        assert.deepEqual(study?.subject, { reference: `urn:uuid:${patient!.id}` }, stage);
      }
    });

    test('PDF and DOCX: "Radiology report", the signer and time first, the signed sections, then the AI\'s figures marked as the AI\'s', async () => {
      const before = await analysedChat(t.deps, u.user.id, sampleResultV2());
      assert.match(
        await text(before.chatId, 'pdf'),
        /^Chest X-ray AI analysis report /,
        'a draft stays the AI analysis',
      );
      const { chatId } = await signedDifferently();
      const aiText = ZExportReport.parse((await download(chatId, 'json')).json()).report.text;
      const aiFirstLine = aiText
        .split('\n')
        .find((l) => l.trim().length > 30)!
        .replace(/[*#]/g, '')
        .trim();
      for (const format of ['pdf', 'docx'] as const) {
        const body = await text(chatId, format);
        assert.match(
          body,
          new RegExp(`^Radiology report FINAL: signed by ${u.user.name} at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC `),
          format,
        );
        assert.doesNotMatch(body, /Chest X-ray AI analysis report/, format);
        const at = (s: string) => body.indexOf(s);
        assert.ok(
          at('IMPRESSION 1. Small left pleural effusion. 2. No cardiomegaly.') > at('FINAL: signed by'),
          format,
        );
        assert.ok(at("The AI's analysis (device output, not part of the signed report)") > at('IMPRESSION'), format);
        assert.ok(
          at('This report was produced by an AI model') > at('IMPRESSION'),
          `${format}: disclaimer after the signed text`,
        );
        // The removed finding is never presented as present; the AI's draft wording is not printed.
        assert.match(body, /Cardiomegaly 74\.1% 55\.0% Likely \(AI\); not in the signed report/, format);
        assert.match(body, /Flagged by the AI but not stated in the signed report: Cardiomegaly\./, format);
        assert.match(
          body,
          /Enlarged cardiac silhouette — CTR 0\.56 \(reference 0\.50\) \(AI\); not in the signed report\./,
          format,
        );
        assert.ok(!body.includes(squash(aiFirstLine)), `${format}: the AI's drafted text is left out`);
      }
    });

    test('JSON: report.signed carries the sections, addenda, signer, time and what the signer removed or added', async () => {
      const before = await analysedChat(t.deps, u.user.id, sampleResultV2());
      assert.equal(ZExportReport.parse((await download(before.chatId, 'json')).json()).report.signed, null);
      const { chatId, analysisId, caller, draft } = await signedDifferently();
      await addendumAtRevision(caller, analysisId, 'The effusion is new since the outside film.');
      const raw: unknown = (await download(chatId, 'json')).json();
      const md = readFileSync(new URL('../../docs/export-schema.md', import.meta.url), 'utf8');
      const published: object = JSON.parse(/```json\n([\s\S]*?)\n```/.exec(md)![1]!);
      const valid = new Ajv2020({ strict: false, validateFormats: false }).compile(published);
      assert.ok(valid(raw), JSON.stringify(valid.errors));
      const signed = ZExportReport.parse(raw).report.signed;
      assert.ok(signed);
      assert.equal(signed.status, 'amended');
      assert.equal(signed.signedBy, u.user.name);
      assert.match(signed.signedAt, /^\d{4}-\d{2}-\d{2}T/);
      assert.deepEqual(signed.sections, {
        examination: draft.sections.examination,
        comparison: draft.sections.comparison,
        findings: 'Lungs: small left pleural effusion.',
        impression: SIGNED_IMPRESSION,
      });
      assert.deepEqual(
        signed.addenda.map((a) => [a.text, a.signedBy]),
        [['The effusion is new since the outside film.', u.user.name]],
      );
      assert.deepEqual(signed.removed, [{ label: 'cardiomegaly', display: 'Cardiomegaly' }]);
      assert.deepEqual(signed.added, [{ label: 'pleural_effusion', display: 'Pleural effusion' }]);
    });
  });
}
