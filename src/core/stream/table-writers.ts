// Tables written batch by batch as rows arrive, never gathered whole: tab-separated lines for a
// pipe, aligned and coloured columns for a terminal. A command gives the columns, and --columns
// may pick them (pickStreamColumns).
import { checkColumnNames } from '../output/column-names.js';
import {
  card,
  CARDS_BELOW,
  cellLines,
  type Fit,
  type FitColumn,
  fitOf,
  fitWidths,
  glueDateTimes,
  lineWidth,
  measureColumn,
  padTo,
  visibleWidth,
  wrapText,
} from '../output/fit.js';
import { printable, tabCell } from '../output/format.js';
import type { Paint } from '../output/paint.js';
import type { OutputSink } from './sink.js';

export interface StreamColumn<T> {
  /** The field it shows, as --columns names it. */
  key: string;
  header: string;
  /** The value for people. */
  display: (row: T) => string;
  /**
   * Never cut (ids, numbers); as a test of the value, only the values it holds true for (an input
   * that is a terminal number), the others of the column being free text as `flex` says.
   */
  keep?: boolean | ((value: string) => boolean);
  /**
   * Free text that gives up room first when the terminal is narrow: wrapped, or with 'cut' cut with
   * an ellipsis.
   */
  flex?: boolean | 'cut';
  /** Colours a cell, already cut and padded. */
  colour?: (text: string, row: T, paint: Paint) => string;
}

/**
 * Writes rows as they come; `finish` ends the table (`complete` false when the run stopped early).
 */
export interface RowWriter<T> {
  write(rows: readonly T[]): Promise<void>;
  finish(complete: boolean): Promise<void>;
}

/**
 * The columns --columns names, in its order (a name none has: exit 2 naming those there are); all
 * of them without it.
 */
export function pickStreamColumns<T>(
  columns: readonly StreamColumn<T>[],
  names: readonly string[] | undefined,
): StreamColumn<T>[] {
  if (!names) return [...columns];
  checkColumnNames(
    names,
    columns.map((c) => c.key),
  );
  return names.map((name) => columns.find((c) => c.key === name)!);
}

/**
 * How a table is laid out: --no-headers leaves its header line out; -o wide wraps its free text
 * rather than cut it.
 */
export interface TableLayout {
  headers?: boolean;
  wide?: boolean;
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
    /**
     * Masks the secrets in use, before a cell is made printable: what that leaves of an escape
     * sequence would hide a key from the output's own masking.
     */
    private readonly mask: (text: string) => string = (text) => text,
    private readonly layout: TableLayout = {},
  ) {}

  async write(rows: readonly T[]): Promise<void> {
    let out = this.started ? '' : this.header();
    this.started = true;
    for (const row of rows)
      out += this.columns.map((c) => cell(this.mask(c.display(row)))).join('\t') + '\n';
    await this.sink.write(out);
  }

  async finish(complete: boolean): Promise<void> {
    if (!this.started && complete) await this.sink.write(this.header());
  }

  private header(): string {
    if (this.layout.headers === false) return '';
    return this.columns.map((c) => this.paint.header(c.header)).join('\t') + '\n';
  }
}

/** A value its column never cuts. */
function kept<T>(column: StreamColumn<T>, value: string): boolean {
  return typeof column.keep === 'function'
    ? column.keep(value)
    : column.keep === true && value !== '';
}

/** Spaces between columns: two where every text fits whole, else one, which leaves more of it. */
const GAPS = [2, 1];

/**
 * For a terminal: aligned columns under a coloured header, fitted to the width by the rule of boxed
 * tables (fit.ts), free text cut to one line (wrapped with -o wide). The widths come from the
 * first batch (a boxed table would need every row first): later values of a free-text column are
 * cut or wrapped to them. From 60 columns up, a table too wide gives up its last columns (said
 * under it) rather than become cards. A later row with a value that must stay whole (a kept one,
 * or a word that `staysWhole`) wider than its column is written as a card, the table going on
 * under it: such a value is never cut nor broken over lines. When even the narrowest columns are
 * too wide, each row is written as a card of `HEADER  value` lines.
 */
export class AlignedTableWriter<T> implements RowWriter<T> {
  private layout?: { widths: number[]; gap: number } | 'cards';
  private fits: Fit[] = [];
  /** The columns shown: all of them, but those a terminal of this width has no room for. */
  private shown: readonly StreamColumn<T>[];
  /** The headers of the columns left out for want of room. */
  private leftOut: string[] = [];
  /** The last row written was a card among the rows of an aligned table. */
  private afterCard = false;

  constructor(
    private readonly sink: OutputSink,
    private readonly width: number,
    private readonly paint: Paint,
    private readonly columns: readonly StreamColumn<T>[],
    /** Said when the run ends with no row. */
    private readonly empty: string,
    /**
     * Masks the secrets in use: a cell cut to fit, or made printable, would hide a key from the
     * output's own masking.
     */
    private readonly mask: (text: string) => string = (text) => text,
    private readonly options: TableLayout = {},
  ) {
    this.shown = columns;
  }

  async write(rows: readonly T[]): Promise<void> {
    if (rows.length === 0) return;
    // A date and its time are one word, as in a boxed table.
    const cellsOf = (columns: readonly StreamColumn<T>[]) =>
      rows.map((row) => columns.map((c) => glueDateTimes(cell(this.mask(c.display(row))))));
    let cells = cellsOf(this.shown);
    let out = '';
    if (!this.layout) {
      this.layout = this.fit(cells);
      if (this.shown.length < this.columns.length) cells = cellsOf(this.shown);
      if (this.layout !== 'cards' && this.options.headers !== false)
        out +=
          this.line(
            this.shown.map((c) => c.header),
            this.layout,
            'words',
            (text) => this.paint.header(text),
          ) ?? '';
    } else if (this.layout === 'cards') {
      out += '\n';
    }
    const layout = this.layout;
    rows.forEach((row, r) => {
      const colour = (text: string, i: number) =>
        this.shown[i]!.colour?.(text, row, this.paint) ?? text;
      const line = layout === 'cards' ? undefined : this.line(cells[r]!, layout, undefined, colour);
      if (line !== undefined) {
        // A row after a card among the table's rows: a blank line first.
        if (this.afterCard) out += '\n';
        this.afterCard = false;
        out += line;
        return;
      }
      // Cards are parted by a blank line, and a card among the rows of a table from the rows around
      // it.
      if (layout !== 'cards' || r > 0) out += '\n';
      // Its cells hold no colour codes of their own: an empty one is a blank one.
      const pairs = this.shown.map(
        (c, i) => [c.header, colour(cells[r]![i]!, i), kept(c, cells[r]![i]!)] as const,
      );
      out += card(
        pairs,
        this.width,
        (text) => this.paint.header(text),
        (value) => value !== '',
      );
      this.afterCard = layout !== 'cards';
    });
    await this.sink.write(out);
  }

  async finish(complete: boolean): Promise<void> {
    if (!this.layout && complete) await this.sink.write(this.empty + '\n');
    else if (this.leftOut.length > 0) {
      const note = `Left out at this width: ${this.leftOut.join(', ')} (-o wide shows every column).`;
      await this.sink.write(
        wrapText(note, this.width)
          .map((text) => this.paint.dim(text) + '\n')
          .join(''),
      );
    }
  }

  /**
   * Column widths for the first batch, with two spaces between columns where every text fits
   * whole, else one; from 60 columns up, the last columns left out until the rest fit; cards when
   * nothing fits.
   */
  private fit(cells: readonly string[][]): { widths: number[]; gap: number } | 'cards' {
    // Free text is cut to one line, or with -o wide wrapped (docs/reference/output.md, "Tables").
    const free = (fit: Fit): Fit =>
      fit === 'wrap' || fit === 'cut' ? (this.options.wide ? 'wrap' : 'cut') : fit;
    const fitting = this.columns.map((c, i): FitColumn => {
      const values = cells.map((row) => row[i]!);
      return {
        fit: free(fitOf({ keep: c.keep === true, flex: c.flex })),
        header: c.header,
        cells: values,
        minWidth: Math.max(0, ...values.filter((value) => kept(c, value)).map(visibleWidth)),
      };
    });
    for (let count = fitting.length; count > 0; count--) {
      const some = fitting.slice(0, count);
      const measures = some.map(measureColumn);
      const whole = measures.reduce((sum, m) => sum + Math.max(m.header.width, m.cells.width), 0);
      for (const gap of GAPS) {
        // Two spaces only while nothing need narrow.
        if (gap > GAPS.at(-1)! && whole + gap * (count - 1) > this.width) continue;
        const widths = fitWidths(some, this.width - gap * (count - 1), measures);
        if (!widths) continue;
        this.shown = this.columns.slice(0, count);
        this.leftOut = this.columns.slice(count).map((c) => c.header);
        this.fits = some.map((f) => f.fit);
        return { widths, gap };
      }
      // Below 60 columns (and with -o wide) a table keeps every column, or becomes cards.
      if (this.width < CARDS_BELOW || this.options.wide) break;
    }
    return 'cards';
  }

  /**
   * One row (or the header, every cell fitted alike): each cell fitted to its column, on as many
   * lines as its tallest cell; undefined when a value that must stay whole is wider than its column
   * (a later batch's).
   */
  private line(
    values: string[],
    layout: { widths: number[]; gap: number },
    every: Fit | undefined,
    colour: (text: string, index: number) => string,
  ): string | undefined {
    const lines: string[][] = [];
    for (const [i, value] of values.entries()) {
      const width = layout.widths[i]!;
      if (every) {
        lines.push(cellLines(value, width, every));
        continue;
      }
      const textWidth = visibleWidth(value);
      if (kept(this.shown[i]!, value) && textWidth > width) return undefined;
      const fitted = cellLines(value, width, this.fits[i]!, textWidth);
      // Still wider than its column only where a word stays whole.
      if (textWidth > width && fitted.some((text) => lineWidth(text) > width)) return undefined;
      lines.push(fitted);
    }
    const height = Math.max(...lines.map((l) => l.length));
    let out = '';
    for (let n = 0; n < height; n++) {
      const cells = lines.map((l, i) => {
        const text = l[n] ?? '';
        const padded = i === values.length - 1 ? text : padTo(text, layout.widths[i]!);
        return text === '' && n > 0 ? padded : colour(padded, i);
      });
      out += cells.join(' '.repeat(layout.gap)).trimEnd() + '\n';
    }
    return out;
  }
}
