import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { neutraliseCsvCell, type TCsvCell } from '@contracts/neutralise-text.js';

/** A CSV that cannot be read as written; the message names the line and never quotes a cell. */
export class CsvInputError extends Error {}

/** What each csv-parse failure means for someone editing the file by hand. */
const REASONS: Partial<Record<string, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed (a stray " ?)',
  CSV_INVALID_CLOSING_QUOTE: 'a quoted field is followed by more text before the comma (a stray " ?)',
  INVALID_OPENING_QUOTE: 'a " inside an unquoted field (quote the whole field and double the ")',
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: 'a different number of fields than the header',
  CSV_RECORD_INCONSISTENT_COLUMNS: 'a different number of fields than the header',
};

export interface TCsvRecord {
  fields: string[];
  /** The line the record starts on (1-based), for messages about that row. */
  line: number;
}

/**
 * RFC 4180 records with the line each starts on. A malformed file is refused rather than
 * guessed at: a stray quote used to swallow the following lines into one path. The error names
 * the line where the broken record starts (csv-parse reports where it noticed, which for an
 * unclosed quote is the end of the file) and never quotes a cell, which may hold a name.
 */
export function parseCsvRecords(text: string): TCsvRecord[] {
  let lastRecordEnd = 0;
  const lines: number[] = [];
  try {
    const rows = parse(text, {
      bom: true,
      skip_empty_lines: true,
      on_record: (fields: string[], info) => {
        const line = lastRecordEnd + 1;
        lastRecordEnd = info.lines;
        if (!fields.some((f) => f.trim() !== '')) return null;
        lines.push(line);
        return fields;
      },
    });
    return rows.map((fields, i) => ({ fields, line: lines[i] ?? 0 }));
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const noticed = typeof err.lines === 'number' ? err.lines : null;
    const start = lastRecordEnd + 1;
    const where =
      noticed !== null && noticed !== start ? `line ${start} (noticed at line ${noticed})` : `line ${start}`;
    throw new CsvInputError(`CSV ${where}: ${REASONS[err.code] ?? err.code}`);
  }
}

export function parseCsv(text: string): string[][] {
  return parseCsvRecords(text).map((r) => r.fields);
}

/** Rows of objects keyed by the (trimmed, lower-cased) header, each with its starting line. */
export function parseCsvObjects(text: string): Record<string, string>[] {
  return parseCsvObjectsWithLines(text).map((r) => r.values);
}

export function parseCsvObjectsWithLines(text: string): { values: Record<string, string>; line: number }[] {
  const [header, ...rows] = parseCsvRecords(text);
  if (!header) return [];
  const keys = header.fields.map((h) => h.trim().toLowerCase());
  return rows.map((r) => ({
    values: Object.fromEntries(keys.map((k, i) => [k, (r.fields[i] ?? '').trim()])),
    line: r.line,
  }));
}

/** Every cell through the one neutraliser (contracts/neutralise-text.ts): no formulas, numbers as numbers. */
export function formatCsv(header: string[], rows: TCsvCell[][]): string {
  return stringify(
    [header, ...rows].map((r) => r.map(neutraliseCsvCell)),
    { record_delimiter: '\n' },
  );
}
