// The columns of `svc merchants resolve`'s table, written batch by batch (core/stream). What the
// command exists to show stays whole on a narrow terminal: the terminal numbers (and an input that
// is one) and the merchant names, wrapped between their words; a name as written on a statement
// (the input), the category and the city are cut first. On a terminal the table ends with one
// line that sums the run up, wrapped like any footer of a table.
import type { MerchantResult } from '../api/merchants.js';
import { valueText } from '../core/output/csv.js';
import { wrapText } from '../core/output/fit.js';
import type { Paint } from '../core/output/paint.js';
import type { OutputSink } from '../core/stream/sink.js';
import {
  AlignedTableWriter,
  type RowWriter,
  type StreamColumn,
  type TableLayout,
  TabWriter,
} from '../core/stream/table-writers.js';
import { summaryLine, type Tally } from './summary.js';

/** A value as the service sent it: an object or a list as JSON, never `[object Object]`. */
const text = (value: unknown) => valueText(value);

/** A terminal number: 16 digits or more. */
const isTerminal = (value: string) => /^\d{16,}$/.test(value);

const COLUMNS: StreamColumn<MerchantResult>[] = [
  { key: 'input', header: 'INPUT', display: (r) => r.input, flex: 'cut', keep: isTerminal },
  { key: 'terminal', header: 'TERMINAL', display: (r) => text(r.terminal), keep: true },
  { key: 'merchant', header: 'MERCHANT', display: (r) => text(r.merchant), flex: true },
  { key: 'mcc', header: 'MCC', display: (r) => text(r.mcc), keep: true },
  { key: 'category', header: 'CATEGORY', display: (r) => text(r.category), flex: 'cut' },
  { key: 'city', header: 'CITY', display: (r) => text(r.city), flex: 'cut' },
  {
    key: 'matched',
    header: 'MATCHED',
    display: (r) => (r.matched ? 'yes' : 'no'),
    keep: true,
    colour: (t, r, paint) => (r.matched ? paint.good(t) : paint.warn(t)),
  },
];

/** --each-line: the line of the input a result is for, first. */
const LINE: StreamColumn<MerchantResult> = {
  key: 'line',
  header: 'LINE',
  display: (r) => text(r.line),
  keep: true,
};

/** The table's columns: LINE first with --each-line (`lines`). */
export function merchantColumns(lines: boolean): StreamColumn<MerchantResult>[] {
  return lines ? [LINE, ...COLUMNS] : COLUMNS;
}

/**
 * Aligned for a terminal of that width, else tab-separated, in the columns given (merchantColumns,
 * or those --columns picked of them); `mask` masks the secrets in use in each cell.
 */
export function merchantTableWriter(
  sink: OutputSink,
  paint: Paint,
  terminal: { width: number } | undefined,
  columns: readonly StreamColumn<MerchantResult>[],
  mask?: (text: string) => string,
  layout: TableLayout = {},
): RowWriter<MerchantResult> {
  return terminal
    ? new AlignedTableWriter(
        sink,
        terminal.width,
        paint,
        columns,
        'No results to show.',
        mask,
        layout,
      )
    : new TabWriter(sink, paint, columns, mask, layout);
}

/**
 * The line under the table that sums the run up (summary.ts), wrapped like any footer of a table.
 */
export function summaryLines(tally: Tally, complete: boolean, width: number, paint: Paint): string {
  return wrapText(summaryLine(tally, complete, width), width)
    .map((text) => paint.dim(text) + '\n')
    .join('');
}
