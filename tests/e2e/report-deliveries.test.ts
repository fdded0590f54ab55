import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import type { Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { analyses, dicomInstances } from '../../server/src/db/schema.js';
import { listenMllp, type TMllpListener } from '../helpers/mllp-listener.js';
import { freePort } from '../helpers/start-orthanc.js';
import { finding, resultOf, seedStudies } from '../worklist/seed-studies.js';
import { expectToast, openSignedInPage, startClientApp, type TClientApp } from './support/client-ui.js';

/**
 * The report panel's "Sent to" list (issue 41) against a real app whose RIS is a real MLLP
 * listener: a report signed while the RIS answers reads "delivered"; one signed while the RIS is
 * down reads "failed — network error" once the attempts run out, and the panel stops polling.
 */
describe('web client: where a signed report went', () => {
  let ctx: TClientApp;
  let page: Page;
  let errors: string[];
  let userId = '';
  let ris: TMllpListener | null = null;
  let risPort = 0;

  /** A personal study with a flagged finding, its chat open in the viewer. */
  const openStudy = async () => {
    const deps = ctx.opened!.deps;
    const [instance] = await seedStudies(deps, { userId }, [
      { status: 'analysed', result: resultOf(finding('mass', 0.9, 0.5, 'positive')), createdAt: new Date() },
    ]);
    const [row] = await deps.db
      .select({ chatId: analyses.chatId })
      .from(dicomInstances)
      .innerJoin(analyses, eq(analyses.id, dicomInstances.analysisId))
      .where(eq(dicomInstances.id, instance!));
    await page.goto(`${ctx.app.url}/chat?chat=${row!.chatId}`);
    const panel = page.getByTestId('report-panel');
    await panel.getByLabel('Impression').waitFor({ timeout: 30_000 });
    return panel;
  };
  const sign = async (panel: ReturnType<Page['getByTestId']>) => {
    await panel.getByRole('button', { name: 'Sign', exact: true }).click();
    await expectToast(page, 'Report signed');
  };

  beforeAll(async () => {
    risPort = await freePort();
    ris = await listenMllp(risPort, []);
    ctx = await startClientApp({
      seed: true,
      env: {
        REPORT_HL7_DESTINATION: `127.0.0.1:${risPort}`,
        REPORT_HL7_TIMEOUT_MS: '2000',
        REPORT_HL7_ATTEMPTS: '3',
        REPORT_HL7_BACKOFF_MS: '500',
      },
    });
    const opened = await openSignedInPage(ctx, { name: 'Dr Dana Delivery' });
    ({ page, errors } = opened);
    userId = opened.account.user.id;
  });
  afterAll(async () => {
    await ris?.close();
    await ctx?.close();
  });

  test('a draft lists nothing; signed with the RIS up: "RIS (HL7): delivered", under a "Sent to" heading', async () => {
    const panel = await openStudy();
    assert.equal(await panel.getByTestId('report-deliveries').count(), 0, 'a draft goes nowhere');
    await sign(panel);
    // The panel polls while the delivery is pending: "delivered" appears without a reload.
    const sent = panel.getByRole('region', { name: 'Sent to' });
    await sent.getByRole('listitem').filter({ hasText: 'RIS (HL7): delivered' }).waitFor({ timeout: 20_000 });
    assert.deepEqual(await sent.getByRole('listitem').allTextContents(), ['RIS (HL7): delivered']);
    assert.equal(ris!.received.length, 1);
    assert.match(ris!.received[0]!, /^MSH\|.*ORU\^R01/);
  });

  test('signed with the RIS down: "failed — network error" after the last attempt, then no more polling', async () => {
    await ris!.close();
    ris = null;
    const panel = await openStudy();
    await sign(panel);
    const sent = panel.getByRole('region', { name: 'Sent to' });
    await sent
      .getByRole('listitem')
      .filter({ hasText: 'RIS (HL7): failed — network error (ECONNREFUSED)' })
      .waitFor({ timeout: 30_000 });
    // Nothing pending any more: the report is not read again.
    let reads = 0;
    page.on('request', (r) => {
      if (r.url().includes('/trpc/report.get')) reads += 1;
    });
    await page.waitForTimeout(7_000);
    assert.equal(reads, 0, 'no polling once every delivery settled');
    assert.deepEqual(errors, []);
  });
});
