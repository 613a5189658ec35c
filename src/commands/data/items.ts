// Reading dataset replies. The documents show the envelope ({data, meta}) and a few `latest`
// payloads: cpi `{month, indicators[]}`, interest-rates a list of metrics, pnl `{month,
// line_items[]}`; every other payload and every series is "not shown". So the line items of a
// reply are found by shape (the data list, or the list of objects inside `data`), their selector
// is whichever of `key`, `indicator`, `metric` or `code` they carry, and a series is any list of
// objects with a month-like and a numeric field. Free of heavy imports: completion reads it too.
import { ExactNumber } from '../../core/json/exact-number.js';

type JsonRecord = Record<string, unknown>;

/** An object of a reply: not a list, nor a number kept as written. */
const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof ExactNumber);

/** The names a selector goes by in the documented payloads, most telling first. */
export const SELECTOR_FIELDS = ['key', 'indicator', 'metric', 'code'] as const;
/** The documented names of lists of line items inside `data`. */
const ITEM_LISTS = ['indicators', 'line_items', 'items'];
const LABEL_FIELDS = ['label', 'line_item', 'name', 'title'];

export interface ItemList {
  /** The line items as received. */
  items: JsonRecord[];
  /** Where the list was found: `data`, `data.indicators` … */
  path: string;
  /** The field naming each item's selector, when the items have one. */
  selectorField?: string;
}

/** The line items of a `latest` (or snapshot) reply; undefined when it holds no list of objects. */
export function itemListOf(body: unknown, preferredSelector?: string): ItemList | undefined {
  const data = isRecord(body) ? body.data : undefined;
  let found: { list: unknown[]; path: string } | undefined;
  if (Array.isArray(data)) found = { list: data, path: 'data' };
  else if (isRecord(data)) {
    const name =
      ITEM_LISTS.find((n) => Array.isArray(data[n])) ??
      Object.keys(data).find(
        (n) => Array.isArray(data[n]) && (data[n] as unknown[]).some(isRecord),
      );
    if (name !== undefined) found = { list: data[name] as unknown[], path: `data.${name}` };
  }
  if (!found) return undefined;
  const items = found.list.filter(isRecord);
  return { items, path: found.path, selectorField: selectorFieldOf(items, preferredSelector) };
}

/** The field most items carry as text, of the selector names (the family's own name first). */
function selectorFieldOf(
  items: readonly JsonRecord[],
  preferred: string | undefined,
): string | undefined {
  const names =
    preferred && !(SELECTOR_FIELDS as readonly string[]).includes(preferred)
      ? [preferred, ...SELECTOR_FIELDS]
      : [...(preferred ? [preferred] : []), ...SELECTOR_FIELDS];
  return names.find((name) => items.some((item) => typeof item[name] === 'string'));
}

export function labelOf(item: JsonRecord): string | undefined {
  const value = LABEL_FIELDS.map((name) => item[name]).find((v) => typeof v === 'string');
  return value;
}

/** One selector a person can pick: its value and a few words about it. */
export interface Selector {
  value: string;
  label?: string;
  unit?: string;
  section?: string;
}

export function selectorsOf(list: ItemList | undefined): Selector[] {
  if (!list?.selectorField) return [];
  const field = list.selectorField;
  return list.items.flatMap((item) => {
    const value = item[field];
    if (typeof value !== 'string' || value === '') return [];
    const text = (name: string) => (typeof item[name] === 'string' ? item[name] : undefined);
    return [{ value, label: labelOf(item), unit: text('unit'), section: text('section') }];
  });
}

const MONTH_LIKE = /^\d{4}-(0[1-9]|1[0-2])(-\d{2})?/;
const MONTH_FIELDS = ['month', 'period', 'date'];
const SEARCH_DEPTH = 4;

export interface SeriesList {
  /** The points as received. */
  points: JsonRecord[];
  path: string;
  monthField: string;
  valueField: string;
  /** The object the list was found in (its label, unit …), or undefined for a top-level list. */
  holder?: JsonRecord;
}

/** The first list of objects in the reply with a month-like and a numeric field: `data` first. */
export function seriesListOf(body: unknown): SeriesList | undefined {
  const queue: { value: unknown; path: string; depth: number; holder?: JsonRecord }[] = [];
  if (isRecord(body)) queue.push({ value: body.data, path: 'data', depth: 0, holder: undefined });
  queue.push({ value: body, path: '', depth: 0 });
  const seen = new Set<unknown>();
  while (queue.length) {
    const { value, path, depth, holder } = queue.shift()!;
    if (seen.has(value) || depth > SEARCH_DEPTH) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      const series = asSeries(value, path, holder);
      if (series) return series;
    } else if (isRecord(value)) {
      for (const [name, child] of Object.entries(value)) {
        if (path === '' && name === 'meta') continue;
        queue.push({
          value: child,
          path: path ? `${path}.${name}` : name,
          depth: depth + 1,
          holder: value,
        });
      }
    }
  }
  return undefined;
}

/**
 * The names a series' list of points goes by: empty, it is still a series, one of no observations.
 */
const POINT_LISTS = ['points', 'observations', 'series'];

function asSeries(
  list: unknown[],
  path: string,
  holder: JsonRecord | undefined,
): SeriesList | undefined {
  if (list.length === 0 && POINT_LISTS.includes(path.slice(path.lastIndexOf('.') + 1)))
    return { points: [], path, monthField: 'month', valueField: 'value', holder };
  const points = list.filter(isRecord);
  if (points.length === 0 || points.length < list.length / 2) return undefined;
  const half = points.length / 2;
  const share = (test: (value: unknown) => boolean, name: string) =>
    points.filter((p) => test(p[name])).length >= half;
  const keys = [...new Set(points.flatMap((p) => Object.keys(p)))];
  const monthLike = (v: unknown) => typeof v === 'string' && MONTH_LIKE.test(v);
  const monthField = [...MONTH_FIELDS, ...keys].find(
    (name) => keys.includes(name) && share(monthLike, name),
  );
  if (!monthField) return undefined;
  const numeric = (v: unknown) =>
    (typeof v === 'number' || v instanceof ExactNumber) && Number.isFinite(Number(v));
  const valueField = ['value', ...keys].find(
    (name) => name !== monthField && keys.includes(name) && share(numeric, name),
  );
  if (!valueField) return undefined;
  return { points, path, monthField, valueField, holder };
}
