import assert from 'node:assert/strict';
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { analyses, auditLog, messages } from '../../server/src/db/schema.js';
import { finalizeAnalysis } from '../../server/src/services/analysis/finalize-analysis.js';
import { createChat, createUser, type TTestUser } from '../helpers/factories.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { rest, trpc, TEST_ENV } from '../history/http.js';

/**
 * Site calibration (issue 17) through REST and tRPC: who may call it, the minimum-count refusal,
 * propose/apply/revert with audit entries, the finalizer's calls at the site threshold, and the
 * sha256 pin (a model change makes the applied thresholds inactive, with a warning).
 */
const ADMIN = `site-admin-${Date.now()}@example.org`;
const modelDir = mkdtempSync(join(tmpdir(), 'cxr-site-model-'));
const manifestPath = join(modelDir, 'manifest.json');
const manifest = (sha256: string) => ({
  modelVersion: '9.9.9-site',
  sha256,
  uncertainMargin: 0,
  findings: [
    { label: 'pneumonia', display: 'Pneumonia', threshold: 0.38 },
    { label: 'covid19', display: 'COVID-19', threshold: 0.27 },
  ],
});
function writeManifest(sha256: string, mtime: number): void {
  writeFileSync(manifestPath, JSON.stringify(manifest(sha256)));
  utimesSync(manifestPath, mtime, mtime);
}

/** 40 labelled films: pneumonia present above 0.3, absent below; too few covid19 readings. */
function resultsCsv(modelVersion = '9.9.9-site'): string {
  const lines = [
    'file,sha256,label,status,accepted,gate_reason,p_pneumonia,p_covid19,call_pneumonia,call_covid19,top_finding,model_version,chat_id,error',
  ];
  for (let i = 0; i < 40; i++) {
    const present = i % 2 === 0;
    const p = present ? 0.31 + i / 200 : 0.05 + i / 200;
    lines.push(
      `f${i}.png,x,${present ? 'pneumonia' : 'normal'},completed,true,,${p.toFixed(4)},${i < 3 ? '0.5' : ''},,,,${modelVersion},,`,
    );
  }
  return lines.join('\n');
}

describe('site calibration API', () => {
  let t: TestApp;
  let admin: TTestUser;
  let clinician: TTestUser;

  beforeAll(async () => {
    writeManifest('a'.repeat(64), 1_700_000_000);
    t = await createTestApp({
      env: { ...TEST_ENV, SITE_ADMIN_EMAILS: ` ${ADMIN.toUpperCase()} , other@example.org`, MODEL_DIR: modelDir },
    });
    admin = await createUser(t.deps, { email: ADMIN });
    clinician = await createUser(t.deps);
  });
  afterAll(async () => t?.close());

  test('access: admin 200, clinician 403, anonymous 401, on every call; tRPC access says who sees the tab', async () => {
    const calls = [
      (tok: string | null) => rest(t.app, 'GET', '/api/site/calibration', tok),
      (tok: string | null) =>
        rest(t.app, 'POST', '/api/site/calibration/propose', tok, { source: 'feedback', method: { kind: 'youden' } }),
      (tok: string | null) => rest(t.app, 'PUT', '/api/site/calibration', tok, { calibrationId: crypto.randomUUID() }),
      (tok: string | null) => rest(t.app, 'DELETE', '/api/site/calibration', tok),
    ];
    for (const call of calls) {
      assert.equal((await call(null)).status, 401);
      const refused = await call(clinician.token);
      assert.equal(refused.status, 403);
      assert.equal((refused.body as { message: string }).message, 'Only site administrators can do this');
    }
    assert.equal((await calls[0]!(admin.token)).status, 200);
    assert.equal((await trpc(t.app, 'query', 'site.calibration', clinician.token)).status, 403);
    assert.deepEqual((await trpc(t.app, 'query', 'site.access', clinician.token)).data, {
      siteAdmin: false,
      canClaim: false,
    });
    assert.deepEqual((await trpc(t.app, 'query', 'site.access', admin.token)).data, {
      siteAdmin: true,
      canClaim: false,
    });
  });

  test('too few labelled cases: refused with the minimum in the message, nothing stored', async () => {
    const r = await rest(t.app, 'POST', '/api/site/calibration/propose', admin.token, {
      source: 'feedback',
      method: { kind: 'youden' },
    });
    assert.equal(r.status, 400);
    assert.match(
      (r.body as { message: string }).message,
      /at least 30 cases, with at least 5 read present and 5 read absent/,
    );
    const other = await rest(t.app, 'POST', '/api/site/calibration/propose', admin.token, {
      source: 'csv',
      method: { kind: 'youden' },
      csv: resultsCsv('1.0.0-old'),
    });
    assert.equal(other.status, 400, 'rows read by another model version are not cases');
  });

  test('propose from a CSV, apply: the next analysis is called at the site threshold and says so; revert restores the default', async () => {
    const proposed = await rest(t.app, 'POST', '/api/site/calibration/propose', admin.token, {
      source: 'csv',
      method: { kind: 'youden' },
      csv: resultsCsv(),
    });
    assert.equal(proposed.status, 200);
    const cal = (
      proposed.body as {
        data: {
          id: string;
          findings: { finding: string; threshold: number; cases: number; sensitivityCi95: number[] }[];
          skipped: { finding: string }[];
        };
      }
    ).data;
    assert.deepEqual(
      cal.findings.map((f) => [f.finding, f.threshold, f.cases]),
      [['pneumonia', 0.31, 40]],
    );
    assert.equal(cal.findings[0]!.sensitivityCi95.length, 2);
    assert.deepEqual(
      cal.skipped.map((s) => s.finding),
      ['covid19'],
    );

    const applied = await rest(t.app, 'PUT', '/api/site/calibration', admin.token, { calibrationId: cal.id });
    assert.equal(applied.status, 200);
    const state = (await rest(t.app, 'GET', '/api/site/calibration', admin.token)).body as {
      data: { active: boolean; applied: { id: string } | null };
    };
    assert.deepEqual([state.data.active, state.data.applied?.id], [true, cal.id]);
    const report = await analyse(0.33);
    assert.match(report.content, /Pneumonia: called at the site threshold 0\.31, model default 0\.38\./);
    // 33 % is flagged at the site threshold but under 50 %: a possible finding, never a 'Pneumonia' call.
    assert.equal(report.disease, 'Pneumonia (possible)');

    assert.equal((await rest(t.app, 'DELETE', '/api/site/calibration', admin.token)).status, 200);
    const after = await analyse(0.33);
    assert.doesNotMatch(after.content, /site threshold/);
    assert.equal(after.disease, null);
    const actions = (await t.deps.db.select().from(auditLog).where(eq(auditLog.actorUserId, admin.user.id))).map(
      (a) => a.action,
    );
    for (const a of ['site.calibration.propose', 'site.calibration.apply', 'site.calibration.revert'])
      assert.ok(actions.includes(a), a);
  });

  test('sha256 pin: after a model change the applied thresholds are ignored with a warning, and cannot be re-applied', async () => {
    const proposed = await rest(t.app, 'POST', '/api/site/calibration/propose', admin.token, {
      source: 'csv',
      method: { kind: 'target-sensitivity', sensitivity: 0.9 },
      csv: resultsCsv(),
    });
    const id = (proposed.body as { data: { id: string } }).data.id;
    assert.equal((await rest(t.app, 'PUT', '/api/site/calibration', admin.token, { calibrationId: id })).status, 200);
    writeManifest('b'.repeat(64), 1_700_000_100);
    const state = (await rest(t.app, 'GET', '/api/site/calibration', admin.token)).body as {
      data: { active: boolean; warning: string | null };
    };
    assert.equal(state.data.active, false);
    assert.match(
      state.data.warning ?? '',
      /made for model 9\.9\.9-site \(sha256 a{12}…\), not applied to the running model 9\.9\.9-site \(sha256 b{12}…\): new analyses use the model defaults/,
    );
    const report = await analyse(0.33);
    assert.doesNotMatch(report.content, /site threshold/);
    assert.equal((await rest(t.app, 'PUT', '/api/site/calibration', admin.token, { calibrationId: id })).status, 409);
  });

  /** A queued analysis finalized with a pneumonia probability of p; returns its report message. */
  async function analyse(p: number) {
    const { analysis } = await createChat(t.deps, clinician.user.id, { analysisStatus: 'queued' });
    const result = {
      modelVersion: '9.9.9-site',
      modelName: 'site-test',
      gate: { accepted: true, code: null, flags: [] },
      anatomy: null,
      findings: [
        { label: 'pneumonia', display: 'Pneumonia', probability: p, threshold: 0.38, call: 'negative' as const },
      ],
      topFinding: null,
      heatmaps: [],
      image: { width: 224, height: 224 },
      timingsMs: {},
    };
    assert.equal(
      await finalizeAnalysis({ ...t.deps, job: { analysisId: analysis!.id, result, heatmap: null } }),
      'completed',
    );
    const [row] = await t.deps.db.select().from(analyses).where(eq(analyses.id, analysis!.id));
    assert.ok(row);
    const [msg] = await t.deps.db
      .select()
      .from(messages)
      .where(and(eq(messages.analysisId, analysis!.id)));
    return msg!;
  }
});
