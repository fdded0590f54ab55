/**
 * The one `err` serializer of every logger (server and worker). A driver error carries the
 * query's parameters, which may be patient names or histories: pg's DatabaseError in `detail`,
 * `where` and `parameters`, drizzle's in "Failed query: … params: …", and both quote the
 * offending value in messages such as `invalid input syntax for type uuid: "…"`. So only an
 * allow-list of fields is logged, quoted text in messages is masked, and the stack keeps its
 * frames but not its first line (which repeats the message).
 */
export interface TSerializedError {
  type: string;
  message?: string;
  code?: string | number;
  statusCode?: number;
  // PostgreSQL's own labels: names of schema objects, never values.
  severity?: string;
  constraint?: string;
  table?: string;
  column?: string;
  routine?: string;
  stack?: string;
  cause?: TSerializedError;
}

const MAX_CAUSES = 5;
const SCHEMA_LABELS = ['severity', 'constraint', 'table', 'column', 'routine'] as const;

/**
 * Drops drizzle's parameter list and masks quoted literals. In drizzle's "Failed query: <sql>"
 * double quotes are identifiers (kept: the query is the useful part) and values are `$n`
 * placeholders; elsewhere (`invalid input syntax for type uuid: "…"`) they quote the value.
 */
export function scrubMessage(message: string): string {
  const isQuery = message.startsWith('Failed query:');
  const withoutParams = message.replace(/\bparams:[\s\S]*$/, 'params: [omitted]');
  return withoutParams.replace(
    isQuery ? /'[^'\n]*'/g : /"[^"\n]*"|'[^'\n]*'/g,
    (quoted) => `${quoted[0]}…${quoted[0]}`,
  );
}

function stackFrames(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length ? frames.join('\n') : undefined;
}

export function serializeError(err: unknown, depth = 0): TSerializedError {
  if (!err || typeof err !== 'object') return { type: typeof err };
  const e = err as Record<string, unknown>;
  const out: TSerializedError = { type: typeof e.name === 'string' ? e.name : (err.constructor?.name ?? 'Object') };
  if (typeof e.message === 'string') out.message = scrubMessage(e.message);
  if (typeof e.code === 'string' || typeof e.code === 'number') out.code = e.code;
  if (typeof e.statusCode === 'number') out.statusCode = e.statusCode;
  for (const key of SCHEMA_LABELS) if (typeof e[key] === 'string') out[key] = e[key];
  const stack = stackFrames(e.stack);
  if (stack) out.stack = stack;
  if (e.cause && depth < MAX_CAUSES) out.cause = serializeError(e.cause, depth + 1);
  return out;
}

/**
 * A short label for an error that must leave the process in a message (BullMQ keeps a failed
 * job's message in Redis): its name and code, never its message, which may quote a query's
 * parameters.
 */
export function errorLabel(err: unknown): string {
  const e = err as { name?: unknown; code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  return typeof code === 'string' || typeof code === 'number' ? `${name} ${code}` : name;
}
