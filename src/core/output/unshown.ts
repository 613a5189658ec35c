// Replies whose shape the documents leave "not shown" (consents, decisions, grants, underwriting,
// sandbox scenarios): the generic view with the fields that say what happened (status, decision,
// outcome, verdict) moved first, what a pipe gets of a list reply, and their records for -o ndjson
// and -o csv.
import { isRecord, type JsonRecord, otherFields, pick } from '../json/values.js';
import { asideLines, genericView, heading, itemsTable, type Shown } from './generic.js';
import type { SectionsView } from './view.js';

/**
 * The value with the named fields first, in that order, where present: in the object itself, in
 * the items of a top-level list, and in the items of the lists it holds (`data`, `consents` …).
 * Objects are rebuilt with Object.fromEntries, so a field named `__proto__` stays a field.
 */
export function fieldsFirst(value: unknown, first: readonly string[]): unknown {
  const reorder = (item: unknown): unknown => {
    if (!isRecord(item)) return item;
    const head = first.filter((key) => Object.hasOwn(item, key));
    return Object.fromEntries([
      ...head.map((key) => [key, item[key]]),
      ...Object.entries(item).filter(([key]) => !head.includes(key)),
    ]);
  };
  if (Array.isArray(value)) return value.map(reorder);
  if (!isRecord(value)) return value;
  const top = reorder(value) as JsonRecord;
  return Object.fromEntries(
    Object.entries(top).map(([key, child]) => [
      key,
      Array.isArray(child) ? child.map(reorder) : child,
    ]),
  );
}

/**
 * The generic view of a reply not shown in the documents, the named fields first. `list` names
 * where a list reply may hold its items (`data`, `consents` …; or the reply is a list): a pipe
 * then gets them alone (withPipeItems), under the `documented` fields' header when there is none.
 * `money` names the fields that hold money, `defaults` those a terminal shows (generic.ts Shown).
 */
export function firstFieldsView(
  body: unknown,
  first: readonly string[],
  frame: {
    title?: string;
    empty?: string;
    list?: readonly string[];
    documented?: readonly string[];
  } & Shown = {},
): SectionsView {
  const ordered = fieldsFirst(body, first);
  const { list, documented, ...shown } = frame;
  const view = genericView(ordered, shown);
  // A reply whose lists are all empty (`{"data":[]}`) is blank fields to a person, who sees none of
  // them on a terminal: `empty` says so there.
  if (frame.empty !== undefined && view.parts.length > 0 && onlyEmptyLists(body)) {
    view.hints = [frame.empty];
    // The hint says the lists are empty, in one line: their fields need not say `none` too, nor
    // `has_more` that there is no more.
    view.parts = view.parts.flatMap((part) => {
      const record = part.view;
      if (record.kind !== 'record') return [part];
      const fields = record.fields
        .filter((field) => !(field.key === 'has_more' && pick(body, 'has_more') === false))
        .map(({ empty: _, ...field }) => field);
      return fields.length > 0 ? [{ ...part, view: { ...record, fields } }] : [];
    });
  }
  return list ? withPipeItems(view, ordered, namedList(ordered, ...list), documented) : view;
}

/** One list of a reply, under its name (`''`: the reply itself). */
export interface NamedList {
  name: string;
  items: unknown[];
}

/** The reply itself when it is a list, else the first of the named lists it holds. */
export function namedList(body: unknown, ...names: string[]): NamedList[] {
  if (Array.isArray(body)) return [{ name: '', items: body }];
  const name = names.find((n) => Array.isArray(pick(body, n)));
  return name === undefined ? [] : [{ name, items: pick(body, name) as unknown[] }];
}

/** Every list at the top of a reply (the reply itself when it is one). */
export function topLists(body: unknown): NamedList[] {
  if (Array.isArray(body)) return [{ name: '', items: body }];
  return isRecord(body)
    ? Object.entries(body).flatMap(([name, value]) =>
        Array.isArray(value) ? [{ name, items: value }] : [],
      )
    : [];
}

/**
 * A view of a list reply as a pipe reads it too (docs/reference/output.md, "Tables"): stdout its
 * items alone, one table however many lists hold them, and stderr the reply's other fields. A reply
 * where no list was found is shown as it is, in a pipe as well.
 */
export function withPipeItems(
  view: SectionsView,
  body: unknown,
  lists: readonly NamedList[],
  documented: readonly string[] = [],
): SectionsView {
  if (lists.length === 0) return view;
  const rest = otherFields(
    isRecord(body) ? body : undefined,
    lists.map((list) => list.name),
  );
  return { ...view, pipe: { items: itemsTable(lists, documented), aside: asideLines(rest) } };
}

/** A list with nothing in it, or an object holding lists and nothing in any of them. */
function onlyEmptyLists(body: unknown): boolean {
  if (Array.isArray(body)) return body.length === 0;
  const lists = isRecord(body) ? Object.values(body).filter(Array.isArray) : [];
  return lists.length > 0 && lists.every((list) => list.length === 0);
}

/**
 * The records of -o ndjson and -o csv for a list reply not shown: the top-level list, or the first
 * of the named lists; undefined leaves it to the fallback (the reply as one record).
 */
export function listRecords(body: unknown, ...names: string[]): unknown[] | undefined {
  if (Array.isArray(body)) return body as unknown[];
  for (const name of names) {
    const list = pick(body, name);
    if (Array.isArray(list)) return list as unknown[];
  }
  return undefined;
}

/**
 * A list reply's items are headed by what they are ("Consents"), not by the key that holds them
 * (`data`, "Data").
 */
export function headedList(view: SectionsView, name: string): SectionsView {
  const dataHeading = heading(['data']);
  return {
    ...view,
    parts: view.parts.map((part) =>
      part.heading === dataHeading ? { ...part, heading: name } : part,
    ),
  };
}
