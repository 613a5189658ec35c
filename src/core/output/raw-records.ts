// The records of -o ndjson and -o csv in the reply's own text (contract §4a: values as received,
// numbers with every digit). JSON.parse makes 125000.50 into 125000.5, 12345678901234567890 into
// 12345678901234567000 and 1e400 into Infinity, which JSON.stringify then writes as null. When the
// list of records is a part of the reply as parsed (`transactions`, `data`, the reply itself), each
// record is found in the raw text by a scan that builds no values; records a command made itself
// have no text of their own and are written from their values.
import { isRecord } from '../../api/reading.js';
import { compactText, itemsOf, membersOf, nextSignificant, OPEN_OBJECT } from './json-text.js';

/** The text of each record as received. */
export interface RecordTexts {
  /** The record, on one line. */
  record(index: number): string;
  /** The value of the record's field `key` (the last, as JSON.parse takes it), on one line; undefined if it has none. */
  field(index: number, key: string): string | undefined;
}

/** Lists are looked for this many objects deep: the documented ones are one or two (`data.results`). */
const MAX_DEPTH = 4;

/** The text of each of `records` in `raw`, when they are a list of `body` (the reply `raw` parsed to); else undefined. */
export function recordTexts(raw: string, body: unknown, records: readonly unknown[]): RecordTexts | undefined {
  const path = pathTo(body, records);
  let spans: { start: number; end: number }[];
  if (path) {
    const list = locate(raw, path);
    if (list === undefined) return undefined;
    spans = [...itemsOf(raw, list)];
  } else if (records.length === 1 && records[0] === body) {
    // The reply as one record.
    const start = nextSignificant(raw, 0);
    spans = [{ start, end: raw.trimEnd().length }];
  } else {
    return undefined;
  }
  if (spans.length !== records.length) return undefined;
  let fieldsOf: { index: number; fields: Map<string, { start: number; end: number }> } | undefined;
  return {
    record: (index) => compactText(raw, spans[index]!.start, spans[index]!.end),
    field(index, key) {
      const span = spans[index]!;
      if (raw.charCodeAt(span.start) !== OPEN_OBJECT) return undefined;
      // The fields of the record asked about last: a CSV row asks for them one after the other.
      if (fieldsOf?.index !== index) fieldsOf = { index, fields: new Map([...membersOf(raw, span.start)].map((m) => [m.key, m])) };
      const value = fieldsOf.fields.get(key);
      return value && compactText(raw, value.start, value.end);
    },
  };
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

/** Where the value at `path` starts in `raw`; of a key given twice, the last (as JSON.parse takes it). */
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
