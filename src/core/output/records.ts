// `-o ndjson` and `-o csv` (contract §4a): one record per item of the list a command documents;
// where it has none, the items of a top-level list or of a list `data`, else the reply as one
// record. Records carry the values as received; CSV columns are the union of their keys, with
// nested values as compact JSON in their cell.
import { isRecord } from '../../api/reading.js';
import { UnexpectedReplyError } from '../errors.js';
import { csvCell, csvLine } from './csv.js';
import { formatCount } from './format.js';

/**
 * The most columns a CSV file is given (contract §4a). Records that each bring a field of their
 * own would make a column a record, and a file of records × records cells: 30,000 such records
 * made 1.7 GB. NDJSON writes each record whole, whatever its fields.
 */
export const MAX_CSV_COLUMNS = 1000;

export function fallbackRecords(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (isRecord(body) && Array.isArray(body.data)) return body.data;
  return [body];
}

export function ndjsonText(records: readonly unknown[]): string {
  let out = '';
  for (const record of records) out += exactJson(record) + '\n';
  return out;
}

/** The record as received, on one line; a record nested past what JSON.stringify can walk is exit 10. */
function exactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    throw new UnexpectedReplyError('the reply is nested too deeply to write as JSON lines; use --json');
  }
}

/** CSV; records with more than MAX_CSV_COLUMNS keys between them are exit 10, found as soon as the keys pass the bound. */
export function csvText(records: readonly unknown[]): string {
  const rows = records.map((record) => (isRecord(record) ? record : { value: record }));
  const keys = new Set<string>();
  for (const row of rows) {
    for (const key of Object.keys(row)) keys.add(key);
    if (keys.size > MAX_CSV_COLUMNS) {
      throw new UnexpectedReplyError(`the records have more than ${formatCount(MAX_CSV_COLUMNS)} different fields, the most columns a CSV file is given; -o ndjson writes each record whole`);
    }
  }
  if (keys.size === 0) return '';
  const columns = [...keys];
  const lines = [csvLine(columns)];
  // Own fields only: a record without `constructor` has no cell of Object's.
  for (const row of rows) lines.push(columns.map((key) => csvCell(Object.hasOwn(row, key) ? row[key] : undefined)).join(',') + '\r\n');
  return lines.join('');
}
