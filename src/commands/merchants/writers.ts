// The streaming outputs of `svc merchants resolve`: results are written batch by batch as they
// come, never gathered whole. `--json` writes the merged reply piece by piece (the results first,
// then the counts, which are only known at the end), ndjson one result a line, CSV a header then
// rows. The table (table-writers.ts) is loaded only when asked for, with its colour and
// formatting modules: machine formats start faster without them.
import type { MerchantResult } from '../../api/merchants.js';
import { csvField, csvLine } from '../../core/output/csv.js';
import type { OutputFormat } from '../../core/output/render.js';
import type { OutputSink } from './sink.js';

export interface ResultWriter {
  /** Writes one batch of results, in order. */
  write(results: readonly MerchantResult[]): Promise<void>;
  /**
   * Ends the output. `meta` is the `meta` of the first reply (undefined when none came);
   * `complete` is false when the run stopped early.
   */
  finish(meta: unknown, complete: boolean): Promise<void>;
}

export interface WriterOptions {
  format: OutputFormat;
  sink: OutputSink;
  /** stdout is a terminal: aligned, coloured columns instead of tab-separated lines. */
  terminal: boolean;
  width: number;
  color: boolean;
  /** Masks the secrets in use: a cell cut to fit would hide a key from the output's own masking. */
  mask?: (text: string) => string;
}

export async function createWriter(options: WriterOptions): Promise<ResultWriter> {
  switch (options.format) {
    case 'json':
      return new JsonWriter(options.sink);
    case 'ndjson':
      return { write: (results) => options.sink.write(results.map((r) => JSON.stringify(r) + '\n').join('')), finish: async () => {} };
    case 'csv':
      return new CsvWriter(options.sink);
    case 'table': {
      const [{ AlignedTableWriter, TabWriter }, { createPaint }] = await Promise.all([import('./table-writers.js'), import('../../core/output/paint.js')]);
      const paint = await createPaint(options.color);
      return options.terminal ? new AlignedTableWriter(options.sink, options.width, paint, options.mask) : new TabWriter(options.sink, paint);
    }
  }
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** CSV carries the raw values, and the lookup's type. */
const CSV_KEYS = ['input', 'type', 'matched', 'terminal', 'merchant', 'mcc', 'category', 'city'] as const;

class JsonWriter implements ResultWriter {
  private started = false;
  private count = 0;
  private matched = 0;

  constructor(private readonly sink: OutputSink) {}

  async write(results: readonly MerchantResult[]): Promise<void> {
    if (results.length === 0) return;
    let out = this.started ? ',' : '{\n  "data": {\n    "results": [';
    // One native stringify of the batch as an array, its brackets cut off and its lines moved
    // in under "results": a thousand results take a fraction of a thousand stringify calls.
    out += JSON.stringify(results, null, 2).slice(1, -2).replace(/\n/g, '\n    ');
    this.count += results.length;
    for (const result of results) if (result.matched) this.matched++;
    this.started = true;
    await this.sink.write(out);
  }

  async finish(meta: unknown, complete: boolean): Promise<void> {
    // A run that failed before any result has no reply to show.
    if (!complete && !this.started) return;
    let out = this.started ? '\n    ],\n' : '{\n  "data": {\n    "results": [],\n';
    out += `    "count": ${this.count},\n    "matched": ${this.matched}\n  }`;
    if (meta !== undefined) out += `,\n  "meta": ${indent(JSON.stringify(meta, null, 2), '  ')}`;
    await this.sink.write(out + '\n}\n');
  }
}

function indent(json: string, by: string): string {
  return json.replace(/\n/g, '\n' + by);
}


class CsvWriter implements ResultWriter {
  private started = false;

  constructor(private readonly sink: OutputSink) {}

  async write(results: readonly MerchantResult[]): Promise<void> {
    let out = this.started ? '' : csvLine([...CSV_KEYS]);
    this.started = true;
    // Field by field, without an array per row: at 200,000 rows the arrays cost more than the text.
    for (const result of results) {
      out += csvField(text(result[CSV_KEYS[0]]));
      for (let i = 1; i < CSV_KEYS.length; i++) out += ',' + csvField(text(result[CSV_KEYS[i]!]));
      out += '\r\n';
    }
    await this.sink.write(out);
  }

  async finish(_meta: unknown, complete: boolean): Promise<void> {
    // A run that failed before any result writes nothing: an error is not an empty table.
    if (!this.started && complete) await this.sink.write(csvLine([...CSV_KEYS]));
  }
}

