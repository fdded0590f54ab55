import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig, outboxDir } from '@contracts/config/server-config.js';
import { decodeQuotedPrintable } from '../../auth/smtp-inbox.js';
import type { E2eApp } from '../../helpers/e2e-app.js';

const LINK_RE = /\/api\/dicom-owner\/confirm\?token=([A-Za-z0-9_-]+)/;

/**
 * Proves the DICOM node's owner the way a person does (issue 36, S11), for an app run as
 * processes: the account was just made with DICOM_OWNER_EMAIL, so its confirmation e-mail is in
 * the app's outbox (no SMTP_URL here); open its link, then wait until /readyz says the node
 * accepts (the server looks the owner up every few seconds). Generous limits, no timing asserted.
 */
export async function confirmDicomOwner(app: E2eApp, limitMs = 60_000): Promise<void> {
  const dir = outboxDir(loadConfig({ ...app.env, LOG_LEVEL: 'silent' }));
  const end = Date.now() + limitMs;
  let link: string | null = null;
  while (!link) {
    const files = await readdir(dir).catch(() => [] as string[]);
    for (const f of files
      .filter((n) => n.endsWith('.eml'))
      .sort()
      .reverse()) {
      const m = LINK_RE.exec(decodeQuotedPrintable(await readFile(join(dir, f), 'utf8')));
      if (m) {
        link = m[0];
        break;
      }
    }
    if (!link && Date.now() > end) throw new Error('no DICOM owner confirmation e-mail in the outbox');
    if (!link) await new Promise((r) => setTimeout(r, 200));
  }
  const opened = await fetch(`${app.url}${link}`, { redirect: 'manual' });
  if (opened.status !== 303) throw new Error(`the owner link answered ${opened.status}: ${await opened.text()}`);
  for (;;) {
    const ready = (await fetch(`${app.url}/readyz`).then((r) => r.json())) as { dicomNode?: { accepting: boolean } };
    if (ready.dicomNode?.accepting) return;
    if (Date.now() > end) throw new Error(`the DICOM node never accepted: ${JSON.stringify(ready.dicomNode)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
