import { ANALYSIS_MESSAGES, ZAnalysisPatient } from '@contracts/schemas/analysis.js';

/**
 * The analysis form's Patient Information rows (spec sections 3 and 5): defaults, prefill from a
 * profile, validation with the spec's messages, and the request's patient object. The age and
 * the finished patient object are checked with the upload's own schema (ZAnalysisPatient), so the
 * form refuses exactly what the server would, with the same text.
 */
export interface TFieldRow {
  /** Local id, only for React keys and labels. */
  id: string;
  key: string;
  value: string;
  /** Patient Name and Age: fixed name, cannot be removed. */
  required: boolean;
}

/** The form's own checks; the upload schema's messages (ANALYSIS_MESSAGES) come with it. */
export const FIELD_MESSAGES = {
  name: 'Patient Name is required',
  age: 'Age is required',
  fields: 'Please fill in all fields or remove empty ones',
  requiredRow: 'Required fields cannot be removed',
} as const;

export const NAME_KEY = 'Patient Name';
export const AGE_KEY = 'Age';
export const UNKNOWN_NAME = 'Unknown';
export const NO_HISTORY = 'None';

/** The profile fields the form reads (the tRPC profile, or one passed through navigation). */
export interface TProfileLike {
  id?: string;
  patientName: string;
  age: number | string;
  additionalInfo?: Record<string, unknown> | null;
}

let counter = 0;
const rowId = () => `row-${++counter}`;

export const newRow = (key = '', value = '', required = false): TFieldRow => ({ id: rowId(), key, value, required });

/** Without a profile: Age (required) and Symptoms, both empty. */
export function defaultRows(): TFieldRow[] {
  return [newRow(AGE_KEY, '', true), newRow('Symptoms', '')];
}

const asText = (v: unknown): string =>
  typeof v === 'string' ? v : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);

/** Patient Name, Age, then the profile's custom fields (null or blank values dropped). */
export function rowsFromProfile(profile: TProfileLike): TFieldRow[] {
  const custom = Object.entries(profile.additionalInfo ?? {})
    .filter(([k, v]) => k.trim() !== '' && v !== null && v !== undefined && asText(v).trim() !== '')
    .map(([k, v]) => newRow(k, asText(v)));
  return [newRow(NAME_KEY, profile.patientName, true), newRow(AGE_KEY, String(profile.age), true), ...custom];
}

// Not lib/first-issue: this file is also imported by the unit tests, outside the client's bundler resolution.
const firstMessage = (error: { issues: readonly { message: string }[] }) =>
  error.issues[0]?.message ?? ANALYSIS_MESSAGES.invalidProfile;

const norm = (key: string) => key.trim().toLowerCase();
const isNameKey = (key: string) => norm(key) === norm(NAME_KEY);
const isAgeKey = (key: string) => norm(key) === norm(AGE_KEY);

/** The spec's message, or null when the row may go: required rows stay. */
export function removeRowError(row: TFieldRow): string | null {
  return row.required ? FIELD_MESSAGES.requiredRow : null;
}

export interface TPatientInfo {
  full_name: string;
  age: number;
  medical_history: string;
}

/** First failing rule in the spec's order, or the request's patient object. */
export function validatePatientForm(
  hasImage: boolean,
  rows: readonly TFieldRow[],
): { ok: true; patient: TPatientInfo } | { ok: false; message: string } {
  if (!hasImage) return { ok: false, message: ANALYSIS_MESSAGES.imageRequired };
  const nameRow = rows.find((r) => isNameKey(r.key));
  if (nameRow && nameRow.value.trim() === '') return { ok: false, message: FIELD_MESSAGES.name };
  const ageText = rows.find((r) => isAgeKey(r.key))?.value.trim() ?? '';
  if (ageText === '') return { ok: false, message: FIELD_MESSAGES.age };
  const age = ZAnalysisPatient.shape.age.safeParse(ageText);
  if (!age.success) return { ok: false, message: firstMessage(age.error) };
  const extra = rows.filter((r) => !isNameKey(r.key) && !isAgeKey(r.key));
  if (extra.some((r) => r.key.trim() === '' || r.value.trim() === ''))
    return { ok: false, message: FIELD_MESSAGES.fields };
  const history = extra.map((r) => `${r.key.trim()}: ${r.value.trim()}`).join('; ');
  const patient: TPatientInfo = {
    full_name: nameRow?.value.trim() || UNKNOWN_NAME,
    age: Number(age.data),
    medical_history: history || NO_HISTORY,
  };
  // The schema's length caps (name, history): its message, before the upload is sent.
  const checked = ZAnalysisPatient.safeParse(patient);
  return checked.success ? { ok: true, patient } : { ok: false, message: firstMessage(checked.error) };
}
