/**
 * What may be logged about an unexpected error here: its name and code. Database errors quote
 * the query's parameters in their message, and in this flow those can be a patient's name,
 * history or report text.
 */
export function safeErr(err: unknown): { errName?: string; errCode?: string } {
  const e = err as { name?: string; code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return { errName: e?.name, errCode: typeof code === 'string' ? code : undefined };
}
