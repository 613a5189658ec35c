// Cells that show any value of a reply: formatted when it is of the kind expected (an amount, a
// count, a share, a flag), as it came otherwise, never hidden and never `undefined`; and the items
// of a list of objects read field by field, what a table does not name left for columns of its own.
// In a pipe each cell is the value as received (a column's `value`).
import { booleanOf, isRecord, type JsonRecord, numberOf, otherFields } from '../json/values.js';
import {
  formatBoolean,
  formatCount,
  formatFraction,
  formatMoney,
  formatPercent,
  plainNumber,
  signedNumber,
} from './format.js';
import { cellText } from './generic.js';
import { labelOf } from './labels.js';
import type { Paint } from './paint.js';
import type { Column } from './view.js';

/** How one value is shown: formatted when it is of the expected kind, as it came otherwise. */
export type Show = (raw: unknown, paint: Paint) => string;

/**
 * An amount as every view shows money (1,25,000.00, after the currency when one is known); anything
 * else as it came.
 */
export const amount =
  (currency?: string): Show =>
  (raw) =>
    formatMoney(raw, currency) ?? cellText(raw);

/**
 * A column of amounts: grouped with two decimals in its cells, its currency once in its header
 * (`DEBIT (NPR)`) on a terminal; as received in a pipe.
 */
export function moneyColumn<T>(
  key: string,
  header: string,
  raw: (row: T) => unknown,
  currency: string,
): Column<T> {
  return {
    key,
    header,
    value: (r) => cellText(raw(r)),
    display: (r, paint) => amount()(raw(r), paint),
    formatsValue: true,
    align: 'right',
    keep: true,
    currency,
  };
}

/** A count with lakh grouping, every digit kept; a number with decimals is written as it came. */
export const count: Show = (raw) => {
  const n = numberOf(raw);
  return n !== undefined && Number.isInteger(n) ? formatCount(cellText(raw)) : cellText(raw);
};

/** A percentage given in percent: 24.5 → 24.5%. */
export const percent: Show = (raw) => {
  const n = numberOf(raw);
  return n === undefined ? cellText(raw) : formatPercent(n);
};

/**
 * A share from 0 to 1 (a confidence, a FOIR) as a percentage: 0.95 → 95%; anything else as it came.
 */
export const fraction: Show = (raw) => {
  const n = numberOf(raw);
  return n === undefined || n < 0 || n > 1 ? cellText(raw) : formatFraction(n);
};

/** A score's contribution, signed and coloured by its sign: +100, -20, 0. */
export const contribution: Show = (raw, paint) => {
  const n = numberOf(raw);
  if (n === undefined) return cellText(raw);
  return n > 0 ? paint.good(signedNumber(n)) : n < 0 ? paint.bad(signedNumber(n)) : signedNumber(n);
};

/**
 * A name the service gives in snake case (a factor, a check): in words, `income_stability` →
 * `Income stability`.
 */
export const words: Show = (raw) => (typeof raw === 'string' ? labelOf(raw) : cellText(raw));

/** A score out of a maximum: 782 / 1000. */
export const outOf =
  (max: number): Show =>
  (raw) => {
    const n = numberOf(raw);
    return n === undefined ? cellText(raw) : `${plainNumber(n)} / ${max}`;
  };

export const yesNo: Show = (raw) => {
  const b = booleanOf(raw);
  return b === undefined ? cellText(raw) : formatBoolean(b);
};

export type Colour = 'good' | 'warn' | 'bad' | 'dim';
export type Colours = Readonly<Record<string, Colour>>;

/** `text` in the colour that `raw` names among `colours`; plain for a value no document names. */
export function paintAs(colours: Colours, raw: unknown, text: string, paint: Paint): string {
  const colour =
    typeof raw === 'string' && Object.hasOwn(colours, raw.toLowerCase())
      ? colours[raw.toLowerCase()]
      : undefined;
  return colour ? paint[colour](text) : text;
}

/** A value's text, painted by what it says. */
export const painted =
  (colours: Colours): Show =>
  (raw, paint) =>
    paintAs(colours, raw, cellText(raw), paint);

/**
 * The items of a documented list when it is a list of objects; otherwise undefined, and the generic
 * view shows it.
 */
export function recordList(value: unknown): JsonRecord[] | undefined {
  return Array.isArray(value) && value.every(isRecord) ? value : undefined;
}

/**
 * Reads the fields of one item and remembers which it used: what it did not use is the item's
 * rest, shown in columns of their own.
 */
export class ItemFields {
  private readonly used = new Set<string>();

  constructor(readonly item: unknown) {}

  /** The first of the names holding a value; the names tried that hold null are used up too. */
  take(...names: string[]): unknown {
    if (!isRecord(this.item)) return undefined;
    for (const name of names) {
      if (!Object.hasOwn(this.item, name)) continue;
      this.used.add(name);
      const value = this.item[name];
      if (value !== null && value !== undefined) return value;
    }
    return undefined;
  }

  /** The fields not used (a non-object item whole, as `value`). */
  rest(): JsonRecord {
    return otherFields(this.item, [...this.used]);
  }
}
