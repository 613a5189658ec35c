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
import { exactBody } from './exact-json.js';
import type { BsCalendar } from '../calendar/calendar.js';

/**
 * With the BS calendar (contract §7): after each field whose value is a date or a date-time, its
 * `<field>_bs`, the same in Bikram Sambat (null for a date the table does not hold), at every
 * depth; nothing else changes. The value itself when it holds no date.
 */
export function withBsFields(value: unknown, calendar: BsCalendar): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => withBsFields(item, calendar));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (!isRecord(value)) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    const inner = withBsFields(field, calendar);
    out[key] = inner;
    if (inner !== field) changed = true;
    const bs = calendar.field(field);
    // A reply's own field of that name is kept as sent.
    if (bs !== undefined && !Object.hasOwn(value, `${key}_bs`)) {
      out[`${key}_bs`] = bs;
      changed = true;
    }
  }
  return changed ? out : value;
}

/** The columns with `<column>_bs` right after each one that holds a date in some row (contract §7); `valueOf` reads a row's cell. */
function withBsColumns<T>(columns: readonly string[], rows: readonly T[], valueOf: (row: T, column: string) => unknown, calendar: BsCalendar | undefined): string[] {
  if (!calendar) return [...columns];
  const taken = new Set(columns);
  return columns.flatMap((column) => {
    const twin = `${column}_bs`;
    return !taken.has(twin) && rows.some((row) => calendar.field(valueOf(row, column)) !== undefined) ? [column, twin] : [column];
  });
}

/** The cell of a `<column>_bs` column: the BS twin of the date in `<column>`; undefined for any other column. */
function bsCell<T>(column: string, row: T, valueOf: (row: T, column: string) => unknown, twins: ReadonlySet<string>, calendar: BsCalendar | undefined): string | undefined {
  if (!calendar || !twins.has(column)) return undefined;
  return calendar.field(valueOf(row, column.slice(0, -3))) ?? '';
}

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
export function* ndjsonPieces(records: readonly unknown[], texts?: RecordTexts, calendar?: BsCalendar): Generator<string> {
  for (let from = 0; from < records.length; from += RECORDS_A_PIECE) {
    let piece = '';
    for (let i = from; i < Math.min(records.length, from + RECORDS_A_PIECE); i++) {
      // A record with a date is written anew with its `_bs` fields (its numbers are exact: exact-json.ts).
      const dated = calendar ? withBsFields(records[i], calendar) : records[i];
      piece += (texts && dated === records[i] ? texts.record(i) : jsonLine(dated)) + '\n';
    }
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
export function* jsonLinePieces(records: readonly string[], calendar?: BsCalendar): Generator<string> {
  const line = (text: string) => {
    if (!calendar) return text;
    const value = exactBody(text, JSON.parse(text));
    const dated = withBsFields(value, calendar);
    return dated === value ? text : jsonLine(dated);
  };
  for (let from = 0; from < records.length; from += RECORDS_A_PIECE)
    yield (
      records
        .slice(from, from + RECORDS_A_PIECE)
        .map(line)
        .join('\n') + '\n'
    );
}

/**
 * The CSV of a view: records given as JSON text, each made into cells with no JSON in them
 * (flat-cells.ts); columns the union of their names, bounded as csvPieces bounds them.
 */
export function* flatCsvPieces(records: readonly string[], calendar?: BsCalendar): Generator<string> {
  const rows: Cells[] = records.map(flatCells);
  const keys = unionOfKeys(rows, (row) => row.keys());
  const cellOf = (row: Cells, column: string) => row.get(column);
  const columns = withBsColumns(keys, rows, cellOf, calendar);
  const twins = new Set(columns.filter((column) => !keys.includes(column)));
  if (columns.length === 0) return;
  yield csvLine(columns);
  for (let from = 0; from < rows.length; from += RECORDS_A_PIECE) {
    let piece = '';
    for (const row of rows.slice(from, from + RECORDS_A_PIECE)) piece += columns.map((column) => csvField(bsCell(column, row, cellOf, twins, calendar) ?? row.get(column) ?? '')).join(',') + '\r\n';
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
export function* csvPieces(records: readonly unknown[], texts?: RecordTexts, calendar?: BsCalendar): Generator<string> {
  // A record that is no object is the one field `value` (read in place: an object made for each of a list of numbers would be 3 times its text).
  const keys = unionOfKeys(records, (record) => (isRecord(record) ? Object.keys(record) : ['value']));
  // Own fields only: a record without `constructor` has no cell of Object's.
  const fieldOf = (record: unknown, column: string) => (isRecord(record) ? (Object.hasOwn(record, column) ? record[column] : undefined) : column === 'value' ? record : undefined);
  const columns = withBsColumns(keys, records, fieldOf, calendar);
  const twins = new Set(columns.filter((column) => !keys.includes(column)));
  if (columns.length === 0) return;
  yield csvLine(columns);
  for (let from = 0; from < records.length; from += RECORDS_A_PIECE) {
    let piece = '';
    for (let i = from; i < Math.min(records.length, from + RECORDS_A_PIECE); i++) {
      const record = records[i];
      const cell = (key: string): string => {
        const bs = bsCell(key, record, fieldOf, twins, calendar);
        if (bs !== undefined) return csvField(bs);
        const value = fieldOf(record, key);
        // A number or a nested value as the reply has it: parsed, it may have lost digits.
        const asReceived = texts && (typeof value === 'number' || (typeof value === 'object' && value !== null)) ? (isRecord(record) ? texts.field(i, key) : texts.record(i)) : undefined;
        return csvField(asReceived ?? valueText(value));
      };
      piece += columns.map(cell).join(',') + '\r\n';
    }
    yield piece;
  }
}
