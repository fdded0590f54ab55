import { z } from 'zod';

// Booleans arrive from the environment as text; only these spellings count as true.
export const zBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Parses an environment against one process's config schema. Empty values count as unset, so
 * `FOO=` in a .env file falls back to the default. On bad input it throws one error naming
 * every wrong variable.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.output<S> {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
