import type { TDicomPeer } from '@contracts/config/dicom-config.js';
import { dimse } from './dimse-lib.js';

const { Client } = dimse;
const { CEchoRequest } = dimse.requests;
const { Status } = dimse.constants;

/** How a C-ECHO went: 'success', a DIMSE status, or why no answer came. Never data. */
export type TEchoOutcome =
  | { kind: 'success' }
  | { kind: 'status'; status: string }
  | { kind: 'rejected' }
  | { kind: 'network'; code: string }
  | { kind: 'no-answer' };

/**
 * One Verification (C-ECHO) association with a peer, by the same SCU as the results' C-STORE
 * (dcmjs-dimse), so a test that passes here says the PACS takes associations from this node's
 * calling AE title. Never rejects: the outcome says what happened.
 */
export function echoPeer(opts: { peer: TDicomPeer; callingAe: string; timeoutMs: number }): Promise<TEchoOutcome> {
  const { peer, callingAe, timeoutMs } = opts;
  return new Promise<TEchoOutcome>((resolve) => {
    const client = new Client();
    let status: number | null = null;
    let settled = false;
    const finish = (outcome: TEchoOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const request = new CEchoRequest();
    request.on('response', (response: { getStatus(): number }) => {
      status = response.getStatus();
    });
    client.addRequest(request);
    // dcmjs-dimse wraps the socket's error: its code is only in the message ('connect ECONNREFUSED …').
    client.on('networkError', (e: Error & { code?: string }) => {
      const code = e.code ?? /\b(E[A-Z]{3,})\b/.exec(e.message)?.[1];
      finish(
        code
          ? { kind: 'network', code }
          : /timeout/i.test(e.message)
            ? { kind: 'no-answer' }
            : { kind: 'network', code: 'network error' },
      );
    });
    client.on('associationRejected', () => finish({ kind: 'rejected' }));
    client.on('closed', () => {
      if (status === null) finish({ kind: 'no-answer' });
      else if (status === Status.Success) finish({ kind: 'success' });
      else finish({ kind: 'status', status: `0x${status.toString(16).padStart(4, '0')}` });
    });
    client.send(peer.host, peer.port, callingAe, peer.ae, {
      connectTimeout: timeoutMs,
      associationTimeout: timeoutMs,
      pduTimeout: timeoutMs,
    });
  });
}
