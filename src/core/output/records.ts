// `-o ndjson` and `-o csv` (contract §3, §4a): one record per item of the list a command
// documents; where it has none, the items of a top-level list or of a list `data`, else the reply
// as one record. Records carry the values as received, written from the reply's own text where it
// has the records (raw-records.ts), so every digit is kept. A CSV cell holds no JSON: nested
// objects go to dotted columns and lists of plain values are joined (flat-cells.ts); its columns
// are the union of the records' keys, the documented fields first. Both are made a few records at
// a time (stream/paced-write.ts writes them), each record once: linear in the reply.
import { isRecord } from '../reading.js';
import { UnexpectedReplyError } from '../errors.js';
import { csvField, csvLine } from './csv.js';
import { flatCells, type Cells } from './flat-cells.js';
import { stringifyExact } from './exact-stringify.js';
import { formatCount } from './format.js';
import { checkColumnNames } from './column-names.js';
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
 * How a view's records are read (contract §4a): `list items`, one record per item of the lists it
 * holds, with a column naming the list (raw-records.ts listItemTexts); by default, the records as
 * a command names them, else the reply as one record.
 */
export type ViewRecords = 'list items';

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

/** How a CSV is written (contract §3). */
export interface CsvOptions {
  /** With the BS calendar, a `<column>_bs` column after each that holds a date (contract §7). */
  calendar?: BsCalendar;
  /** The documented fields of a record, in their documented order: the first columns, and the header of an empty list. */
  documented?: readonly string[];
  /** --columns: these columns alone, in this order; a name the records do not have (nor the documented fields) is exit 2. */
  columns?: readonly string[];
  /** False for --no-headers: no header row. */
  headers?: boolean;
  /** False for --no-formula-guard: cells as received, without the ' before a formula. */
  formulaGuard?: boolean;
}

/**
 * CSV of records given as JSON text, each made into cells with no JSON in them (flat-cells.ts):
 * a header row, then RECORDS_A_PIECE rows a piece. The columns are the union of the records'
 * keys, the documented fields first in their order, then the others in the order they first
 * come; an empty list's are the documented fields. Records with more than MAX_CSV_COLUMNS keys
 * between them are exit 10, and --columns naming a column they lack exit 2: both found before the
 * first piece (nothing is written).
 */
export function* flatCsvPieces(records: readonly string[], options: CsvOptions = {}): Generator<string> {
  const { calendar, documented = [] } = options;
  const guard = options.formulaGuard !== false;
  const rows: Cells[] = records.map(flatCells);
  const keys =
    rows.length === 0
      ? [...documented]
      : documentedFirst(
          unionOfKeys(rows, (row) => row.keys()),
          documented,
        );
  const cellOf = (row: Cells, column: string) => row.get(column);
  const dated = withBsColumns(keys, rows, cellOf, calendar);
  const twins = new Set(dated.filter((column) => !keys.includes(column)));
  const columns = options.columns ?? dated;
  checkColumnNames(columns, [...new Set([...dated, ...documented])]);
  if (columns.length === 0) return;
  if (options.headers !== false) yield csvLine(columns, guard);
  for (let from = 0; from < rows.length; from += RECORDS_A_PIECE) {
    let piece = '';
    for (const row of rows.slice(from, from + RECORDS_A_PIECE))
      piece += columns.map((column) => csvField(bsCell(column, row, cellOf, twins, calendar) ?? row.get(column) ?? '', guard)).join(',') + '\r\n';
    yield piece;
  }
}

/** The keys, those of the documented fields (a nested one's dotted keys with it) first, in the documented order. */
function documentedFirst(keys: readonly string[], documented: readonly string[]): string[] {
  if (documented.length === 0) return [...keys];
  const first = documented.flatMap((field) => keys.filter((key) => key === field || key.startsWith(`${field}.`)));
  const placed = new Set(first);
  return [...first, ...keys.filter((key) => !placed.has(key))];
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
