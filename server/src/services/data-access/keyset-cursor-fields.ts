import { AppError } from '../../lib/app-error.js';
import { isUuid } from './is-uuid.js';

/**
 * The one parser of keyset cursors (history, profiles, the worklist, a team's audit trail). A
 * cursor comes back from the client, so each field is checked to be a value PostgreSQL accepts
 * for the column it is compared with; anything else is the same 400 "Invalid cursor" before a
 * query runs. Checking with JavaScript's own parsers was not enough (issue 39, S8): Date.parse
 * takes "1", "+275760-09-13T00:00:00Z" and a trailing NUL, which PostgreSQL refuses, and that
 * refusal surfaced as a 500.
 */

/** PostgreSQL's text output of a timestamp (DateStyle ISO): what the cursors carry. */
const PG_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:([+-])(\d{2})(?::(\d{2})(?::(\d{2}))?)?)?$/;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Whether `text` is a timestamp as PostgreSQL writes it and would read it back (years 1-9999). */
export function isPgTimestamp(text: string): boolean {
  const m = PG_TIMESTAMP.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [offsetHours, offsetMinutes, offsetSeconds] = m.slice(8, 11).map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
  ];
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    // PostgreSQL refuses a zone displacement past 15:59:59.
    offsetHours <= 15 &&
    offsetMinutes <= 59 &&
    offsetSeconds <= 59
  );
}

const INT4_MAX = 2 ** 31 - 1;

const FIELD_CHECKS = {
  /** timestamptz, as PostgreSQL's text (microseconds: a JS Date would round). */
  timestamp: (v: unknown): v is string => typeof v === 'string' && isPgTimestamp(v),
  uuid: (v: unknown): v is string => typeof v === 'string' && isUuid(v),
  /** int4. */
  int: (v: unknown): v is number => Number.isInteger(v) && Math.abs(v as number) <= INT4_MAX,
  /** float8: finite, and no subnormal that some PostgreSQL versions read as out of range. */
  float: (v: unknown): v is number =>
    typeof v === 'number' && Number.isFinite(v) && (v === 0 || Math.abs(v) >= Number.MIN_VALUE * 2 ** 52),
} as const;

type TFieldKind = keyof typeof FIELD_CHECKS;
type TFieldValue<K extends TFieldKind> = K extends 'int' | 'float' ? number : string;

export const INVALID_CURSOR = 'Invalid cursor';

export function encodeCursorFields(values: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/**
 * The fields of a cursor made by encodeCursorFields, each checked against its kind; null for no
 * cursor (the first page); AppError BAD_REQUEST for anything else.
 */
export function decodeCursorFields<const K extends readonly TFieldKind[]>(
  cursor: string | null | undefined,
  kinds: K,
): { [I in keyof K]: TFieldValue<K[I]> } | null {
  if (!cursor) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('BAD_REQUEST', INVALID_CURSOR);
  }
  if (!Array.isArray(parsed) || parsed.length !== kinds.length || !kinds.every((k, i) => FIELD_CHECKS[k](parsed[i])))
    throw new AppError('BAD_REQUEST', INVALID_CURSOR);
  return parsed as { [I in keyof K]: TFieldValue<K[I]> };
}

/**
 * A cursor that is an entry id (bigserial, as a team's audit trail pages): digits only, within
 * the range a JavaScript number holds exactly, so the id compared is the id sent.
 */
export function decodeEntryIdCursor(cursor: string | null | undefined, message = INVALID_CURSOR): number | null {
  if (!cursor) return null;
  const id = /^[1-9][0-9]{0,15}$/.test(cursor) ? Number(cursor) : NaN;
  if (!Number.isSafeInteger(id)) throw new AppError('BAD_REQUEST', message);
  return id;
}
