import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { summarizeModule, timingTable, type TFileTiming } from './summarize-timings.js';

/**
 * Where each file's time goes (issue 40): after every run, .cache/test-timings.json holds each
 * file's wall time split into import, beforeAll/afterAll hooks (boot: databases, apps, browsers)
 * and tests, and .cache/test-timings.txt the same as a table, slowest first. The run's end
 * prints the slowest TEST_TIMINGS_ROWS files (10 unless set; `npm run test:timings` prints all).
 * Cheap: it reads the durations vitest records anyway.
 */
export default class TimingsReporter implements Reporter {
  private readonly files: TFileTiming[] = [];
  private startedAt = Date.now();
  private loadAtStart = loadavg();

  onTestRunStart(): void {
    this.startedAt = Date.now();
    this.loadAtStart = loadavg();
    this.files.length = 0;
  }

  onTestModuleEnd(module: TestModule): void {
    const d = module.diagnostic();
    const tests = [...module.children.allTests()].flatMap((t) => {
      const td = t.diagnostic();
      return td ? [{ startTime: td.startTime, duration: td.duration }] : [];
    });
    this.files.push(
      summarizeModule({
        file: relative(process.cwd(), module.moduleId),
        project: module.project.name,
        state: module.state(),
        environmentSetupDuration: d.environmentSetupDuration,
        prepareDuration: d.prepareDuration,
        collectDuration: d.collectDuration,
        setupDuration: d.setupDuration,
        duration: d.duration,
        tests,
      }),
    );
  }

  onTestRunEnd(): void {
    if (this.files.length === 0) return;
    const dir = join(process.cwd(), '.cache');
    mkdirSync(dir, { recursive: true });
    const files = [...this.files].sort((a, b) => b.wallMs - a.wallMs);
    const run = {
      finishedAt: new Date().toISOString(),
      runWallMs: Date.now() - this.startedAt,
      cores: cpus().length,
      // The machine's load while the run went: timings on a busy machine are not comparable.
      loadAverage: { atStart: this.loadAtStart.map(round2), atEnd: loadavg().map(round2) },
    };
    writeFileSync(join(dir, 'test-timings.json'), `${JSON.stringify({ run, files }, null, 2)}\n`);
    const header = `${files.length} files in ${(run.runWallMs / 1000).toFixed(1)} s, load ${run.loadAverage.atStart[0]} → ${run.loadAverage.atEnd[0]} on ${run.cores} cores`;
    writeFileSync(join(dir, 'test-timings.txt'), `${header}\n${timingTable(files)}\n`);
    const rows = process.env.TEST_TIMINGS_ROWS === 'all' ? files.length : Number(process.env.TEST_TIMINGS_ROWS ?? 10);
    console.log(`\nTest timings (${header}; all in .cache/test-timings.{json,txt}):\n${timingTable(files, rows)}\n`);
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
