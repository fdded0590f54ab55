import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * The one flag parser every command-line tool uses (batch, classify, backup, restore), so they
 * agree on the conventions: `--help`/`-h` prints the usage and exits 0, an unknown or malformed
 * flag exits 2 with a message naming it, and a failure of the work itself exits 1 (or a code
 * the tool documents).
 */
export class CliUsageError extends Error {}
class CliHelpRequested extends Error {}

type TOptions = NonNullable<ParseArgsConfig['options']>;
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

export function parseCliArgs<const O extends TOptions>(argv: string[], options: O) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, ...HELP }, allowPositionals: true, strict: true });
  } catch (err) {
    // node:util names the flag ("Unknown option '--ot'", "Option '--out <value>' argument missing").
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('ERR_PARSE_ARGS_')) throw new CliUsageError((err as Error).message);
    throw err;
  }
  if ((parsed.values as { help?: boolean }).help) throw new CliHelpRequested();
  return parsed;
}

/** A whole number flag in [min, max], or the default when absent. */
export function intFlag(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  const n = Number(raw ?? fallback);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new CliUsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/**
 * Runs a tool's main and exits with its code: usage on stdout and 0 for --help, the message and
 * the usage on stderr and 2 for a usage mistake, `onError`'s code (default 1) for anything else.
 */
export function runCli(usage: string, main: () => Promise<number | void>, onError?: (err: unknown) => number): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (err: unknown) => {
      if (err instanceof CliHelpRequested) {
        process.stdout.write(`${usage}\n`);
        process.exit(0);
      }
      if (err instanceof CliUsageError) {
        process.stderr.write(`${err.message}\n\n${usage}\n`);
        process.exit(2);
      }
      if (onError) process.exit(onError(err));
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
