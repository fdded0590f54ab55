import { escapeMarkdown } from '@contracts/neutralise-text';
import { NO_HISTORY } from './patient-fields';

/** The patient context a loaded chat opens with (spec section 3). */
export interface TPatientContext {
  patientName: string;
  patientAge: string;
  medicalHistory: string;
}

/**
 * The synthesized first user message: patient name, age and medical information, each history
 * entry ('key: value', stored joined by '; ') on its own line. Markdown hard breaks keep the
 * lines apart; the text is rendered through renderMarkdown, so a name cannot inject markup.
 */
export function introMessageText({ patientName, patientAge, medicalHistory }: TPatientContext): string {
  const entries = medicalHistory
    .split(/;\s*/)
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const history = entries.length === 0 || (entries.length === 1 && entries[0] === NO_HISTORY) ? [NO_HISTORY] : entries;
  return [
    `**Patient Name:** ${escapeMarkdown(patientName)}`,
    `**Age:** ${escapeMarkdown(patientAge || '—')}`,
    '**Medical Information:**',
    ...history.map((h) => `- ${escapeMarkdown(h)}`),
  ].join('\n');
}
