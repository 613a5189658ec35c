// The columns of `svc merchants resolve`'s table, written batch by batch (core/stream). What the
// command exists to show stays whole on a narrow terminal: the terminal numbers (and an input that
// is one) and the merchant names, wrapped between their words; a name as written on a statement
// (the input), the category and the city are cut first.
import type { MerchantResult } from '../../api/merchants.js';
import type { Paint } from '../../core/output/paint.js';
import type { OutputSink } from '../../core/stream/sink.js';
import { AlignedTableWriter, TabWriter, type RowWriter, type StreamColumn } from '../../core/stream/table-writers.js';

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** A terminal number: 16 digits or more. */
const isTerminal = (value: string) => /^\d{16,}$/.test(value);

const COLUMNS: StreamColumn<MerchantResult>[] = [
  { header: 'INPUT', display: (r) => r.input, flex: 'cut', keep: isTerminal },
  { header: 'TERMINAL', display: (r) => text(r.terminal), keep: true },
  { header: 'MERCHANT', display: (r) => text(r.merchant), flex: true },
  { header: 'MCC', display: (r) => text(r.mcc), keep: true },
  { header: 'CATEGORY', display: (r) => text(r.category), flex: 'cut' },
  { header: 'CITY', display: (r) => text(r.city), flex: 'cut' },
  { header: 'MATCHED', display: (r) => (r.matched ? 'yes' : 'no'), keep: true, colour: (t, r, paint) => (r.matched ? paint.good(t) : paint.warn(t)) },
];

export function merchantTableWriter(sink: OutputSink, paint: Paint, terminal: { width: number; mask?: (text: string) => string } | undefined): RowWriter<MerchantResult> {
  return terminal ? new AlignedTableWriter(sink, terminal.width, paint, COLUMNS, 'No results to show.', terminal.mask) : new TabWriter(sink, paint, COLUMNS);
}
