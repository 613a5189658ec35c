// Turns a view into a table for people: boxed with colour on a terminal, tab-separated in a pipe.
// On a terminal everything fits its width (fit.ts): a table narrows its columns as they allow, or
// becomes one card of labelled values per row; field lists wrap their values; titles, headings and
// footers wrap between words. A pipe gets every line whole, whatever the width.
// The machine formats are made from the reply itself (records.ts, json.ts).
import { card, cellLines, fitOf, fitWidths, labelledLines, visibleWidth, wrapText, type FitColumn } from './fit.js';
import { tabCell } from './format.js';
import { formatTimestamp, relativeRuleFor, type TimeSetting } from './time.js';
import type Table from 'cli-table3';
import type { Paint } from './paint.js';
import type { Cell, Column, ListView, RecordView, View } from './view.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface RenderTarget {
  /** Boxed tables with colour for a terminal; tab-separated lines otherwise. */
  terminal: boolean;
  /** Columns of the terminal, to fit tables in. */
  width: number;
  paint: Paint;
  /** cli-table3, loaded only for boxed tables on a terminal. */
  Table?: typeof Table;
  /**
   * The zone times are shown in, and the moment that says how far off they are (on a terminal
   * only, as gh does); without it, times are shown in UTC alone.
   */
  time?: TimeSetting;
}

export interface Reply {
  /** The body exactly as received. */
  raw: string;
  body: unknown;
}

/** A view as a table for people: boxed with colour on a terminal, tab-separated lines otherwise. */
export function renderTable(view: View, target: RenderTarget): string {
  const paint = target.paint;
  if (view.kind === 'sections') {
    // Lines for people wrap on a terminal only: in a pipe each stays one line (textLines).
    // In a pipe a lone table stays one header line and its rows; several are parted by a blank
    // line and named by their headings, each with its own header line.
    const named = target.terminal || view.parts.length > 1;
    let out = view.title && target.terminal ? textLines([view.title], target, paint.title) : '';
    if (view.parts.length === 0) out += textLines([view.empty ?? 'Nothing to show.'], target, plainText);
    out += view.parts.map((part) => (part.heading && named ? textLines([part.heading], target, paint.title) : '') + renderTable(part.view, target)).join('\n');
    return out + textLines(view.footer, target, paint.dim) + (target.terminal ? textLines(view.hints, target, paint.dim) : '');
  }
  if (view.kind === 'record') return target.terminal ? recordForPeople(view, target) : recordTabs(view, target);
  return target.terminal ? listForPeople(view, target) : listTabs(view, target);
}

const plainText = (text: string) => text;

/**
 * Lines of prose, each styled and ended by a line break; on a terminal wrapped between words (never
 * inside a number or an id), in a pipe each one line.
 */
export function textLines(lines: readonly string[] | undefined, target: Pick<RenderTarget, 'terminal' | 'width'>, style: (text: string) => string): string {
  return (lines ?? [])
    .flatMap((line) => (target.terminal ? wrapText(line, target.width, 'prose') : [line]))
    .map((line) => style(line) + '\n')
    .join('');
}

function rawText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number' && !Number.isFinite(cell)) return '';
  return String(cell);
}

/**
 * How a column's cells read for people: the column's own display, else its value, a timestamp in
 * it shown in the local zone (time.ts), with how far off it is on a terminal.
 */
function displayOf<T>(column: Column<T>, target: RenderTarget): (row: T) => string {
  if (column.display) return (row) => column.display!(row, target.paint);
  const { time } = target;
  const rule = relativeRuleFor(column.key);
  return (row) => {
    const value = column.value(row);
    if (typeof value !== 'string') return rawText(value);
    // On a terminal the date, time and zone are glued into one word that no narrowing breaks.
    return formatTimestamp(value, { zone: time ? time.zone : 'UTC', now: target.terminal ? time?.now : undefined }, rule, target.terminal ? GLUE : ' ');
  };
}

/** A space no wrapping breaks at (fit.ts parts words at spaces and tabs only); a terminal is shown a space. */
const GLUE = '\u00a0';

const unglued = (text: string) => text.replaceAll(GLUE, ' ');

function sectionColumn<T>(section: NonNullable<ListView<T>['section']>): Column<T> {
  return { key: section.key, header: section.header, value: section.value };
}

function listTabs<T>(view: ListView<T>, target: RenderTarget): string {
  const paint = target.paint;
  const shared = view.shared;
  const columns = [
    ...(shared ? [{ key: shared.header, header: shared.header, value: () => shared.value }] : []),
    ...(view.section ? [sectionColumn(view.section)] : []),
    ...view.columns,
  ];
  const displays = columns.map((c) => displayOf(c, target));
  let out = columns.map((c) => paint.header(c.header)).join('\t') + '\n';
  for (const row of view.rows) out += displays.map((display) => tabCell(display(row))).join('\t') + '\n';
  return out + textLines(view.footer, target, paint.dim);
}

function recordTabs<T>(view: RecordView<T>, target: RenderTarget): string {
  const paint = target.paint;
  let out = `${paint.header('FIELD')}\t${paint.header('VALUE')}\n`;
  for (const field of view.fields) out += `${tabCell(field.key)}\t${tabCell(displayOf(field, target)(view.record))}\n`;
  return out + textLines(view.footer, target, paint.dim);
}

function listForPeople<T>(view: ListView<T>, target: RenderTarget): string {
  const paint = target.paint;
  let out = textLines(view.title ? [view.title] : [], target, paint.title);
  const footer = textLines(view.notes, target, paint.dim) + textLines(view.footer, target, paint.dim);
  if (view.rows.length === 0) return out + textLines([view.empty ?? 'Nothing to show.'], target, plainText) + footer;
  if (!view.section) return out + fittedTable(view.columns, view.rows, target) + footer;
  const groups = new Map<string, T[]>();
  for (const row of view.rows) {
    const name = view.section.value(row);
    const group = groups.get(name);
    if (group) group.push(row);
    else groups.set(name, [row]);
  }
  const parts = [...groups].map(([name, rows]) => textLines([name], target, paint.title) + fittedTable(view.columns, rows, target));
  return out + parts.join('\n') + footer;
}

/** A boxed table fitted to the terminal, or one card per row when no narrowing makes it fit. */
function fittedTable<T>(columns: Column<T>[], rows: T[], target: RenderTarget): string {
  const displays = columns.map((c) => displayOf(c, target));
  const body = rows.map((row) => displays.map((display) => display(row)));
  const fitting: FitColumn[] = columns.map((c, i) => ({ fit: fitOf(c), header: c.header, cells: body.map((cells) => cells[i]!) }));
  // A boxed table draws a border between columns and at both ends, and pads each cell by one on either side.
  const widths = fitWidths(fitting, target.width - (columns.length + 1) - 2 * columns.length);
  return widths ? boxedTable(fitting, columns, widths, target) : cards(fitting, target);
}

function boxedTable<T>(fitting: readonly FitColumn[], columns: readonly Column<T>[], widths: readonly number[], { paint, Table }: RenderTarget): string {
  if (!Table) throw new Error('boxed tables need cli-table3 in the render target');
  const table = new Table({
    head: fitting.map((c, i) => cellLines(c.header, widths[i]!, 'words').map((line) => paint.header(line)).join('\n')),
    colAligns: columns.map((c) => c.align ?? 'left'),
    // compact: a rule under the header only, not between rows.
    style: { head: [], border: [], compact: true },
    // Every cell is already wrapped or cut to its column: cli-table3 only draws the box.
    colWidths: widths.map((width) => width + 2),
  });
  // A row of several lines goes in as one table row a line: the compact table draws them alike,
  // and cli-table3 is slow on cells of many lines.
  for (let row = 0; row < (fitting[0]?.cells.length ?? 0); row++) {
    const cells = fitting.map((c, i) => cellLines(c.cells[row]!, widths[i]!, c.fit));
    const height = Math.max(...cells.map((lines) => lines.length));
    for (let line = 0; line < height; line++) table.push(cells.map((lines) => unglued(lines[line] ?? '')));
  }
  return table.toString() + '\n';
}

/** A table too wide for the terminal, as one card a row (fit.ts `card`), a blank line between cards. */
function cards(columns: readonly FitColumn[], target: { width: number; paint: Paint }): string {
  const rows = columns[0]?.cells.length ?? 0;
  const blocks: string[] = [];
  for (let row = 0; row < rows; row++) {
    blocks.push(unglued(card(columns.map((c) => [c.header, c.cells[row]!] as const), target.width, target.paint.header)));
  }
  return blocks.join('\n');
}

function recordForPeople<T>(view: RecordView<T>, target: RenderTarget): string {
  const paint = target.paint;
  const pairs = view.fields
    .filter((field) => rawText(field.value(view.record)) !== '')
    .map((field) => [field.header, displayOf(field, target)(view.record)] as const);
  const title = textLines(view.title ? [view.title] : [], target, paint.title);
  // Labels are padded to the longest of all, shown or not, as they always were.
  const widest = view.fields.reduce((max, f) => Math.max(max, visibleWidth(f.header)), 0);
  return title + unglued(labelledLines(pairs, target.width, paint.dim, widest)) + textLines(view.footer, target, paint.dim);
}
