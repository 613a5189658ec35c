// The columns of `svc merchants resolve`'s table, written batch by batch (core/stream).
import type { MerchantResult } from '../../api/merchants.js';
import type { Paint } from '../../core/output/paint.js';
import type { OutputSink } from '../../core/stream/sink.js';
import { AlignedTableWriter, TabWriter, type RowWriter, type StreamColumn } from '../../core/stream/table-writers.js';

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

const COLUMNS: StreamColumn<MerchantResult>[] = [
  { header: 'INPUT', display: (r) => r.input, flex: true },
  { header: 'TERMINAL', display: (r) => text(r.terminal) },
  { header: 'MERCHANT', display: (r) => text(r.merchant), flex: true },
  { header: 'MCC', display: (r) => text(r.mcc) },
  { header: 'CATEGORY', display: (r) => text(r.category) },
  { header: 'CITY', display: (r) => text(r.city) },
  { header: 'MATCHED', display: (r) => (r.matched ? 'yes' : 'no'), colour: (t, r, paint) => (r.matched ? paint.good(t) : paint.warn(t)) },
];

export function merchantTableWriter(sink: OutputSink, paint: Paint, terminal: { width: number; mask?: (text: string) => string } | undefined): RowWriter<MerchantResult> {
  return terminal ? new AlignedTableWriter(sink, terminal.width, paint, COLUMNS, 'No results to show.', terminal.mask) : new TabWriter(sink, paint, COLUMNS);
}
