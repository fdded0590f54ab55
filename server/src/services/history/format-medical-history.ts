/** Medical history text when a profile has no custom fields (spec: default 'None'). */
export const NO_MEDICAL_HISTORY = 'None';

/**
 * The analysis request's medical history: custom fields as 'key: value' joined with '; ', or
 * 'None'. Null and blank values are skipped, as the spec drops them when reading a profile.
 */
export function formatMedicalHistory(fields: Readonly<Record<string, unknown>> | null | undefined): string {
  if (!fields) return NO_MEDICAL_HISTORY;
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(fields)) {
    if (raw === null || raw === undefined) continue;
    const value = typeof raw === 'string' ? raw : typeof raw === 'object' ? JSON.stringify(raw) : String(raw);
    if (key.trim() === '' || value.trim() === '') continue;
    parts.push(`${key}: ${value}`);
  }
  return parts.length > 0 ? parts.join('; ') : NO_MEDICAL_HISTORY;
}
