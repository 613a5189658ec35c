// The dataset replies (/v1/data/cbank/…), as documented: every one is the envelope `{data, meta}`,
// `meta` showing `attribution`, `as_of`, `source` and `source_url`. Of `data`, the documents show
// the `latest` payload of four families alone: a month's object for cpi and pnl (`month` and the
// list of its items), to which bank-pnl adds its `bank`, and a list of metrics for interest-rates.
// Every series, the snapshot and the other families' `latest` are not shown. Nothing is required:
// a view shows what it cannot read as it came.
//
// The line items and the points of a series are found by shape (commands/data/items.ts, which
// completion reads without zod); what a view shows of one is read here.
import {
  any,
  either,
  list,
  named,
  numeric,
  object,
  objectAsReceived,
  optional,
  type Read as ReadOf,
  type Schema,
  text,
} from './schema.js';

/** In the order the attribution lines read it. */
const Meta = object({ attribution: text(), as_of: text(), source: text(), source_url: text() });

/**
 * bank-pnl's latest: `data` a list, or a month's object naming its bank. The widest form: the views
 * read every dataset reply as this one.
 */
const BankLatest = object({
  meta: Meta,
  data: optional(either(list(any()), object({ month: text(), bank: text(), line_items: any() }))),
});
export type Dataset = typeof BankLatest;
export type Read = ReadOf<Dataset>;

/**
 * A form declaring only what its documents show, read as the widest (each field optional, read with
 * `?.`; its fields a part of those).
 */
const asDataset = (schema: Schema) => schema as Dataset;

/**
 * A reply whose `data` the documents do not show: a series, the snapshot, another family's latest.
 */
export const DatasetReply = asDataset(object({ meta: Meta, data: any() }));

/** `data` documented as a list, or as an object of the given fields. */
const latest = (month: Schema) =>
  asDataset(object({ meta: Meta, data: optional(either(list(any()), month)) }));

/** The documented `latest` replies, by the family's path. */
const LATEST: Readonly<Record<string, Dataset>> = {
  cpi: latest(object({ month: text(), indicators: any() })),
  'interest-rates': latest(object({})),
  'banking/pnl': latest(object({ month: text(), line_items: any() })),
  'banks/pnl': BankLatest,
};

/**
 * The latest reply of the family at `path` (cpi, banking/pnl …), as far as its documents show it.
 */
export function latestReply(path: string): Dataset {
  return LATEST[path] ?? DatasetReply;
}

const Envelope = object({ data: any() });
const AnObject = objectAsReceived();

/** The reply's `data` as received, of any type: what a view shows by the generic rules. */
export function receivedData(body: unknown): unknown {
  return Envelope.parse(body)?.data;
}

/** A value when it is an object, as received (its fields in their order); undefined otherwise. */
export function receivedObject(value: unknown) {
  return AnObject.parse(value);
}

/**
 * A line item as a table shows it: its selector, read under `selectorField` (none without one); its
 * value as written.
 */
export function lineItem(selectorField: string | undefined) {
  return object({
    selector: named(text(), ...(selectorField === undefined ? [] : [selectorField])),
    value: numeric(),
    unit: text(),
    section: text(),
  });
}

/**
 * What the object holding a series says of it: its label, selector and unit, each under the first
 * of its names present.
 */
export function seriesHolder(selectorName: string) {
  return object({
    label: named(text(), 'label', 'line_item', 'name', 'title'),
    selector: named(text(), selectorName, 'key', 'indicator', 'metric', 'code'),
    unit: text(),
  });
}

/** A point of a series: its month and its value (as written), under the fields the series uses. */
export function seriesPoint(monthField: string, valueField: string) {
  return object({ month: named(text(), monthField), value: named(numeric(), valueField) });
}

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply } from './schema.js';
