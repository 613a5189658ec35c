// `-o ndjson` and `-o csv` (contract §4a): one record per item of the list a command documents;
// where it has none, the items of a top-level list or of a list `data`, else the reply as one
// record. Records carry the values as received; CSV columns are the union of their keys, with
// nested values as compact JSON in their cell. Numbers and nested values are written from the
// reply's own text where it has the records (raw-records.ts), so every digit is kept. A view's CSV
// holds no JSON in a cell: its nested values go to dotted columns (flat-cells.ts). Both are made a
// few records at a time (stream/paced-write.ts writes them), each record once: linear in the reply.
import { isRecord } from '../reading.js';
import { UnexpectedReplyError } from '../errors.js';
import { csvField, csvLine, valueText } from './csv.js';
import { flatCells, type Cells } from './flat-cells.js';
import { stringifyExact } from './exact-stringify.js';
import { formatCount } from './format.js';
import type { RecordTexts } from './raw-records.js';

/**
 * How a view's records are read (contract §4a), its CSV holding no JSON in a cell: `list items`,
 * one record per item of the lists it holds, with a column naming the list (raw-records.ts
 * listItemTexts); `flat`, the records as a command names them (else the reply as one record),
 * their nested values in dotted columns.
 */
export type ViewRecords = 'list items' | 'flat';

/** Records made into one piece of text. */
const RECORDS_A_PIECE = 100;

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

export function ndjsonText(records: readonly unknown[], texts?: RecordTexts): string {
  return [...ndjsonPieces(records, texts)].join('');
}

/** NDJSON, RECORDS_A_PIECE lines a piece: each record's text as received, else its value as JSON. */
export function* ndjsonPieces(records: readonly unknown[], texts?: RecordTexts): Generator<string> {
  for (let from = 0; from < records.length; from += RECORDS_A_PIECE) {
    let piece = '';
    for (let i = from; i < Math.min(records.length, from + RECORDS_A_PIECE); i++) piece += (texts ? texts.record(i) : jsonLine(records[i])) + '\n';
    yield piece;
  }
}

/** The record's value on one line, numbers as received; a record nested past what JSON.stringify can walk is exit 10. */
function jsonLine(value: unknown): string {
  try {
    return stringifyExact(value) ?? 'null';
  } catch {
    throw new UnexpectedReplyError('the reply is nested too deeply to write as JSON lines; use --json');
  }
}

export function csvText(records: readonly unknown[], texts?: RecordTexts): string {
  return [...csvPieces(records, texts)].join('');
}

/** Each record's JSON text: as received where the reply has it, else its value as JSON. */
export function recordJson(records: readonly unknown[], texts?: RecordTexts): string[] {
  return records.map((record, i) => (texts ? texts.record(i) : jsonLine(record)));
}

/** NDJSON of records given as JSON text, RECORDS_A_PIECE lines a piece. */
export function* jsonLinePieces(records: readonly string[]): Generator<string> {
  for (let from = 0; from < records.length; from += RECORDS_A_PIECE) yield records.slice(from, from + RECORDS_A_PIECE).join('\n') + '\n';
}

/**
 * The CSV of a view: records given as JSON text, each made into cells with no JSON in them
 * (flat-cells.ts); columns the union of their names, bounded as csvPieces bounds them.
 */
export function* flatCsvPieces(records: readonly string[]): Generator<string> {
  const rows: Cells[] = records.map(flatCells);
  const columns = unionOfKeys(rows, (row) => row.keys());
  if (columns.length === 0) return;
  yield csvLine(columns);
  for (let from = 0; from < rows.length; from += RECORDS_A_PIECE) {
    let piece = '';
    for (const row of rows.slice(from, from + RECORDS_A_PIECE)) piece += columns.map((column) => csvField(row.get(column) ?? '')).join(',') + '\r\n';
    yield piece;
  }
}

/** The keys of the rows in the order they first come; more than MAX_CSV_COLUMNS of them is exit 10, found as soon as they pass it. */
function unionOfKeys<T>(rows: readonly T[], keysOf: (row: T) => Iterable<string>): string[] {
  const keys = new Set<string>();
  for (const row of rows) {
    for (const key of keysOf(row)) keys.add(key);
    if (keys.size > MAX_CSV_COLUMNS) {
      throw new UnexpectedReplyError(`the records have more than ${formatCount(MAX_CSV_COLUMNS)} different fields, the most columns a CSV file is given; -o ndjson writes each record whole`);
    }
  }
  return [...keys];
}

/**
 * CSV: a header row, then RECORDS_A_PIECE rows a piece. Records with more than MAX_CSV_COLUMNS
 * keys between them are exit 10, found before the first piece (nothing is written) and as soon as
 * the keys pass the bound.
 */
export function* csvPieces(records: readonly unknown[], texts?: RecordTexts): Generator<string> {
  const rows = records.map((record) => (isRecord(record) ? record : { value: record }));
  const columns = unionOfKeys(rows, (row) => Object.keys(row));
  if (columns.length === 0) return;
  yield csvLine(columns);
  for (let from = 0; from < rows.length; from += RECORDS_A_PIECE) {
    let piece = '';
    for (let i = from; i < Math.min(rows.length, from + RECORDS_A_PIECE); i++) {
      const row = rows[i]!;
      const cell = (key: string): string => {
        // Own fields only: a record without `constructor` has no cell of Object's.
        const value = Object.hasOwn(row, key) ? row[key] : undefined;
        // A number or a nested value as the reply has it: parsed, it may have lost digits.
        const asReceived = texts && (typeof value === 'number' || (typeof value === 'object' && value !== null)) ? (row === records[i] ? texts.field(i, key) : texts.record(i)) : undefined;
        return csvField(asReceived ?? valueText(value));
      };
      piece += columns.map(cell).join(',') + '\r\n';
    }
    yield piece;
  }
}
