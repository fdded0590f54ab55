import { createRequire } from 'node:module';
import sharp, { type OverlayOptions } from 'sharp';
import { colourMap, DRAW_FROM } from '@contracts/heatmap-look.js';
import { currentCall } from '@contracts/finding-call.js';
import { projectionText } from '@contracts/finding-text.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import { CALL_TEXT, pct } from '../export/export-text.js';
import { declareSchemes } from './dicom-codes.js';
import { aiEquipment, MANUFACTURER } from './describe-ai-device.js';
import { patientAndStudy, type TDataset, type TResultContext } from './result-object-base.js';
import { newUid } from './write-part10.js';

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

export const SC_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.7';
export const ASSISTIVE_TEXT = 'assistive — not a diagnosis';

/** The call's words, read from the result with today's rule (contracts/finding-call.ts currentCall). */
const callText = (f: TFinding) => CALL_TEXT[currentCall(f)];
const callLine = (f: TFinding) =>
  `${f.display} — ${callText(f)}, probability ${pct(f.probability)} (threshold ${pct(f.threshold)})`;

/**
 * The legend burnt in under the image, so a reader at any PACS can tell what the colours are:
 * which finding the heatmap shows with its call and probability, every shipped finding, the CTR and
 * projection, the model version and that it is assistive.
 */
export function legendLines(opts: {
  result: TStoredResult;
  heatmapLabel: string | null;
  viewPosition: string | null;
}): string[] {
  const { result, heatmapLabel, viewPosition } = opts;
  const shown = heatmapLabel ? result.findings.find((f) => f.label === heatmapLabel) : undefined;
  const ctr = result.anatomy?.ctr;
  const facts = [
    ...(ctr !== null && ctr !== undefined ? [`CTR ${ctr.toFixed(2)}`] : []),
    ...(result.projection
      ? [`projection ${projectionText(result.projection)}`]
      : viewPosition
        ? [`projection ${viewPosition}`]
        : []),
  ];
  return [
    shown ? `Heatmap: ${callLine(shown)}` : 'No heatmap: no finding was called; the image is the film',
    ...(shown ? ['Colour scale (bar below): heat relative within this film, low to high; not a probability'] : []),
    `Findings: ${result.findings.map((f) => `${f.display} ${pct(f.probability)} ${callText(f)}`).join('; ') || 'none'}`,
    ...(facts.length ? [facts.join(', ')] : []),
    `${MANUFACTURER} ${result.modelName} ${result.modelVersion}: ${ASSISTIVE_TEXT}`,
  ];
}

/**
 * The secondary capture every PACS shows: the heatmap overlay (or the film when nothing was called)
 * with the legend burnt in below, and the same facts in its attributes.
 */
export async function buildHeatmapSc(opts: {
  ctx: TResultContext;
  result: TStoredResult;
  image: Buffer;
  heatmapLabel: string | null;
}): Promise<TDataset> {
  const { ctx, result, heatmapLabel } = opts;
  const viewPosition = ctx.source.viewPosition ?? null;
  const lines = legendLines({ result, heatmapLabel, viewPosition });
  const pixels = await burnInLegend(opts.image, lines, heatmapLabel !== null);
  const shown = heatmapLabel ? result.findings.find((f) => f.label === heatmapLabel) : undefined;
  const sc: TDataset = {
    ...patientAndStudy(ctx),
    ...aiEquipment(result, ctx),
    SOPClassUID: SC_SOP_CLASS,
    SOPInstanceUID: newUid(),
    InstanceCreationDate: ctx.date,
    InstanceCreationTime: ctx.time,
    Modality: 'OT',
    SeriesInstanceUID: newUid(),
    SeriesNumber: '9901',
    // The film's routing required a chest (dicom-node/route-instance.ts): not a paired part, so
    // Laterality (type 2C) is absent rather than empty.
    BodyPartExamined: 'CHEST',
    SeriesDescription: (shown ? `AI heatmap: ${shown.display} (assistive)` : 'AI result (assistive)').slice(0, 64),
    InstanceNumber: '1',
    ConversionType: 'WSD',
    ImageType: ['DERIVED', 'SECONDARY'],
    DerivationDescription: (shown
      ? `Heatmap of ${shown.display} (called ${callText(shown)}, probability ${shown.probability.toFixed(3)}, threshold ${shown.threshold.toFixed(3)}) over the chest radiograph; ${ASSISTIVE_TEXT}`
      : `Chest radiograph with the AI findings; no finding was called, so no heatmap; ${ASSISTIVE_TEXT}`
    ).slice(0, 1024),
    ImageComments: lines.join('\n').slice(0, 10240),
    BurnedInAnnotation: 'YES',
    PatientOrientation: '',
    ContentDate: ctx.date,
    ContentTime: ctx.time,
    SourceImageSequence: [ctx.film],
    SamplesPerPixel: 3,
    PhotometricInterpretation: 'RGB',
    PlanarConfiguration: 0,
    Rows: pixels.height,
    Columns: pixels.width,
    BitsAllocated: 8,
    BitsStored: 8,
    HighBit: 7,
    PixelRepresentation: 0,
    LossyImageCompression: '00',
    PixelData: [pixels.data.buffer.slice(pixels.data.byteOffset, pixels.data.byteOffset + pixels.data.length)],
    _vrMap: { PixelData: 'OB' },
  };
  return { ...sc, CodingSchemeIdentificationSequence: declareSchemes(sc) };
}

const escapeMarkup = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/** The overlay's colour scale from the heat it starts drawing at to full heat, as raw RGB. */
async function scaleBar(width: number, height: number): Promise<Buffer> {
  const row = Buffer.alloc(width * 3);
  for (let x = 0; x < width; x++) row.set(colourMap(DRAW_FROM + ((1 - DRAW_FROM) * x) / (width - 1)), x * 3);
  const data = Buffer.concat(Array.from({ length: height }, () => row));
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/**
 * The image as 8-bit RGB with a black band below carrying the legend (white, wrapped to the
 * width) and, under a heatmap, the overlay's colour scale.
 */
async function burnInLegend(image: Buffer, lines: string[], withScale: boolean) {
  const film = sharp(image).removeAlpha().toColourspace('srgb');
  const meta = await film.metadata();
  const width = meta.width ?? 512;
  const height = meta.height ?? 512;
  // About 55 characters a line at any film width: the legend stays legible on a thumbnail.
  const dpi = Math.max(48, Math.round((width / 512) * 80));
  const label = await sharp({
    text: {
      text: `<span foreground="white">${lines.map(escapeMarkup).join('\n')}</span>`,
      fontfile: FONT,
      font: 'DejaVu Sans 10',
      width: width - 16,
      dpi,
      rgba: true,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  const barHeight = withScale ? Math.max(8, Math.round(dpi / 6)) : 0;
  const band = label.info.height + 12 + (withScale ? barHeight + 6 : 0);
  const layers: OverlayOptions[] = [{ input: label.data, left: 8, top: height + 6 }];
  if (withScale)
    layers.push({
      input: await scaleBar(Math.max(16, Math.round((width - 16) / 2)), barHeight),
      left: 8,
      top: height + 6 + label.info.height + 6,
    });
  const framed = await film
    .extend({ bottom: band, background: { r: 0, g: 0, b: 0 } })
    .png()
    .toBuffer();
  const { data, info } = await sharp(framed)
    .composite(layers)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
