import { loadavg } from 'node:os';

/** The 1, 5 and 15 minute load averages, as the benches print them beside their figures. */
export const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
