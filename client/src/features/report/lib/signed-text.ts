import { localTime } from '../../../lib/local-time';

/** 'Signed by Dr Alice Reed at 28 Nov 2026, 23:50 CET': a signature as the viewer shows it, in the reader's zone. */
export const signedText = (by: string | null, at: string | null): string =>
  `Signed by ${by ?? 'a former member'} at ${at ? localTime(at) : '—'}`;
