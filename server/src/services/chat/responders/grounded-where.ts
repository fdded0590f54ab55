import { isCalled } from '@contracts/finding-call.js';
import { LUNG_ZONES, type TFinding, type THeatmapZones, type TLungZone } from '@contracts/schemas/analysis.js';
import { SUMMARY_LABEL } from '../../analysis/anatomy-text.js';
import { pct } from '../../analysis/compose-report.js';
import { bullets, callText, closing } from './grounded-scope.js';
import type { TResponderContext } from './responder.js';

/**
 * "Where is it?" and "what does the heatmap show?", from the stored result only: the share of
 * each finding's heatmap mass per lung zone (worker heatmap-zones.ts), stated as where the model's
 * evidence lies, never as a lesion it outlined or an anatomy (lobe) it measured.
 */

export type TSide = 'left' | 'right';
export type TLevel = 'upper' | 'middle' | 'lower';

/** A share as a whole percentage: '37%'. */
export const share = (v: number): string => `${Math.round(v * 100)}%`;

const zoneName = (z: TLungZone): string => {
  const [side, level] = z.split('_') as [TSide, TLevel];
  return `${side} ${level} zone`;
};

const sideShare = (zones: THeatmapZones['zones'], side: TSide): number =>
  LUNG_ZONES.filter((z) => z.startsWith(side)).reduce((a, z) => a + zones[z], 0);

const SIDES_NOTE =
  "Sides are the patient's: on a frontal film in the standard display, the image's left is the patient's right.";

const EVIDENCE_NOTE =
  "This is where the model's evidence lies (its class activation map, confined to the lung outlines it drew), not a lesion it outlined or measured. " +
  "Zones are the upper, middle and lower thirds of each lung's height on the frontal film, not lobes: lobes overlap on a frontal view, and a lateral view or CT places a lobe. " +
  'The map can also light up normal structures. Confirm on the film.';

/** The findings a "where" question is about: those it names, else those the model called, else the uncertain ones. */
function findingsAsked(ctx: TResponderContext, labels: string[]): TFinding[] {
  const all = ctx.result.findings.filter((f) => f.label !== SUMMARY_LABEL);
  const named = all.filter((f) => labels.includes(f.label));
  if (named.length) return named;
  const called = all.filter((f) => isCalled(f.call));
  return called.length ? called : all.filter((f) => f.call === 'uncertain');
}

/** Why there are no zones for this result, or null when there are. */
function noZonesReason(ctx: TResponderContext): string | null {
  const { result } = ctx;
  if (result.heatmapZones?.length) return null;
  if (!result.anatomy)
    return `This model version has no lung outlines (no anatomy stage), so it cannot place its evidence in a lung zone.${result.heatmaps.length ? ' The heatmap overlay in the viewer shows where its evidence lies on the film.' : ''}`;
  if (result.anatomy.flags.includes('no_lung_field'))
    return "No usable lung field was found on this film, so the model's evidence cannot be placed in a lung zone.";
  if (result.heatmapZones === undefined)
    return `This analysis was stored before the lung zones of the heatmaps were recorded, so there are no zone figures for it.${result.heatmaps.length ? ' The heatmap overlay in the viewer shows where the evidence of the top finding lies;' : ''} A new analysis of the film records the zones.`;
  return 'The heatmaps of this film had no mass inside the lung outlines, so there is no zone to name.';
}

function whereOne(f: TFinding, zones: THeatmapZones['zones'], side?: TSide, level?: TLevel): string {
  const head = `**${f.display}** (${pct(f.probability)}, ${callText(f)})`;
  const ranked = LUNG_ZONES.filter((z) => (!side || z.startsWith(side)) && (!level || z.endsWith(level))).sort(
    (a, b) => zones[b] - zones[a],
  );
  const right = sideShare(zones, 'right');
  const left = sideShare(zones, 'left');
  if (side || level) {
    const part = side ? `the patient's ${side} lung` : `the ${level} zones`;
    const inPart = ranked.reduce((a, z) => a + zones[z], 0);
    const top = ranked[0]!;
    return `${head}: ${share(inPart)} of the model's heatmap evidence inside the lungs lies in ${part}, most of it in the **${zoneName(top)}** (${share(zones[top])}).`;
  }
  const [first, second] = ranked as [TLungZone, TLungZone];
  const spread = zones[first] < 0.3 && Math.min(left, right) >= 0.35;
  const lead = spread
    ? `the model's heatmap evidence is spread over both lungs; the largest share is in the **${zoneName(first)}** (${share(zones[first])})`
    : `most of the model's heatmap evidence inside the lungs lies in the **patient's ${zoneName(first)}** (${share(zones[first])}), then the ${zoneName(second)} (${share(zones[second])})`;
  return `${head}: ${lead}. Right lung ${share(right)}, left lung ${share(left)}.`;
}

export function whereIsIt(ctx: TResponderContext, opts: { labels: string[]; side?: TSide; level?: TLevel }): string {
  const asked = findingsAsked(ctx, opts.labels);
  if (!asked.length)
    return `The model did not call or leave uncertain any finding, so there is no evidence to place in the lungs. A heatmap on a negative film does not show disease.${closing}`;
  const reason = noZonesReason(ctx);
  if (reason) return `${reason}\n\n${SIDES_NOTE}${closing}`;
  const lines = asked.map((f) => {
    const z = ctx.result.heatmapZones!.find((h) => h.label === f.label);
    return z ? whereOne(f, z.zones, opts.side, opts.level) : `**${f.display}**: this model has no heatmap for it.`;
  });
  return `${bullets(lines)}\n\n${EVIDENCE_NOTE} ${SIDES_NOTE}${closing}`;
}

/**
 * Where one finding's heatmap evidence lies, worded as the "where" answer words it, or why no
 * zone can be named (the why-flagged answer's paragraph).
 */
export function evidenceOf(ctx: TResponderContext, f: TFinding): string {
  const reason = noZonesReason(ctx);
  if (reason) return reason;
  const z = ctx.result.heatmapZones!.find((h) => h.label === f.label);
  if (!z) return `This model has no heatmap for ${f.display}, so there is no zone to name.`;
  return `${whereOne(f, z.zones)} That is where the model's evidence lies, not a lesion it outlined or measured. ${SIDES_NOTE}`;
}

/**
 * The overlays that exist: the stored result's `heatmaps` (one per overlay the worker drew and
 * stored). The chat speaks of an overlay only for these, never of one for a finding without it.
 */
export function overlayFindings(result: TResponderContext['result']): TFinding[] {
  return result.heatmaps
    .map((h) => result.findings.find((f) => f.label === h.label))
    .filter((f): f is TFinding => f !== undefined);
}

export function heatmapMeaning(ctx: TResponderContext): string {
  const { result } = ctx;
  const shownFor = overlayFindings(result);
  const f = shownFor[0];
  const zones = f && result.heatmapZones?.find((h) => h.label === f.label);
  const shown = shownFor.length
    ? `The viewer has a heatmap overlay for ${shownFor.map((x) => `**${x.display}** (${pct(x.probability)}, ${callText(x)})`).join(', ')}.`
    : 'No heatmap overlay was stored for this film: there is none to show in the viewer.';
  const where =
    f && zones
      ? ` Most of its mass inside the lungs lies in the patient's ${zoneName(LUNG_ZONES.slice().sort((a, b) => zones.zones[b] - zones.zones[a])[0]!)}.`
      : '';
  const confined = result.anatomy
    ? 'confined to the lung outlines the anatomy stage drew (the contours in the viewer are those outlines, and the heart outline used for the CTR)'
    : 'over the whole image';
  return (
    `${shown}${where}\n\n**What it shows:** the regions of the image that pushed the model's output for that finding up (a class activation map), ${confined}, ` +
    'rescaled for every image from its lowest to its highest value.\n\n' +
    `**What it does not show:**\n${bullets([
      'It is not an outline of a lesion, nor its size or severity, and not a probability per pixel.',
      'Its brightest area is relative: every map has one, even on a film where nothing was called.',
      'It can light up normal structures, devices, markers or text on the film.',
      'It does not say why: only that these regions weighed in the output.',
    ])}${closing}`
  );
}
