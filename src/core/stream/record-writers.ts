// Machine formats written batch by batch as records arrive, never gathered whole: NDJSON one
// record a line, CSV a header then rows.
import { stringifyExact } from '../json/exact-stringify.js';
import { csvCell, csvLine } from '../output/csv.js';
import type { OutputSink } from './sink.js';
import type { RowWriter } from './table-writers.js';

export class NdjsonWriter<T> implements RowWriter<T> {
  constructor(private readonly sink: OutputSink) {}

  write(rows: readonly T[]): Promise<void> {
    // Numbers as received: a reply may hold some JSON.parse would not give back (exact-number.ts).
    return this.sink.write(rows.map((row) => stringifyExact(row) + '\n').join(''));
  }

  async finish(): Promise<void> {}
}

/**
 * CSV with the given columns, each value written by the one CSV encoder (output/csv.ts); a run
 * that fails before any row writes nothing (an error is not an empty table).
 */
export class CsvWriter<T> implements RowWriter<T> {
  private started = false;

  constructor(
    private readonly sink: OutputSink,
    private readonly keys: readonly string[],
    /**
     * The value of a column, as received: the encoder writes it and keeps it from running as a
     * formula.
     */
    private readonly field: (row: T, key: string) => unknown,
    /**
     * `headers` false: no header row (--no-headers); `formulaGuard` false: cells as received
     * (--no-formula-guard).
     */
    private readonly options: { headers?: boolean; formulaGuard?: boolean } = {},
  ) {}

  async write(rows: readonly T[]): Promise<void> {
    let out = this.started ? '' : this.header();
    this.started = true;
    const guard = this.options.formulaGuard !== false;
    // Field by field, without an array per row: at 200,000 rows the arrays cost more than the text.
    for (const row of rows) {
      out += csvCell(this.field(row, this.keys[0]!), guard);
      for (let i = 1; i < this.keys.length; i++)
        out += ',' + csvCell(this.field(row, this.keys[i]!), guard);
      out += '\r\n';
    }
    await this.sink.write(out);
  }

  async finish(complete: boolean): Promise<void> {
    if (!this.started && complete) await this.sink.write(this.header());
  }

  private header(): string {
    return this.options.headers === false
      ? ''
      : csvLine([...this.keys], this.options.formulaGuard !== false);
  }
}
