// `-o ndjson` and `-o csv` (contract §4a): one record per item of the list a command documents;
// where it has none, the items of a top-level list or of a list `data`, else the reply as one
// record. Records carry the values as received; CSV columns are the union of their keys, with
// nested values as compact JSON in their cell.
import { isRecord } from '../../api/reading.js';
import { UnexpectedReplyError } from '../errors.js';
import { csvCell, csvLine } from './csv.js';
import { unionKeys } from './generic.js';

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

export function csvText(records: readonly unknown[]): string {
  const rows = records.map((record) => (isRecord(record) ? record : { value: record }));
  const keys = unionKeys(rows);
  if (keys.length === 0) return '';
  let out = csvLine(keys);
  for (const row of rows) out += keys.map((key) => csvCell(row[key])).join(',') + '\r\n';
  return out;
}
