/**
 * A stored instant in the reader's locale and time zone, the zone named ('29 Nov 2026, 07:35 CET'),
 * never raw UTC (issue 49): a signature or a test result read from another site is unambiguous.
 */
export function localTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  });
}
