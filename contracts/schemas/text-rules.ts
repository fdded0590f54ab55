import { z } from 'zod';

/**
 * Text rules shared by the forms, tRPC and REST (issue 46 H3, I1).
 *
 * C0 control characters and DEL (0x00–0x1F, 0x7F) have no place in a name: entered in a name they
 * ride along into the HL7 message and the DICOM SR built from it (a file separator there once
 * closed the MLLP frame early), so a name field refuses them when they are entered.
 */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export const TEXT_MESSAGES = {
  controlCharacters: 'Remove the control characters (such as tabs or line breaks) from this field',
} as const;

/** No control character in the string (a name's rule). */
export const hasNoControlCharacters = (s: string): boolean => !CONTROL_CHARACTERS.test(s);

/** A zod string refined to refuse control characters, with the shared message. */
export const withoutControlCharacters = <T extends z.ZodType<string>>(schema: T, message?: string) =>
  schema.refine(hasNoControlCharacters, message ?? TEXT_MESSAGES.controlCharacters);

/**
 * Whether a text holds something a reader can see: a letter, a digit, a mark. White space,
 * format characters (zero-width space and joiners, the BOM, soft hyphen), controls and unassigned
 * code points alone are empty.
 */
export function hasVisibleText(s: string): boolean {
  return /[^\p{White_Space}\p{Cf}\p{Cc}\p{Cn}\p{Zs}\p{Zl}\p{Zp}]/u.test(s);
}
