/**
 * Text rules shared by the forms, tRPC and REST (issue 46 H3, I1).
 *
 * C0 control characters and DEL (0x00–0x1F, 0x7F) have no place in a name: entered in a name they
 * ride along into the HL7 message and the DICOM SR built from it (a file separator there once
 * closed the MLLP frame early), so a name field refuses them when they are entered.
 */
export function hasNoControlCharacters(s: string): boolean {
  for (let i = 0; i < s.length; i += 1) {
    const code = s.charCodeAt(i);
    if (code <= 0x1f || code === 0x7f) return false;
  }
  return true;
}

/**
 * Whether a text holds something a reader can see: a letter, a digit, a mark. White space,
 * format characters (zero-width space and joiners, the BOM, soft hyphen), controls and unassigned
 * code points alone are empty.
 */
export function hasVisibleText(s: string): boolean {
  return /[^\p{White_Space}\p{Cf}\p{Cc}\p{Cn}\p{Zs}\p{Zl}\p{Zp}]/u.test(s);
}
