import dcmjs from 'dcmjs';

const { DicomDict, DicomMetaDictionary } = dcmjs.data;

export const EXPLICIT_VR_LE = '1.2.840.10008.1.2.1';
/** This product's implementation class UID (a 2.25 UUID-derived root, fixed for all versions). */
export const IMPLEMENTATION_CLASS_UID = '2.25.309622390211547960346392727611532829315';
export const IMPLEMENTATION_VERSION = 'CXR_AI_1';

/** A naturalized dcmjs dataset written as a Part 10 file in Explicit VR Little Endian. */
export function writePart10(dataset: Record<string, unknown>): Buffer {
  const meta = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: dataset.SOPClassUID,
    MediaStorageSOPInstanceUID: dataset.SOPInstanceUID,
    TransferSyntaxUID: EXPLICIT_VR_LE,
    ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
    ImplementationVersionName: IMPLEMENTATION_VERSION,
  };
  const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  dict.dict = DicomMetaDictionary.denaturalizeDataset(dataset);
  return Buffer.from(dict.write());
}

/** A new UID under 2.25 (UUID-derived), as PS3.5 B.2 allows without a registered root. */
export function newUid(): string {
  return DicomMetaDictionary.uid();
}
