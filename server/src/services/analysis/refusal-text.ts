import { DEFAULT_GATE_CHECKS } from '@contracts/model/manifest.js';
import type { TGateRefusalCode } from '@contracts/schemas/analysis.js';

/**
 * Why an image was not analysed, in the clinician's words. The worker sends only the refusal's
 * code; these sentences are what the report, the analysis view, the progress event and every
 * export show. Pure.
 */
export function refusalText(code: TGateRefusalCode, minSide: number = DEFAULT_GATE_CHECKS.minSide): string {
  switch (code) {
    case 'undecodable':
      return 'The file could not be read as an image.';
    case 'too_small':
      return `The image is too small to analyse (shortest side under ${minSide} pixels).`;
    case 'aspect_ratio':
      return 'The image has an extreme aspect ratio for a chest radiograph.';
    case 'colour':
      return 'The image appears to be a colour photograph or illustration, not a chest radiograph.';
    case 'blank':
      return 'The image is almost uniform and too low in quality to analyse.';
    case 'not_cxr':
      return 'The image does not look like a frontal chest radiograph.';
  }
}
