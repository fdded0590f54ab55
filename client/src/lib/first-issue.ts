import type { z } from 'zod';

/**
 * Validates a form with the shared zod schema (the server's own) and returns the first message,
 * which is the spec's exact validation text, or the parsed value.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; data: z.output<S> } | { ok: false; message: string; field: string | null } {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, data: result.data };
  const issue = result.error.issues[0];
  const field = issue?.path[0];
  return { ok: false, message: issue?.message ?? 'Invalid input', field: typeof field === 'string' ? field : null };
}
