import { isCalled } from '@contracts/finding-call.js';
import type { Mask } from './anatomy.js';
import { composeFindings, findingProbabilities } from './compose.js';
import type { FoundAnatomy } from './find-anatomy.js';
import type { OutputTensor } from './infer.js';
import type { AnatomyResult, FindingResult, Heatmap, LoadedModel, NotAssessed } from './types.js';

/*
 * The silhouette sign (issue 42 item 4): where an opacity or an effusion meets the heart at the
 * lung base, the heart border cannot be seen, and the heart outline the anatomy net draws runs
 * into the opacity (a "CTR" of an opaque right lower chest). Such a ratio is not measurable and
 * enters no call. The worker sends the code 'heart_border_obscured'; the server words it.
 */

/**
 * The findings that hide a heart border they touch: effusion and airspace opacity (consolidation,
 * atelectasis, pneumonia, model 5's lung_opacity). Radiology, not a model's choice: a label the
 * manifest does not ship simply never appears.
 */
export const SILHOUETTE_LABELS: ReadonlySet<string> = new Set([
  'pleural_effusion',
  'lung_opacity',
  'consolidation',
  'atelectasis',
  'pneumonia',
]);

/**
 * Mean heat (the finding's own map, lung-heatmaps.ts: 0..1 over its region) in the band along the basal heart
 * border from which it is hidden. Chosen by patient-grouped cross-validation on the external ChestX-ray14 films
 * (issue 48 item 3; bench/heart-and-maps/evaluate-silhouette-rule.ts, silhouette-rule.json): 0.8 in every fold,
 * the only level that did not lower cardiomegaly's one-vs-rest AUROC (0.860 against 0.859 with no rule); it
 * withholds the CTR on 2 % of those films, none with cardiomegaly. The 0.5 of model 5 (on min-max maps, which
 * reach 0.5 somewhere on most films) withheld it on 12 of the 25 films with cardiomegaly (AUROC 0.575).
 */
export const BORDER_HEAT_FROM = 0.8;

/** Lung cells within a few cells of the heart, in the lower half of the heart's height: the basal heart border. */
export function basalBorderBand(lung: Mask, heart: Mask): Uint8Array {
  const { width, height } = lung;
  const band = new Uint8Array(width * height);
  let top = -1;
  let bottom = -1;
  for (let i = 0; i < heart.data.length; i++) {
    if (!heart.data[i]) continue;
    const y = Math.floor(i / heart.width);
    if (top < 0) top = y;
    bottom = y;
  }
  if (top < 0 || heart.width !== width || heart.height !== height) return band;
  const reach = Math.max(2, Math.round(width * 0.03));
  const from = Math.floor((top + bottom) / 2);
  for (let y = from; y <= Math.min(height - 1, bottom + reach); y++) {
    for (let x = 0; x < width; x++) {
      if (!lung.data[y * width + x] || heart.data[y * width + x]) continue;
      near: for (let dy = -reach; dy <= reach; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -reach; dx <= reach; dx++) {
          const xx = x + dx;
          if (xx >= 0 && xx < width && heart.data[yy * width + xx]) {
            band[y * width + x] = 1;
            break near;
          }
        }
      }
    }
  }
  return band;
}

/**
 * Whether a flagged silhouette finding's heatmap is hot along the basal heart border: its mean
 * heat over the band reaches BORDER_HEAT_FROM. Maps on another grid than the masks are not read.
 */
export function heartBorderObscured(
  found: Pick<FoundAnatomy, 'lung' | 'heart'>,
  findings: readonly FindingResult[],
  heatmaps: readonly Heatmap[],
  from: number = BORDER_HEAT_FROM,
): boolean {
  const flagged = findings.filter((f) => SILHOUETTE_LABELS.has(f.label) && isCalled(f.call)).map((f) => f.label);
  if (flagged.length === 0) return false;
  const band = basalBorderBand(found.lung, found.heart);
  let cells = 0;
  for (const b of band) cells += b;
  if (cells < 3) return false;
  return heatmaps.some((map) => {
    if (!flagged.includes(map.label) || map.width !== found.lung.width || map.height !== found.lung.height)
      return false;
    let heat = 0;
    for (let i = 0; i < band.length; i++) if (band[i]) heat += Number(map.data[i]);
    return heat / cells >= from;
  });
}

/** The classify stage's findings (re-composed without the CTR when the heart border is obscured). */
export interface BorderChecked {
  findings: FindingResult[];
  topFinding: string | null;
  notMeasurable: NotAssessed[];
}

/**
 * A CTR whose heart border touches a flagged basal opacity or effusion is "not measurable": the
 * anatomy result loses its ratio (kept as ctrMeasured, flagged 'heart_border_obscured') and the
 * findings are composed again without it, so that no call rests on it (a finding that requires
 * the CTR comes back "not measurable"). Null when the border is clear (or there is no ratio).
 */
export function checkHeartBorder(
  model: LoadedModel,
  found: FoundAnatomy,
  classified: BorderChecked & { outputs: Record<string, OutputTensor> },
  heatmaps: readonly Heatmap[],
): (BorderChecked & { anatomy: AnatomyResult }) | null {
  if (found.anatomy.ctr === null || !heartBorderObscured(found, classified.findings, heatmaps)) return null;
  const anatomy: AnatomyResult = {
    ...found.anatomy,
    ctr: null,
    ctrLines: null,
    ctrUnreliable: { code: 'heart_border_obscured' },
  };
  return { ...composeFindings(model, findingProbabilities(model, classified.outputs, null), null), anatomy };
}
