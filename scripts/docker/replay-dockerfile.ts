import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { linkProductionModules } from './link-production-modules.js';
import { parseCopy, parseEnv, type TStage } from './parse-dockerfile.js';

export interface TReplayedStage {
  name: string;
  root: string;
  env: Record<string, string>;
  user: string | null;
}

export interface TReplayOptions {
  repo: string;
  context: string;
  work: string;
  /** Run every `npm ci` for real; otherwise each stage's node_modules comes from the checkout's. */
  full: boolean;
  log: (line: string) => void;
}

const WORKDIR = '/app';

/** Image paths under WORKDIR map into the stage's directory; nothing else is writable here. */
const inStage = (root: string, p: string) =>
  p.startsWith(WORKDIR) ? join(root, p.slice(WORKDIR.length)) : resolve(root, p);

function run(cmd: string, cwd: string, env: Record<string, string>, log: (l: string) => void): void {
  log(`  $ ${cmd}`);
  const r = spawnSync('bash', ['-c', cmd], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`RUN failed (exit ${r.status}): ${cmd}`);
}

/** A RUN whose output is read (an npm dry run's plan), not shown line by line. */
function runReading(cmd: string, cwd: string, env: Record<string, string>, log: (l: string) => void): string {
  log(`  $ ${cmd}`);
  const r = spawnSync('bash', ['-c', cmd], { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`RUN failed (exit ${r.status}): ${cmd}\n${r.stderr}`);
  return r.stdout;
}

/**
 * `npm ci` without the download and the install: its --dry-run must succeed against the lock
 * file (what a clean build's install needs), then the tree it would make is taken from the
 * checkout. The full install is a symlink to the checkout's node_modules (the build stage only
 * runs vite with it); --omit=dev gets the production packages alone (link-production-modules.ts),
 * as many as the dry run plans to add, or else the real install runs.
 */
function replayInstall(part: string, stage: TReplayedStage, opts: TReplayOptions): boolean {
  const plan = runReading(`${part} --dry-run --prefer-offline`, stage.root, stage.env, opts.log);
  const planned = Number(/^added (\d+) packages?/m.exec(plan)?.[1] ?? NaN);
  if (!/--omit=dev/.test(part)) {
    symlinkSync(join(opts.repo, 'node_modules'), join(stage.root, 'node_modules'), 'dir');
    opts.log(`  (node_modules linked from the checkout: the dry run plans ${planned} packages from the lock file)`);
    return true;
  }
  const linked = linkProductionModules(opts.repo, stage.root);
  if (linked === planned) {
    opts.log(`  (the ${linked} production packages the dry run plans, hard-linked from the checkout)`);
    return true;
  }
  rmSync(join(stage.root, 'node_modules'), { recursive: true, force: true });
  opts.log(`  (the checkout's node_modules is not what the lock file installs: ${linked} vs ${planned}; installing)`);
  return false;
}

/**
 * One RUN, part by part (split on &&). Deliberate differences from Docker, each for a reason:
 * npm uses the machine's cache (--prefer-offline) instead of the network; `npm cache clean`
 * is skipped (it would empty this machine's cache, not an image layer's); `chown` is skipped
 * (there is no `node` user here); with `full` off, each `npm ci` is checked with --dry-run (the
 * lock file must satisfy it) and its tree is taken from the checkout's node_modules
 * (replayInstall): the same packages, without unpacking and rebuilding them again.
 */
function replayRun(args: string, stage: TReplayedStage, opts: TReplayOptions): void {
  for (const raw of args.split('&&').map((p) => p.trim())) {
    const part = raw.replaceAll(WORKDIR, stage.root);
    if (/^npm cache clean\b/.test(part) || /^chown\b/.test(part)) {
      opts.log(`  (skipped here) ${raw}`);
      continue;
    }
    if (/^npm ci\b/.test(part)) {
      if (!opts.full && replayInstall(part, stage, opts)) continue;
      run(`${part} --prefer-offline`, stage.root, stage.env, opts.log);
      continue;
    }
    run(part, stage.root, stage.env, opts.log);
  }
}

export function replayDockerfile(stages: readonly TStage[], opts: TReplayOptions): TReplayedStage[] {
  const done: TReplayedStage[] = [];
  for (const s of stages) {
    const stage: TReplayedStage = { name: s.name, root: join(opts.work, `stage-${s.name}`), env: {}, user: null };
    mkdirSync(stage.root, { recursive: true });
    opts.log(`== stage ${s.name} (${s.image})`);
    for (const ins of s.instructions) {
      switch (ins.op) {
        case 'ENV':
          Object.assign(stage.env, parseEnv(ins.args));
          break;
        case 'WORKDIR':
          if (ins.args.trim() !== WORKDIR) throw new Error(`line ${ins.line}: only WORKDIR ${WORKDIR} is replayed`);
          break;
        case 'COPY': {
          const { from, sources, dest } = parseCopy(ins.args);
          const origin = from ? done.find((d) => d.name === from) : null;
          if (from && !origin) throw new Error(`line ${ins.line}: no stage ${from}`);
          const target = inStage(stage.root, dest);
          const intoFolder = dest.endsWith('/') || dest === '.';
          for (const src of sources) {
            const source = origin ? inStage(origin.root, src) : join(opts.context, src);
            // As Docker does: a file into a folder keeps its name; a folder's contents go to the target.
            if (intoFolder && statSync(source).isFile()) cpSync(source, join(target, basename(source)));
            else cpSync(source, target, { recursive: true });
          }
          opts.log(`  COPY ${ins.args}`);
          break;
        }
        case 'RUN':
          replayRun(ins.args, stage, opts);
          break;
        case 'USER':
          stage.user = ins.args.trim();
          break;
        default:
          break; // EXPOSE, HEALTHCHECK, CMD: checked after the build
      }
    }
    done.push(stage);
  }
  return done;
}

export function gitHead(repo: string): string {
  return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
}
