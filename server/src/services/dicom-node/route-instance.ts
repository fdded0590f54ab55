import type { TInstanceTags } from './read-instance-tags.js';

export type TRoute = { analyse: true } | { analyse: false; reason: string };

/** Plain chest radiographs only: what the classifier was trained on. */
const MODALITIES = new Set(['CR', 'DX']);
const FRONTAL_VIEWS = new Set(['PA', 'AP']);
const CHEST_WORDS = /\b(CHEST|THORAX|CXR|TORAX|THORAX)\b/i;

/**
 * Decides whether a received instance is a frontal chest radiograph to analyse. Each refusal
 * says which tag decided it (fixed texts plus the tag's coded value, never patient data).
 * An absent BodyPartExamined is accepted when the study description names the chest; an absent
 * ViewPosition is accepted (many CR plates do not fill it) and the model's gate still checks
 * the image itself.
 */
export function routeInstance(tags: TInstanceTags): TRoute {
  const modality = tags.Modality?.toUpperCase() ?? null;
  if (!modality || !MODALITIES.has(modality))
    return { analyse: false, reason: `Modality ${modality ?? '(none)'} is not a chest radiograph (CR or DX)` };
  const bodyPart = tags.BodyPartExamined?.toUpperCase() ?? null;
  if (bodyPart && bodyPart !== 'CHEST')
    return { analyse: false, reason: `Body part ${safeCode(bodyPart)} is not CHEST` };
  if (!bodyPart && !CHEST_WORDS.test(tags.StudyDescription ?? ''))
    return { analyse: false, reason: 'Body part not stated (BodyPartExamined is empty)' };
  const view = tags.ViewPosition?.toUpperCase() ?? null;
  if (view && !FRONTAL_VIEWS.has(view))
    return { analyse: false, reason: `View ${safeCode(view)} is not frontal (PA or AP)` };
  return { analyse: true };
}

/** A code string is at most 16 upper-case letters, digits, spaces and underscores (PS3.5). */
function safeCode(value: string): string {
  return value.replace(/[^A-Z0-9 _]/g, '').slice(0, 16);
}
