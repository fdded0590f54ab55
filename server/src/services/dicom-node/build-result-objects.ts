import { createRequire } from 'node:module';
import sharp from 'sharp';
import type { TStoredResult } from '@contracts/schemas/analysis.js';
import { CODES, findingCode, type TCode } from './finding-codes.js';
import { enlargedHeart, enlargedHeartText } from '@contracts/finding-text.js';
import { projectionLine, withdrawnLines } from '../analysis/anatomy-text.js';
import { newUid } from './write-part10.js';

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

export const SC_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.7';
export const COMPREHENSIVE_SR_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.88.33';
export const ASSISTIVE_LINE = 'Chest Doctor AI: assistive — not a diagnosis';
const MANUFACTURER = 'Chest Doctor AI';

/** The received instance the results belong to: its UIDs and the stored patient/study tags. */
export interface TSourceInstance {
  sopClassUid: string | null;
  sopInstanceUid: string;
  studyInstanceUid: string | null;
  seriesInstanceUid: string | null;
  tags: Record<string, string>;
}

type TDataset = Record<string, unknown>;

function dateTime(now: Date) {
  const iso = now.toISOString();
  return { date: iso.slice(0, 10).replace(/-/g, ''), time: iso.slice(11, 19).replace(/:/g, '') };
}

/**
 * The patient and study modules copied from the source, so the PACS files the results in the
 * same study; type 2 attributes are present even when empty.
 */
function patientAndStudy(src: TSourceInstance, studyUid: string): TDataset {
  const t = src.tags;
  return {
    SpecificCharacterSet: 'ISO_IR 192',
    PatientName: t.PatientName ?? '',
    PatientID: t.PatientID ?? '',
    PatientBirthDate: t.PatientBirthDate ?? '',
    PatientSex: t.PatientSex ?? '',
    StudyInstanceUID: studyUid,
    StudyDate: t.StudyDate ?? '',
    StudyTime: t.StudyTime ?? '',
    ReferringPhysicianName: t.ReferringPhysicianName ?? '',
    StudyID: t.StudyID ?? '',
    AccessionNumber: t.AccessionNumber ?? '',
    ...(t.StudyDescription ? { StudyDescription: t.StudyDescription } : {}),
  };
}

export interface TResultObjects {
  studyUid: string;
  secondaryCapture: TDataset;
  report: TDataset;
}

/**
 * The two objects sent back to the PACS for one analysed instance, in the source's study and
 * each in a new series: a secondary capture (the heatmap overlay, or the film when no finding
 * was called, with the assistive line burnt in) and a Comprehensive SR with every shipped
 * finding (probability, threshold, call), the CTR when measured and the model version.
 */
export async function buildResultObjects(opts: {
  source: TSourceInstance;
  image: Buffer;
  result: TStoredResult;
  now?: Date;
}): Promise<TResultObjects> {
  const { source, image, result } = opts;
  const now = opts.now ?? new Date();
  const studyUid = source.studyInstanceUid ?? newUid();
  const base = patientAndStudy(source, studyUid);
  const { date, time } = dateTime(now);
  const equipment = {
    Manufacturer: MANUFACTURER,
    ManufacturerModelName: result.modelName.slice(0, 64),
    SoftwareVersions: result.modelVersion.slice(0, 64),
  };
  const sourceRef = {
    ReferencedSOPClassUID: source.sopClassUid ?? '1.2.840.10008.5.1.4.1.1.1.1',
    ReferencedSOPInstanceUID: source.sopInstanceUid,
  };

  const pixels = await burnInLine(image);
  const secondaryCapture: TDataset = {
    ...base,
    ...equipment,
    SOPClassUID: SC_SOP_CLASS,
    SOPInstanceUID: newUid(),
    InstanceCreationDate: date,
    InstanceCreationTime: time,
    Modality: 'OT',
    SeriesInstanceUID: newUid(),
    SeriesNumber: '9901',
    SeriesDescription: 'AI heatmap (assistive)',
    InstanceNumber: '1',
    ConversionType: 'WSD',
    ImageType: ['DERIVED', 'SECONDARY'],
    DerivationDescription: 'Heatmap overlay of the chest radiograph by an assistive AI model',
    BurnedInAnnotation: 'YES',
    PatientOrientation: '',
    Laterality: '',
    ContentDate: date,
    ContentTime: time,
    SourceImageSequence: [sourceRef],
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

  const report: TDataset = {
    ...base,
    ...equipment,
    SOPClassUID: COMPREHENSIVE_SR_SOP_CLASS,
    SOPInstanceUID: newUid(),
    InstanceCreationDate: date,
    InstanceCreationTime: time,
    Modality: 'SR',
    SeriesInstanceUID: newUid(),
    SeriesNumber: '9902',
    SeriesDescription: 'AI findings (assistive)',
    ReferencedPerformedProcedureStepSequence: [],
    InstanceNumber: '1',
    CompletionFlag: 'COMPLETE',
    VerificationFlag: 'UNVERIFIED',
    ContentDate: date,
    ContentTime: time,
    PerformedProcedureCodeSequence: [],
    CurrentRequestedProcedureEvidenceSequence: [
      {
        StudyInstanceUID: studyUid,
        ReferencedSeriesSequence: [
          { SeriesInstanceUID: source.seriesInstanceUid ?? newUid(), ReferencedSOPSequence: [sourceRef] },
        ],
      },
    ],
    ValueType: 'CONTAINER',
    ConceptNameCodeSequence: [CODES.report],
    ContinuityOfContent: 'SEPARATE',
    ContentSequence: reportContent(result),
  };
  return { studyUid, secondaryCapture, report };
}

const text = (concept: TCode, value: string) => ({
  RelationshipType: 'CONTAINS',
  ValueType: 'TEXT',
  ConceptNameCodeSequence: [concept],
  TextValue: value,
});
const num = (concept: TCode, value: number) => ({
  RelationshipType: 'CONTAINS',
  ValueType: 'NUM',
  ConceptNameCodeSequence: [concept],
  MeasuredValueSequence: [{ NumericValue: value.toFixed(4), MeasurementUnitsCodeSequence: [CODES.noUnits] }],
});

function reportContent(result: TStoredResult) {
  const items: TDataset[] = [
    text(CODES.comment, 'Assistive — not a diagnosis. Findings from an AI model, to be read by a clinician.'),
    text(CODES.algorithmName, result.modelName),
    text(CODES.algorithmVersion, result.modelVersion),
  ];
  for (const f of result.findings) {
    items.push({
      RelationshipType: 'CONTAINS',
      ValueType: 'CONTAINER',
      ConceptNameCodeSequence: [findingCode(f.label, f.display)],
      ContinuityOfContent: 'SEPARATE',
      ContentSequence: [
        num(CODES.probability, f.probability),
        num(CODES.threshold, f.threshold),
        {
          RelationshipType: 'CONTAINS',
          ValueType: 'CODE',
          ConceptNameCodeSequence: [CODES.call],
          ConceptCodeSequence: [CODES[f.call]],
        },
      ],
    });
  }
  const ctr = result.anatomy?.ctr;
  if (ctr !== null && ctr !== undefined) items.push(num(CODES.ctr, ctr));
  // Model 4's words beside the codes: the projection, a called cardiomegaly from the measured heart, withdrawn outputs.
  for (const line of modelFourLines(result)) items.push(text(CODES.comment, line));
  return items;
}

/** The image as 8-bit RGB with a black band below carrying the assistive line. */
async function burnInLine(image: Buffer) {
  const film = sharp(image).removeAlpha().toColourspace('srgb');
  const meta = await film.metadata();
  const width = meta.width ?? 512;
  const band = Math.max(24, Math.round(width / 28));
  const label = await sharp({
    text: {
      // Pango markup: white on the black band (plain text would be black).
      text: `<span foreground="white">${ASSISTIVE_LINE}</span>`,
      fontfile: FONT,
      font: 'DejaVu Sans',
      width: width - 16,
      height: band - 6,
      rgba: true,
    },
  })
    .png()
    .toBuffer();
  const framed = await film
    .extend({ bottom: band, background: { r: 0, g: 0, b: 0 } })
    .png()
    .toBuffer();
  const { data, info } = await sharp(framed)
    .composite([{ input: label, left: 8, top: (meta.height ?? 0) + 3 }])
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

function modelFourLines(result: TStoredResult): string[] {
  const { anatomy, projection } = result;
  return [
    projectionLine(projection),
    anatomy && enlargedHeart(anatomy, result.findings) ? `${enlargedHeartText(anatomy, projection)}.` : null,
    ...withdrawnLines(result.withdrawn),
  ].filter((l): l is string => l !== null);
}
