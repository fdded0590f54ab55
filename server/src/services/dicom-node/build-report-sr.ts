import { C, declareSchemes } from './dicom-codes.js';
import { aiEquipment, type TAiModel } from './describe-ai-device.js';
import { patientAndStudy, type TDataset, type TResultContext } from './result-object-base.js';
import { containerItem, type TItem } from './sr-content-items.js';
import { newUid } from './write-part10.js';

export const COMPREHENSIVE_3D_SR_SOP_CLASS = '1.2.840.10008.5.1.4.1.1.88.34';

/**
 * A Comprehensive 3D SR (IHE AIR's result document) whose root is TID 1500 "Imaging Measurement
 * Report" holding `content`, in the film's study, in its own series, made by the model's device.
 */
export function buildReportSr(opts: {
  ctx: TResultContext;
  model: TAiModel;
  content: TItem[];
  seriesDescription: string;
}): TDataset {
  const { ctx, model, content } = opts;
  const root = containerItem(null, C.imagingMeasurementReport, content, '1500');
  const sr: TDataset = {
    ...patientAndStudy(ctx),
    ...aiEquipment(model, ctx),
    SOPClassUID: COMPREHENSIVE_3D_SR_SOP_CLASS,
    SOPInstanceUID: newUid(),
    InstanceCreationDate: ctx.date,
    InstanceCreationTime: ctx.time,
    Modality: 'SR',
    SeriesInstanceUID: newUid(),
    SeriesNumber: '9902',
    SeriesDescription: opts.seriesDescription,
    ReferencedPerformedProcedureStepSequence: [],
    InstanceNumber: '1',
    CompletionFlag: 'COMPLETE',
    VerificationFlag: 'UNVERIFIED',
    ContentDate: ctx.date,
    ContentTime: ctx.time,
    PerformedProcedureCodeSequence: [],
    CurrentRequestedProcedureEvidenceSequence: [
      {
        StudyInstanceUID: ctx.studyUid,
        ReferencedSeriesSequence: [
          {
            SeriesInstanceUID: ctx.source.seriesInstanceUid ?? newUid(),
            ReferencedSOPSequence: [ctx.film],
          },
        ],
      },
    ],
    ...root,
  };
  const schemes = declareSchemes(sr);
  return schemes.length ? { ...sr, CodingSchemeIdentificationSequence: schemes } : sr;
}
