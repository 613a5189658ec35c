// Tables written batch by batch as rows arrive, never gathered whole: tab-separated lines for a
// pipe, aligned and coloured columns for a terminal. A command gives the columns.
import { cutToWidth, narrowToFit } from '../output/fit.js';
import { printable, tabCell } from '../output/format.js';
import type { Paint } from '../output/paint.js';
import type { OutputSink } from './sink.js';

export interface StreamColumn<T> {
  header: string;
  /** The value for people. */
  display: (row: T) => string;
  /** Free text that gives up room first when the terminal is narrow. */
  flex?: boolean;
  /** Colours a cell, already cut and padded. */
  colour?: (text: string, row: T, paint: Paint) => string;
}

/** Writes rows as they come; `finish` ends the table (`complete` false when the run stopped early). */
export interface RowWriter<T> {
  write(rows: readonly T[]): Promise<void>;
  finish(complete: boolean): Promise<void>;
}

/** Text from the service made safe for one cell of one line. */
function cell(value: string): string {
  return tabCell(printable(value));
}

/** For a pipe: one header line, then one tab-separated line a row, no escapes. */
export class TabWriter<T> implements RowWriter<T> {
  private started = false;

  constructor(
    private readonly sink: OutputSink,
    private readonly paint: Paint,
    private readonly columns: readonly StreamColumn<T>[],
  ) {}

  async write(rows: readonly T[]): Promise<void> {
    let out = this.started ? '' : this.header();
    this.started = true;
    for (const row of rows) out += this.columns.map((c) => cell(c.display(row))).join('\t') + '\n';
    await this.sink.write(out);
  }

  async finish(complete: boolean): Promise<void> {
    if (!this.started && complete) await this.sink.write(this.header());
  }

  private header(): string {
    return this.columns.map((c) => this.paint.header(c.header)).join('\t') + '\n';
  }
}

const GAP = 2;

/**
 * For a terminal: aligned columns under a coloured header. The widths come from the first batch
 * (a boxed table would need every row first); longer values later are cut with an ellipsis.
 */
export class AlignedTableWriter<T> implements RowWriter<T> {
  private widths?: number[];

  constructor(
    private readonly sink: OutputSink,
    private readonly width: number,
    private readonly paint: Paint,
    private readonly columns: readonly StreamColumn<T>[],
    /** Said when the run ends with no row. */
    private readonly empty: string,
    /** Masks the secrets in use: a cell cut to fit would hide a key from the output's own masking. */
    private readonly mask: (text: string) => string = (text) => text,
  ) {}

  async write(rows: readonly T[]): Promise<void> {
    if (rows.length === 0) return;
    const cellOf = (c: StreamColumn<T>, row: T) => cell(this.mask(c.display(row)));
    let out = '';
    if (!this.widths) {
      const natural = this.columns.map((c) => Math.max(c.header.length, ...rows.map((row) => [...cellOf(c, row)].length)));
      this.widths = narrowToFit(natural, this.columns.map((c) => c.flex === true), this.width - GAP * (this.columns.length - 1));
      out += this.line(this.columns.map((c) => c.header), (text) => this.paint.header(text));
    }
    for (const row of rows) {
      out += this.line(
        this.columns.map((c) => cellOf(c, row)),
        (text, i) => this.columns[i]!.colour?.(text, row, this.paint) ?? text,
      );
    }
    await this.sink.write(out);
  }

  async finish(complete: boolean): Promise<void> {
    if (!this.widths && complete) await this.sink.write(this.empty + '\n');
  }

  private line(values: string[], colour: (text: string, index: number) => string): string {
    const widths = this.widths!;
    const cells = values.map((value, i) => {
      const fitted = cutToWidth(value, widths[i]!);
      const padded = i === values.length - 1 ? fitted : fitted + ' '.repeat(widths[i]! - [...fitted].length);
      return colour(padded, i);
    });
    return cells.join(' '.repeat(GAP)).trimEnd() + '\n';
  }
}
