/** What the team audit query joined for an entry's object: null where the viewer may not see it. */
export interface TAuditObjectRow {
  objectType: string | null;
  teamName: string | null;
  /** A member's, or a former member's the trail names as an actor. */
  userName: string | null;
  /** Only while a member. */
  memberEmail: string | null;
  invitationEmail: string | null;
  apiKeyName: string | null;
  /** When the chat, analysis, profile or image was made (only the one the entry is about is set). */
  rowCreatedAt: Date | null;
}

/** A space's row in words, before its day: "analysis of 2026-11-29". */
const ROW_WORDS: Record<string, string> = {
  chat: 'chat of',
  analysis: 'analysis of',
  patient_profile: 'patient profile of',
  stored_image: 'image of',
  dicom_instance: 'study received',
};

/** The day a row was made, YYYY-MM-DD (UTC): a date is read the same way in every hospital. */
const day = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The entry's object in words for the team's admins (issue 41 part 6): the team's name, a
 * member's name and address, "analysis of 2026-11-29". Never a patient's name: a chat or profile
 * is named by its date. Null when the row is gone or not the viewer's to see.
 */
export function auditObjectName(row: TAuditObjectRow): string | null {
  if (row.objectType === null) return null;
  switch (row.objectType) {
    case 'team':
      return row.teamName;
    case 'user':
      if (row.userName === null) return null;
      return row.memberEmail === null ? row.userName : `${row.userName} (${row.memberEmail})`;
    case 'team_invitation':
      return row.invitationEmail === null ? null : `invitation for ${row.invitationEmail}`;
    case 'api_key':
      return row.apiKeyName === null ? null : `team key "${row.apiKeyName}"`;
    default: {
      const words = ROW_WORDS[row.objectType];
      return words && row.rowCreatedAt ? `${words} ${day(row.rowCreatedAt)}` : null;
    }
  }
}
