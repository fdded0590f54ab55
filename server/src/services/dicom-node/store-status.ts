import { StoreStatus } from './node-thread-messages.js';
import type { TReceiveOutcome } from './receive-instance.js';

/**
 * The C-STORE status (and STOW-RS FailureReason) of a received instance (issue 36, S6). A failed
 * instance is never answered Success, so the sender keeps it and retries: 0xA700 out of
 * resources when a resend may work, 0xC000 cannot understand when it will not. A resend of a
 * failed instance is taken again (receiveInstance).
 */
export function storeStatusOf(r: TReceiveOutcome): number {
  if (r.outcome !== 'failed') return StoreStatus.Success;
  return r.failure === 'resources' ? StoreStatus.OutOfResources : StoreStatus.CannotUnderstand;
}
