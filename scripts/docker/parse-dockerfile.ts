/** A Dockerfile as stages of instructions: enough to check it and to replay it without Docker. */
export interface TInstruction {
  op: string;
  /** The arguments as written (continuation lines joined). */
  args: string;
  line: number;
}

export interface TStage {
  name: string;
  image: string;
  instructions: TInstruction[];
}

export function parseDockerfile(text: string): TStage[] {
  const stages: TStage[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i] ?? '';
    while (/\\\s*$/.test(line) && i + 1 < lines.length) line = line.replace(/\\\s*$/, ' ') + (lines[++i] ?? '').trim();
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const m = /^(\S+)\s*(.*)$/.exec(trimmed);
    if (!m) continue;
    const op = (m[1] ?? '').toUpperCase();
    const args = (m[2] ?? '').trim();
    if (op === 'FROM') {
      const [image = '', , alias] = args.split(/\s+/);
      stages.push({ name: alias ?? String(stages.length), image, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile line ${start + 1}: ${op} before FROM`);
    stage.instructions.push({ op, args, line: start + 1 });
  }
  return stages;
}

/** `KEY=value KEY2="v w"` (the only ENV form this project uses). */
export function parseEnv(args: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of args.matchAll(/(\w+)=("([^"]*)"|\S*)/g)) env[m[1] ?? ''] = m[3] ?? m[2] ?? '';
  return env;
}

/** COPY's flags (--from, --chown) and its sources and destination. */
export function parseCopy(args: string): { from: string | null; sources: string[]; dest: string } {
  const parts = args.split(/\s+/);
  let from: string | null = null;
  while (parts[0]?.startsWith('--')) {
    const flag = parts.shift() ?? '';
    if (flag.startsWith('--from=')) from = flag.slice('--from='.length);
  }
  const dest = parts.pop() ?? '.';
  return { from, sources: parts, dest };
}

/** The exec form (a JSON array) of CMD / HEALTHCHECK CMD. */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === 'string'))
    throw new Error(`not an exec form: ${args}`);
  return parsed;
}
