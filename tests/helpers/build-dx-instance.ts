import sharp from 'sharp';
import { newUid, writePart10 } from '../../server/src/services/dicom-node/write-part10.js';
import { testRadiographs } from '../analysis/support/fixtures.js';

export interface TDxOptions {
  modality?: string;
  bodyPart?: string | null;
  view?: string | null;
  patientId?: string;
  patientName?: string;
  studyUid?: string;
  sopInstanceUid?: string;
  /** Which committed radiograph (tests/fixtures/cxr) makes the pixels. */
  index?: number;
  /** One grey level everywhere: a film the model's image check refuses as blank. */
  blank?: boolean;
  side?: number;
  /** Rows and Columns as declared in the header, whatever the pixels are (the pixel-budget refusal). */
  rows?: number;
  columns?: number;
}

const SOP_CLASS: Record<string, string> = {
  DX: '1.2.840.10008.5.1.4.1.1.1.1',
  CR: '1.2.840.10008.5.1.4.1.1.1',
  CT: '1.2.840.10008.5.1.4.1.1.2',
};

/**
 * A Part 10 instance made in code from a committed test radiograph (8-bit MONOCHROME2,
 * uncompressed): a DX chest PA by default; other modalities, body parts and views for the
 * routing tests. No binary DICOM fixture is committed.
 */
export async function buildDxInstance(
  opts: TDxOptions = {},
): Promise<{ bytes: Buffer; sopInstanceUid: string; studyUid: string }> {
  const file = testRadiographs(undefined, (opts.index ?? 0) + 1)[opts.index ?? 0]!;
  const side = opts.side ?? 320;
  const { data, info } = await sharp(file).greyscale().resize(side, side).raw().toBuffer({ resolveWithObject: true });
  if (opts.blank) data.fill(128);
  const modality = opts.modality ?? 'DX';
  const sopInstanceUid = opts.sopInstanceUid ?? newUid();
  const studyUid = opts.studyUid ?? newUid();
  const ds: Record<string, unknown> = {
    SpecificCharacterSet: 'ISO_IR 192',
    SOPClassUID: SOP_CLASS[modality] ?? SOP_CLASS.DX,
    SOPInstanceUID: sopInstanceUid,
    StudyInstanceUID: studyUid,
    SeriesInstanceUID: newUid(),
    Modality: modality,
    ...(opts.bodyPart === null ? {} : { BodyPartExamined: opts.bodyPart ?? 'CHEST' }),
    ...(opts.view === null ? {} : { ViewPosition: opts.view ?? 'PA' }),
    PatientName: opts.patientName ?? 'TESTCASE^NETWORK',
    PatientID: opts.patientId ?? 'NET-0001',
    PatientBirthDate: '19700101',
    PatientSex: 'F',
    StudyDate: '20261101',
    StudyTime: '101500',
    AccessionNumber: 'ACC1',
    ReferringPhysicianName: '',
    StudyID: '1',
    SeriesNumber: '1',
    InstanceNumber: '1',
    Rows: opts.rows ?? info.height,
    Columns: opts.columns ?? info.width,
    SamplesPerPixel: 1,
    PhotometricInterpretation: 'MONOCHROME2',
    BitsAllocated: 8,
    BitsStored: 8,
    HighBit: 7,
    PixelRepresentation: 0,
    PixelData: [data.buffer.slice(data.byteOffset, data.byteOffset + data.length)],
    _vrMap: { PixelData: 'OB' },
  };
  return { bytes: writePart10(ds), sopInstanceUid, studyUid };
}
