import type { TDicomCaller } from '@contracts/config/dicom-config.js';

/** What the node's thread needs from the config (a worker thread gets a copy, not the zod object). */
export interface TNodeSettings {
  port: number;
  bind: string;
  aeTitle: string;
  allowedCallers: TDicomCaller[];
  maxInstanceBytes: number;
  maxInstancesPerAssociation: number;
  maxAssociations: number;
  maxAssociationsPerAddress: number;
  artimMs: number;
  idleMs: number;
  maxBytesInFlight: number;
}

export type TLogLevel = 'info' | 'warn' | 'error';

/**
 * Main thread → node thread. `routes` lists the teams' AE titles (upper-case) the node accepts
 * besides its own; the thread never learns which team a title means.
 */
export type TToNodeThread =
  | { type: 'owner'; ready: boolean }
  | { type: 'routes'; aeTitles: string[] }
  | { type: 'answer'; id: number; status: number }
  | { type: 'close' };

/** Node thread → main thread. An instance's bytes are transferred, not copied. */
export type TFromNodeThread =
  | { type: 'listening'; port: number }
  | { type: 'listen-failed'; message: string }
  | { type: 'log'; level: TLogLevel; fields: Record<string, unknown>; msg: string }
  | { type: 'instance'; id: number; bytes: Uint8Array; callingAe: string; calledAe: string; address: string }
  | { type: 'closed' };

/** C-STORE statuses the node answers (PS3.4 Annex B.2.3; PS3.7 C). */
export const StoreStatus = {
  Success: 0x0000,
  /** Refused: out of resources (too large, too many, the budget spent, the decoder busy). A resend may work. */
  OutOfResources: 0xa700,
  /** Error: cannot understand (unreadable, no SOP Instance UID, a bad PatientID). A resend will not. */
  CannotUnderstand: 0xc000,
} as const;
