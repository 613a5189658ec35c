// Turns a reply and its view into the chosen output: a table for people (boxed on a terminal,
// tab-separated in a pipe), the reply as received, JSON lines, or CSV.
import Table from 'cli-table3';
import { csvLine } from './csv.js';
import { reindentJson } from './json.js';
import type { Paint } from './paint.js';
import type { Cell, Column, ListView, RecordView, View } from './view.js';

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface RenderTarget {
  format: OutputFormat;
  /** Boxed tables with colour for a terminal; tab-separated lines otherwise. */
  terminal: boolean;
  paint: Paint;
}

export interface Reply {
  /** The body exactly as received. */
  raw: string;
  body: unknown;
}

export function render(reply: Reply, view: View, target: RenderTarget): string {
  switch (target.format) {
    case 'json':
      return reindentJson(reply.raw) + '\n';
    case 'ndjson':
      return renderNdjson(reply, view);
    case 'csv':
      return view.kind === 'list' ? listCsv(view) : recordCsv(view);
    case 'table':
      if (view.kind === 'record') return target.terminal ? recordForPeople(view, target.paint) : recordTabs(view, target.paint);
      return target.terminal ? listForPeople(view, target.paint) : listTabs(view, target.paint);
  }
}

function renderNdjson(reply: Reply, view: View): string {
  const items = view.kind === 'list' && view.items ? view.items : [reply.body];
  return items.map((item) => JSON.stringify(item) + '\n').join('');
}

function rawText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  return String(cell);
}

function displayText<T>(column: Column<T>, row: T, paint: Paint): string {
  return column.display ? column.display(row, paint) : rawText(column.value(row));
}

/** Tab-separated text must stay one line per row. */
function oneLine(text: string): string {
  return text.replace(/[\t\r\n]+/g, ' ');
}

function listCsv<T>(view: ListView<T>): string {
  const columns = view.section ? [sectionColumn(view.section), ...view.columns] : view.columns;
  let out = csvLine(columns.map((c) => c.key));
  for (const row of view.rows) out += csvLine(columns.map((c) => rawText(c.value(row))));
  return out;
}

function recordCsv<T>(view: RecordView<T>): string {
  return csvLine(view.fields.map((f) => f.key)) + csvLine(view.fields.map((f) => rawText(f.value(view.record))));
}

function sectionColumn<T>(section: NonNullable<ListView<T>['section']>): Column<T> {
  return { key: section.key, header: section.header, value: section.value };
}

function listTabs<T>(view: ListView<T>, paint: Paint): string {
  const columns = view.section ? [sectionColumn(view.section), ...view.columns] : view.columns;
  let out = columns.map((c) => paint.header(c.header)).join('\t') + '\n';
  for (const row of view.rows) out += columns.map((c) => oneLine(displayText(c, row, paint))).join('\t') + '\n';
  return out + footerLines(view.footer, paint);
}

function recordTabs<T>(view: RecordView<T>, paint: Paint): string {
  let out = `${paint.header('FIELD')}\t${paint.header('VALUE')}\n`;
  for (const field of view.fields) out += `${field.key}\t${oneLine(displayText(field, view.record, paint))}\n`;
  return out + footerLines(view.footer, paint);
}

function footerLines(footer: string[] | undefined, paint: Paint): string {
  return (footer ?? []).map((line) => paint.dim(line) + '\n').join('');
}

function listForPeople<T>(view: ListView<T>, paint: Paint): string {
  let out = view.title ? paint.title(view.title) + '\n' : '';
  if (view.rows.length === 0) return out + (view.empty ?? 'Nothing to show.') + '\n' + footerLines(view.footer, paint);
  if (!view.section) return out + boxedTable(view.columns, view.rows, paint) + '\n' + footerLines(view.footer, paint);
  const groups = new Map<string, T[]>();
  for (const row of view.rows) {
    const name = view.section.value(row);
    groups.set(name, [...(groups.get(name) ?? []), row]);
  }
  const parts = [...groups].map(([name, rows]) => paint.title(name) + '\n' + boxedTable(view.columns, rows, paint));
  return out + parts.join('\n\n') + '\n' + footerLines(view.footer, paint);
}

function boxedTable<T>(columns: Column<T>[], rows: T[], paint: Paint): string {
  const table = new Table({
    head: columns.map((c) => paint.header(c.header)),
    colAligns: columns.map((c) => c.align ?? 'left'),
    style: { head: [], border: [] },
    // No rule between rows: compact, like the tables people read in gh.
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of rows) table.push(columns.map((c) => displayText(c, row, paint)));
  return table.toString();
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
