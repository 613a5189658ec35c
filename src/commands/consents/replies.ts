// How the lending nouns (consents, grants, decisions, connect exchange) show replies whose shape the
// documents leave "not shown": the generic view, with the fields that say what happened (status,
// decision, outcome) moved first; and the data a consent or a grant opens, one section per scope.
import { isRecord, otherFields, pick, textOf, type JsonRecord, type ReplyReading } from '../../api/reading.js';
import { genericParts, genericView, heading, withRest } from '../../core/output/generic.js';
import type { Part, SectionsView } from '../../core/output/view.js';

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

/** The generic view of a reply not shown in the documents, the named fields first. */
export function firstFieldsView(body: unknown, first: readonly string[], frame: { title?: string; empty?: string } = {}): SectionsView {
  return genericView(fieldsFirst(body, first), frame);
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

/**
 * `{scopes[], data:{identity:{…}, income:{…}}}` (a consent's or a grant's data): the scopes, then
 * one section per scope of `data`, in the order of `scopes`, each as the generic view shows it.
 * A reply of another shape is shown whole by the generic view.
 */
export function scopedDataView(body: unknown, reading: ReplyReading, title?: string): SectionsView {
  const scopes = reading.documented(body, 'scopes');
  const data = reading.documented(body, 'data');
  if (!isRecord(data)) return genericView(body, { title, empty: 'The reply holds no data.' });
  const listed = Array.isArray(scopes) ? scopes.map(textOf).filter((s): s is string => s !== undefined) : [];
  const record = { scopes: listed.join(', ') };
  const designed = withRest(
    { kind: 'record', record, fields: [{ key: 'scopes', header: 'Scopes', value: (r: typeof record) => r.scopes }] },
    otherFields(body, ['scopes', 'data']),
    { title },
  );
  const order = [...listed.filter((scope) => Object.hasOwn(data, scope)), ...Object.keys(data).filter((key) => !listed.includes(key))];
  const sections = [...new Set(order)].flatMap((scope) => scopeParts(scope, data[scope]));
  return { ...designed, parts: [...designed.parts, ...sections] };
}

/** One scope's data under its name; its own tables under `Scope › table`. */
function scopeParts(scope: string, value: unknown): Part[] {
  const name = heading([scope])!;
  const parts = genericParts(value);
  if (parts.length === 0) return [{ heading: name, view: { kind: 'record', record: {}, fields: [{ key: scope, header: scope, value: () => '' }] } }];
  return parts.map((part) => ({ ...part, heading: part.heading === undefined ? name : `${name} › ${part.heading}` }));
}
