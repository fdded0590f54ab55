import { MAX_IMAGE_BYTES } from '@contracts/schemas/analysis.js';

/**
 * Upload cap for DICOM files only. An uncompressed 16-bit DX film of 3k×3k is ~18 MB and a 43 cm
 * detector at 100 µm ~36 MB, far over the 10 MB that suits JPEG/PNG/WebP. The pixel cap
 * (MAX_IMAGE_PIXELS) still applies after the header is read, so this raises no decoding cost.
 */
export const MAX_DICOM_BYTES = 64 * 1024 * 1024;
export const DICOM_TOO_LARGE = 'DICOM files should be less than 64MB';

/** The largest upload of any kind: what the multipart parser itself must let through. */
export const MAX_UPLOAD_BYTES = Math.max(MAX_IMAGE_BYTES, MAX_DICOM_BYTES);

/**
 * Decoded pixel data (Rows × Columns × frames × bytes per sample) of any DICOM, checked from the
 * header before a codec or an inflate runs: a compressed file may not decode to more than an
 * uncompressed upload could carry. A 43 cm detector at 100 µm, 16-bit, is ~36 MB.
 */
export const MAX_DICOM_PIXEL_BYTES = MAX_DICOM_BYTES;
export const DICOM_PIXELS_TOO_LARGE = 'DICOM pixel data should be less than 64MB once decompressed';
/** A Deflated data set that inflates past its declared image (plus room for other tags): a zip bomb. */
export const DICOM_INFLATES_TOO_LARGE = 'The Deflated DICOM file expands to more data than its image size allows';
export const DICOM_DECODE_TOO_SLOW =
  'The DICOM file took too long to decode. Please export the image uncompressed or as JPEG.';
export const DICOM_DECODE_TOO_BIG =
  'The DICOM file needs too much memory to decode. Please export the image uncompressed or as JPEG.';
export const DICOM_DECODER_BUSY = 'The server is busy decoding other DICOM files. Please try again in a minute.';
