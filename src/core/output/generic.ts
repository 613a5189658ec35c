// The view of what a command does not recognise (docs/reference/output.md, "Reading replies"):
// scalars as one FIELD/VALUE list with dotted keys, lists of objects as tables whose columns are
// the union of their keys (up to a bound, with a note of how many were left out), and nested lists
// as tables of their own under a heading. Nothing the service sends makes a table fail, nor grow
// faster than the reply: depth and columns are bounded and every value has a text. On a terminal
// such a table shows what fits (render.ts), unless a command names the fields it expects
// (`defaults`): those are its default columns, and the others are shown where there is room for
// them. Each kind of value (money, counts, shares, confidences, scores, contributions) is shown to
// people as every view shows it (format.ts), field names in words (labels.ts); a pipe gets the
// values as received and the keys.
import { ExactNumber } from '../json/exact-number.js';
import { isRecord, type JsonRecord, numberOf } from '../json/values.js';
import { compactJson, MAX_DEPTH } from './compact-json.js';
import { staysWhole, visibleWidth } from './fit.js';
import {
  bullets,
  formatBoolean,
  formatCount,
  formatFraction,
  formatMoney,
  formatPercent,
  oneLine,
  plainNumber,
  signedNumber,
} from './format.js';
import { headerOf, labelOf } from './labels.js';
import type { Paint } from './paint.js';
import type { Column, ListView, Part, RecordView, SectionsView } from './view.js';

type Row = Record<string, string>;

/**
 * One field of a field list: its dotted key, its text, and, for a list of sentences or an empty
 * list, its items.
 */
type Field = [key: string, text: string, items?: string[]];

/**
 * How the fields of a reply read, by their (dotted) key: which hold money, and in what currency;
 * which are shares given as fractions (a FOIR of 0.455 reads 45.5%). Shares given in percent
 * (`_pct`), confidences, a score's contributions (`impact`) and counts (`_count`, `quota`,
 * `used`) read alike in every reply.
 */
export interface Money {
  holdsMoney: (key: string) => boolean;
  currency?: string;
  isFraction?: (key: string) => boolean;
  /** The most a score may be (`score` 905 reads `905 / 1000`), for the fields that are scores. */
  outOf?: (key: string) => number | undefined;
  /**
   * True for a field whose values are names in snake case (a factor, a check): they read as words.
   */
  holdsName?: (key: string) => boolean;
}

/** The kind of value a field holds, as a view shows it to people. */
type Kind =
  'money' | 'count' | 'percent' | 'fraction' | 'confidence' | 'signed' | 'name' | { outOf: number };

function lastWord(key: string): string {
  return key.slice(key.lastIndexOf('.') + 1);
}

function kindOf(key: string, money?: Money): Kind | undefined {
  if (money?.holdsMoney(key)) return 'money';
  const last = lastWord(key);
  if (/(?:^|_)(?:pct|percent|percentage)$/.test(last)) return 'percent';
  if (money?.isFraction?.(key)) return 'fraction';
  if (/(?:^|_)confidence$/.test(last)) return 'confidence';
  if (/^(?:impact|contribution)$/.test(last)) return 'signed';
  if (/(?:^|_)(?:count|quota|used|remaining|occurrences)$/.test(last)) return 'count';
  const max = money?.outOf?.(key);
  if (max !== undefined) return { outOf: max };
  if (money?.holdsName?.(key)) return 'name';
  return undefined;
}

/** A value of a kind as people read it; anything but a number of that kind as it came. */
function shownAs(kind: Kind, text: string, currency?: string): string {
  if (kind === 'money') return formatMoney(text, currency) ?? text;
  if (kind === 'name') return /^[a-z0-9]+(?:_[a-z0-9]+)*$/i.test(text) ? labelOf(text) : text;
  if (!NUMBER.test(text)) return text;
  const n = Number(text);
  if (!Number.isFinite(n)) return text;
  if (kind === 'count') return Number.isInteger(n) ? formatCount(text) : text;
  if (kind === 'percent') return formatPercent(n);
  if (kind === 'fraction') return formatFraction(n);
  if (kind === 'confidence') return n >= 0 && n <= 1 ? formatFraction(n) : text;
  if (kind === 'signed') return signedNumber(n);
  return `${plainNumber(n)} / ${kind.outOf}`;
}

/**
 * How the generic view shows a reply: which fields hold money, and the fields its tables show by
 * default.
 */
export interface Shown {
  money?: Money;
  /**
   * The (dotted) keys a table of the reply shows on a terminal when it has any of them, the first
   * kept longest on a narrow one; the others only where there is room.
   */
  defaults?: readonly string[];
}

/** The parts of a value: its scalars first, as one field list, then its tables in order. */
export function genericParts(
  value: unknown,
  path: readonly string[] = [],
  shown: Shown = {},
): Part[] {
  const { money } = shown;
  const fields: Field[] = [];
  const tables: Part[] = [];
  walk(value, [...path], 0, fields, tables, path.length, shown);
  const parts: Part[] = [];
  if (fields.length) parts.push({ view: fieldList(fields, money) });
  return [...parts, ...tables];
}

export function genericView(
  value: unknown,
  frame: { title?: string; footer?: string[]; empty?: string } & Shown = {},
): SectionsView {
  const { money, defaults, ...framed } = frame;
  return {
    kind: 'sections',
    parts: genericParts(value, [], { money, defaults }),
    empty: framed.empty ?? 'The reply is empty.',
    ...framed,
  };
}

function walk(
  value: unknown,
  path: string[],
  depth: number,
  fields: Field[],
  tables: Part[],
  root: number,
  shown: Shown,
): void {
  const key = path.join('.') || 'value';
  if (depth > MAX_DEPTH) {
    fields.push([key, '…']);
  } else if (Array.isArray(value)) {
    if (value.some(isRecord))
      tables.push({
        heading: heading(path),
        view: table(
          value.map((item) => (isRecord(item) ? item : { value: item })),
          shown,
        ),
      });
    else if (value.length === 0) fields.push([key, '', []]);
    else {
      const items = value.map((item) => cellText(item, depth + 1));
      // Reasons and messages (sentences) read as bullets; names (flags, scopes) as one line.
      fields.push(
        items.some((item) => /\s/.test(item.trim()))
          ? [key, items.join(', '), items]
          : [key, items.join(', ')],
      );
    }
  } else if (isRecord(value)) {
    if (isMapOfRecords(value)) {
      tables.push({ heading: heading(path), view: mapTable(value, shown) });
      return;
    }
    const entries = Object.entries(value);
    if (entries.length === 0 && path.length > root) fields.push([key, '']);
    for (const [name, child] of entries)
      walk(child, [...path, name], depth + 1, fields, tables, root, shown);
  } else {
    fields.push([key, cellText(value, depth)]);
  }
}

/**
 * An object that is a map of like records, `{"groceries":{"count":12,"total":8420}, …}`: read
 * best as a table with one row per name.
 */
function isMapOfRecords(value: JsonRecord): boolean {
  const records = Object.values(value);
  if (
    records.length < 2 ||
    !records.every(
      (r) => isRecord(r) && Object.values(r).every((v) => !isRecord(v) && !Array.isArray(v)),
    )
  )
    return false;
  const keys = Object.keys(records[0] as JsonRecord).join('\u0000');
  return records.every((r) => Object.keys(r as JsonRecord).join('\u0000') === keys);
}

function mapTable(value: JsonRecord, shown: Shown): ListView<Row> {
  const nameKey = Object.values(value).some((r) => isRecord(r) && 'name' in r) ? 'key' : 'name';
  return table(
    Object.entries(value).map(([name, record]) => ({ [nameKey]: name, ...(record as JsonRecord) })),
    shown,
  );
}

/**
 * A table of records: a column per key the records have (within the bound), nested objects as
 * dotted keys. With `defaults` among them, the other columns are shown only where there is room.
 */
export function table(records: readonly JsonRecord[], shown: Shown = {}): ListView<Row> {
  const rows = records.map((record) => flatten(record));
  const { columns, leftOut } = guessedColumns(rows, shown.money);
  const defaults = shown.defaults ?? [];
  const designed = columns.some((c) => defaults.includes(c.key));
  const tiered = designed
    ? columns.map((c) =>
        defaults.includes(c.key)
          ? { ...c, rank: defaults.indexOf(c.key) }
          : { ...c, show: 'room' as const },
      )
    : columns;
  return {
    kind: 'list',
    rows,
    columns: tiered,
    ...(leftOut > 0 && { notes: [leftOutNote(leftOut)] }),
  };
}

/**
 * Columns a table shows beyond those a command designs (docs/reference/output.md, "Reading
 * replies": up to 24). Rows that each bring a field of their own would otherwise make a column a
 * row, and a table of rows × rows cells: 30,000 such rows would make 900 million. The fields most
 * rows have are kept, and a note says how many were left out.
 */
export const MAX_EXTRA_COLUMNS = 24;

/** The note under a table that left columns out. */
export function leftOutNote(count: number): string {
  return `${formatCount(count)} more column${count === 1 ? '' : 's'} left out, of the fields fewest rows have: --json or -o ndjson shows every field.`;
}

/**
 * The columns of rows of text, at most MAX_EXTRA_COLUMNS of them, in the order their keys first
 * appear; each column's fit guessed from its values. One pass over the rows' own fields, however
 * many columns there are.
 */
function guessedColumns(
  rows: readonly Row[],
  money?: Money,
): { columns: Column<Row>[]; leftOut: number } {
  const counts = new Map<string, number>();
  for (const row of rows)
    for (const key of Object.keys(row)) counts.set(key, (counts.get(key) ?? 0) + 1);
  let keys = [...counts.keys()];
  if (keys.length > MAX_EXTRA_COLUMNS) {
    // The sort is stable: of keys as frequent, the first to appear is kept.
    const kept = new Set(
      [...keys].sort((a, b) => counts.get(b)! - counts.get(a)!).slice(0, MAX_EXTRA_COLUMNS),
    );
    keys = keys.filter((key) => kept.has(key));
  }
  const guesses = new Map(keys.map((key) => [key, new ColumnGuess()]));
  for (const row of rows) {
    for (const key of Object.keys(row)) guesses.get(key)?.see(row[key]!);
  }
  return {
    columns: keys.map((key) => guesses.get(key)!.column(key, kindOf(key, money), money?.currency)),
    leftOut: counts.size - keys.length,
  };
}

/**
 * Text longer than this in a column of the generic view is free text, the first to give up room.
 */
const SHORT_TEXT = 16;
const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

/**
 * A column of the generic view, its fit guessed from its values as they are seen: numbers
 * (right-aligned), amounts, dates, ids, URLs and enumeration names (fit.ts `staysWhole`) are kept
 * whole; a column with a value longer than a short word is free text that wraps; short text (a
 * status, a category) keeps its words.
 */
class ColumnGuess {
  private filled = false;
  private numeric = true;
  private whole = true;
  private long = false;

  see(text: string): void {
    if (text === '') return;
    this.filled = true;
    if (this.numeric && !NUMBER.test(text)) this.numeric = false;
    if (this.whole && !staysWhole(text)) this.whole = false;
    if (!this.long && visibleWidth(text) > SHORT_TEXT) this.long = true;
  }

  /**
   * The column; a kind of value shown as people read it: money grouped (its currency in the
   * header, once), shares as percentages, contributions signed.
   */
  column(key: string, kind: Kind | undefined, currency?: string): Column<Row> {
    const numeric = this.filled && this.numeric;
    const keep = numeric || (this.filled && this.whole);
    const flex = !keep && this.long;
    const value = (row: Row) => row[key] ?? '';
    return {
      key,
      header: columnHeader(key),
      ...(pipeColumnHeader(key) !== columnHeader(key) && { pipeHeader: pipeColumnHeader(key) }),
      value,
      ...(kind && { display: (row: Row) => shownAs(kind, value(row)), formatsValue: true }),
      ...(kind === 'money' && currency && { currency }),
      align: numeric ? 'right' : 'left',
      ...(keep && { keep }),
      ...(flex && { flex }),
    };
  }
}

/**
 * A record as one row: nested objects become dotted keys, lists one cell. The row has no
 * prototype, so a field named `__proto__` is a column like any other.
 */
function flatten(
  record: JsonRecord,
  prefix = '',
  depth = 1,
  row: Row = Object.create(null) as Row,
): Row {
  for (const [name, value] of Object.entries(record)) {
    const key = prefix + name;
    if (isRecord(value) && depth < MAX_DEPTH && Object.keys(value).length > 0)
      flatten(value, key + '.', depth + 1, row);
    else row[key] = cellText(value, depth);
  }
  return row;
}

/**
 * The fields by position: two may share a dotted name (`{"a.b": 1, "a": {"b": 2}}`). A terminal
 * labels them in words (`FOIR with loan`), a pipe by their keys.
 */
function fieldList(fields: readonly Field[], money?: Money): RecordView<readonly Field[]> {
  return {
    kind: 'record',
    record: fields,
    fields: fields.map(([key, , items], i) => {
      const value = (r: readonly Field[]) => r[i]![1];
      const kind = kindOf(key, money);
      const display = items?.length
        ? () => bullets(items)
        : kind
          ? (r: readonly Field[]) => shownAs(kind, value(r), money?.currency)
          : undefined;
      // An empty list says so, in one word, where a blank field would be left out.
      return {
        key,
        header: labelOf(key),
        value,
        ...(display && { display, formatsValue: true }),
        ...(items?.length === 0 && { empty: 'none' }),
      };
    }),
  };
}

/**
 * Text of one value in one cell: scalars written out (numbers as received), lists joined, objects
 * as compact JSON.
 */
export function cellText(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return formatBoolean(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (value instanceof ExactNumber) return value.text;
  if (Array.isArray(value) && !value.some((item) => isRecord(item) || Array.isArray(item)))
    return value.map((item) => cellText(item)).join(', ');
  return compactJson(value, depth);
}

/**
 * A count for people, grouped (1,23,456), when the value writes a number; anything else as it came.
 */
export function countText(value: unknown): string {
  return numberOf(value) === undefined ? cellText(value) : formatCount(cellText(value));
}

/**
 * `monthly_summary` → `Monthly summary`; nested names joined with ›, each in words (`Score ›
 * Factors`).
 */
export function heading(path: readonly string[]): string | undefined {
  if (path.length === 0) return undefined;
  return path.map((segment) => labelOf(segment)).join(' › ');
}

/** `average_amount` → `AVERAGE AMOUNT`; `foir.with_loan` → `FOIR WITH LOAN`. */
export function columnHeader(key: string): string {
  return headerOf(key);
}

/**
 * The header of a column in a pipe, as scripts have read it: `average_amount` → `AVERAGE AMOUNT`,
 * `foir.with_loan` → `FOIR.WITH LOAN`.
 */
export function pipeColumnHeader(key: string): string {
  return key.replace(/_/g, ' ').toUpperCase();
}

/**
 * A designed view followed by the generic view of what it leaves over. The leftover scalars join a
 * designed field list as more fields; the leftover tables follow under their headings.
 */
export function withRest(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any view: T is invariant (view.ts)
  designed: ListView<any> | RecordView<any>,
  rest: JsonRecord,
  frame: {
    title?: string;
    footer?: string[];
    hints?: string[];
    heading?: string;
    money?: Money;
  } = {},
): SectionsView {
  const parts = genericParts(rest, [], { money: frame.money });
  const first = parts[0];
  if (
    designed.kind === 'record' &&
    first &&
    first.heading === undefined &&
    first.view.kind === 'record'
  ) {
    const leftover = first.view as RecordView<readonly Field[]>;
    const fields = leftover.fields.map((f) => ({
      ...f,
      value: () => f.value(leftover.record),
      ...(f.display && {
        display: (_: unknown, paint: Paint) => f.display!(leftover.record, paint),
      }),
    }));
    parts[0] = { view: { ...designed, fields: [...designed.fields, ...fields] } };
  } else {
    parts.unshift({ heading: frame.heading, view: designed });
  }
  return { kind: 'sections', parts, title: frame.title, footer: frame.footer, hints: frame.hints };
}

/**
 * The view of a list command's reply (docs/reference/output.md, "Tables"): on a terminal, its
 * designed table followed by the generic view of what the reply holds beside it, as withRest shows
 * them; in a pipe the table alone, and the rest as lines on stderr.
 */
export function listWithRest(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any view: T is invariant (view.ts)
  items: ListView<any>,
  rest: JsonRecord,
  frame: { title?: string; footer?: string[]; hints?: string[]; aside?: string[] } = {},
): SectionsView {
  // `aside`: what else a pipe's stderr is told, that the rows do not show (a list cut short).
  return {
    ...withRest(items, rest, frame),
    pipe: { items, aside: [...asideLines(rest), ...(frame.aside ?? [])] },
  };
}

/**
 * A reply's fields beside its items, for stderr: one `name: value` line each, nested names dotted
 * as in a field list, lists as one value; fields without a value say nothing and are left out.
 */
export function asideLines(rest: JsonRecord): string[] {
  return Object.entries(flatten(rest))
    .filter(([, text]) => text !== '')
    .map(([key, text]) => `${oneLine(key)}: ${oneLine(text)}`);
}

/**
 * The items of a reply's lists as one table, each item a row (an item that is no object, in a
 * column `value`); when there are several lists, the name of each row's list is its first column.
 */
export function itemsTable(
  lists: readonly { name: string; items: readonly unknown[] }[],
  documented: readonly string[] = [],
): ListView<Row> {
  const named = lists.flatMap(({ name, items }) =>
    items.map((item) => ({ name, record: isRecord(item) ? item : { value: item } })),
  );
  // No items: the documented fields still head the table, as a pipe writes a list's header line.
  if (named.length === 0)
    return { ...table([Object.fromEntries(documented.map((key) => [key, null]))]), rows: [] };
  const view = table(named.map((n) => n.record));
  if (lists.length < 2) return view;
  // table() makes one row a record, in order.
  const names = new Map(view.rows.map((row, i) => [row, named[i]!.name]));
  return {
    ...view,
    section: { key: 'list', header: 'LIST', value: (row) => names.get(row) ?? '' },
  };
}

/**
 * A designed table with one more column for each field of its items that the design does not
 * know, up to MAX_EXTRA_COLUMNS of them; a note says how many more were left out. A terminal shows
 * them where the table has room for them, or (`show` wide) only with -o wide: the designed columns
 * not shown wide are its defaults (docs/reference/output.md, "Tables").
 */
export function withExtraColumns<T>(
  list: ListView<T>,
  leftovers: (row: T) => JsonRecord,
  money?: Money,
  show: 'room' | 'wide' = 'room',
): ListView<T> {
  const flat = new Map(list.rows.map((row) => [row, flatten(leftovers(row))]));
  const { columns, leftOut } = guessedColumns([...flat.values()], money);
  const fieldsOf = (row: T) => flat.get(row) ?? NO_FIELDS;
  const extra = columns.map((c): Column<T> => ({
    key: c.key,
    header: c.header,
    pipeHeader: c.pipeHeader,
    align: c.align,
    keep: c.keep,
    flex: c.flex,
    show,
    value: (row) => c.value(fieldsOf(row)),
    ...(c.display && {
      display: (row: T, paint: Paint) => c.display!(fieldsOf(row), paint),
      formatsValue: c.formatsValue,
    }),
    ...(c.currency && { currency: c.currency }),
  }));
  const notes = leftOut > 0 ? [...(list.notes ?? []), leftOutNote(leftOut)] : list.notes;
  return { ...list, columns: [...list.columns, ...extra], ...(notes && { notes }) };
}

const NO_FIELDS: Row = Object.create(null) as Row;
