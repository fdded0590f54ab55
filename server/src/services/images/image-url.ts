/** The only URL an image is ever served from: the authorised route in rest/images.ts. */
export function imageUrlOf(imageId: string | null | undefined): string | null {
  return imageId ? `/api/images/${imageId}` : null;
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'application/dicom': 'dcm',
};

/** File extension for a download name; unknown types get a neutral one. */
export function extensionOf(mediaType: string): string {
  return EXTENSIONS[mediaType.toLowerCase()] ?? 'bin';
}
