import { z } from 'zod';

/**
 * Building blocks for reading the model's measured files (metrics.json, evaluation.json and the
 * parts of manifest.json the pages show). Their shape changes between model versions, so a
 * field another version did not write, or wrote in another shape, reads as null (shown as "not
 * reported"), never as an exception or a made-up value. In the exported JSON Schema each field
 * keeps its real type and is optional, so the Python writer is still held to the shape.
 */
export function orNull<T extends z.ZodType>(schema: T) {
  return schema.nullable().default(null).catch(null);
}

export const num = orNull(z.number().finite());

/** A non-blank string. */
export const text = orNull(z.string().regex(/\S/));

export const flag = orNull(z.boolean());

/** A [low, high] interval. */
export const interval = orNull(z.tuple([z.number().finite(), z.number().finite()]));

/** An object of `entry` values in file order; an entry that is not one is dropped, the rest kept. */
export function entriesOf<T extends z.ZodType>(entry: T) {
  return z
    .record(z.string(), entry.nullable().catch(null))
    .default({})
    .catch({})
    .transform((o) =>
      Object.fromEntries(Object.entries(o).filter((e): e is [string, NonNullable<z.output<T>>] => e[1] !== null)),
    );
}

/** A list of `entry` values; an entry that is not one is dropped, the rest kept. */
export function listOf<T extends z.ZodType>(entry: T) {
  return z
    .array(entry.nullable().catch(null))
    .default([])
    .catch([])
    .transform((l) => l.filter((e): e is NonNullable<z.output<T>> => e !== null));
}
