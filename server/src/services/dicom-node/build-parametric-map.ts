import { currentCall, isCalled } from '@contracts/finding-call.js';
import { heatGridBytes, type THeatGrid } from '@contracts/heat-grid.js';
import type { TFinding, TStoredResult } from '@contracts/schemas/analysis.js';
import { declareSchemes } from './dicom-codes.js';
import { aiEquipment } from './describe-ai-device.js';
import { patientAndStudy, type TDataset, type TResultContext } from './result-object-base.js';
import { newUid } from './write-part10.js';

export const PARAMETRIC_MAP_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.30';

const code = (CodeValue: string, CodingSchemeDesignator: string, CodeMeaning: string) => ({
  CodeValue,
  CodingSchemeDesignator,
  CodeMeaning,
});
// PS3.16 CID 7181 / UCUM: heat is a relative score without units.
const NO_UNITS = code('1', 'UCUM', 'no units');
// PS3.16 CID 7203: how the frame was derived.
const DERIVED_BY_ALGORITHM = code('113076', 'DCM', 'Segmentation');
// PS3.16 CID 7202: the film the map was computed from.
const SOURCE_FOR_PROCESSING = code('121322', 'DCM', 'Source image for image processing operation');

/**
 * One flagged finding's heatmap as a DICOM Parametric Map (PS3.3 A.75), the encoding IHE AIR
 * prefers for AI heat values: one frame, the kept heat grid (contracts/heat-grid.ts) as 16-bit
 * stored values 0..255, and a Real World Value Mapping that turns them back into heat 0..1 (relative
 * within the film, not a probability). The grid covers the whole film, so each cell spans
 * film width / columns by film height / rows of the source's pixels (Pixel Measures in those
 * pixels' units when the film has no spacing). Null when the grid is corrupt.
 */
export function buildParametricMap(opts: {
  ctx: TResultContext;
  result: TStoredResult;
  finding: TFinding;
  grid: THeatGrid;
  seriesUid: string;
  instanceNumber: number;
}): TDataset | null {
  const { ctx, result, finding, grid } = opts;
  const bytes = heatGridBytes(grid);
  if (!bytes) return null;
  const pixels = new Uint16Array(bytes);
  const film = result.image;
  const spacing = [film.height / grid.height, film.width / grid.width].map((v) => v.toFixed(6));
  const description = `Heatmap of ${finding.display} (AI, assistive; relative heat within the lungs, not a probability)`;
  const dimensionUid = newUid();
  const pm: TDataset = {
    ...patientAndStudy(ctx),
    ...aiEquipment(result, ctx),
    DeviceSerialNumber: result.modelVersion.slice(0, 64),
    SOPClassUID: PARAMETRIC_MAP_SOP_CLASS,
    SOPInstanceUID: newUid(),
    InstanceCreationDate: ctx.date,
    InstanceCreationTime: ctx.time,
    Modality: 'OT',
    SeriesInstanceUID: opts.seriesUid,
    SeriesNumber: '9903',
    SeriesDescription: 'AI heatmaps (assistive)',
    BodyPartExamined: 'CHEST',
    // A radiograph has no patient coordinates: the map's own frame of reference, one nominal plane
    // (the film's pixel grid as x/y, top-left at 0), which the IOD requires.
    FrameOfReferenceUID: newUid(),
    PositionReferenceIndicator: '',
    InstanceNumber: String(opts.instanceNumber),
    ContentDate: ctx.date,
    ContentTime: ctx.time,
    ContentLabel: 'HEATMAP',
    ContentDescription: description.slice(0, 64),
    ContentCreatorName: '',
    ContentQualification: 'PRODUCT',
    ImageType: ['DERIVED', 'PRIMARY', 'CHEST', 'NONE'],
    SamplesPerPixel: 1,
    PhotometricInterpretation: 'MONOCHROME2',
    Rows: grid.height,
    Columns: grid.width,
    BitsAllocated: 16,
    BitsStored: 16,
    HighBit: 15,
    PixelRepresentation: 0,
    PresentationLUTShape: 'IDENTITY',
    LossyImageCompression: '00',
    BurnedInAnnotation: 'NO',
    RecognizableVisualFeatures: 'NO',
    NumberOfFrames: 1,
    DimensionOrganizationSequence: [{ DimensionOrganizationUID: dimensionUid }],
    // One frame, indexed by its acquisition number (0020,9156) in the Frame Content Sequence (0020,9111).
    DimensionIndexSequence: [
      {
        DimensionOrganizationUID: dimensionUid,
        DimensionIndexPointer: 0x00209156,
        FunctionalGroupPointer: 0x00209111,
        DimensionDescriptionLabel: 'Frame',
      },
    ],
    AcquisitionContextSequence: [],
    // The film, referenced where its series is known (Common Instance Reference needs the series).
    ...(ctx.source.seriesInstanceUid
      ? {
          ReferencedImageSequence: [{ ...ctx.film }],
          ReferencedSeriesSequence: [
            { SeriesInstanceUID: ctx.source.seriesInstanceUid, ReferencedInstanceSequence: [{ ...ctx.film }] },
          ],
        }
      : {}),
    SharedFunctionalGroupsSequence: [
      {
        PixelMeasuresSequence: [{ PixelSpacing: spacing, SliceThickness: '1' }],
        PlanePositionSequence: [{ ImagePositionPatient: ['0', '0', '0'] }],
        PlaneOrientationSequence: [{ ImageOrientationPatient: ['1', '0', '0', '0', '1', '0'] }],
        DerivationImageSequence: [
          {
            DerivationDescription: description.slice(0, 1024),
            DerivationCodeSequence: [DERIVED_BY_ALGORITHM],
            SourceImageSequence: [{ ...ctx.film, PurposeOfReferenceCodeSequence: [SOURCE_FOR_PROCESSING] }],
          },
        ],
        PixelValueTransformationSequence: [{ RescaleIntercept: '0', RescaleSlope: '1', RescaleType: 'US' }],
        ParametricMapFrameTypeSequence: [{ FrameType: ['DERIVED', 'PRIMARY', 'CHEST', 'NONE'] }],
        RealWorldValueMappingSequence: [
          {
            RealWorldValueFirstValueMapped: 0,
            RealWorldValueLastValueMapped: 255,
            RealWorldValueIntercept: 0,
            RealWorldValueSlope: 1 / 255,
            LUTExplanation: `Relative heat of ${finding.display}, 0..1`.slice(0, 64),
            LUTLabel: 'HEAT',
            MeasurementUnitsCodeSequence: [NO_UNITS],
            _vrMap: { RealWorldValueFirstValueMapped: 'US', RealWorldValueLastValueMapped: 'US' },
          },
        ],
      },
    ],
    PerFrameFunctionalGroupsSequence: [
      { FrameContentSequence: [{ FrameAcquisitionNumber: 1, DimensionIndexValues: [1] }] },
    ],
    PixelData: [pixels.buffer],
    _vrMap: { PixelData: 'OW' },
  };
  return { ...pm, CodingSchemeIdentificationSequence: declareSchemes(pm) };
}

/**
 * A Parametric Map per flagged finding that kept its heat values (issue 42), in one new series of
 * the film's study, the stored overlay's finding first.
 */
export function buildParametricMaps(ctx: TResultContext, result: TStoredResult): TDataset[] {
  const seriesUid = newUid();
  const maps: TDataset[] = [];
  for (const h of result.heatmaps) {
    const finding = result.findings.find((f) => f.label === h.label);
    if (!finding || !h.grid || !isCalled(currentCall(finding))) continue;
    const pm = buildParametricMap({ ctx, result, finding, grid: h.grid, seriesUid, instanceNumber: maps.length + 1 });
    if (pm) maps.push(pm);
  }
  return maps;
}
