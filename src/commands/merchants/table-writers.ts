// The table of `svc merchants resolve`, written batch by batch: tab-separated lines for a pipe,
// aligned and coloured columns for a terminal.
import type { MerchantResult } from '../../api/merchants.js';
import { printable } from '../../core/output/format.js';
import type { Paint } from '../../core/output/paint.js';
import type { OutputSink } from './sink.js';
import type { ResultWriter } from './writers.js';

interface Column {
  key: keyof MerchantResult & string;
  header: string;
  /** The value for people: yes/no for booleans. */
  display: (result: MerchantResult) => string;
  /** Free text that gives up room first when the terminal is narrow. */
  flex?: boolean;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

const COLUMNS: Column[] = [
  { key: 'input', header: 'INPUT', display: (r) => r.input, flex: true },
  { key: 'terminal', header: 'TERMINAL', display: (r) => text(r.terminal) },
  { key: 'merchant', header: 'MERCHANT', display: (r) => text(r.merchant), flex: true },
  { key: 'mcc', header: 'MCC', display: (r) => text(r.mcc) },
  { key: 'category', header: 'CATEGORY', display: (r) => text(r.category) },
  { key: 'city', header: 'CITY', display: (r) => text(r.city) },
  { key: 'matched', header: 'MATCHED', display: (r) => (r.matched ? 'yes' : 'no') },
];

/** For a pipe: one header line, then one tab-separated line a result, no escapes. */
export class TabWriter implements ResultWriter {
  private started = false;

  constructor(
    private readonly sink: OutputSink,
    private readonly paint: Paint,
  ) {}

  async write(results: readonly MerchantResult[]): Promise<void> {
    let out = this.started ? '' : this.header();
    this.started = true;
    for (const result of results) out += COLUMNS.map((c) => cell(c.display(result))).join('\t') + '\n';
    await this.sink.write(out);
  }

  async finish(_meta: unknown, complete: boolean): Promise<void> {
    if (!this.started && complete) await this.sink.write(this.header());
  }

  private header(): string {
    return COLUMNS.map((c) => this.paint.header(c.header)).join('\t') + '\n';
  }
}

/** Text from the service made safe for one cell of one line. */
function cell(value: string): string {
  return printable(value).replace(/[\t\r\n]+/g, ' ');
}

/**
 * For a terminal: aligned columns under a coloured header. The widths come from the first batch
 * (a boxed table would need every row first); longer values later are cut with an ellipsis.
 */
export class AlignedTableWriter implements ResultWriter {
  private widths?: number[];

  constructor(
    private readonly sink: OutputSink,
    private readonly width: number,
    private readonly paint: Paint,
    private readonly mask: (text: string) => string = (text) => text,
  ) {}

  async write(results: readonly MerchantResult[]): Promise<void> {
    if (results.length === 0) return;
    const cellOf = (c: (typeof COLUMNS)[number], r: MerchantResult) => cell(this.mask(c.display(r)));
    let out = '';
    if (!this.widths) {
      this.widths = fitWidths(
        COLUMNS.map((c) => Math.max(c.header.length, ...results.map((r) => [...cellOf(c, r)].length))),
        this.width,
      );
      out += this.line(COLUMNS.map((c) => c.header), (t) => this.paint.header(t));
    }
    for (const result of results) {
      out += this.line(
        COLUMNS.map((c) => cellOf(c, result)),
        (t, i) => (COLUMNS[i]!.key === 'matched' ? (result.matched ? this.paint.good(t) : this.paint.warn(t)) : t),
      );
    }
    await this.sink.write(out);
  }

  async finish(_meta: unknown, complete: boolean): Promise<void> {
    if (!this.widths && complete) await this.sink.write('No results to show.\n');
  }

  private line(values: string[], colour: (text: string, index: number) => string): string {
    const widths = this.widths!;
    const cells = values.map((value, i) => {
      const fitted = truncate(value, widths[i]!);
      const padded = i === values.length - 1 ? fitted : fitted + ' '.repeat(widths[i]! - [...fitted].length);
      return colour(padded, i);
    });
    return cells.join('  ').trimEnd() + '\n';
  }
}

/** Narrows the flex columns (input, merchant), widest first, until the line fits the terminal. */
export function fitWidths(natural: number[], available: number): number[] {
  const widths = [...natural];
  const gaps = 2 * (widths.length - 1);
  let excess = widths.reduce((a, b) => a + b, 0) + gaps - available;
  const MIN = 12;
  while (excess > 0) {
    let widest = -1;
    COLUMNS.forEach((c, i) => {
      if (c.flex && widths[i]! > MIN && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    });
    if (widest < 0) break;
    widths[widest]!--;
    excess--;
  }
  return widths;
}

function truncate(value: string, width: number): string {
  const chars = [...value];
  return chars.length <= width ? value : chars.slice(0, Math.max(0, width - 1)).join('') + '…';
}
