import type { AppDeps } from '../../deps.js';
import { setDicomNodeStatus } from './dicom-node-status.js';
import { resolveDicomOwner } from './dicom-owner.js';

/** How often the owner is looked up again (issue 36, S11: "every few seconds"). */
export const OWNER_CHECK_MS = 5000;

/**
 * Resolves the node's owner now and every OWNER_CHECK_MS, telling the node whenever it changes
 * and logging once per change (why associations are refused, or that they are accepted again).
 * A failed lookup (database away) keeps the last answer.
 */
export function watchDicomOwner(
  opts: Pick<AppDeps, 'db' | 'config' | 'log'> & { onChange: (userId: string | null) => void },
): { check(): Promise<void>; stop(): void } {
  const { config, log, onChange } = opts;
  let last: string | undefined;
  const check = async () => {
    const owner = await resolveDicomOwner(opts).catch((err: Error) => {
      log.warn({ err }, 'DICOM owner lookup failed');
      return null;
    });
    if (!owner) return;
    const key = owner.userId ?? `none:${owner.reason}`;
    if (key === last) return;
    last = key;
    setDicomNodeStatus(config, { accepting: owner.userId !== null, reason: owner.reason });
    if (owner.userId) log.info({ component: 'dicom-node' }, 'DICOM owner account proven: accepting associations');
    else
      log.warn(
        { component: 'dicom-node', why: owner.reason },
        'DICOM node refuses associations until its owner is proven',
      );
    onChange(owner.userId);
  };
  const timer = setInterval(() => void check(), OWNER_CHECK_MS);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
