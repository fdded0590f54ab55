import type { AppDeps, RequestMeta } from '../../deps.js';
import { receiveInstance } from './receive-instance.js';
import { readInstanceTags } from './read-instance-tags.js';
import { storeStatusOf } from './store-status.js';
import { AppError } from '../../lib/app-error.js';
import { StoreStatus } from './node-thread-messages.js';
import type { TStowPart } from './read-multipart-related.js';

export const STOW_RATE_SPENT =
  'Too many instances for this API key. The ones before this were stored; send the rest in a minute.';

/** PS3.18 Table 10.5.3-1 (Store Instances Response Attributes), in the DICOM JSON model. */
const TAG = {
  failedSop: '00081198',
  referencedSop: '00081199',
  sopClass: '00081150',
  sopInstance: '00081155',
  failureReason: '00081197',
} as const;

const ui = (v: string | null) => ({ vr: 'UI', ...(v ? { Value: [v] } : {}) });

/**
 * STOW-RS for the caller's own account (or the team of its team key): each part, as it arrives, goes through the same
 * receiveInstance as a C-STORE; a part over DICOM_MAX_INSTANCE_BYTES is listed as failed (A700). Answers the DICOM JSON response and the HTTP status PS3.18 10.5.3 asks for: 200 when
 * every instance was taken, 202 when some failed, 409 when all did.
 */
export async function storeInstances(
  opts: Pick<AppDeps, 'db' | 'redis' | 'analysisQueue' | 'images' | 'log'> & {
    meta: RequestMeta;
    userId: string;
    /** The team key's team (checked by the route); null: the key holder's personal space. */
    teamId: string | null;
    parts: AsyncIterable<TStowPart>;
    /** Spends one request of the caller's rate budget for each part after the first; false once it is spent. */
    admitPart: () => Promise<boolean>;
  },
): Promise<{ status: 200 | 202 | 409; body: Record<string, unknown> }> {
  const referenced: Record<string, unknown>[] = [];
  const failed: Record<string, unknown>[] = [];
  let count = 0;
  for await (const { bytes, oversize } of opts.parts) {
    count += 1;
    // A 1,000-part request is 1,000 requests' work (issue 36 S7); what was stored before stays.
    if (count > 1 && !(await opts.admitPart())) throw new AppError('TOO_MANY_REQUESTS', STOW_RATE_SPENT);
    const tags = readInstanceTags(bytes);
    const ids = { [TAG.sopClass]: ui(tags?.SOPClassUID ?? null), [TAG.sopInstance]: ui(tags?.SOPInstanceUID ?? null) };
    if (oversize) {
      // Only the head was kept (read-multipart-related.ts): refused like an oversize C-STORE.
      failed.push({ ...ids, [TAG.failureReason]: { vr: 'US', Value: [StoreStatus.OutOfResources] } });
      continue;
    }
    const r = await receiveInstance({ ...opts, bytes, source: 'stow', callingAe: null });
    // Every failure is listed with its reason (0xA700 or 0xC000), not only the unreadable (issue 36, S6).
    if (r.outcome === 'failed') failed.push({ ...ids, [TAG.failureReason]: { vr: 'US', Value: [storeStatusOf(r)] } });
    else referenced.push(ids);
  }
  const body: Record<string, unknown> = {};
  if (referenced.length) body[TAG.referencedSop] = { vr: 'SQ', Value: referenced };
  if (failed.length) body[TAG.failedSop] = { vr: 'SQ', Value: failed };
  const status = failed.length === 0 ? 200 : referenced.length === 0 ? 409 : 202;
  return { status, body };
}
