import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import { auditLog } from '../../server/src/db/schema.js';
import { urgencyOf } from '../../server/src/services/dicom-node/list-worklist.js';
import { readUrgentLabels } from '../../server/src/services/site/get-urgent-findings.js';
import { readModelIdentity } from '../../server/src/services/site/read-model-identity.js';
import { migrateUrgentLabels, offeredUrgentFindings } from '../../server/src/services/site/urgent-labels.js';
import { createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { trpc, TEST_ENV } from '../history/http.js';
import { sampleResultV2 } from '../analysis/support/fixtures.js';

/**
 * The worklist reads right (issue 31 item 8): the lead is the most probable called finding, "No
 * finding called" when none is; a site administrator chooses which findings make a study Urgent,
 * which only ever raises a study.
 */
const f = (label: string, probability: number, threshold: number, call: TFinding['call']): TFinding => ({
  label,
  display: label[0]!.toUpperCase() + label.slice(1),
  probability,
  threshold,
  call,
});
const resultOf = (...findings: TFinding[]): TStoredResult => sampleResultV2({ findings, topFinding: null });

describe('worklist urgency and lead', () => {
  test('the lead is the most probable called finding, not the largest margin over a tiny threshold', () => {
    // Edema is 9.3 points over its 2.5 % threshold, cardiomegaly 6 points over 75 %: a reader names cardiomegaly.
    const r = urgencyOf(
      resultOf(
        f('edema', 0.118, 0.025, 'possible'),
        f('cardiomegaly', 0.81, 0.75, 'positive'),
        f('abnormal', 0.93, 0.5, 'positive'),
      ),
      'analysed',
    );
    assert.deepEqual(r.lead, { display: 'Cardiomegaly', probability: 0.81, call: 'positive' });
    assert.equal(r.urgency, 'review', 'urgent only for a finding the site marked urgent (issue 42)');
    assert.equal(r.score, 0.81);
  });

  test('no finding called: no lead ("No finding called"), routine; a normal study is not led by "Edema 0 %"', () => {
    const r = urgencyOf(
      resultOf(f('edema', 0.001, 0.025, 'negative'), f('pneumonia', 0.02, 0.5, 'negative')),
      'analysed',
    );
    assert.deepEqual(r, { urgency: 'routine', score: null, lead: null });
    assert.equal(urgencyOf(resultOf(f('pneumonia', 0.45, 0.5, 'uncertain')), 'analysed').urgency, 'review');
  });

  test('a flagged finding asks for review; the site makes it urgent; a positive call alone is not urgent (issue 42)', () => {
    const possible = resultOf(f('pneumothorax', 0.2, 0.08, 'possible'), f('edema', 0.01, 0.025, 'negative'));
    assert.equal(urgencyOf(possible, 'analysed').urgency, 'review');
    // Issue 48: a "Possible" flag is Urgent only when the site also counts those.
    assert.equal(urgencyOf(possible, 'analysed', new Set(['pneumothorax'])).urgency, 'review');
    assert.equal(urgencyOf(possible, 'analysed', new Set(['pneumothorax']), true).urgency, 'urgent');
    assert.equal(
      urgencyOf(possible, 'analysed', new Set(['edema'])).urgency,
      'review',
      'an uncalled finding raises nothing',
    );
    const positive = resultOf(f('pleural_effusion', 0.7, 0.3, 'positive'));
    assert.equal(urgencyOf(positive, 'analysed', new Set(['pneumothorax'])).urgency, 'review');
    assert.equal(urgencyOf(positive, 'analysed', new Set(['pleural_effusion'])).urgency, 'urgent');
    // a stored "positive" below 50 % (before 'possible') reads as possible
    assert.equal(urgencyOf(resultOf(f('edema', 0.118, 0.025, 'positive')), 'analysed').urgency, 'review');
  });
});

describe('the urgent-finding settings offer only shipped findings that can fire (issue 42 item 5)', () => {
  const model = {
    modelVersion: '5.0.0-test',
    sha256: 'c'.repeat(64),
    findings: [
      { label: 'abnormal', display: 'Abnormal (triage)', threshold: 0.3, summary: true },
      { label: 'pneumonia', display: 'Pneumonia / lung opacity', threshold: 0.5, ageGroup: 'pediatric' },
      { label: 'pneumonia_viral', display: 'Viral pneumonia (pediatric hint)', threshold: 0.3, conditional: true },
      { label: 'lung_opacity', display: 'Airspace opacity', threshold: 0.3 },
      { label: 'pneumothorax', display: 'Pneumothorax', threshold: 0.2 },
    ],
  };

  test('no summary score, no pediatric-only finding, no hint', () => {
    assert.deepEqual(
      offeredUrgentFindings(model).map((x) => x.label),
      ['lung_opacity', 'pneumothorax'],
    );
  });

  test('a stored choice migrates: pneumonia becomes airspace opacity, a finding no longer offered is dropped', () => {
    assert.deepEqual(migrateUrgentLabels(['pneumonia', 'edema', 'pneumothorax'], ['lung_opacity', 'pneumothorax']), [
      'lung_opacity',
      'pneumothorax',
    ]);
    assert.deepEqual(migrateUrgentLabels(['pneumonia'], ['pneumothorax']), []);
  });

  test('the manifest summary carries ageGroup and conditionalOn to the site tools', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cxr-urgent-model5-'));
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({
        modelVersion: '5.0.0-test',
        sha256: 'd'.repeat(64),
        findings: [
          { label: 'pneumonia', display: 'Pneumonia / lung opacity', threshold: 0.5, ageGroup: 'pediatric' },
          { label: 'pneumonia_viral', threshold: 0.3, conditionalOn: { head: 'main', label: 'pneumonia' } },
          { label: 'lung_opacity', display: 'Airspace opacity', threshold: 0.3, ageGroup: 'adult' },
          { label: 'pleural_effusion', display: 'Pleural effusion', threshold: 0.3 },
        ],
      }),
    );
    assert.deepEqual(
      offeredUrgentFindings(readModelIdentity(dir)).map((x) => x.label),
      ['lung_opacity', 'pleural_effusion'],
    );
  });
});

const ADMIN = `urgent-admin-${Date.now()}@example.org`;
const modelDir = mkdtempSync(join(tmpdir(), 'cxr-urgent-model-'));
writeFileSync(
  join(modelDir, 'manifest.json'),
  JSON.stringify({
    modelVersion: '4.0.0-test',
    sha256: 'b'.repeat(64),
    findings: [
      { label: 'abnormal', display: 'Abnormal (not normal)', threshold: 0.5, summary: true },
      { label: 'pneumothorax', display: 'Pneumothorax', threshold: 0.08 },
      { label: 'edema', display: 'Edema', threshold: 0.025 },
    ],
  }),
);

describe('site urgent findings', () => {
  let t: TestApp;
  let admin: TTestUser;
  let clinician: TTestUser;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...TEST_ENV, SITE_ADMIN_EMAILS: ADMIN, MODEL_DIR: modelDir } });
    admin = await createUser(t.deps, { email: ADMIN });
    clinician = await createUser(t.deps);
  });
  afterAll(async () => t?.close());

  test('a site administrator chooses among the shipped findings; it is stored and audited where the worklist reads it', async () => {
    const before = await trpc(t.app, 'query', 'site.urgentFindings', admin.token);
    assert.deepEqual(before.data, {
      findings: [
        { label: 'pneumothorax', display: 'Pneumothorax', urgent: false },
        { label: 'edema', display: 'Edema', urgent: false },
      ],
      alsoPossible: false,
      updatedAt: null,
    });
    const saved = await trpc(t.app, 'mutation', 'site.setUrgentFindings', admin.token, {
      labels: ['pneumothorax'],
      alsoPossible: true,
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal((saved.data as { findings: { urgent: boolean }[] }).findings[0]?.urgent, true);
    assert.equal((saved.data as { alsoPossible: boolean }).alsoPossible, true);
    const read = await readUrgentLabels(t.deps);
    assert.deepEqual([...read.labels], ['pneumothorax']);
    assert.equal(read.alsoPossible, true);
    // Issue 48: a save that does not say keeps "also Possible" as stored; false turns it off.
    await trpc(t.app, 'mutation', 'site.setUrgentFindings', admin.token, { labels: ['pneumothorax'] });
    assert.equal((await readUrgentLabels(t.deps)).alsoPossible, true);
    await trpc(t.app, 'mutation', 'site.setUrgentFindings', admin.token, {
      labels: ['pneumothorax'],
      alsoPossible: false,
    });
    assert.equal((await readUrgentLabels(t.deps)).alsoPossible, false);
    const audit = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'site.urgent_findings.set'));
    assert.equal(audit.length, 3);
    assert.equal(audit[0]?.actorUserId, admin.user.id);
    assert.deepEqual(audit.map((a) => (a.details as { alsoPossible: boolean }).alsoPossible).sort(), [
      false,
      true,
      true,
    ]);
  });

  test('an unknown finding is refused; a clinician may neither read nor change the choice', async () => {
    const bad = await trpc(t.app, 'mutation', 'site.setUrgentFindings', admin.token, { labels: ['covid19'] });
    assert.equal(bad.status, 400);
    assert.equal(bad.error?.message, 'Choose among the findings the shipped model reports');
    assert.equal((await trpc(t.app, 'query', 'site.urgentFindings', clinician.token)).status, 403);
    const refused = await trpc(t.app, 'mutation', 'site.setUrgentFindings', clinician.token, { labels: [] });
    assert.equal(refused.status, 403);
    assert.deepEqual([...(await readUrgentLabels(t.deps)).labels], ['pneumothorax'], 'unchanged');
  });
});
