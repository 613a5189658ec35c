// What the data commands show: one month's line items grouped by section, a series as month/value
// rows, the selectors of a family; what a reply carries beyond those, as the generic view shows
// it (in a pipe, on stderr). The source's attribution and date go under every table on a terminal,
// and on stderr in a pipe.
import type * as Data from '../../api/replies/data.js';
import { ExactNumber } from '../../core/json/exact-number.js';
import { type JsonRecord, otherFields, unreadFields } from '../../core/json/values.js';
import { formatMoney, printable } from '../../core/output/format.js';
import {
  cellText,
  genericView,
  listWithRest,
  withExtraColumns,
} from '../../core/output/generic.js';
import type { Paint } from '../../core/output/paint.js';
import type { Column, ListView, SectionsView } from '../../core/output/view.js';
import {
  type ItemList,
  itemListOf,
  labelOf,
  type Selector,
  selectorsOf,
  type SeriesList,
  seriesListOf,
} from './items.js';

/** A dataset reply as read through its schema (src/api/replies/data.ts). */
export type DatasetRead = Data.Read;

/**
 * The dataset schemas, loaded with the reply's reading: what a view reads of a line item or a
 * series with.
 */
export type DataSchemas = typeof Data;

/**
 * The attribution sentence and the date of the data, made printable: always shown with a table.
 * `label` writes the date (a chart's, in the calendar in force).
 */
export function attributionLines(
  r: DatasetRead,
  label: (date: string) => string = (date) => date,
): string[] {
  const text = (value: string | undefined) => (value === undefined ? undefined : printable(value));
  const attribution = text(r?.meta?.attribution);
  const asOf = text(r?.meta?.as_of);
  const facts = [
    asOf && `As of ${label(asOf)}`,
    text(r?.meta?.source),
    text(r?.meta?.source_url),
  ].filter(Boolean);
  return [...(attribution ? [attribution] : []), ...(facts.length ? [facts.join(' · ')] : [])];
}

/**
 * A value of a line item or a point: a number as received (a pipe shows it so), or its decimal
 * text.
 */
type Value = number | ExactNumber | string;

/**
 * Values for people: grouped digits (1,25,000.00), two decimals, every digit kept; a missing value
 * is a dash.
 */
export function formatValue(value: Value | null | undefined, paint?: Paint): string {
  if (value === null || value === undefined) return paint ? paint.dim('—') : '—';
  // A number no double holds (1e400) is shown as it came.
  return formatMoney(value) ?? cellText(value);
}

const SCALES: Record<string, string> = { mn: 'millions', bn: 'billions' };

/** Units as people say them: `NPR_mn` is NPR millions. */
export function unitText(unit: string | undefined): string | undefined {
  const scaled = unit && /^([A-Z]{3})_(mn|bn)$/.exec(unit);
  return scaled ? `${scaled[1]} ${SCALES[scaled[2]!]}` : unit;
}

/** The unit every row shares, or undefined when they differ (then each row shows its own). */
function sharedUnit(units: readonly (string | undefined)[]): string | undefined {
  const distinct = new Set(units);
  return distinct.size === 1 ? [...distinct][0] : undefined;
}

const valueHeader = (unit: string | undefined) => (unit ? `VALUE (${unitText(unit)})` : 'VALUE');

/** The month, and the bank of a per-bank reply, of a dataset payload. */
function periodTitle(r: DatasetRead): string | undefined {
  const data = monthData(r);
  return [data?.month, data?.bank].filter(Boolean).join(' · ') || undefined;
}

/** `data` in its documented object form (a month's), not as a list. */
function monthData(r: DatasetRead) {
  const data = r?.data;
  return Array.isArray(data) ? undefined : data;
}

interface LineItem {
  selector?: string;
  label?: string;
  value?: Value;
  unit?: string;
  section?: string;
  rest: JsonRecord;
}

const ITEM_FIELDS = ['label', 'line_item', 'name', 'title', 'value', 'unit', 'section'];

function lineItems(list: ItemList, schemas: DataSchemas): LineItem[] {
  const field = list.selectorField;
  const Item = schemas.lineItem(field);
  return list.items.map((item) => {
    const i = Item.parse(item);
    const value = i?.value;
    // A value that is no number is shown as it came, in a column of its own.
    const rest = unreadFields(item, [...ITEM_FIELDS, ...(field ? [field] : [])], { value });
    return {
      selector: i?.selector,
      label: labelOf(item),
      value,
      unit: i?.unit,
      section: i?.section,
      rest,
    };
  });
}

/** What a payload carries besides its list: its other fields, and the envelope's other fields. */
function leftovers(
  schemas: DataSchemas,
  body: unknown,
  data: unknown,
  listPath: string | undefined,
  shown: readonly string[],
): JsonRecord {
  // The reply is the list itself: nothing else is left.
  if (listPath === '') return {};
  const listName = listPath?.startsWith('data.') ? listPath.slice(5) : undefined;
  // A list found outside `data` is not shown twice either.
  const rest = otherFields(body, ['data', 'meta', ...(listPath ? [listPath.split('.')[0]!] : [])]);
  const object = schemas.receivedObject(data);
  if (object && listPath !== 'data') {
    const own = otherFields(object, [...(listName ? [listName] : []), ...shown]);
    if (Object.keys(own).length) rest.data = own;
  }
  return rest;
}

/** Every line item of one month, by section; a payload without a list of items, as it comes. */
export function lineItemsView(
  body: unknown,
  r: DatasetRead,
  selectorName: string,
  schemas: DataSchemas,
): SectionsView {
  const footer = attributionLines(r);
  const data = schemas.receivedData(body);
  const list = itemListOf(body, selectorName);
  const title = periodTitle(r);
  // No list to lay out: what came is shown as it is (the whole reply when it has no `data`).
  if (!list)
    return genericView(data ?? body ?? {}, {
      title,
      footer,
      empty: 'The reply holds no line items.',
    });
  const rows = lineItems(list, schemas);
  const unit = sharedUnit(rows.map((r) => r.unit));
  const columns: Column<LineItem>[] = [
    ...(list.selectorField
      ? [
          {
            key: list.selectorField,
            header: list.selectorField.toUpperCase(),
            value: (i: LineItem) => i.selector,
            keep: true,
          },
        ]
      : []),
    {
      key: 'label',
      header: 'ITEM',
      value: (i) => i.label,
      flex: true,
      also: ['line_item', 'name', 'title'],
    },
    {
      key: 'value',
      header: valueHeader(unit),
      value: (i) => cellText(i.value),
      display: (i, paint) => formatValue(i.value, paint),
      formatsValue: true,
      align: 'right',
      keep: true,
    },
    ...(unit ? [] : [{ key: 'unit', header: 'UNIT', value: (i: LineItem) => unitText(i.unit) }]),
  ];
  const month = monthData(r)?.month;
  const table: ListView<LineItem> = {
    kind: 'list',
    rows,
    columns,
    ...(month && { shared: { key: 'month', header: 'MONTH', value: month } }),
    ...(rows.some((r) => r.section) && {
      section: { key: 'section', header: 'SECTION', value: (i: LineItem) => i.section ?? '' },
    }),
    empty: `No line items${title ? ` for ${title}` : ''}.`,
  };
  return listWithRest(
    withExtraColumns(table, (i) => i.rest),
    leftovers(schemas, body, data, list.path, ['month', 'bank']),
    { title, footer },
  );
}

/** The selectors of a family: the line items of its `latest`, with labels and units. */
export function keysView(
  body: unknown,
  r: DatasetRead,
  selectorName: string,
  schemas: DataSchemas,
): SectionsView {
  const footer = attributionLines(r);
  const list = itemListOf(body, selectorName);
  const selectors = selectorsOf(list);
  const title = periodTitle(r);
  if (!list?.selectorField)
    return genericView(schemas.receivedData(body) ?? body ?? {}, {
      title: 'The reply names no selectors; it holds:',
      footer,
    });
  // Headed by the parameter users pass the value as; the items may name it otherwise (cbs: `code`).
  const name = selectorName;
  const table: ListView<Selector> = {
    kind: 'list',
    rows: selectors,
    columns: [
      {
        key: name,
        header: name.toUpperCase(),
        value: (s) => s.value,
        keep: true,
        ...(list.selectorField !== name && { also: [list.selectorField] }),
      },
      { key: 'label', header: 'LABEL', value: (s) => s.label, flex: true },
      { key: 'unit', header: 'UNIT', value: (s) => unitText(s.unit) },
    ],
    ...(selectors.some((s) => s.section) && {
      section: { key: 'section', header: 'SECTION', value: (s: Selector) => s.section ?? '' },
    }),
    empty: 'This dataset lists no line items.',
  };
  return {
    kind: 'sections',
    parts: [{ view: table }],
    title: `Values of ${name}${title ? ` for ${title}` : ''}`,
    footer,
  };
}

export interface SeriesFacts {
  label?: string;
  selector?: string;
  unit?: string;
  points: { month: string; value?: Value; rest: JsonRecord }[];
}

export function seriesFacts(
  series: SeriesList,
  selectorName: string,
  schemas: DataSchemas,
): SeriesFacts {
  const holder = schemas.seriesHolder(selectorName).parse(series.holder);
  const Point = schemas.seriesPoint(series.monthField, series.valueField);
  return {
    label: holder?.label,
    selector: holder?.selector,
    unit: holder?.unit,
    points: series.points.map((p) => {
      const point = Point.parse(p);
      return {
        month: point?.month ?? '',
        value: point?.value,
        rest: otherFields(p, [series.monthField, series.valueField]),
      };
    }),
  };
}

/** `label` writes a month (a chart's, marked with its calendar). */
export function seriesTitle(
  facts: SeriesFacts,
  label: (month: string) => string = (month) => month,
): string {
  const first = facts.points[0]?.month;
  const last = facts.points.at(-1)?.month;
  const span =
    first && last
      ? first === last
        ? label(first)
        : `${label(first)} to ${label(last)}`
      : undefined;
  return [facts.label, facts.selector, unitText(facts.unit), span].filter(Boolean).join(' · ');
}

/** One line item over time, oldest first; a reply without a series, as it comes. */
export function seriesView(
  body: unknown,
  r: DatasetRead,
  selectorName: string,
  range: { from?: string; to?: string },
  schemas: DataSchemas,
): SectionsView {
  const footer = attributionLines(r);
  const series = seriesListOf(body);
  if (!series)
    return genericView(schemas.receivedData(body) ?? {}, {
      title: 'The reply holds no series of months and values; it holds:',
      footer,
    });
  const facts = seriesFacts(series, selectorName, schemas);
  type Point = SeriesFacts['points'][number];
  const table: ListView<Point> = {
    kind: 'list',
    rows: facts.points,
    columns: [
      {
        key: series.monthField,
        header: series.monthField.toUpperCase(),
        value: (p) => p.month,
        keep: true,
      },
      {
        key: series.valueField,
        header: valueHeader(facts.unit),
        value: (p) => cellText(p.value),
        display: (p, paint) => formatValue(p.value, paint),
        formatsValue: true,
        align: 'right',
        keep: true,
      },
    ],
    empty: noObservations(facts, range),
  };
  const shown = [
    'label',
    'line_item',
    'name',
    'title',
    'unit',
    selectorName,
    'key',
    'indicator',
    'metric',
    'code',
  ];
  // No observations: one line says so, on the terminal in the table's place, on stderr under a
  // pipe's header line.
  return listWithRest(
    withExtraColumns(table, (p) => p.rest),
    leftovers(schemas, body, schemas.receivedData(body), series.path, shown),
    {
      title: seriesTitle(facts),
      footer,
      ...(facts.points.length === 0 && { aside: [table.empty!] }),
    },
  );
}

/** `No observations of Interest income from 2030-01 up to 2030-03.` */
function noObservations(facts: SeriesFacts, range: { from?: string; to?: string }): string {
  const of = facts.label ?? facts.selector;
  return `No observations${of ? ` of ${of}` : ''}${rangeText(range)}.`;
}

function rangeText(range: { from?: string; to?: string }): string {
  if (range.from && range.to) return ` from ${range.from} up to ${range.to}`;
  if (range.from) return ` from ${range.from}`;
  if (range.to) return ` before ${range.to}`;
  return '';
}
