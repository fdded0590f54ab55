import { z } from 'zod';

/**
 * A finding's heat values as they are stored and exported (issue 42): a small grid over the whole
 * film (row-major, top-left first, stretched to the film's width and height), one byte a cell,
 * heat 0..1 as 0..255 (min-max scaled over the lungs; 0 outside the lung mask), base64. The
 * viewer paints its overlay from it, the JSON export carries it and the DICOM Parametric Map
 * stores it; the blended overlay image is only one rendering of it.
 */
export const HEAT_GRID_MAX_SIDE = 64;

export const ZHeatGrid = z.object({
  width: z.number().int().min(1).max(HEAT_GRID_MAX_SIDE),
  height: z.number().int().min(1).max(HEAT_GRID_MAX_SIDE),
  /** base64 of width x height bytes. */
  values: z
    .string()
    .max(Math.ceil((HEAT_GRID_MAX_SIDE * HEAT_GRID_MAX_SIDE) / 3) * 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/),
});
export type THeatGrid = z.infer<typeof ZHeatGrid>;

/** The grid's bytes, or null when the values do not fill it (a corrupt or truncated entry). */
export function heatGridBytes(grid: THeatGrid): Uint8Array | null {
  const bin = atob(grid.values);
  if (bin.length !== grid.width * grid.height) return null;
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
