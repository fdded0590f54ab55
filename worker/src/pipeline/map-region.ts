import type { Mask } from './anatomy.js';
import type { ResolvedFinding } from './types.js';

/*
 * Where a finding's map may show heat (issue 48 item 4): a parenchymal finding inside the lung
 * fields; a pleural one also on the pleura around them, where an effusion blunts the costophrenic
 * angle that the lung mask leaves out; a finding measured from the heart (the CTR) on the heart.
 */

export type TMapRegion = 'lung' | 'pleura' | 'heart';

/** The findings of the pleura and the pleural space. */
export const PLEURAL_LABELS: ReadonlySet<string> = new Set(['pleural_effusion', 'pleural_thickening', 'pneumothorax']);

/** How far past the lung mask a pleural map reaches: a share of the grid's width (4 %: 5 cells of 128). */
export const PLEURAL_RIM = 0.04;

export function findingMapRegion(f: Pick<ResolvedFinding, 'label' | 'requiresCtr'>): TMapRegion {
  if (f.requiresCtr) return 'heart';
  return PLEURAL_LABELS.has(f.label) ? 'pleura' : 'lung';
}

/**
 * The cells of a lung or pleural region: the lung mask, or the lung mask grown by PLEURAL_RIM
 * (a square reach, two passes) less the heart.
 */
export function mapRegionMask(kind: 'lung' | 'pleura', lung: Mask, heart: Mask | null): Uint8Array {
  if (kind === 'lung') return lung.data;
  const { width, height } = lung;
  const reach = Math.max(1, Math.round(width * PLEURAL_RIM));
  const rows = new Uint8Array(width * height);
  for (let i = 0; i < height; i++)
    for (let j = 0; j < width; j++) {
      if (!lung.data[i * width + j]) continue;
      for (let d = Math.max(0, j - reach); d <= Math.min(width - 1, j + reach); d++) rows[i * width + d] = 1;
    }
  const out = new Uint8Array(width * height);
  for (let j = 0; j < width; j++)
    for (let i = 0; i < height; i++) {
      if (!rows[i * width + j]) continue;
      for (let d = Math.max(0, i - reach); d <= Math.min(height - 1, i + reach); d++) out[d * width + j] = 1;
    }
  if (heart && heart.width === width && heart.height === height)
    for (let k = 0; k < out.length; k++) if (heart.data[k] && !lung.data[k]) out[k] = 0;
  return out;
}
