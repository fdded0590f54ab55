import type { TConditionNote } from './condition-note.js';
import { HEART_PLEURA_NOTES } from './conditions/heart-pleura.js';
import { INFECTION_NOTES } from './conditions/infection.js';
import { LUNG_NOTES } from './conditions/lung.js';

export type { TConditionNote } from './condition-note.js';

/**
 * A note for every candidate finding label of the classifiers (model 1's five, model 2's
 * eighteen). Which of them a result actually reports is the result's business (its `findings`
 * and `notAssessed`), never this file's.
 */
export const CONDITION_NOTES: Record<string, TConditionNote> = Object.fromEntries(
  // Heart and pleura first: the report names the first few a result does not cover as examples.
  [...HEART_PLEURA_NOTES, ...LUNG_NOTES, ...INFECTION_NOTES].map((n) => [n.label, n]),
);

/**
 * Conditions people ask about that no model here was trained to assess. Mentioning one must
 * produce "the model does not assess it", never a probability borrowed from another label;
 * `related` names finding labels whose output describes an appearance that goes with it. Lines,
 * tubes and devices have an answer of their own (chat responders/grounded-devices.ts).
 */
export const NOT_ASSESSED: { name: string; aliases: string[]; related?: string[] }[] = [
  { name: 'tuberculosis', aliases: ['tuberculosis', 'tb'] },
  {
    name: 'lung cancer',
    aliases: ['cancer', 'tumour', 'tumor', 'malignancy', 'carcinoma', 'metastas', 'neoplasm'],
    related: ['mass', 'nodule'],
  },
  {
    name: 'heart failure',
    aliases: ['heart failure', 'cardiac failure', 'chf'],
    related: ['cardiomegaly', 'edema', 'pleural_effusion'],
  },
  { name: 'COPD', aliases: ['copd', 'chronic obstructive'], related: ['emphysema'] },
  { name: 'interstitial lung disease', aliases: ['interstitial', 'ild'], related: ['fibrosis'] },
  { name: 'rib or other fractures', aliases: ['fracture', 'broken rib'] },
  { name: 'sarcoidosis', aliases: ['sarcoid'] },
  { name: 'pulmonary embolism', aliases: ['pulmonary embolism', 'embolism', 'embolus'] },
];

/** Where model 1's training data came from, and the bias a reader must keep in mind. */
export const TRAINING_DATA_NOTE =
  'The model was trained on public datasets in which every pneumonia image comes from young children (1-5 years, one hospital) ' +
  'and the COVID-19 images and most normal images come from adults. It has never seen adult bacterial pneumonia or pediatric COVID-19, ' +
  'so age and image source may influence its output.';

/** The same for models that report "not assessed" findings (model 2+: more sources, more labels). */
export const TRAINING_DATA_NOTE_MULTI_SOURCE =
  'This model version was trained on public datasets: pediatric pneumonia films (children aged 1-5, one hospital), adult COVID-19, ' +
  'other infection and normal films, adult hospital films whose finding labels were text-mined from radiology reports (ChestX-ray14), ' +
  'and a nodule collection (JSRT). Most finding labels come from adults; the bacterial/viral hints come only from young children. ' +
  'Report-mined labels are noisy, and because each source contributes different labels, image source may influence the output.';

/**
 * The training-data caveat that goes with a stored result. A result carrying `notAssessed` comes
 * from a model whose findings passed a shipping rule on the multi-source data (model 2+); one
 * without it is a model-1 result and keeps model 1's caveat word for word.
 */
export function trainingDataNoteFor(result: { notAssessed?: unknown }): string {
  return result.notAssessed === undefined ? TRAINING_DATA_NOTE : TRAINING_DATA_NOTE_MULTI_SOURCE;
}
