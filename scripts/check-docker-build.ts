/**
 * npm run docker:check [-- --full] [--keep]
 *
 * No Docker engine runs here, so this replays the Dockerfile's steps in a clean temporary
 * directory and checks that the result starts: the build context is the tracked files minus
 * .dockerignore (no node_modules, no dist), each stage's COPY and RUN steps run in their own
 * folder, then the run stage's CMD boots the server with production dependencies only, its
 * HEALTHCHECK must pass, and the worker's code must load (classify --help imports
 * onnxruntime-node and sharp). Differences from a real build are listed in replay-dockerfile.ts;
 * the Node version is this machine's, not the image's. The last line is JSON.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkDockerfilePolicy } from './docker/check-dockerfile-policy.js';
import { makeBuildContext } from './docker/build-context.js';
import { execForm, parseDockerfile } from './docker/parse-dockerfile.js';
import { gitHead, replayDockerfile } from './docker/replay-dockerfile.js';
import { parseCliArgs, runCli } from '@common/cli-args.js';
import { freePort } from './lib/private-redis.js';

const USAGE = `Usage: npm run docker:check -- [--full] [--keep]
  --full   run every npm ci for real (slower; by default each is a --dry-run against the
           lock file and its packages are linked in from the checkout's node_modules)
  --keep   keep the temporary directory
Exit codes: 0 the image's steps build and the result starts, 1 they do not, 2 usage error.`;

async function waitForHealth(url: string, child: { exitCode: number | null }, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end && child.exitCode === null;) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

runCli(USAGE, async () => {
  const { values } = parseCliArgs(process.argv.slice(2), { full: { type: 'boolean' }, keep: { type: 'boolean' } });
  const repo = resolve(import.meta.dirname, '..');
  const started = Date.now();
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const stages = parseDockerfile(readFileSync(join(repo, 'Dockerfile'), 'utf8'));
  const problems = checkDockerfilePolicy(stages);
  for (const p of problems) log(`policy: ${p}`);

  const work = mkdtempSync(join(tmpdir(), 'cxr-docker-'));
  const result = {
    ok: false,
    head: gitHead(repo),
    stages: stages.map((s) => `${s.name}:${s.image}`),
    policyProblems: problems.length,
    contextFiles: 0,
    healthz: false,
    healthcheck: false,
    workerLoads: false,
    seconds: 0,
  };
  try {
    result.contextFiles = makeBuildContext(repo, join(work, 'context'));
    log(`context: ${result.contextFiles} files`);
    const built = replayDockerfile(stages, {
      repo,
      context: join(work, 'context'),
      work,
      full: values.full === true,
      log,
    });
    const final = built.at(-1)!;
    const finalStage = stages.at(-1)!;
    const cmd = execForm(finalStage.instructions.find((i) => i.op === 'CMD')?.args ?? '[]');
    const port = await freePort();
    const env = {
      ...process.env,
      ...final.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(final.root, 'data'),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `docker-check-${port}`,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
    };
    log(`== boot: ${cmd.join(' ')}`);
    const server = spawn(cmd[0] === 'node' ? process.execPath : (cmd[0] ?? ''), cmd.slice(1), {
      cwd: final.root,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    try {
      result.healthz = await waitForHealth(`http://127.0.0.1:${port}/healthz`, server, 120_000);
      const health = execForm(finalStage.instructions.find((i) => i.op === 'HEALTHCHECK')?.args ?? '[]');
      const hc = spawnSync(health[0] === 'node' ? process.execPath : (health[0] ?? ''), health.slice(1), {
        cwd: final.root,
        env,
        timeout: 10_000,
      });
      result.healthcheck = hc.status === 0;
      const worker = spawnSync(process.execPath, ['--import', 'tsx', 'worker/src/cli/classify.ts', '--help'], {
        cwd: final.root,
        env,
        timeout: 60_000,
        encoding: 'utf8',
      });
      result.workerLoads = worker.status === 0;
      if (!result.workerLoads) log(worker.stderr);
    } finally {
      server.kill('SIGTERM');
    }
    result.ok = problems.length === 0 && result.healthz && result.healthcheck && result.workerLoads;
  } catch (err) {
    log(`replay failed: ${(err as Error).message}`);
  } finally {
    if (!values.keep) rmSync(work, { recursive: true, force: true });
    else log(`kept ${work}`);
    result.seconds = Math.round((Date.now() - started) / 1000);
  }
  console.log(JSON.stringify(result));
  return result.ok ? 0 : 1;
});
