// The streaming outputs of `svc merchants resolve`: results are written batch by batch as they
// come, never gathered whole (core/stream). `--json` writes the merged reply piece by piece (the
// results first, then the counts, which are only known at the end), ndjson one result a line, CSV
// a header then rows. The table is loaded only when asked for, with its colour and formatting
// modules: machine formats start faster without them.
import type { MerchantResult } from '../api/merchants.js';
import { stringifyExact } from '../core/json/exact-stringify.js';
import { checkColumnNames } from '../core/output/column-names.js';
import { createPaint } from '../core/output/paint.js';
import type { OutputFormat } from '../core/output/render.js';
import { CsvWriter, NdjsonWriter } from '../core/stream/record-writers.js';
import type { OutputSink } from '../core/stream/sink.js';
import { pickStreamColumns, type RowWriter } from '../core/stream/table-writers.js';
import type { Tally } from './summary.js';
import { merchantColumns, merchantTableWriter, summaryLines } from './table-writers.js';

export interface ResultWriter {
  /** Writes one batch of results, in order. */
  write(results: readonly MerchantResult[]): Promise<void>;
  /**
   * Ends the output. `meta` is the `meta` of the first reply (undefined when none came);
   * `complete` is false when the run stopped early; `tally` counts the whole run, for people.
   */
  finish(meta: unknown, complete: boolean, tally?: Tally): Promise<void>;
}

export interface WriterOptions {
  format: OutputFormat;
  sink: OutputSink;
  /** stdout is a terminal: aligned, coloured columns instead of tab-separated lines. */
  terminal: boolean;
  width: number;
  color: boolean;
  /**
   * Masks the secrets in use: a cell cut to fit, or made printable, would hide a key from the
   * output's own masking.
   */
  mask?: (text: string) => string;
  /** --each-line: each result comes with the `line` it is for, shown first. */
  lines?: boolean;
  /**
   * --columns: the columns of the table or CSV, in this order; a name neither has is exit 2, before
   * any request.
   */
  columns?: readonly string[];
  /** False for --no-headers. */
  headers?: boolean;
  /** False for --no-formula-guard: CSV cells as received. */
  formulaGuard?: boolean;
}

export async function createWriter(options: WriterOptions): Promise<ResultWriter> {
  switch (options.format) {
    case 'json':
      return new JsonReplyWriter(options.sink);
    case 'ndjson':
      return withoutMeta(new NdjsonWriter(options.sink));
    case 'csv': {
      const keys = options.lines ? ['line', ...CSV_KEYS] : CSV_KEYS;
      if (options.columns) checkColumnNames(options.columns, keys);
      const csv = { headers: options.headers, formulaGuard: options.formulaGuard };
      return withoutMeta(
        new CsvWriter<MerchantResult>(
          options.sink,
          options.columns ?? keys,
          (result, key) => result[key as keyof MerchantResult],
          csv,
        ),
      );
    }
    case 'table':
    case 'wide': {
      const columns = pickStreamColumns(merchantColumns(options.lines === true), options.columns);
      const paint = await createPaint(options.color);
      const layout = { headers: options.headers, wide: options.format === 'wide' };
      const table = merchantTableWriter(
        options.sink,
        paint,
        options.terminal ? { width: options.width } : undefined,
        columns,
        options.mask,
        layout,
      );
      if (!options.terminal) return withoutMeta(table);
      // On a terminal the table ends with one line that sums the run up.
      return {
        write: (results) => table.write(results),
        async finish(_meta, complete, tally) {
          await table.finish(complete);
          // A run that failed before any answer has no table to sum up: the error says it all.
          if (tally && (complete || tally.answered > 0))
            await options.sink.write(summaryLines(tally, complete, options.width, paint));
        },
      };
    }
  }
}

function withoutMeta(writer: RowWriter<MerchantResult>): ResultWriter {
  return {
    write: (results) => writer.write(results),
    finish: (_meta, complete) => writer.finish(complete),
  };
}

/** CSV carries the raw values, and the lookup's type. */
const CSV_KEYS = ['input', 'type', 'matched', 'terminal', 'merchant', 'mcc', 'category', 'city'];

/**
 * The merged reply of the documented shape: `{"data": {"results": [...], "count", "matched"},
 * "meta"}`, written piece by piece. A piece's results are made in one native stringify, nested as
 * deep as the list stands in the document so that they come out indented where they belong, with no
 * pass over the text to indent it (at a million results that pass would make a third of everything
 * the run allocates); the comma that joins a piece to the one before comes out of the same
 * stringify (a null item ahead of the piece, cut off with the brackets), so no piece's text is
 * copied to join it, and a piece is one write (a progress bar on the terminal is cleared and
 * redrawn at each).
 */
class JsonReplyWriter implements ResultWriter {
  private count = 0;
  private matched = 0;

  constructor(private readonly sink: OutputSink) {}

  async write(results: readonly MerchantResult[]): Promise<void> {
    for (let from = 0; from < results.length; from += RESULTS_A_PIECE) {
      const piece =
        from === 0 && results.length <= RESULTS_A_PIECE
          ? results
          : results.slice(from, from + RESULTS_A_PIECE);
      for (const result of piece) if (result.matched) this.matched++;
      const first = this.count === 0;
      this.count += piece.length;
      // `[[[r1, r2]]]` with two spaces a level puts each result six spaces in, as in the document;
      // `[[[null, r1, r2]]]` cut after the null starts with the comma, the same way. Numbers as
      // received (exact-stringify.ts): JSON.stringify itself where nothing was kept as text.
      const nested = stringifyExact([[first ? piece : [null, ...piece]]], 2)!;
      const text = nested.slice(
        first ? NESTED_OPEN.length : JOINED_OPEN.length,
        nested.length - NESTED_CLOSE.length,
      );
      // Only the run's first piece is copied, once, to put the head before it.
      await this.sink.write(first ? HEAD + text : text);
    }
  }

  async finish(meta: unknown, complete: boolean): Promise<void> {
    // A run that failed before any result has no reply to show.
    if (!complete && this.count === 0) return;
    let out = `${this.count === 0 ? `${HEAD}]` : '\n    ]'},\n    "count": ${this.count},\n    "matched": ${this.matched}\n  }`;
    if (meta !== undefined)
      out += `,\n  "meta": ${stringifyExact(meta, 2)!.replace(/\n/g, '\n  ')}`;
    await this.sink.write(out + '\n}\n');
  }
}

const HEAD = '{\n  "data": {\n    "results": [';
/**
 * Results written in one piece: a piece stays under the size (128 KiB) past which V8 makes a
 * string in its old generation, which only a full collection frees, rather than in the young one.
 */
const RESULTS_A_PIECE = 250;
const NESTED_OPEN = '[\n  [\n    [';
/** How `[[[null, …]]]` opens: what is cut off before the comma that follows the null. */
const JOINED_OPEN = `${NESTED_OPEN}\n      null`;
const NESTED_CLOSE = '\n    ]\n  ]\n]';
