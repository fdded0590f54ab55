import { parseEnv, type TStage } from './parse-dockerfile.js';

/** Supported Node.js LTS lines for the image (Node 20 reached end of life on 2026-04-30). */
const SUPPORTED_NODE = /^node:(22|24)([.-]|$)/;

/**
 * What the image must be, checked on the text: each finding names the rule. These are the
 * mistakes the audit found (dev dependencies never installed, an end-of-life Node) and the
 * habits a hospital's IT team expects (non-root, a health check, no CUDA download).
 */
export function checkDockerfilePolicy(stages: readonly TStage[]): string[] {
  const problems: string[] = [];
  const final = stages.at(-1);
  if (!final) return ['no FROM'];
  for (const s of stages)
    if (!SUPPORTED_NODE.test(s.image))
      problems.push(`stage ${s.name}: ${s.image} is not a supported Node LTS (22 or 24)`);
  if (stages.length < 2) problems.push('not multi-stage: build with dev dependencies, run with production ones');

  for (const s of stages) {
    const env: Record<string, string> = {};
    for (const ins of s.instructions) {
      if (ins.op === 'ENV') Object.assign(env, parseEnv(ins.args));
      if (ins.op !== 'RUN' || !/\bnpm (ci|install)\b/.test(ins.args)) continue;
      // onnxruntime-node's install script reads ONNXRUNTIME_NODE_INSTALL (…_CUDA is its deprecated name).
      if (env.ONNXRUNTIME_NODE_INSTALL !== 'skip' && env.ONNXRUNTIME_NODE_INSTALL_CUDA !== 'skip')
        problems.push(`line ${ins.line}: npm installs without ONNXRUNTIME_NODE_INSTALL=skip`);
      if (!/\bnpm ci\b/.test(ins.args))
        problems.push(`line ${ins.line}: npm install instead of npm ci (the lock file must decide)`);
      const omitsDev = /--omit=dev/.test(ins.args) || env.NODE_ENV === 'production';
      if (s !== final && omitsDev)
        problems.push(`line ${ins.line}: the build stage installs without dev dependencies (vite is one)`);
      if (s === final && !omitsDev) problems.push(`line ${ins.line}: the run stage installs dev dependencies`);
    }
  }
  const runs = (s: TStage, re: RegExp) => s.instructions.some((i) => i.op === 'RUN' && re.test(i.args));
  if (!stages.slice(0, -1).some((s) => runs(s, /\bnpm run build\b/)))
    problems.push('no build stage runs npm run build');
  if (!final.instructions.some((i) => i.op === 'COPY' && i.args.includes('--from=')))
    problems.push('the run stage copies nothing from the build stage');

  const user = final.instructions
    .filter((i) => i.op === 'USER')
    .at(-1)
    ?.args.trim();
  if (!user || user === 'root' || user === '0' || user.startsWith('0:'))
    problems.push('the run stage runs as root (no USER)');
  const health = final.instructions.find((i) => i.op === 'HEALTHCHECK');
  if (!health || !health.args.includes('/healthz')) problems.push('no HEALTHCHECK on /healthz');
  if (!final.instructions.some((i) => i.op === 'CMD')) problems.push('no CMD');
  return problems;
}
