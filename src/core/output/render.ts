// Turns a view into a table for people: boxed with colour on a terminal, tab-separated in a pipe.
// The machine formats are made from the reply itself (records.ts, json.ts).
import { narrowToFit } from './fit.js';
import { tabCell } from './format.js';
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
    // In a pipe a lone table stays one header line and its rows; several are parted by a blank
    // line and named by their headings, each with its own header line.
    const named = target.terminal || view.parts.length > 1;
    let out = view.title && target.terminal ? paint.title(view.title) + '\n' : '';
    if (view.parts.length === 0) out += (view.empty ?? 'Nothing to show.') + '\n';
    out += view.parts.map((part) => (part.heading && named ? paint.title(part.heading) + '\n' : '') + renderTable(part.view, target)).join('\n');
    return out + footerLines(view.footer, paint) + (target.terminal ? footerLines(view.hints, paint) : '');
  }
  if (view.kind === 'record') return target.terminal ? recordForPeople(view, paint) : recordTabs(view, paint);
  return target.terminal ? listForPeople(view, target) : listTabs(view, paint);
}

function rawText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number' && !Number.isFinite(cell)) return '';
  return String(cell);
}

function displayText<T>(column: Column<T>, row: T, paint: Paint): string {
  return column.display ? column.display(row, paint) : rawText(column.value(row));
}

function sectionColumn<T>(section: NonNullable<ListView<T>['section']>): Column<T> {
  return { key: section.key, header: section.header, value: section.value };
}

function listTabs<T>(view: ListView<T>, paint: Paint): string {
  const shared = view.shared;
  const columns = [
    ...(shared ? [{ key: shared.header, header: shared.header, value: () => shared.value }] : []),
    ...(view.section ? [sectionColumn(view.section)] : []),
    ...view.columns,
  ];
  let out = columns.map((c) => paint.header(c.header)).join('\t') + '\n';
  for (const row of view.rows) out += columns.map((c) => tabCell(displayText(c, row, paint))).join('\t') + '\n';
  return out + footerLines(view.footer, paint);
}

function recordTabs<T>(view: RecordView<T>, paint: Paint): string {
  let out = `${paint.header('FIELD')}\t${paint.header('VALUE')}\n`;
  for (const field of view.fields) out += `${tabCell(field.key)}\t${tabCell(displayText(field, view.record, paint))}\n`;
  return out + footerLines(view.footer, paint);
}

function footerLines(footer: string[] | undefined, paint: Paint): string {
  return (footer ?? []).map((line) => paint.dim(line) + '\n').join('');
}

function listForPeople<T>(view: ListView<T>, target: RenderTarget): string {
  const paint = target.paint;
  let out = view.title ? paint.title(view.title) + '\n' : '';
  if (view.rows.length === 0) return out + (view.empty ?? 'Nothing to show.') + '\n' + footerLines(view.footer, paint);
  if (!view.section) return out + boxedTable(view.columns, view.rows, target) + '\n' + footerLines(view.footer, paint);
  const groups = new Map<string, T[]>();
  for (const row of view.rows) {
    const name = view.section.value(row);
    groups.set(name, [...(groups.get(name) ?? []), row]);
  }
  const parts = [...groups].map(([name, rows]) => paint.title(name) + '\n' + boxedTable(view.columns, rows, target));
  return out + parts.join('\n\n') + '\n' + footerLines(view.footer, paint);
}

function boxedTable<T>(columns: Column<T>[], rows: T[], { paint, width, Table }: RenderTarget): string {
  if (!Table) throw new Error('boxed tables need cli-table3 in the render target');
  const head = columns.map((c) => paint.header(c.header));
  const body = rows.map((row) => columns.map((c) => displayText(c, row, paint)));
  const colWidths = fitColumns([head, ...body], width, columns.map((c) => c.flex === true));
  const table = new Table({
    head,
    colAligns: columns.map((c) => c.align ?? 'left'),
    // compact: a rule under the header only, not between rows.
    style: { head: [], border: [], compact: true },
    ...(colWidths ? { colWidths, wordWrap: true } : {}),
  });
  for (const cells of body) table.push(cells);
  return table.toString();
}

/**
 * Column widths (padding included) that fit the terminal, the free-text (flex) columns narrowed
 * so their cells wrap; undefined when the table fits as it is.
 */
export function fitColumns(cells: string[][], available: number, flex: boolean[]): number[] | undefined {
  const count = cells[0]?.length ?? 0;
  const widths = Array.from({ length: count }, (_, i) => 2 + Math.max(...cells.map((row) => visibleWidth(row[i] ?? ''))));
  // A boxed table draws a border between columns and at both ends.
  const room = available - (count + 1);
  return widths.reduce((a, b) => a + b, 0) <= room ? undefined : narrowToFit(widths, flex, room);
}

function visibleWidth(text: string): number {
  return Math.max(...text.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((line) => [...line].length));
}

function recordForPeople<T>(view: RecordView<T>, paint: Paint): string {
  const width = Math.max(...view.fields.map((f) => f.header.length));
  let out = view.title ? paint.title(view.title) + '\n' : '';
  for (const field of view.fields) {
    if (rawText(field.value(view.record)) === '') continue;
    const lines = displayText(field, view.record, paint).split('\n');
    const pad = ' '.repeat(width + 2);
    out += paint.dim(field.header.padEnd(width)) + '  ' + lines.join('\n' + pad) + '\n';
  }
  return out + footerLines(view.footer, paint);
}
