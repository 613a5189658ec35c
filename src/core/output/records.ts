// `-o ndjson` and `-o csv` (docs/reference/output.md, "Reading replies" and "CSV"): one record per
// item of the list a command documents; where it has none, the items of a top-level list or of a
// list `data`, else the reply as one record. Records carry the values as received, written from the
// reply's own text where it has the records (raw-records.ts), so every digit is kept. A CSV cell
// holds no JSON: nested objects go to dotted columns and lists of plain values are joined
// (flat-cells.ts); its columns are the union of the records' keys, the documented fields first.
// Both are made a few records at a time (stream/paced-write.ts writes them), each record once:
// linear in the reply.
import type { BsCalendar } from '../calendar/calendar.js';
import { UnexpectedReplyError } from '../errors.js';
import { exactBody } from '../json/exact-json.js';
import { stringifyExact } from '../json/exact-stringify.js';
import { isRecord } from '../json/values.js';
import { checkColumnNames } from './column-names.js';
import { csvField, csvLine } from './csv.js';
import { type Cells, flatCells, valueCells } from './flat-cells.js';
import { formatCount } from './format.js';
import type { RecordTexts } from './raw-records.js';

/**
 * With the BS calendar (docs/reference/dates.md): after each field whose value is a date or a
 * date-time, its `<field>_bs`, the same in Bikram Sambat (null for a date the table does not hold),
 * at every depth; nothing else changes. The value itself when it holds no date.
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

/**
 * How a view's records are read (docs/reference/output.md, "Reading replies"): `list items`, one
 * record per item of the lists it holds, with a column naming the list (raw-records.ts
 * listItemTexts); by default, the records as a command names them, else the reply as one record.
 */
export type ViewRecords = 'list items';

/** Records made into one piece of text. */
const RECORDS_A_PIECE = 100;

/**
 * The most columns a CSV file is given (docs/reference/output.md, "CSV"). Records that each bring a
 * field of their own would make a column a record, and a file of records × records cells: 30,000
 * such records would make 1.7 GB. NDJSON writes each record whole, whatever its fields.
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

/**
 * NDJSON, RECORDS_A_PIECE lines a piece: each record's text as received, else its value as JSON.
 */
export function* ndjsonPieces(
  records: readonly unknown[],
  texts?: RecordTexts,
  calendar?: BsCalendar,
): Generator<string> {
  for (let from = 0; from < records.length; from += RECORDS_A_PIECE) {
    let piece = '';
    for (let i = from; i < Math.min(records.length, from + RECORDS_A_PIECE); i++) {
      // A record with a date is written anew with its `_bs` fields (its numbers are exact:
      // exact-json.ts).
      const dated = calendar ? withBsFields(records[i], calendar) : records[i];
      piece += (texts && dated === records[i] ? texts.record(i) : jsonLine(dated)) + '\n';
    }
    yield piece;
  }
}

/**
 * The record's value on one line, numbers as received; a record nested past what JSON.stringify can
 * walk is exit 10.
 */
function jsonLine(value: unknown): string {
  try {
    return stringifyExact(value) ?? 'null';
  } catch {
    throw new UnexpectedReplyError(
      'the reply is nested too deeply to write as JSON lines; use --json',
    );
  }
}

/** NDJSON of records given as JSON text, RECORDS_A_PIECE lines a piece. */
export function* jsonLinePieces(
  records: readonly string[],
  calendar?: BsCalendar,
): Generator<string> {
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

/** How a CSV is written (docs/reference/output.md, "CSV"). */
export interface CsvOptions {
  /**
   * With the BS calendar, a `<column>_bs` column after each that holds a date
   * (docs/reference/dates.md).
   */
  calendar?: BsCalendar;
  /**
   * The documented fields of a record, in their documented order: the first columns, and the header
   * of an empty list.
   */
  documented?: readonly string[];
  /**
   * --columns: these columns alone, in this order; a name the records do not have (nor the
   * documented fields) is exit 2.
   */
  columns?: readonly string[];
  /** False for --no-headers: no header row. */
  headers?: boolean;
  /** False for --no-formula-guard: cells as received, without the ' before a formula. */
  formulaGuard?: boolean;
}

/**
 * CSV of records given as JSON text (the items of a view's lists: raw-records.ts listItemTexts),
 * each made into cells with no JSON in them (flat-cells.ts), as csvPieces writes them.
 */
export function flatCsvPieces(
  records: readonly string[],
  options: CsvOptions = {},
): Generator<string> {
  return cellsCsvPieces(records.length, (i) => flatCells(records[i]!), options);
}

/**
 * CSV of records as read (numbers as received: exact-json.ts), nested values in dotted columns
 * (flat-cells.ts valueCells).
 */
export function csvPieces(
  records: readonly unknown[],
  options: CsvOptions = {},
): Generator<string> {
  return cellsCsvPieces(records.length, (i) => valueCells(records[i]), options);
}

/**
 * A header row, then RECORDS_A_PIECE rows a piece, of `count` records whose cells `cellsOf`
 * makes. The columns are the union of the records' keys, the documented fields first in their
 * order, then the others in the order they first come; an empty list's are the documented
 * fields. Records with more than MAX_CSV_COLUMNS keys between them are exit 10, and --columns
 * naming a column they lack exit 2: both found before the first piece (nothing is written). The
 * cells are made twice, for the columns and then for each row as it is written, so that no more
 * than a piece of rows is held at once.
 */
function* cellsCsvPieces(
  count: number,
  cellsOf: (index: number) => Cells,
  options: CsvOptions,
): Generator<string> {
  const { calendar, documented = [] } = options;
  const guard = options.formulaGuard !== false;
  const union = new Set<string>();
  /**
   * The columns holding a date in some row, which a `<column>_bs` column follows
   * (docs/reference/dates.md).
   */
  const dated = new Set<string>();
  for (let i = 0; i < count; i++) {
    for (const [key, text] of cellsOf(i)) {
      union.add(key);
      if (calendar && !dated.has(key) && calendar.field(text) !== undefined) dated.add(key);
    }
    if (union.size > MAX_CSV_COLUMNS) {
      throw new UnexpectedReplyError(
        `the records have more than ${formatCount(MAX_CSV_COLUMNS)} different fields, the most columns a CSV file is given; -o ndjson writes each record whole`,
      );
    }
  }
  const keys = count === 0 ? [...documented] : documentedFirst([...union], documented);
  // A reply's own field of a twin's name is kept as sent.
  const twins = new Set([...dated].map((key) => `${key}_bs`).filter((twin) => !union.has(twin)));
  const all = keys.flatMap((key) => (twins.has(`${key}_bs`) ? [key, `${key}_bs`] : [key]));
  const columns = options.columns ?? all;
  checkColumnNames(columns, [...new Set([...all, ...documented])]);
  if (columns.length === 0) return;
  const cell = (row: Cells, column: string) =>
    twins.has(column)
      ? (calendar!.field(row.get(column.slice(0, -3))) ?? '')
      : (row.get(column) ?? '');
  if (options.headers !== false) yield csvLine(columns, guard);
  for (let from = 0; from < count; from += RECORDS_A_PIECE) {
    let piece = '';
    for (let i = from; i < Math.min(count, from + RECORDS_A_PIECE); i++) {
      const row = cellsOf(i);
      piece += columns.map((column) => csvField(cell(row, column), guard)).join(',') + '\r\n';
    }
    yield piece;
  }
}

/**
 * The keys, those of the documented fields (a nested one's dotted keys with it) first, in the
 * documented order.
 */
function documentedFirst(keys: readonly string[], documented: readonly string[]): string[] {
  if (documented.length === 0) return [...keys];
  const first = documented.flatMap((field) =>
    keys.filter((key) => key === field || key.startsWith(`${field}.`)),
  );
  const placed = new Set(first);
  return [...first, ...keys.filter((key) => !placed.has(key))];
}
