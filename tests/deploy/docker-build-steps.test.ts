import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'vitest';
import { dockerignore } from '../../scripts/docker/build-context.js';
import { checkDockerfilePolicy } from '../../scripts/docker/check-dockerfile-policy.js';
import { parseDockerfile } from '../../scripts/docker/parse-dockerfile.js';

/**
 * No Docker engine runs here: the Dockerfile is checked on its text, and its steps are replayed
 * in a clean temporary directory by scripts/check-docker-build.ts, whose result must boot.
 */
const dockerfile = readFileSync('Dockerfile', 'utf8');

describe('Dockerfile', () => {
  test('multi-stage on a supported Node LTS, non-root, with a /healthz health check and no CUDA download', () => {
    assert.deepEqual(checkDockerfilePolicy(parseDockerfile(dockerfile)), []);
  });

  test('the policy catches the audit findings: NODE_ENV=production before npm install, Node 20, root', () => {
    const old =
      'FROM node:20-bookworm-slim\nENV NODE_ENV=production ONNXRUNTIME_NODE_INSTALL_CUDA=skip\nWORKDIR /app\nCOPY . .\nRUN npm install\nRUN npm run build\nCMD ["node"]\n';
    const problems = checkDockerfilePolicy(parseDockerfile(old)).join('\n');
    assert.match(problems, /node:20-bookworm-slim is not a supported Node LTS/);
    assert.match(problems, /not multi-stage/);
    assert.match(problems, /npm install instead of npm ci/);
    assert.match(problems, /runs as root/);
    assert.match(problems, /no HEALTHCHECK/);
  });

  test('.dockerignore keeps installed, built and secret files out of the context', () => {
    const ignored = dockerignore(readFileSync('.dockerignore', 'utf8'));
    for (const p of [
      'node_modules/x/index.js',
      'dist/client/index.html',
      'data/pg/PG_VERSION',
      '.env',
      '.git/HEAD',
      'models/train/cxr_train/run.py',
    ])
      assert.ok(ignored(p), p);
    for (const p of ['server/src/main.ts', 'models/cxr/model.onnx', 'package-lock.json', '.env.example'])
      assert.ok(!ignored(p), p);
  });

  test(
    'its steps replay in a clean directory and the result boots (healthz, HEALTHCHECK, worker code loads)',
    { timeout: 600_000 },
    async () => {
      const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/check-docker-build.ts'], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.on('exit', (c) => resolve({ code: c, out }));
      });
      const last = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
        ok?: boolean;
        healthz?: boolean;
        healthcheck?: boolean;
        workerLoads?: boolean;
      };
      assert.equal(code, 0, out.slice(-4000));
      assert.deepEqual([last.ok, last.healthz, last.healthcheck, last.workerLoads], [true, true, true, true]);
    },
  );
});
