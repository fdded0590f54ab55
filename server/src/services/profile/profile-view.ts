import { patientProfiles } from '../../db/schema.js';
import type { TProfile } from '@contracts/schemas/profile.js';
import { formatMedicalHistory } from '../history/format-medical-history.js';

/** The columns every profile read selects: explicit, so nothing else can leak. */
export const profileColumns = {
  id: patientProfiles.id,
  userId: patientProfiles.userId,
  fullName: patientProfiles.fullName,
  age: patientProfiles.age,
  customFields: patientProfiles.customFields,
  createdAt: patientProfiles.createdAt,
  updatedAt: patientProfiles.updatedAt,
};

export interface TProfileRow {
  id: string;
  /** Null: a team row whose author deleted their account (the row stays the team's). */
  userId: string | null;
  fullName: string;
  age: number;
  customFields: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Stored custom fields, defensively re-read: only non-blank text values survive. JSONB keeps
 * keys in its own order (shortest first), which reads as random; alphabetical is predictable.
 */
export function cleanCustomFields(stored: unknown): Record<string, string> {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return {};
  return Object.fromEntries(
    Object.entries(stored as Record<string, unknown>)
      .filter((e): e is [string, string | number | boolean] => ['string', 'number', 'boolean'].includes(typeof e[1]))
      .map(([k, v]) => [k, String(v)] as const)
      .filter(([k, v]) => k.trim() !== '' && v.trim() !== '')
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** tRPC's camelCase profile. */
export function toProfileView(row: TProfileRow): TProfile {
  const additionalInfo = cleanCustomFields(row.customFields);
  return {
    id: row.id,
    patientName: row.fullName,
    age: row.age,
    additionalInfo,
    medicalHistory: formatMedicalHistory(additionalInfo),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The spec's REST profile: `{ profile_id, created_at, profile: { full_name, age, ...custom } }`. */
export function toLegacyProfile(row: TProfileRow) {
  return {
    profile_id: row.id,
    created_at: row.createdAt.toISOString(),
    profile: { full_name: row.fullName, age: row.age, ...cleanCustomFields(row.customFields) },
  };
}
