import type { TDicomCaller } from '@contracts/config/dicom-config.js';

const LOOPBACK = new Set(['127.0.0.1', '::1']);

/** '::ffff:10.0.0.5' → '10.0.0.5': IPv4 peers on a dual-stack socket. */
export function normaliseAddress(address: string | undefined): string {
  const a = (address ?? '').toLowerCase();
  return a.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}

/**
 * Whether a calling AE title from this address is on the allow-list. AE titles compare exactly
 * (trailing spaces are padding); hosts are addresses, '*' for any, 'localhost' for loopback.
 */
export function callerAllowed(callers: readonly TDicomCaller[], callingAe: string, address: string | undefined) {
  const ae = callingAe.trim();
  const from = normaliseAddress(address);
  return callers.some(
    (c) => c.ae === ae && (c.host === '*' || c.host === from || (c.host === 'localhost' && LOOPBACK.has(from))),
  );
}
