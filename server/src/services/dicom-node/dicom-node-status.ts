import type { TConfig } from '@contracts/config/server-config.js';

/** What /readyz says about the DICOM node (issue 36, S11). */
export interface TDicomNodeStatus {
  accepting: boolean;
  /** Why associations are refused, for the operator; no patient data. */
  reason: string | null;
}

// Keyed by the config object: the app and its background services share one deps graph, and
// tests may run several apps in one process.
const statuses = new WeakMap<TConfig, TDicomNodeStatus>();

export function setDicomNodeStatus(config: TConfig, status: TDicomNodeStatus) {
  statuses.set(config, status);
}

/** Null when the node is off (DICOM_PORT unset) or not started yet. */
export function dicomNodeStatus(config: TConfig): TDicomNodeStatus | null {
  return statuses.get(config) ?? null;
}
