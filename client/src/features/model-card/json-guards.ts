/**
 * Narrowing helpers for the model's JSON files. The files are written by the training scripts and
 * change shape between model versions, so every read is defensive: a missing or malformed field
 * becomes null (shown as "not reported"), never an exception or a made-up value.
 */
export type TJson = Record<string, unknown>;

export const isObject = (v: unknown): v is TJson => typeof v === 'object' && v !== null && !Array.isArray(v);

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);

export const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

export const objectAt = (o: unknown, key: string): TJson | null => (isObject(o) && isObject(o[key]) ? o[key] : null);

/** A [low, high] interval of two finite numbers, else null. */
export function interval(v: unknown): [number, number] | null {
  if (!Array.isArray(v) || v.length !== 2) return null;
  const [lo, hi] = [num(v[0]), num(v[1])];
  return lo === null || hi === null ? null : [lo, hi];
}

/** The entries of an object whose values are objects, in file order. */
export function objectEntries(o: TJson | null): [string, TJson][] {
  return o ? Object.entries(o).filter((e): e is [string, TJson] => isObject(e[1])) : [];
}
