import * as dimseNs from 'dcmjs-dimse';

/**
 * dcmjs-dimse is a UMD bundle: Node's ESM loader exposes it only as `default`. This picks
 * whichever is there (as dicom-lib.ts does for dicom-parser). Its own logger is silenced: it
 * would print peer addresses and, at debug level, whole data sets; the node logs for itself.
 */
export const dimse: typeof dimseNs = (dimseNs as unknown as { default?: typeof dimseNs }).default ?? dimseNs;
dimse.log.setLevel('silent');

export type { Dataset, Scp } from 'dcmjs-dimse';
