/**
 * A person's name as components (issue 46 L2, issue 49 item 3), for the ORU's XPN/XCN and the SR's
 * PN. A component never holds a delimiter as data: `^` (component), `=` (PN group), `\` (DICOM
 * value separator) and control characters become spaces, so a signer named `A^B=C` is one
 * person, not three components or two groups. Pure.
 */
export interface TPersonName {
  family: string;
  given: string;
  middle: string;
  prefix: string;
  suffix: string;
}

// eslint-disable-next-line no-control-regex -- control characters and the PN delimiters are what goes
const NOT_IN_A_COMPONENT = /[\x00-\x1f\x7f-\x9f^=\\]+/g;

const clean = (s: string | undefined): string => (s ?? '').replace(NOT_IN_A_COMPONENT, ' ').replace(/\s+/g, ' ').trim();

const EMPTY: TPersonName = { family: '', given: '', middle: '', prefix: '', suffix: '' };

/**
 * A DICOM PN (`Family^Given^Middle^Prefix^Suffix`, then `=` ideographic and phonetic groups) as
 * components: the alphabetic group only, each component cleaned.
 */
export function splitDicomName(pn: string | undefined): TPersonName {
  // A control character inside a component is dropped before the split, like the others.
  const alphabetic = (pn ?? '').split('=')[0] ?? '';
  const [family, given, middle, prefix, suffix] = alphabetic.split('^').map(clean);
  return { family: family ?? '', given: given ?? '', middle: middle ?? '', prefix: prefix ?? '', suffix: suffix ?? '' };
}

/**
 * A name typed as free text (an account's display name, a chat's patient): "Family, Given" when it
 * has a comma, else the last word is the family name and the words before it the given names.
 * A one-word name is a family name.
 */
export function splitDisplayName(name: string | undefined): TPersonName {
  const whole = (name ?? '').replace(NOT_IN_A_COMPONENT, ' ');
  const comma = whole.indexOf(',');
  if (comma >= 0) return { ...EMPTY, family: clean(whole.slice(0, comma)), given: clean(whole.slice(comma + 1)) };
  const words = clean(whole).split(' ').filter(Boolean);
  const family = words.pop() ?? '';
  return { ...EMPTY, family, given: words.join(' ') };
}

/**
 * A signer's display name as one family-name component, cleaned: who signed is not guessed
 * apart (is "Dr" a prefix, "Alice" a given name?), only kept from becoming several components.
 */
export function wholeName(name: string | undefined): TPersonName {
  return { ...EMPTY, family: clean(name) };
}

/** The components as a DICOM PN value (trailing empty components left out), within `max` characters. */
export function dicomPnOf(name: TPersonName, max = 64): string {
  const parts = [name.family, name.given, name.middle, name.prefix, name.suffix];
  while (parts.length && !parts.at(-1)) parts.pop();
  let value = parts.join('^');
  // Cut within a component, never leaving a dangling separator.
  if (value.length > max) value = value.slice(0, max).replace(/[\s^]+$/, '');
  return value;
}
