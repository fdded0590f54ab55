/**
 * A delivery attempt that did not arrive. `code` says why in words that hold no patient data
 * (an ACK code, a network error code, a DIMSE status): it is stored on the row, logged and kept
 * by the queue, unlike the peer's own text, which may echo the report.
 */
export class DeliveryFailedError extends Error {
  constructor(readonly code: string) {
    super(`delivery failed (${code})`);
  }
}
