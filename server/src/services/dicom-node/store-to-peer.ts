import type { TDicomPeer } from '@contracts/config/dicom-config.js';
import { dimse } from './dimse-lib.js';
import { EXPLICIT_VR_LE } from './write-part10.js';

const { Client, Dataset } = dimse;
const { CStoreRequest } = dimse.requests;
const { Status } = dimse.constants;

/** A send that did not complete; `code` is a network error code or a DIMSE status, never data. */
export class StoreFailedError extends Error {
  constructor(readonly code: string) {
    super(`C-STORE failed (${code})`);
  }
}

/**
 * Sends data sets to a peer in one association by C-STORE (dcmjs-dimse's SCU). Resolves once
 * every one was answered Success; rejects with StoreFailedError otherwise.
 */
export function storeToPeer(opts: {
  peer: TDicomPeer;
  callingAe: string;
  datasets: Record<string, unknown>[];
  timeoutMs?: number;
}): Promise<void> {
  const { peer, callingAe, datasets } = opts;
  return new Promise<void>((resolve, reject) => {
    const client = new Client();
    const statuses: number[] = [];
    let settled = false;
    const finish = (err: StoreFailedError | null) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve();
    };
    for (const ds of datasets) {
      const request = new CStoreRequest(new Dataset(ds, EXPLICIT_VR_LE));
      request.on('response', (response: { getStatus(): number }) => statuses.push(response.getStatus()));
      client.addRequest(request);
    }
    client.on('networkError', (e: Error & { code?: string }) =>
      finish(new StoreFailedError(e.code ?? 'network error')),
    );
    client.on('associationRejected', () => finish(new StoreFailedError('association rejected')));
    client.on('closed', () => {
      const bad = statuses.find((s) => s !== Status.Success);
      if (statuses.length < datasets.length) finish(new StoreFailedError('no answer'));
      else if (bad !== undefined) finish(new StoreFailedError(`status 0x${bad.toString(16).padStart(4, '0')}`));
      else finish(null);
    });
    client.send(peer.host, peer.port, callingAe, peer.ae, {
      connectTimeout: opts.timeoutMs ?? 10_000,
      associationTimeout: opts.timeoutMs ?? 30_000,
      pduTimeout: opts.timeoutMs ?? 30_000,
    });
  });
}
