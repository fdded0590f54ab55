import { DICOM_TOO_LARGE, MAX_DICOM_BYTES } from '@contracts/dicom-limits.js';
import { ANALYSIS_MESSAGES, MAX_IMAGE_BYTES } from '@contracts/schemas/analysis.js';

/**
 * The analysis form's upload rules (spec section 5): the server's limits and messages from the
 * contract; the server re-checks the real content.
 */
export const IMAGE_MESSAGES = {
  type: ANALYSIS_MESSAGES.invalidType,
  size: ANALYSIS_MESSAGES.tooLarge,
  uploaded: 'Image uploaded successfully',
  readFailed: 'Failed to upload image',
} as const;

/** The picker's hint: the picture limit, in the contract's "10MB" wording. */
export const IMAGE_HINT = `JPEG, PNG or WebP, or a DICOM (.dcm) file, max ${MAX_IMAGE_BYTES / (1024 * 1024)}MB`;

/** What the file picker offers; keep in step with isAcceptedImageType. */
export const ACCEPTED_IMAGE_INPUT = 'image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp,.dcm,application/dicom';

const ACCEPTED_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/jpg', 'image/png', 'image/webp']);

/**
 * The one place that decides which files the form accepts (a DICOM `.dcm` accept belongs here
 * too, with ACCEPTED_IMAGE_INPUT). Browsers report the type from the extension; the server
 * checks magic bytes and decodes, so this is only the early, friendly refusal.
 */
export function isAcceptedImageType(file: Pick<File, 'type' | 'name'>): boolean {
  return ACCEPTED_TYPES.has(file.type.toLowerCase()) || isDicomFile(file);
}

/** DICOM Part 10 files: browsers give them no (or a generic) type, so the extension decides. */
export function isDicomFile(file: Pick<File, 'type' | 'name'>): boolean {
  return file.type.toLowerCase() === 'application/dicom' || /\.dcm$/i.test(file.name);
}

/** The spec's message for a refused file, or null when it may be uploaded. */
export function checkImageFile(file: Pick<File, 'type' | 'name' | 'size'>): string | null {
  if (!isAcceptedImageType(file)) return IMAGE_MESSAGES.type;
  // DICOM studies (uncompressed 16-bit films reach ~18 MB) have their own, larger cap, as on the server.
  if (isDicomFile(file)) return file.size >= MAX_DICOM_BYTES ? DICOM_TOO_LARGE : null;
  if (file.size >= MAX_IMAGE_BYTES) return IMAGE_MESSAGES.size;
  return null;
}
