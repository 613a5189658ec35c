// Replies whose shape the documents leave "not shown" (consents, decisions, grants, underwriting):
// the generic view with the fields that say what happened (status, decision, outcome, verdict)
// moved first, and their records for -o ndjson and -o csv.
import { isRecord, pick, type JsonRecord } from '../../api/reading.js';
import { genericView, type Money } from './generic.js';
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
    return Object.fromEntries([...head.map((key) => [key, item[key]]), ...Object.entries(item).filter(([key]) => !head.includes(key))]);
  };
  if (Array.isArray(value)) return value.map(reorder);
  if (!isRecord(value)) return value;
  const top = reorder(value) as JsonRecord;
  return Object.fromEntries(Object.entries(top).map(([key, child]) => [key, Array.isArray(child) ? child.map(reorder) : child]));
}

/** The generic view of a reply not shown in the documents, the named fields first; `money` names the fields that hold money. */
export function firstFieldsView(body: unknown, first: readonly string[], frame: { title?: string; empty?: string; money?: Money } = {}): SectionsView {
  const view = genericView(fieldsFirst(body, first), frame);
  // A reply whose lists are all empty (`{"data":[]}`) is blank fields to a person, who sees none of
  // them on a terminal: `empty` says so there (a pipe keeps the fields).
  if (frame.empty !== undefined && view.parts.length > 0 && onlyEmptyLists(body)) view.hints = [frame.empty];
  return view;
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
  if (Array.isArray(body)) return body;
  for (const name of names) {
    const list = pick(body, name);
    if (Array.isArray(list)) return list;
  }
  return undefined;
}
