// The records of -o ndjson and -o csv in the reply's own text (docs/reference/output.md, "Reading
// replies": values as received, numbers with every digit). JSON.parse makes 125000.50 into
// 125000.5, 12345678901234567890 into 12345678901234567000 and 1e400 into Infinity, which
// JSON.stringify then writes as null. When the list of records is a part of the reply as parsed
// (`transactions`, `data`, the reply itself), each record is found in the raw text by a scan that
// builds no values; records a command made itself have no text of their own and are written from
// their values. The records of a view that holds lists are made from the reply's text too
// (listItemTexts).
import {
  compactText,
  endOfValue,
  fieldsOf,
  isNested,
  itemsOf,
  membersOf,
  nextSignificant,
  OPEN_ARRAY,
  OPEN_OBJECT,
} from '../json/json-text.js';
import { isRecord } from '../json/values.js';
import { MAX_DEPTH as MAX_NESTING } from './compact-json.js';

/** The text of each record as received. */
export interface RecordTexts {
  /** The record, on one line. */
  record(index: number): string;
}

/**
 * Lists are looked for this many objects deep: the documented ones are one or two (`data.results`).
 */
const MAX_DEPTH = 4;

/**
 * The text of each of `records` in `raw`, when they are a list of `body` (the reply `raw` parsed
 * to); else undefined.
 */
export function recordTexts(
  raw: string,
  body: unknown,
  records: readonly unknown[],
): RecordTexts | undefined {
  const path = pathTo(body, records);
  // Where each record starts, 4 bytes each (an object with its start and end takes 3 times the text
  // of a list of small numbers).
  const starts = new Uint32Array(records.length);
  if (path) {
    const list = locate(raw, path);
    if (list === undefined) return undefined;
    let count = 0;
    for (const item of itemsOf(raw, list)) {
      if (count === records.length) return undefined;
      starts[count++] = item.start;
    }
    if (count !== records.length) return undefined;
  } else if (records.length === 1 && records[0] === body) {
    // The reply as one record.
    starts[0] = nextSignificant(raw, 0);
  } else {
    return undefined;
  }
  return { record: (index) => compactText(raw, starts[index]!, endOfValue(raw, starts[index]!)) };
}

/** The keys from `body` to `list`, through objects only; [] when the list is the body. */
function pathTo(body: unknown, list: readonly unknown[]): string[] | undefined {
  if (body === list) return [];
  let level: { value: unknown; path: string[] }[] = [{ value: body, path: [] }];
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: typeof level = [];
    for (const { value, path } of level) {
      if (!isRecord(value)) continue;
      for (const [key, child] of Object.entries(value)) {
        if (child === list) return [...path, key];
        if (isRecord(child)) next.push({ value: child, path: [...path, key] });
      }
    }
    level = next;
  }
  return undefined;
}

/**
 * Where the value at `path` starts in `raw`; of a key given twice, the last (as JSON.parse takes
 * it).
 */
function locate(raw: string, path: readonly string[]): number | undefined {
  let at: number | undefined = nextSignificant(raw, 0);
  for (const key of path) {
    if (raw.charCodeAt(at) !== OPEN_OBJECT) return undefined;
    let found: number | undefined;
    for (const member of membersOf(raw, at)) if (member.key === key) found = member.start;
    if (found === undefined) return undefined;
    at = found;
  }
  return at;
}

/**
 * The records of a view that holds lists (docs/reference/output.md, "Reading replies"), each as
 * JSON text cut from the reply: one per item of each of its lists, in the reply's order. A list is
 * an array holding objects or arrays, found through the reply's objects (a list inside an item
 * stays the item's). Each record is the list's name (its dotted path) under `list`, then what the
 * row belongs to: the scalars and non-empty lists of scalars of the objects that hold the list
 * (`report_id`, `currency`; dotted below the top, `data.income.salary_amount`), then the item's own
 * fields; an item's own field wins over one of those of the same name. The view's other parts (a
 * report's statement, a consent's identity) would repeat on every row: they are left to -o json. A
 * reply holding no such item is one record, itself; a top-level array is its items.
 */
export function listItemTexts(raw: string): string[] {
  const start = nextSignificant(raw, 0);
  const c = raw.charCodeAt(start);
  if (c === OPEN_ARRAY)
    return [...itemsOf(raw, start)].map((item) => compactText(raw, item.start, item.end));
  const whole = [
    compactText(raw, start, c === OPEN_OBJECT ? endOfValue(raw, start) : raw.trimEnd().length),
  ];
  if (c !== OPEN_OBJECT) return whole;
  const lists = listsOf(raw, start);
  if (lists.length === 0) return whole;
  const name = namingKey(raw, lists);
  const records: string[] = [];
  for (const list of lists) {
    for (const item of list.items) {
      const fields = new Map<string, string>([[name, JSON.stringify(list.name)]]);
      for (const [key, span] of list.context)
        fields.set(key, compactText(raw, span.start, span.end));
      if (raw.charCodeAt(item.start) === OPEN_OBJECT) {
        for (const [key, span] of fieldsOf(raw, item.start))
          fields.set(key, compactText(raw, span.start, span.end));
      } else {
        fields.set('value', compactText(raw, item.start, item.end));
      }
      records.push(
        `{${[...fields].map(([key, text]) => `${JSON.stringify(key)}:${text}`).join(',')}}`,
      );
    }
  }
  return records;
}

interface Span {
  start: number;
  end: number;
}

interface FoundList {
  /** Its dotted path from the top of the reply. */
  name: string;
  /** One at least. */
  items: Span[];
  /** The scalars and lists of scalars of the objects that hold it, by dotted name. */
  context: Map<string, Span>;
}

/** The lists of the object at `start` and of the objects it holds, in the order of their fields. */
function listsOf(
  raw: string,
  start: number,
  path: readonly string[] = [],
  held: ReadonlyMap<string, Span> = new Map(),
): FoundList[] {
  const fields = [...fieldsOf(raw, start)].map(([key, span]) => {
    const c = raw.charCodeAt(span.start);
    const items = c === OPEN_ARRAY ? [...itemsOf(raw, span.start)] : [];
    const kind = items.some((item) => isNested(raw, item.start))
      ? 'list'
      : c === OPEN_OBJECT
        ? 'object'
        : 'scalar';
    return { key, name: [...path, key].join('.'), span, items, kind };
  });
  const context = new Map(held);
  // An empty list says nothing of a row: it has no items to be a list of, nor values to join.
  for (const field of fields)
    if (
      field.kind === 'scalar' &&
      !(raw.charCodeAt(field.span.start) === OPEN_ARRAY && field.items.length === 0)
    )
      context.set(field.name, field.span);
  return fields.flatMap((field): FoundList[] => {
    if (field.kind === 'list') return [{ name: field.name, items: field.items, context }];
    // Deeper than a bound an object is left to -o json.
    if (field.kind === 'object' && path.length < MAX_NESTING)
      return listsOf(raw, field.span.start, [...path, field.key], context);
    return [];
  });
}

/** `list`, or `_list`, `__list` … when a field of the records already has that name. */
function namingKey(raw: string, lists: readonly FoundList[]): string {
  const taken = new Set<string>();
  for (const list of lists) {
    for (const key of list.context.keys()) taken.add(key);
    for (const item of list.items) {
      if (raw.charCodeAt(item.start) === OPEN_OBJECT)
        for (const member of membersOf(raw, item.start)) taken.add(member.key);
      else taken.add('value');
    }
  }
  let name = 'list';
  while (taken.has(name)) name = `_${name}`;
  return name;
}
