import { z } from 'zod';

/**
 * card.json of a model folder: the model card's prose sections as data (text with bold and code
 * spans only, so the page renders no HTML from the file). Written by the Python card writer beside
 * MODEL_CARD.md (models/train/cxr_train/evaluate/card_text.py).
 */
export const ZInline = z.object({
  text: z.string(),
  strong: z.literal(true).optional(),
  code: z.literal(true).optional(),
});
export type TInline = z.infer<typeof ZInline>;

/** One paragraph or list item. */
export const ZBlock = z.array(ZInline);
export type TBlock = z.infer<typeof ZBlock>;

const blocks = z.array(ZBlock).catch([]);

export const ZCardText = z.object({
  intendedUse: blocks,
  howItWorks: blocks,
  limitations: blocks,
});
export type TCardText = z.infer<typeof ZCardText>;

/** The sections of a card.json; a missing or malformed file gives empty sections ("not reported"). */
export function parseCardText(raw: unknown): TCardText {
  const r = ZCardText.safeParse(raw);
  return r.success ? r.data : { intendedUse: [], howItWorks: [], limitations: [] };
}
