// What the lending views of a report share: facts as a field list whose cells show any value (a
// number formatted, anything else as the generic view writes it), tables of documented lists with a
// column for every field they do not know, and the colours of the values people scan for. Nothing
// here fails on a reply: a known field of an unexpected type is shown as it came, never hidden and
// never `undefined`. Formatting is for people: in a pipe each cell is the value as received (a
// column's `value`).
import {
  formatBoolean,
  formatCount,
  formatFraction,
  formatMoney,
  formatPercent,
  plainNumber,
  printable,
  signedNumber,
} from '../../core/output/format.js';
import { cellText, withRest } from '../../core/output/generic.js';
import { labelOf } from '../../core/output/labels.js';
import type { Paint } from '../../core/output/paint.js';
import type { Column, Part, RecordView, SectionsView } from '../../core/output/view.js';
import {
  booleanOf,
  isRecord,
  type JsonRecord,
  numberOf,
  otherFields,
  pick,
} from '../../core/reading.js';

/** A title for people: `Income of rpt_…` (the id is the user's text, made printable), or `Income`. */
export function titled(what: string, id: string | undefined): string {
  return id === undefined ? what : `${what} of ${printable(id)}`;
}

/** How one value is shown: formatted when it is of the expected kind, as it came otherwise. */
export type Show = (raw: unknown, paint: Paint) => string;

/** An amount as every view shows money (1,25,000.00, after the currency when one is known); anything else as it came. */
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

/** A share from 0 to 1 (a confidence, a FOIR) as a percentage: 0.95 → 95%; anything else as it came. */
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

/** A name the service gives in snake case (a factor, a check): in words, `income_stability` → `Income stability`. */
export const words: Show = (raw) => (typeof raw === 'string' ? labelOf(raw) : cellText(raw));

/** The currency of a report's amounts: the reply's own, else NPR, in which every statement is kept. */
export function currencyOf(body: unknown): string {
  const named =
    pick(body, 'currency') ??
    pick(body, 'iso_currency_code') ??
    pick(pick(body, 'statement'), 'currency');
  return typeof named === 'string' && named.trim() !== '' ? named.trim() : 'NPR';
}

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

type Colour = 'good' | 'warn' | 'bad' | 'dim';
type Colours = Readonly<Record<string, Colour>>;

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

export const TREND_COLOURS: Colours = { growing: 'good', declining: 'bad' };
export const BAND_COLOURS: Colours = {
  excellent: 'good',
  good: 'good',
  fair: 'warn',
  poor: 'bad',
  very_poor: 'bad',
};
export const VERIFY_COLOURS: Colours = { authentic: 'good', review: 'warn', suspicious: 'bad' };
export const DECISION_COLOURS: Colours = {
  approve: 'good',
  approved: 'good',
  review: 'warn',
  refer: 'warn',
  decline: 'bad',
  declined: 'bad',
  reject: 'bad',
  rejected: 'bad',
};
export const SEVERITY_COLOURS: Colours = { high: 'bad', medium: 'warn', low: 'dim' };

/** One known field of a view: its raw value and how it is shown. */
export interface ValueFact {
  key: string;
  header: string;
  raw: unknown;
  show?: Show;
}

/** Facts as a field list: a fact without a value is a blank cell (left out on a terminal). */
export function factList(facts: readonly ValueFact[]): RecordView<readonly ValueFact[]> {
  return {
    kind: 'record',
    record: facts,
    fields: facts.map((fact) => ({
      key: fact.key,
      header: fact.header,
      value: () => cellText(fact.raw),
      display: (_, paint) =>
        fact.raw === undefined || fact.raw === null
          ? ''
          : fact.show
            ? fact.show(fact.raw, paint)
            : cellText(fact.raw),
      formatsValue: true,
    })),
  };
}

/**
 * A designed view: the facts (with the leftover scalars of the reply as more fields), then the
 * designed tables, then the generic view of whatever else the reply carries.
 */
export function designedView(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any record view: T is invariant (core/output/view.ts)
  facts: RecordView<any>,
  tables: readonly Part[],
  rest: JsonRecord,
  frame: { title?: string; hints?: string[] } = {},
): SectionsView {
  const view = withRest(facts, rest, frame);
  view.parts.splice(1, 0, ...tables);
  return view;
}

/** A documented list of a view: shown as a table when it is a list of objects, else left to the generic view. */
export interface ListPart {
  key: string;
  heading: string;
  /** As read from the reply. */
  items: unknown;
  /** The table of the items, its amounts in the currency of the view. */
  table: (items: readonly JsonRecord[], currency: string) => Part['view'];
}

/**
 * A view of facts and documented lists (income, liabilities): the facts, a table for each list that
 * is a list of objects, then whatever else the reply carries, fields of either not shown twice.
 */
export function factsAndLists(
  body: unknown,
  facts: readonly ValueFact[],
  lists: readonly ListPart[],
  title: string,
): SectionsView {
  const known = facts.map((fact) => fact.key);
  const currency = currencyOf(body);
  const tables: Part[] = [];
  for (const list of lists) {
    const items = recordList(list.items);
    if (!items) continue;
    known.push(list.key);
    tables.push({ heading: list.heading, view: list.table(items, currency) });
  }
  return designedView(factList(facts), tables, otherFields(body, known), { title });
}

/** The items of a documented list when it is a list of objects; otherwise undefined, and the generic view shows it. */
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
