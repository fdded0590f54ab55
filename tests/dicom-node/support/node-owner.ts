import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { users } from '../../../server/src/db/schema.js';
import {
  confirmDicomOwner,
  issueDicomOwnerToken,
} from '../../../server/src/services/dicom-node/confirm-dicom-owner.js';
import type { TestApp } from '../../helpers/test-app.js';

const run = promisify(execFile);

/**
 * Proves the node's owner as the e-mailed link would (issue 36, S11): the same token, consumed by
 * the same service (tests/dicom-node/node-owner.test.ts follows the real mail and link).
 */
export async function confirmOwnerForTest(t: Pick<TestApp, 'deps'>, userId: string): Promise<void> {
  const [row] = await t.deps.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!row) throw new Error('no such account');
  const token = await issueDicomOwnerToken({ ...t.deps, account: { userId, email: row.email } });
  await confirmDicomOwner({ ...t.deps, meta: null, token });
}

/** Waits (generous limit, no timing asserted) until the node accepts a C-ECHO from STORESCU. */
export async function untilNodeAccepts(port: number, ae: string, limitMs = 60_000): Promise<void> {
  const end = Date.now() + limitMs;
  for (;;) {
    const ok = await run('echoscu', ['-aet', 'STORESCU', '-aec', ae, '127.0.0.1', String(port)]).then(
      () => true,
      () => false,
    );
    if (ok) return;
    if (Date.now() > end) throw new Error('the node never accepted an association');
    await new Promise((r) => setTimeout(r, 250));
  }
}
