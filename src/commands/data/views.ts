// What the data commands show: one month's line items grouped by section, a series as period/value
// rows, the selectors of a family. The source's attribution and date go under every table.
import type { DatasetLatest, DatasetMeta, DatasetSeries, LineItem, SeriesPoint } from '../../api/data-schemas.js';
import { formatAmount } from '../../core/output/format.js';
import type { Paint } from '../../core/output/paint.js';
import type { Column, ListView } from '../../core/output/view.js';

/** How a view is laid out: a boxed terminal table shows the month in its title, other forms in a column. */
export interface Layout {
  terminal: boolean;
}

/** The attribution sentence and the date of the data: always shown with a table. */
export function attributionLines(meta: DatasetMeta): string[] {
  return [meta.attribution, `As of ${meta.as_of} · ${meta.source} · ${meta.source_url}`];
}

/** Values for people: grouped digits (1,25,000.00), two decimals; a missing value is a dash. */
export function formatValue(value: number | null | undefined, paint?: Paint): string {
  if (value === null || value === undefined) return paint ? paint.dim('—') : '—';
  return formatAmount(value);
}

/** The unit every row shares, or undefined when they differ (then each row shows its own). */
function sharedUnit(units: readonly (string | null | undefined)[], fallback: string | null | undefined): string | undefined {
  const distinct = new Set(units.map((u) => u ?? fallback ?? ''));
  return distinct.size === 1 ? [...distinct][0] || undefined : undefined;
}

const valueHeader = (unit: string | undefined) => (unit ? `VALUE (${unit})` : 'VALUE');

/** Every line item of one month, by section. `items` are the items as received, for ndjson. */
export function lineItemsView(latest: DatasetLatest, items: unknown[], layout: Layout): ListView<LineItem> {
  const { data } = latest;
  const unit = sharedUnit(data.items.map((i) => i.unit), data.unit);
  const quoted = data.items.some((i) => i.source_quote);
  const columns: Column<LineItem>[] = [
    ...(layout.terminal ? [] : [{ key: 'period', header: 'PERIOD', value: () => data.period }]),
    { key: 'key', header: 'KEY', value: (i) => i.key },
    { key: 'label', header: 'ITEM', value: (i) => i.label, flex: true },
    { key: 'value', header: valueHeader(layout.terminal ? unit : undefined), value: (i) => i.value, display: (i, paint) => formatValue(i.value, paint), align: 'right' },
    ...(layout.terminal && unit ? [] : [{ key: 'unit', header: 'UNIT', value: (i: LineItem) => i.unit ?? data.unit }]),
    ...(quoted ? [{ key: 'source_quote', header: 'SOURCE QUOTE', value: (i: LineItem) => i.source_quote, flex: true }] : []),
  ];
  return {
    kind: 'list',
    title: [data.title, data.period].filter(Boolean).join(' · '),
    section: { key: 'section', header: 'SECTION', value: (i) => i.section ?? '' },
    rows: data.items,
    items,
    columns,
    empty: `No line items for ${data.period}.`,
    footer: [...(data.note ? [data.note] : []), ...attributionLines(latest.meta)],
  };
}

/** One line item over time, oldest first. `points` are the points as received, for ndjson. */
export function seriesView(series: DatasetSeries, points: unknown[], range: { from?: string; to?: string }): ListView<SeriesPoint> {
  const { data } = series;
  return {
    kind: 'list',
    title: seriesTitle(series),
    rows: data.points,
    items: points,
    columns: [
      { key: 'period', header: 'PERIOD', value: (p) => p.period },
      { key: 'value', header: valueHeader(data.unit ?? undefined), value: (p) => p.value, display: (p, paint) => formatValue(p.value, paint), align: 'right' },
    ],
    empty: `No data${rangeText(range)}.`,
    footer: attributionLines(series.meta),
  };
}

export function seriesTitle(series: DatasetSeries): string {
  const { data } = series;
  const first = data.points[0]?.period;
  const last = data.points.at(-1)?.period;
  const span = first && last ? (first === last ? first : `${first} to ${last}`) : undefined;
  return [data.label, data.key, data.unit, data.frequency, span].filter(Boolean).join(' · ');
}

function rangeText(range: { from?: string; to?: string }): string {
  if (range.from && range.to) return ` from ${range.from} up to ${range.to}`;
  if (range.from) return ` from ${range.from}`;
  if (range.to) return ` before ${range.to}`;
  return '';
}

/** The selectors of a family: the keys of its `/latest` line items, with labels and units. */
export function keysView(latest: DatasetLatest, items: unknown[], selector: string): ListView<LineItem> {
  const { data } = latest;
  return {
    kind: 'list',
    title: `Values of ${selector} for ${[data.title, data.period].filter(Boolean).join(' · ')}`,
    section: { key: 'section', header: 'SECTION', value: (i) => i.section ?? '' },
    rows: data.items,
    items,
    columns: [
      { key: 'key', header: selector.toUpperCase(), value: (i) => i.key },
      { key: 'label', header: 'LABEL', value: (i) => i.label, flex: true },
      { key: 'unit', header: 'UNIT', value: (i) => i.unit ?? data.unit },
    ],
    empty: 'This dataset lists no line items.',
    footer: attributionLines(latest.meta),
  };
}
