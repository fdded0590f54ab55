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
