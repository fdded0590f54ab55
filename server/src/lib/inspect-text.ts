import { AppError } from './app-error.js';

/** Deeper than any body a route takes (the deepest is a few levels); deeper is refused, not walked. */
export const MAX_BODY_DEPTH = 32;

export const TEXT_MESSAGES = {
  invalid: 'The request contains invalid characters (a NUL character or a broken Unicode sequence)',
  tooDeep: 'The request body is nested too deeply',
} as const;

export type TTextProblem = 'invalid' | 'too-deep';

/**
 * PostgreSQL text holds neither U+0000 nor half of a UTF-16 surrogate pair (a lone `\ud800`
 * from a JSON escape): such a string failed deep in a query with a 500 (issue 23 N4).
 */
export function isStorableText(s: string): boolean {
  // String.prototype.isWellFormed is in Node 20 but not in the ES2023 lib this project compiles against.
  return !s.includes('\0') && (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The one check for every text field, wherever it arrived (JSON body, query, params, multipart
 * field, the upload's profile JSON). Walks with an explicit stack (no recursion, so no depth can
 * overflow it), keys included. Byte buffers are not text and are skipped; the body limit bounds
 * the work.
 */
export function inspectText(value: unknown): TTextProblem | null {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (typeof item.value === 'string') {
      if (!isStorableText(item.value)) return 'invalid';
      continue;
    }
    if (item.value === null || typeof item.value !== 'object' || ArrayBuffer.isView(item.value)) continue;
    if (item.depth >= MAX_BODY_DEPTH) return 'too-deep';
    for (const [key, child] of Object.entries(item.value)) {
      if (!isStorableText(key)) return 'invalid';
      stack.push({ value: child, depth: item.depth + 1 });
    }
  }
  return null;
}

/** inspectText for services: a problem becomes the 400 the HTTP edge answers. */
export function assertStorableText(value: unknown): void {
  const problem = inspectText(value);
  if (problem) throw new AppError('BAD_REQUEST', problem === 'invalid' ? TEXT_MESSAGES.invalid : TEXT_MESSAGES.tooDeep);
}
