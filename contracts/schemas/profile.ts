import { z } from 'zod';
import { hasNoControlCharacters } from './text-rules.js';
import { ZTeamId } from './team.js';

/**
 * Patient profiles: one source of truth for the profile form (client), the tRPC procedures and
 * the spec's REST shim. Messages are the spec's exact strings (section 5).
 */
export const PROFILE_MESSAGES = {
  name: 'Patient name must be at least 3 characters',
  nameTooLong: 'Patient name must be at most 200 characters',
  nameControl: 'Patient name cannot contain line breaks, tabs or other control characters',
  fieldControl: 'Additional fields cannot contain line breaks, tabs or other control characters',
  age: 'Please enter a valid age',
  fields: 'Please fill in all additional fields or remove empty ones',
  tooManyFields: 'Too many additional fields',
  tooLong: 'Additional field is too long',
} as const;

export const PROFILE_LIMITS = {
  nameMax: 200,
  ageMin: 0,
  ageMax: 150,
  fields: 50,
  keyMax: 100,
  valueMax: 2000,
} as const;

/**
 * Keys that can never become a custom field: the two fixed fields (the REST shape flattens custom
 * keys beside them) and anything that looks like ownership or an id, so a body can never
 * mass-assign them, plus the names that would reach an object's prototype.
 */
export const RESERVED_PROFILE_KEYS: ReadonlySet<string> = new Set([
  'full_name',
  'age',
  'user_id',
  'owner_id',
  'id',
  'profile_id',
  '__proto__',
  'constructor',
  'prototype',
]);

export const ZPatientName = z
  .string({ error: PROFILE_MESSAGES.name })
  // Before the trim, so a line break at either end is refused too (issue 46 H3): the name goes
  // into the HL7 message and the DICOM SR.
  .refine(hasNoControlCharacters, PROFILE_MESSAGES.nameControl)
  .trim()
  .min(3, PROFILE_MESSAGES.name)
  .max(PROFILE_LIMITS.nameMax, PROFILE_MESSAGES.nameTooLong);

/** Age arrives as text from forms and the REST shape ("age as text"); a whole number 0-150. */
export const ZProfileAge = z
  .union([z.number(), z.string()], { error: PROFILE_MESSAGES.age })
  // Digits only: Number() would read "0x10" as 16 and "1e2" as 100 (issue 23 Info).
  .transform((v) => (typeof v === 'string' ? (/^\d{1,3}$/.test(v.trim()) ? Number(v.trim()) : Number.NaN) : v))
  .pipe(
    z
      .number({ error: PROFILE_MESSAGES.age })
      .int(PROFILE_MESSAGES.age)
      .min(PROFILE_LIMITS.ageMin, PROFILE_MESSAGES.age)
      .max(PROFILE_LIMITS.ageMax, PROFILE_MESSAGES.age),
  );

/** One "Additional Information" row of the form; both halves are required. */
export const ZProfileFieldRow = z.object({
  key: z
    .string({ error: PROFILE_MESSAGES.fields })
    .refine(hasNoControlCharacters, PROFILE_MESSAGES.fieldControl)
    .trim()
    .min(1, PROFILE_MESSAGES.fields)
    .max(PROFILE_LIMITS.keyMax, PROFILE_MESSAGES.tooLong),
  value: z
    .string({ error: PROFILE_MESSAGES.fields })
    .refine(hasNoControlCharacters, PROFILE_MESSAGES.fieldControl)
    .trim()
    .min(1, PROFILE_MESSAGES.fields)
    .max(PROFILE_LIMITS.valueMax, PROFILE_MESSAGES.tooLong),
});

/**
 * Rows become the stored map: reserved keys are dropped (never stored, never an error, so a
 * legacy body carrying `user_id` inside `profile` is simply ignored); a repeated key keeps its
 * last value. Object.fromEntries defines own data properties, so `__proto__` could not reach a
 * prototype even if it were not reserved.
 */
export function rowsToCustomFields(rows: readonly { key: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => !RESERVED_PROFILE_KEYS.has(r.key)).map((r) => [r.key, r.value]));
}

/** tRPC input for create and update (the client form's shape). */
export const ZProfileInput = z.object({
  patientName: ZPatientName,
  age: ZProfileAge,
  additionalFields: z.array(ZProfileFieldRow).max(PROFILE_LIMITS.fields, PROFILE_MESSAGES.tooManyFields).default([]),
});
export type TProfileInput = z.input<typeof ZProfileInput>;
/** profile.create: the form, and the team the profile goes to (absent: the personal space). */
export const ZProfileCreateInput = ZProfileInput.extend({ team: ZTeamId.nullish() });
export type TProfileValues = z.output<typeof ZProfileInput>;

/**
 * The spec's REST `profile` object: `full_name`, `age` (text) and each custom key as a field.
 * Null and empty custom values are dropped; object values are stringified; the result is the
 * same TProfileValues the tRPC side validates.
 */
export const ZLegacyProfilePayload = z
  .record(z.string(), z.unknown(), { error: PROFILE_MESSAGES.name })
  .transform((raw) => {
    const rows: { key: string; value: string }[] = [];
    for (const [key, value] of Object.entries(raw)) {
      if (key === 'full_name' || key === 'age' || value === null || value === undefined) continue;
      const text =
        typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
      if (text.trim() === '') continue;
      rows.push({ key, value: text });
    }
    // Unchecked here on purpose: ZProfileInput (the pipe below) validates them with the spec's messages.
    const values: TProfileInput = {
      patientName: raw.full_name as string,
      age: raw.age as string | number,
      additionalFields: rows,
    };
    return values;
  })
  .pipe(ZProfileInput);

/** What tRPC returns for a profile (dates are ISO text: there is no superjson transformer). */
export const ZProfile = z.object({
  id: z.uuid(),
  patientName: z.string(),
  age: z.number().int(),
  additionalInfo: z.record(z.string(), z.string()),
  /** The custom fields as the analysis expects them: 'key: value; key2: value2', or 'None'. */
  medicalHistory: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TProfile = z.infer<typeof ZProfile>;

export const ZProfileListInput = z
  .object({
    cursor: z.string().max(200).nullish(),
    limit: z.number().int().min(1).max(200).default(100),
    /** The team whose profiles to list; absent: the personal space. */
    team: ZTeamId.nullish(),
  })
  .default({ limit: 100 });

export const ZProfileListOutput = z.object({ items: z.array(ZProfile), nextCursor: z.string().nullable() });
export type TProfileListOutput = z.infer<typeof ZProfileListOutput>;

/** Ids are plain text here: a malformed id must answer exactly like a missing one (404). */
export const ZProfileIdInput = z.object({ profileId: z.string().max(100) });
export const ZProfileUpdateInput = ZProfileIdInput.extend({ profile: ZProfileInput });
export const ZProfileDeleteOutput = z.object({ profileId: z.string() });
