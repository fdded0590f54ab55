import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { analyses, auditLog } from '../../server/src/db/schema.js';
import { EXPORT_MESSAGES, ZExportReport } from '@contracts/schemas/export.js';
import { createContextInner } from '../../server/src/trpc/context.js';
import { appRouter } from '../../server/src/trpc/router.js';
import { createCallerFactory } from '../../server/src/trpc/trpc.js';
import { bearer, createChat, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { testBackends } from '../helpers/test-config.js';
import { createAnalysedChat, RESULT, RESULT_V2 } from './analysed-chat.js';
import { docxText } from './docx-text.js';
import { checkFhirBundle } from './fhir-check.js';

const dir = mkdtempSync(join(tmpdir(), 'cxr-export-test-'));
const saved = (name: string, data: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, data);
  return path;
};

const squash = (s: string) => s.replace(/\s+/g, ' ');

for (const backend of testBackends()) {
  describe(`exports on ${backend}`, () => {
    let t: TestApp;
    let alice: TTestUser;
    let bob: TTestUser;
    let chatId: string;
    let analysisId: string;
    let patientName: string;
    beforeAll(async () => {
      t = await createTestApp({ backend });
      alice = await createUser(t.deps);
      bob = await createUser(t.deps);
      const made = await createAnalysedChat(t.deps, alice.user.id);
      chatId = made.chat.id;
      analysisId = made.analysis.id;
      patientName = made.patient.full_name;
    });
    afterAll(async () => {
      await t.close();
    });

    const get = (url: string, user: TTestUser | null = alice) =>
      t.app.inject({ method: 'GET', url, headers: user ? bearer(user.token) : {} });
    const expectCommon = (text: string) => {
      const s = squash(text);
      assert.ok(s.includes(patientName), 'patient name');
      assert.match(s, /Age: 57 years/);
      assert.ok(s.includes('Allergies: penicillin; Smoker: 10 pack-years'), 'medical history');
      assert.match(s, /cxr-resnet-test \(version 2025\.11-test\)/);
      assert.ok(s.includes('http://localhost:3000/model-card'), 'model card link');
      assert.match(s, /assistive only and not a substitute for professional judgement/);
      // The PDF's two-line "Operating point" header: pdftotext reads its second line into the first row.
      assert.match(s, /Pneumonia 87\.3% (?:point )?42\.0% Likely/);
      // The one story's words (contracts/finding-story.ts): below its point a finding is "Not flagged".
      assert.match(s, /COVID-19 6\.1% 35\.0% Not flagged/);
      assert.match(s, /Any abnormality 40\.0% 41\.0% Uncertain/);
      assert.match(s, /consistent with Pneumonia \(probability 87\.3%/, 'report text');
      assert.match(s, /low_contrast/);
    };

    test('PDF: download headers, and pdftotext reads patient, findings, model, card link, disclaimer; one embedded overlay image', async () => {
      const res = await get(`/api/export/${chatId}.pdf`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/pdf');
      assert.equal(
        res.headers['content-disposition'],
        `attachment; filename="chest-xray-report-${chatId.slice(0, 8)}.pdf"`,
      );
      assert.equal(res.headers['cache-control'], 'private, no-store');
      const path = saved('r.pdf', res.rawPayload);
      const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
      expectCommon(text.replace(/ {2,}/g, ' '));
      const images = execFileSync('pdfimages', ['-list', path], { encoding: 'utf8' }).trim().split('\n').slice(2);
      assert.ok(images.length >= 1, 'the heatmap overlay is embedded');
    });

    test('DOCX: unzip + XML parse of word/document.xml finds the same content and the overlay image', async () => {
      const res = await get(`/api/export/${chatId}.docx`);
      assert.equal(res.statusCode, 200);
      assert.equal(
        res.headers['content-type'],
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      );
      assert.match(
        String(res.headers['content-disposition']),
        /^attachment; filename="chest-xray-report-[0-9a-f]{8}\.docx"$/,
      );
      const path = saved('r.docx', res.rawPayload);
      expectCommon(docxText(path));
      const listing = execFileSync('unzip', ['-l', path], { encoding: 'utf8' });
      assert.match(listing, /word\/media\/.+\.png/);
      const rels = execFileSync('unzip', ['-p', path, 'word/_rels/document.xml.rels'], { encoding: 'utf8' });
      assert.ok(rels.includes('Target="http://localhost:3000/model-card"'), 'model card hyperlink target');
    });

    test('JSON: chest-doctor-ai/report@7, valid against the JSON Schema published in docs/export-schema.md', async () => {
      const res = await get(`/api/export/${chatId}.json`);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      const raw: unknown = res.json();
      const md = readFileSync(new URL('../../docs/export-schema.md', import.meta.url), 'utf8');
      const block = /```json\n([\s\S]*?)\n```/.exec(md)?.[1];
      assert.ok(block, 'the doc embeds the JSON Schema');
      const published: object = JSON.parse(block);
      assert.deepEqual(
        published,
        z.toJSONSchema(ZExportReport),
        'docs/export-schema.md is in sync with the zod schema',
      );
      // Formats (uuid, date-time, uri) are checked by the zod parse below; ajv checks structure.
      const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(published);
      assert.ok(validate(raw), JSON.stringify(validate.errors));
      const doc = ZExportReport.parse(raw);
      assert.equal(doc.schema, 'chest-doctor-ai/report@7');
      // A model-1 result: nothing about anatomy, nothing listed as not assessed.
      assert.equal(doc.anatomy, null);
      assert.deepEqual(doc.notAssessed, []);
      assert.deepEqual(doc.patient, {
        name: patientName,
        age: 57,
        medicalHistory: ['Allergies: penicillin', 'Smoker: 10 pack-years'],
      });
      // @6: the flagged finding carries its heat values, the others none.
      assert.deepEqual(
        doc.findings,
        RESULT.findings.map((f) => (f.label === 'pneumonia' ? { ...f, heatmap: RESULT.heatmaps[0].grid } : f)),
      );
      assert.deepEqual(doc.model, {
        name: 'cxr-resnet-test',
        version: '2025.11-test',
        cardUrl: 'http://localhost:3000/model-card',
      });
      assert.deepEqual(doc.topFinding, { label: 'pneumonia', display: 'Pneumonia' });
      assert.equal(doc.analysis.id, analysisId);
      assert.equal(doc.heatmap?.mediaType, 'image/png');
      assert.ok(
        Buffer.from(doc.heatmap?.dataBase64 ?? '', 'base64')
          .subarray(1, 4)
          .equals(Buffer.from('PNG')),
      );
    });

    test('FHIR: a Bundle with a DiagnosticReport, one Observation per finding, the Patient; structurally valid', async () => {
      const res = await get(`/api/export/${chatId}.fhir.json`);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/fhir\+json/);
      assert.match(String(res.headers['content-disposition']), /\.fhir\.json"$/);
      const bundle = res.json();
      assert.deepEqual(checkFhirBundle(bundle), []);
      const resources: Record<string, unknown>[] = bundle.entry.map(
        (e: { resource: Record<string, unknown> }) => e.resource,
      );
      const byType = (type: string) => resources.filter((r) => r.resourceType === type) as Record<string, any>[]; // eslint-disable-line @typescript-eslint/no-explicit-any
      const [report] = byType('DiagnosticReport');
      assert.ok(report);
      assert.equal(report.code.coding[0].system, 'http://loinc.org');
      assert.equal(report.code.coding[0].code, '18748-4');
      const [patient] = byType('Patient');
      assert.equal(patient?.name[0].text, patientName);
      assert.equal(report.subject.reference, `urn:uuid:${patient?.id}`);
      const results = (report.result as { reference: string }[]).map((r) => r.reference);
      const observations = byType('Observation').filter((o) => results.includes(`urn:uuid:${o.id}`));
      assert.equal(observations.length, RESULT.findings.length);
      for (const f of RESULT.findings) {
        const o = observations.find((x) => x.code.text === f.display);
        assert.ok(o, f.display);
        assert.equal(o.valueQuantity.value, f.probability);
        assert.equal(
          o.interpretation[0].coding[0].code,
          { positive: 'POS', negative: 'NEG', uncertain: 'IND' }[f.call],
        );
      }
      const [device] = byType('Device');
      assert.equal(device?.version[0].value, '2025.11-test');
      assert.match(report.conclusion, /assistive only/);
      assert.equal(byType('Media').length, 1, 'the overlay travels as Media');
    });

    test("another account's chat answers exactly like a missing one, and is audited as a failure", async () => {
      const foreign = await get(`/api/export/${chatId}.pdf`, bob);
      const missing = await get(`/api/export/${crypto.randomUUID()}.pdf`, bob);
      const malformed = await get('/api/export/nope.pdf', bob);
      for (const res of [foreign, missing, malformed]) {
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.json(), { success: false, message: EXPORT_MESSAGES.chatNotFound, code: 'NOT_FOUND' });
        assert.equal(res.headers['cache-control'], 'private, no-store');
      }
      const failures = await t.deps.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorUserId, bob.user.id), eq(auditLog.action, 'export.pdf')));
      assert.ok(failures.some((e) => e.objectId === chatId && e.outcome === 'failure'));
    });

    test('a cross-site fetch with the session cookie is refused', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/export/${chatId}.pdf`,
        cookies: { token: alice.token },
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      assert.equal(res.statusCode, 403);
      const same = await t.app.inject({
        method: 'GET',
        url: `/api/export/${chatId}.json`,
        cookies: { token: alice.token },
        headers: { 'sec-fetch-site': 'same-origin' },
      });
      assert.equal(same.statusCode, 200);
    });

    test('a refused image exports its reason and no findings, in every format', async () => {
      const { chat, analysis } = await createChat(t.deps, alice.user.id, { analysisStatus: 'refused' });
      const refused = {
        ...RESULT,
        gate: { accepted: false, reason: 'The image appears to be a colour photograph, not a chest X-ray.', flags: [] },
        findings: [],
        topFinding: null,
      };
      await t.deps.db
        .update(analyses)
        .set({ result: refused as unknown as Record<string, unknown>, modelVersion: RESULT.modelVersion })
        .where(eq(analyses.id, analysis!.id));
      const json = ZExportReport.parse((await get(`/api/export/${chat.id}.json`)).json());
      assert.equal(json.analysis.status, 'refused');
      assert.deepEqual(json.findings, []);
      assert.match(json.gate.reason ?? '', /colour photograph/);
      const bundle = (await get(`/api/export/${chat.id}.fhir.json`)).json();
      assert.deepEqual(checkFhirBundle(bundle), []);
      const pdf = await get(`/api/export/${chat.id}.pdf`);
      assert.equal(pdf.statusCode, 200);
      const text = execFileSync('pdftotext', [saved('refused.pdf', pdf.rawPayload), '-'], { encoding: 'utf8' });
      assert.match(squash(text), /Image check: Refused: The image appears to be a colour photograph/);
      assert.equal((await get(`/api/export/${chat.id}.docx`)).statusCode, 200);
    });

    test('a model-2 result: the JSON keeps anatomy and notAssessed, FHIR has the CTR and the not-assessed Observations', async () => {
      const { chat, analysis } = await createChat(t.deps, alice.user.id, { analysisStatus: 'completed' });
      const v2 = { ...RESULT_V2, heatmaps: [] };
      await t.deps.db
        .update(analyses)
        .set({ result: v2 as unknown as Record<string, unknown>, modelVersion: v2.modelVersion })
        .where(eq(analyses.id, analysis!.id));
      const json = ZExportReport.parse((await get(`/api/export/${chat.id}.json`)).json());
      assert.deepEqual(json.anatomy, RESULT_V2.anatomy);
      assert.deepEqual(json.notAssessed, RESULT_V2.notAssessed);
      assert.deepEqual(json.findings, RESULT_V2.findings);
      const bundle = (await get(`/api/export/${chat.id}.fhir.json`)).json();
      assert.deepEqual(checkFhirBundle(bundle), []);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const resources: Record<string, any>[] = bundle.entry.map(
        (e: { resource: Record<string, unknown> }) => e.resource,
      );
      const ctr = resources.find(
        (r) => r.resourceType === 'Observation' && r.code.coding[0].code === 'cardiothoracic-ratio',
      );
      assert.deepEqual(ctr?.valueQuantity, {
        value: RESULT_V2.anatomy.ctr,
        unit: '1',
        system: 'http://unitsofmeasure.org',
        code: '1',
      });
      const pdf = await get(`/api/export/${chat.id}.pdf`);
      const text = squash(execFileSync('pdftotext', [saved('v2.pdf', pdf.rawPayload), '-'], { encoding: 'utf8' }));
      assert.match(text, /Cardiothoracic ratio 0\.56 \(usual upper reference 0\.50 on an adult PA film\)/);
      assert.match(text, /Not assessed: Hernia, Fibrosis/);
    });

    test('requires authentication; an unknown extension is a 404', async () => {
      assert.equal((await get(`/api/export/${chatId}.pdf`, null)).statusCode, 401);
      assert.equal((await get(`/api/export/${chatId}.exe`)).statusCode, 404);
    });

    test('a personal API key can download exports', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/api-keys',
        headers: bearer(alice.token),
        payload: { name: 'exports' },
      });
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/export/${chatId}.json`,
        headers: bearer(created.json().data.key),
      });
      assert.equal(res.statusCode, 200);
    });

    test('a chat without a finished analysis cannot be exported yet', async () => {
      const { chat } = await createChat(t.deps, alice.user.id, { analysisStatus: 'queued' });
      const res = await get(`/api/export/${chat.id}.pdf`);
      assert.equal(res.statusCode, 409);
      assert.equal(res.json().message, EXPORT_MESSAGES.noAnalysis);
    });

    test('every export is audited as export.<format> with ids only', async () => {
      const entries = await t.deps.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorUserId, alice.user.id), eq(auditLog.objectId, chatId)));
      const actions = new Set(entries.filter((e) => e.outcome === 'success').map((e) => e.action));
      for (const a of ['export.pdf', 'export.docx', 'export.json', 'export.fhir']) assert.ok(actions.has(a), a);
      for (const e of entries) {
        assert.equal(e.objectType, 'chat');
        assert.ok(!JSON.stringify(e).includes('Zqxpatient'), 'no patient data in the audit log');
      }
    });

    test('tRPC export.file returns the same document as base64', async () => {
      const caller = createCallerFactory(appRouter)(
        createContextInner({
          deps: t.deps,
          auth: { userId: alice.user.id, name: 'A', email: 'a@x', sessionId: null, via: 'api-key' },
        }),
      );
      const file = await caller.export.file({ chatId, format: 'json' });
      assert.equal(file.contentType, 'application/json; charset=utf-8');
      assert.equal(JSON.parse(Buffer.from(file.dataBase64, 'base64').toString('utf8')).chat.id, chatId);
      const bobCaller = createCallerFactory(appRouter)(
        createContextInner({
          deps: t.deps,
          auth: { userId: bob.user.id, name: 'B', email: 'b@x', sessionId: null, via: 'api-key' },
        }),
      );
      await assert.rejects(bobCaller.export.file({ chatId, format: 'pdf' }), /Chat not found/);
    });
  });
}
