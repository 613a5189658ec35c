// The streaming outputs of `svc merchants resolve`: results are written batch by batch as they
// come, never gathered whole (core/stream). `--json` writes the merged reply piece by piece (the
// results first, then the counts, which are only known at the end), ndjson one result a line, CSV
// a header then rows. The table is loaded only when asked for, with its colour and formatting
// modules: machine formats start faster without them.
import type { MerchantResult } from '../../api/merchants.js';
import type { OutputFormat } from '../../core/output/render.js';
import { CsvWriter, JsonListWriter, NdjsonWriter } from '../../core/stream/record-writers.js';
import type { OutputSink } from '../../core/stream/sink.js';
import type { RowWriter } from '../../core/stream/table-writers.js';

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
      return new JsonReplyWriter(options.sink);
    case 'ndjson':
      return withoutMeta(new NdjsonWriter(options.sink));
    case 'csv':
      return withoutMeta(new CsvWriter<MerchantResult>(options.sink, CSV_KEYS, (result, key) => text(result[key as keyof MerchantResult])));
    case 'table': {
      const [{ merchantTableWriter }, { createPaint }] = await Promise.all([import('./table-writers.js'), import('../../core/output/paint.js')]);
      const paint = await createPaint(options.color);
      return withoutMeta(merchantTableWriter(options.sink, paint, options.terminal ? { width: options.width, mask: options.mask } : undefined));
    }
  }
}

function withoutMeta(writer: RowWriter<MerchantResult>): ResultWriter {
  return { write: (results) => writer.write(results), finish: (_meta, complete) => writer.finish(complete) };
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** CSV carries the raw values, and the lookup's type. */
const CSV_KEYS = ['input', 'type', 'matched', 'terminal', 'merchant', 'mcc', 'category', 'city'];

/** The merged reply of the documented shape: `{"data": {"results": [...], "count", "matched"}, "meta"}`. */
class JsonReplyWriter implements ResultWriter {
  private readonly results: JsonListWriter<MerchantResult>;
  private count = 0;
  private matched = 0;

  constructor(private readonly sink: OutputSink) {
    this.results = new JsonListWriter(sink, '{\n  "data": {\n    "results": [', '    ');
  }

  async write(results: readonly MerchantResult[]): Promise<void> {
    this.count += results.length;
    for (const result of results) if (result.matched) this.matched++;
    await this.results.write(results);
  }

  async finish(meta: unknown, complete: boolean): Promise<void> {
    // A run that failed before any result has no reply to show.
    if (!complete && !this.results.hasItems) return;
    let out = `${this.results.closing()},\n    "count": ${this.count},\n    "matched": ${this.matched}\n  }`;
    if (meta !== undefined) out += `,\n  "meta": ${JSON.stringify(meta, null, 2).replace(/\n/g, '\n  ')}`;
    await this.sink.write(out + '\n}\n');
  }
}
