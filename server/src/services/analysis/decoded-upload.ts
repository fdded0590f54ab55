import type { TDicomPatient } from '../dicom/read-dicom-patient.js';

// Its own module: decode-upload.ts hands DICOM files to decode-dicom-upload.ts, which returns this.
/** What an accepted upload becomes: clean pixels (no metadata) ready to store. */
export interface TDecodedUpload {
  /** The re-encoded image: EXIF, GPS, ICC comments and any trailing bytes are gone. */
  data: Buffer;
  mediaType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  /** Patient name and age from DICOM tags, used only to fill an empty form (never logged). */
  dicomPatient?: TDicomPatient;
  /** A DICOM film's ViewPosition when AP or PA: the job carries it, and it wins over the model's projection. */
  viewPosition?: 'AP' | 'PA';
}
