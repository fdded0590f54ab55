/** 'Signed by Dr Alice Reed at 28 Nov 2026, 23:50': a signature as the viewer and the worklist show it. */
export const signedText = (by: string | null, at: string | null): string =>
  `Signed by ${by ?? 'a former member'} at ${at ? new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—'}`;
