// The dataset replies (/v1/data/cbank/…), as documented: every one is the envelope `{data, meta}`,
// `meta` showing `attribution`, `as_of`, `source` and `source_url`. Of `data`, the documents show
// the `latest` payload of four families alone: a month's object for cpi and pnl (`month` and the
// list of its items), to which bank-pnl adds its `bank`, and a list of metrics for interest-rates.
// Every series, the snapshot and the other families' `latest` are not shown. Nothing is required:
// a view shows what it cannot read as it came.
import {
  either,
  field,
  list,
  loose,
  optional,
  type Read as ReadOf,
  type Schema,
} from './schema.js';

/** In the order the attribution lines read it. */
const Meta = loose({ attribution: field(), as_of: field(), source: field(), source_url: field() });

/** bank-pnl's latest: `data` a list, or a month's object naming its bank. The widest form: the views read every dataset reply as this one. */
const BankLatest = loose({
  meta: optional(Meta),
  data: optional(
    either(list(loose({})), loose({ month: field(), bank: field(), line_items: field() })),
  ),
});
export type Dataset = typeof BankLatest;
export type Read = ReadOf<Dataset>;

/** A form declaring only what its documents show, read as the widest (each field optional, read with `?.`; its fields a part of those). */
const asDataset = (schema: Schema) => schema as Dataset;

/** A reply whose `data` the documents do not show: a series, the snapshot, another family's latest. */
export const DatasetReply = asDataset(loose({ meta: optional(Meta), data: field() }));

/** `data` documented as a list, or as an object of the given fields. */
const latest = (object: Schema) =>
  asDataset(loose({ meta: optional(Meta), data: optional(either(list(loose({})), object)) }));

/** The documented `latest` replies, by the family's path. */
const LATEST: Readonly<Record<string, Dataset>> = {
  cpi: latest(loose({ month: field(), indicators: field() })),
  'interest-rates': latest(loose({})),
  'banking/pnl': latest(loose({ month: field(), line_items: field() })),
  'banks/pnl': BankLatest,
};

/** The latest reply of the family at `path` (cpi, banking/pnl …), as far as its documents show it. */
export function latestReply(path: string): Dataset {
  return LATEST[path] ?? DatasetReply;
}

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply } from './schema.js';
