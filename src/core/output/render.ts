// Turns a view into a table for people: boxed with colour on a terminal, tab-separated in a pipe.
// On a terminal everything fits its width (fit.ts): a table narrows its columns as they allow, or
// becomes one card of labelled values per row; field lists wrap their values; titles, headings and
// footers wrap between words. A pipe gets every line whole, whatever the width, and data alone:
// footers, and a list reply's fields beside its items, are said on stderr (view.ts pipeRemarks).
// A table is made a piece of rows at a time, each piece when its writer asks for it
// (stream/paced-write.ts).
// The machine formats are made from the reply itself (records.ts, json.ts).
import type { BsCalendar } from '../calendar/calendar.js';
import { type BoxRow, drawBox } from './box.js';
import {
  card,
  CARDS_BELOW,
  cellLines,
  type ColumnMeasure,
  type Fit,
  type FitColumn,
  fitOf,
  fitWidths,
  GLUE,
  glueDateTimes,
  labelledLines,
  measureColumn,
  unglue,
  visibleWidth,
  wrapText,
} from './fit.js';
import { tabCell } from './format.js';
import type { Paint } from './paint.js';
import { formatTimestamp, relativeRuleFor, type TimeSetting } from './time.js';
import type { Cell, Column, ListView, RecordView, View } from './view.js';

export type { OutputFormat } from './formats.js';

export interface RenderTarget {
  /** Boxed tables with colour for a terminal; tab-separated lines otherwise. */
  terminal: boolean;
  /** Columns of the terminal, to fit tables in. */
  width: number;
  paint: Paint;
  /**
   * The zone times are shown in, and the moment that says how far off they are (on a terminal
   * only, as gh does); without it, times are shown in UTC alone.
   */
  time?: TimeSetting;
  /**
   * Set when dates are shown in Bikram Sambat (docs/reference/dates.md): a cell that is a date, a
   * date-time or a period is shown in BS (calendar.ts BsCalendar.cell), and its column's header
   * marked `(BS)`.
   */
  calendar?: BsCalendar;
  /**
   * `-o wide`: a terminal shows every column of a list, its free text wrapped; otherwise a list's
   * default columns, its free text cut to one line (docs/reference/output.md, "Tables"). A pipe
   * writes every column.
   */
  wide?: boolean;
  /** False for --no-headers: no header line over a table, boxed or tab-separated. */
  headers?: boolean;
}

export interface Reply {
  /** The body exactly as received. */
  raw: string;
  body: unknown;
}

/** A view as a table for people: boxed with colour on a terminal, tab-separated lines otherwise. */
export function renderTable(view: View, target: RenderTarget): string {
  return [...tablePieces(view, target)].join('');
}

/**
 * Rows (or fields, or lines of a boxed table) made into one piece of text. A long table is made a
 * piece at a time, so that its writer can write each and let a signal in between
 * (stream/paced-write.ts).
 */
export const ROWS_A_PIECE = 100;

/**
 * renderTable's text, in pieces made one at a time as they are asked for. An empty piece is a
 * point in a long computation where the writer may let a signal in.
 */
export function* tablePieces(view: View, target: RenderTarget): Generator<string> {
  const paint = target.paint;
  // A list reply gives a pipe its items alone; the rest is said on stderr (view.ts pipeRemarks).
  if (view.kind === 'sections' && view.pipe && !target.terminal) {
    yield* tablePieces(view.pipe.items, target);
  } else if (view.kind === 'sections') {
    // Lines for people wrap on a terminal only: in a pipe each stays one line (textLines).
    // In a pipe a lone table stays one header line and its rows; several are parted by a blank
    // line and named by their headings, each with its own header line.
    const named = target.terminal || view.parts.length > 1;
    if (view.title && target.terminal) yield textLines([view.title], target, paint.title);
    if (view.parts.length === 0)
      yield textLines([view.empty ?? 'Nothing to show.'], target, plainText);
    for (const [i, part] of view.parts.entries()) {
      if (i > 0) yield '\n';
      if (part.heading && named) yield textLines([part.heading], target, paint.title);
      yield* tablePieces(part.view, target);
    }
    if (target.terminal)
      yield textLines(view.footer, target, paint.dim) + textLines(view.hints, target, paint.dim);
  } else if (view.kind === 'record') {
    yield* target.terminal ? recordForPeople(view, target) : recordTabs(view, target);
  } else {
    yield* target.terminal ? listForPeople(view, target) : listTabs(view, target);
  }
}

const plainText = (text: string) => text;

/**
 * Lines of prose, each styled and ended by a line break; on a terminal wrapped between words (never
 * inside a URL, an id, a number or a date: fit.ts), in a pipe each one line.
 */
export function textLines(
  lines: readonly string[] | undefined,
  target: Pick<RenderTarget, 'terminal' | 'width'>,
  style: (text: string) => string,
): string {
  return (lines ?? [])
    .flatMap((line) => (target.terminal ? wrapText(line, target.width) : [unglue(line)]))
    .map((line) => style(line) + '\n')
    .join('');
}

function rawText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number' && !Number.isFinite(cell)) return '';
  return String(cell);
}

/**
 * How a column's cells read for people: the column's own display, else its value, a timestamp in it
 * shown in the local zone (time.ts), with how far off it is on a terminal. In a pipe a display that
 * only formats the value gives way to the value as the service sent it (docs/reference/output.md,
 * "Tables").
 */
function displayOf<T>(column: Column<T>, target: RenderTarget): (row: T) => string {
  const display = displayAsSent(column, target);
  const { calendar } = target;
  if (!calendar) return display;
  const space = target.terminal ? GLUE : ' ';
  return (row) => {
    const text = display(row);
    return calendar.cell(text, space) ?? text;
  };
}

/** The header of a column, marked `(BS)` when any of its cells shows a date in Bikram Sambat. */
function headerOf<T>(
  column: Column<T>,
  rows: readonly T[],
  target: RenderTarget,
  header = column.header,
): string {
  const { calendar } = target;
  if (!calendar) return header;
  const display = displayAsSent(column, target);
  return rows.some((row) => calendar.cell(display(row), ' ') !== undefined)
    ? `${header} (BS)`
    : header;
}

function displayAsSent<T>(column: Column<T>, target: RenderTarget): (row: T) => string {
  if (column.display && (target.terminal || !column.formatsValue))
    return (row) => column.display!(row, target.paint);
  const { time } = target;
  const rule = relativeRuleFor(column.key);
  return (row) => {
    const value = column.value(row);
    if (typeof value !== 'string') return rawText(value);
    // On a terminal the date, time and zone are glued into one word that no narrowing breaks.
    return formatTimestamp(
      value,
      { zone: time ? time.zone : 'UTC', now: target.terminal ? time?.now : undefined },
      rule,
      target.terminal ? GLUE : ' ',
    );
  };
}

function sectionColumn<T>(section: NonNullable<ListView<T>['section']>): Column<T> {
  return { key: section.key, header: section.header, value: section.value };
}

function* listTabs<T>(view: ListView<T>, target: RenderTarget): Generator<string> {
  const paint = target.paint;
  const shared = view.shared;
  // Columns picked by --columns are written alone, the section and shared value among them only
  // when named.
  const added = view.picked
    ? []
    : [
        ...(shared ? [{ key: shared.key, header: shared.header, value: () => shared.value }] : []),
        ...(view.section ? [sectionColumn(view.section)] : []),
      ];
  const columns = [...added, ...view.columns];
  // A list of which nothing is known (an empty list of an unknown shape) has no header to write.
  if (columns.length === 0) return;
  const displays = columns.map((c) => displayOf(c, target));
  if (target.headers !== false)
    yield (
      columns
        .map((c) => paint.header(headerOf(c, view.rows, target, c.pipeHeader ?? c.header)))
        .join('\t') + '\n'
    );
  for (const rows of slices(view.rows)) {
    let piece = '';
    for (const row of rows)
      piece += displays.map((display) => tabCell(display(row))).join('\t') + '\n';
    yield piece;
  }
}

function* recordTabs<T>(view: RecordView<T>, target: RenderTarget): Generator<string> {
  const paint = target.paint;
  if (target.headers !== false) yield `${paint.header('FIELD')}\t${paint.header('VALUE')}\n`;
  for (const fields of slices(view.fields)) {
    let piece = '';
    for (const field of fields)
      piece += `${tabCell(headerOf(field, [view.record], target, field.key))}\t${tabCell(displayOf(field, target)(view.record))}\n`;
    yield piece;
  }
}

/** The items, ROWS_A_PIECE at a time. */
function* slices<T>(items: readonly T[]): Generator<readonly T[]> {
  for (let from = 0; from < items.length; from += ROWS_A_PIECE)
    yield items.slice(from, from + ROWS_A_PIECE);
}

function* listForPeople<T>(view: ListView<T>, target: RenderTarget): Generator<string> {
  const paint = target.paint;
  yield textLines(view.title ? [view.title] : [], target, paint.title);
  const after =
    textLines(view.notes, target, paint.dim) + textLines(view.footer, target, paint.dim);
  if (view.rows.length === 0) {
    yield textLines([view.empty ?? 'Nothing to show.'], target, plainText) + after;
    return;
  }
  // The columns are chosen from every row, so that the tables of all sections show the same ones.
  const whole = yield* tableCells(shownColumns(view.columns, target), view.rows, target);
  const layout = chosenLayout(whole, target);
  if (!view.section) {
    yield* fittedTable(pickedCells(whole, layout.columns), target);
  } else {
    const groups = new Map<string, T[]>();
    for (const row of view.rows) {
      const name = view.section.value(row);
      const group = groups.get(name);
      if (group) group.push(row);
      else groups.set(name, [row]);
    }
    const columns = layout.columns.map((i) => whole.shown[i]!);
    let first = true;
    for (const [name, rows] of groups) {
      if (!first) yield '\n';
      first = false;
      yield textLines([name], target, paint.title);
      yield* fittedTable(yield* tableCells(columns, rows, target), target);
    }
  }
  const leftOut = layout.leftOut.length
    ? [`Left out at this width: ${layout.leftOut.join(', ')} (-o wide shows every column).`]
    : [];
  yield textLines(leftOut, target, paint.dim) + after;
}

/** A column a terminal shows, and how its cells give up room there. */
interface Shown<T> {
  column: Column<T>;
  fit: Fit;
}

/**
 * The columns a terminal may show of a list (docs/reference/output.md, "Tables"): with `-o wide`
 * every one, its free text wrapped; otherwise all but those shown only wide, free text cut to one
 * line with an ellipsis.
 */
function shownColumns<T>(columns: readonly Column<T>[], target: RenderTarget): Shown<T>[] {
  const wrapped = (fit: Fit): Fit =>
    fit === 'wrap' || fit === 'cut' ? (target.wide ? 'wrap' : 'cut') : fit;
  return columns
    .filter((column) => target.wide || column.show !== 'wide')
    .map((column) => ({ column, fit: wrapped(fitOf(column)) }));
}

/** The cells of a table for people, each column measured once. */
interface TableCells<T> {
  shown: Shown<T>[];
  fitting: FitColumn[];
  measures: ColumnMeasure[];
}

/** The cells of the rows in the columns, as shown, measured. */
function* tableCells<T>(
  shown: Shown<T>[],
  rows: readonly T[],
  target: RenderTarget,
): Generator<string, TableCells<T>> {
  const displays = shown.map((s) => displayOf(s.column, target));
  const body: string[][] = [];
  for (const some of slices(rows)) {
    // A date and its time in the service's text are one word too, as those the view formats.
    for (const row of some) body.push(displays.map((display) => glueDateTimes(display(row))));
    yield '';
  }
  const fitting: FitColumn[] = shown.map((s, i) => ({
    fit: s.fit,
    header: withCurrency(headerOf(s.column, rows, target), s.column.currency),
    cells: body.map((cells) => cells[i]!),
  }));
  // Each cell is measured once: the columns are chosen, the widths decided and the cells wrapped
  // from what it found.
  return { shown, fitting, measures: fitting.map(measureColumn) };
}

/** Some of the columns of cells, by index. */
function pickedCells<T>(cells: TableCells<T>, indexes: readonly number[]): TableCells<T> {
  return {
    shown: indexes.map((i) => cells.shown[i]!),
    fitting: indexes.map((i) => cells.fitting[i]!),
    measures: indexes.map((i) => cells.measures[i]!),
  };
}

/**
 * Columns of text a boxed table of `count` columns leaves in `width`: a border between columns and
 * at both ends, a space either side of each cell.
 */
function roomFor(count: number, width: number): number {
  return width - (count + 1) - 2 * count;
}

/**
 * Which of the columns a terminal shows (indexes), and the headers of default columns left out
 * for want of room. Columns shown where there is room go first, the last first, while the table
 * is wider than the terminal with every text whole; then, from 60 columns up, a table whose
 * columns cannot narrow enough gives up a column blank in every row, then columns by their rank
 * (the last first) until one is left, rather than become cards; the columns of -o wide are never
 * left out.
 */
function chosenLayout<T>(
  cells: TableCells<T>,
  target: RenderTarget,
): { columns: number[]; leftOut: string[] } {
  const columns = cells.shown.map((_, i) => i);
  if (target.wide) return { columns, leftOut: [] };
  const natural = (i: number) =>
    Math.max(cells.measures[i]!.header.width, cells.measures[i]!.cells.width);
  const fitsWhole = () =>
    columns.reduce((sum, i) => sum + natural(i), 0) <= roomFor(columns.length, target.width);
  for (let at = columns.length - 1; at >= 0 && !fitsWhole(); at--) {
    if (cells.shown[columns[at]!]!.column.show === 'room') columns.splice(at, 1);
  }
  const fits = () => {
    const some = pickedCells(cells, columns);
    return (
      fitWidths(some.fitting, roomFor(columns.length, target.width), some.measures) !== undefined
    );
  };
  const rank = (i: number) => cells.shown[i]!.column.rank ?? 0;
  const blank = (i: number) => cells.measures[i]!.cells.width === 0;
  const dropped: number[] = [];
  if (target.width >= CARDS_BELOW) {
    while (columns.length > 1 && !fits()) {
      // A column blank in every row first (nothing is lost), then the highest rank, the last of
      // equals.
      const empty = columns.findLastIndex(blank);
      const at =
        empty >= 0
          ? empty
          : columns.reduce((best, i, here) => (rank(i) >= rank(columns[best]!) ? here : best), 0);
      const [gone] = columns.splice(at, 1);
      if (!blank(gone!)) dropped.push(gone!);
    }
  }
  return {
    columns,
    leftOut: dropped.sort((a, b) => a - b).map((i) => cells.shown[i]!.column.header),
  };
}

/** A boxed table fitted to the terminal, or one card per row when no narrowing makes it fit. */
function* fittedTable<T>(cells: TableCells<T>, target: RenderTarget): Generator<string> {
  const { shown, fitting, measures } = cells;
  const widths = fitWidths(fitting, roomFor(shown.length, target.width), measures);
  yield* widths ? boxedTable(cells, widths, target) : cards(cardColumns(cells), target);
}

/** A table's header with the currency of its amounts: `DEBIT (NPR)`. */
function withCurrency(header: string, currency: string | undefined): string {
  return currency ? `${header} (${currency})` : header;
}

/** An amount as a table's cell shows it: grouped, with its decimals and sign. */
const AMOUNT_CELL = /^-?[\d,]+(?:\.\d+)?$/;

/**
 * The columns of a table as cards show them: an amount names its currency, as in a field list
 * (`NPR 7,398.58`), and the header goes without it.
 */
function cardColumns<T>({ shown, fitting }: TableCells<T>): FitColumn[] {
  return fitting.map((c, i) => {
    const currency = shown[i]!.column.currency;
    if (!currency) return c;
    const header = c.header.slice(0, -` (${currency})`.length);
    return {
      ...c,
      header,
      cells: c.cells.map((cell) => (AMOUNT_CELL.test(cell) ? `${currency}${GLUE}${cell}` : cell)),
    };
  });
}

function* boxedTable<T>(
  { shown, fitting, measures }: TableCells<T>,
  widths: readonly number[],
  target: RenderTarget,
): Generator<string> {
  const paint = target.paint;
  const header =
    target.headers === false
      ? undefined
      : fitting.map((c, i) =>
          cellLines(c.header, widths[i]!, 'words', measures[i]!.header.width).map((line) =>
            paint.header(line),
          ),
        );
  // Every cell is wrapped or cut to its column once, as its row is drawn.
  function* rows(): Generator<BoxRow> {
    for (let row = 0; row < (fitting[0]?.cells.length ?? 0); row++) {
      yield fitting.map((c, i) =>
        cellLines(c.cells[row]!, widths[i]!, c.fit, measures[i]!.cellWidths[row]),
      );
    }
  }
  yield* drawBox(
    shown.map((s, i) => ({ width: widths[i]!, align: s.column.align ?? 'left' })),
    header,
    rows(),
    ROWS_A_PIECE,
  );
}

/**
 * A table too wide for the terminal, as one card a row (fit.ts `card`), a blank line between cards.
 */
function* cards(
  columns: readonly FitColumn[],
  target: { width: number; paint: Paint },
): Generator<string> {
  const rows = columns[0]?.cells.length ?? 0;
  for (let from = 0; from < rows; from += ROWS_A_PIECE) {
    let piece = '';
    for (let row = from; row < Math.min(rows, from + ROWS_A_PIECE); row++) {
      piece +=
        (row > 0 ? '\n' : '') +
        card(
          columns.map((c) => [c.header, c.cells[row]!, c.fit === 'keep'] as const),
          target.width,
          target.paint.header,
        );
    }
    yield piece;
  }
}

function* recordForPeople<T>(view: RecordView<T>, target: RenderTarget): Generator<string> {
  const paint = target.paint;
  const label = (field: Column<T>) => headerOf(field, [view.record], target);
  // A field without a value is left out, but for one that says so (an empty list: `none`).
  const pairs = view.fields.flatMap((field) => {
    if (rawText(field.value(view.record)) !== '')
      return [
        [label(field), displayOf(field, target)(view.record), fitOf(field) === 'keep'] as const,
      ];
    return field.empty ? [[label(field), paint.dim(field.empty), false] as const] : [];
  });
  yield textLines(view.title ? [view.title] : [], target, paint.title);
  // Labels are padded to the longest of all, shown or not: the values of a view start in the same
  // column whichever fields its reply has.
  const widest = view.fields.reduce((max, f) => Math.max(max, visibleWidth(label(f))), 0);
  for (const some of slices(pairs)) yield labelledLines(some, target.width, paint.dim, widest);
  yield textLines(view.footer, target, paint.dim);
}
