import { writeFileSync } from 'node:fs';

/**
 * Loaded with --import into the measured batch process: on exit it writes the process's peak
 * resident set size (kernel high-water mark, in KiB) where BENCH_RSS_OUT says.
 */
const target = process.env.BENCH_RSS_OUT;
if (target) process.on('exit', () => writeFileSync(target, String(process.resourceUsage().maxRSS)));
