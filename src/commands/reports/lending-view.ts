// What the lending views of a report share: facts as a field list whose cells show any value (a
// typed value formatted, one of another type as the generic view writes it: core/output/cells.ts),
// tables of documented lists with a column for every field they do not know, and the colours of
// the values people scan for. Nothing here fails on a reply: a known field of an unexpected type
// is shown as it came, never hidden and never `undefined`.
import { type JsonRecord, otherFields } from '../../core/json/values.js';
import { type Colours, recordList, type Show } from '../../core/output/cells.js';
import { printable } from '../../core/output/format.js';
import { cellText, withRest } from '../../core/output/generic.js';
import type { Part, RecordView, SectionsView } from '../../core/output/view.js';

/**
 * A title for people: `Income of rpt_…` (the id is the user's text, made printable), or `Income`.
 */
export function titled(what: string, id: string | undefined): string {
  return id === undefined ? what : `${what} of ${printable(id)}`;
}

/** Where a view's reply may name its currency (src/api/replies/reports.ts, `currencies`). */
export interface Currencies {
  currency?: string;
  iso_currency_code?: string;
  statement?: { currency?: string };
}

/**
 * The currency of a report's amounts: the reply's own, else NPR, in which every statement is kept.
 */
export function currencyOf(read: Currencies | undefined): string {
  const named = read?.currency ?? read?.iso_currency_code ?? read?.statement?.currency;
  return named !== undefined && named.trim() !== '' ? named.trim() : 'NPR';
}

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

/**
 * One known field of a view: its value (typed, or as received when of another type) and how it is
 * shown.
 */
/**
 * What a view shows for each documented fact: its typed field, or, where the field came of another
 * type, the field as received (`unread`), which the fact's `show` draws as it came.
 */
export function factValue<R extends object>(read: R | null | undefined, unread: JsonRecord) {
  return (key: keyof R & string): unknown => read?.[key] ?? unread[key];
}

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

/**
 * A documented list of a view: shown as a table when it is a list of objects, else left to the
 * generic view.
 */
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
  currency: string,
): SectionsView {
  const known = facts.map((fact) => fact.key);
  const tables: Part[] = [];
  for (const list of lists) {
    const items = recordList(list.items);
    if (!items) continue;
    known.push(list.key);
    tables.push({ heading: list.heading, view: list.table(items, currency) });
  }
  return designedView(factList(facts), tables, otherFields(body, known), { title });
}
