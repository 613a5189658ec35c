// How the mock answers each dataset family under /v1/data/cbank/. Every reply is the documented
// envelope {data, meta}. The `latest` data of cpi, interest-rates and banking/pnl are the
// documents' shapes; the other families and every `series` reply are not shown there, so their
// shapes are the mock's own, and deliberately not alike (line_items keyed by `key`, indicators
// keyed by `indicator`, accounts keyed by `code`, points or observations), as a client must
// expect of a service whose shapes are unknown (fixtures/README.md lists them).
import { type DatasetFixture, type DatasetItemFixture, DATASETS, months } from './datasets.js';

export const SOURCE = 'Nepal Rastra Bank';

/** Unit codes as the documents write them (NPR_mn); the fixtures spell units out. */
const UNITS: Record<string, string> = {
  'NPR millions': 'NPR_mn',
  'NPR billions': 'NPR_bn',
  'USD millions': 'USD_mn',
  'index, 2014/15 = 100': 'index',
};
export const unitCode = (unit: string | null) => (unit === null ? null : (UNITS[unit] ?? unit));

/** Lower case, words joined by dashes: "Expenses and provisions" → "expenses-and-provisions". */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** SDMX-style codes of the CPI groups (the documents show PCPI_IX for the overall index). */
const CPI_CODES: Record<string, string> = {
  overall: 'PCPI_IX',
  'food-and-beverage': 'PCPI_CP_01_IX',
  'cereal-grains': 'PCPI_CP_0111_IX',
  'meat-and-fish': 'PCPI_CP_0112_IX',
  'milk-products-and-eggs': 'PCPI_CP_0114_IX',
  vegetables: 'PCPI_CP_0117_IX',
  'non-food-and-services': 'PCPI_NFS_IX',
  'clothes-and-footwear': 'PCPI_CP_03_IX',
  'housing-and-utilities': 'PCPI_CP_04_IX',
  health: 'PCPI_CP_06_IX',
  transport: 'PCPI_CP_07_IX',
  education: 'PCPI_CP_10_IX',
};

export interface Family {
  dataset: DatasetFixture;
  /** Where the figures are published, for the attribution: publication and table. */
  publication: string;
  table: string;
  /** The value of the series selector that names each item, in the items' order. */
  selector: (item: DatasetItemFixture) => string;
  /** The `data` of /latest (and of the snapshot) for one month. */
  latest: (month: string) => unknown;
  /** The `data` of /series for one item and the months asked for. */
  series: (item: DatasetItemFixture, points: { month: string; value: number | null }[]) => unknown;
}

/** The value of every item in one month. */
function valuesIn(
  dataset: DatasetFixture,
  month: string,
): { item: DatasetItemFixture; value: number | null }[] {
  const at = months(dataset).indexOf(month);
  return dataset.items.map((item) => ({ item, value: item.values[at] ?? null }));
}

const pnlKey = (item: DatasetItemFixture) => `${slug(item.section)}.${item.key}`;
const STATISTICS = 'Monthly Banking and Financial Statistics';

function family(
  path: string,
  spec: Omit<Family, 'dataset' | 'selector' | 'latest'> & {
    selector?: Family['selector'];
    latest: (
      rows: { item: DatasetItemFixture; value: number | null; selector: string; index: number }[],
      month: string,
    ) => unknown;
  },
): Family {
  const dataset = DATASETS.find((d) => d.path === path)!;
  const selector = spec.selector ?? ((item: DatasetItemFixture) => item.key);
  return {
    ...spec,
    dataset,
    selector,
    latest: (month) =>
      spec.latest(
        valuesIn(dataset, month).map((row, index) => ({
          ...row,
          selector: selector(row.item),
          index,
        })),
        month,
      ),
  };
}

export const FAMILIES: readonly Family[] = [
  family('banking/balance-sheet', {
    publication: STATISTICS,
    table: 'table C5',
    latest: (rows, month) => ({
      month,
      line_items: rows.map(({ item, value }) => ({
        key: item.key,
        label: item.label,
        value,
        unit: unitCode(item.unit),
        section: item.section,
      })),
    }),
    series: (item, points) => ({
      key: item.key,
      label: item.label,
      unit: unitCode(item.unit),
      points,
    }),
  }),
  family('banking/pnl', {
    publication: STATISTICS,
    table: 'table C6',
    selector: pnlKey,
    // As documented:
    // {"key":"income.interest-income","label","value","unit":"NPR_mn","section","code":"1"}.
    latest: (rows, month) => ({
      month,
      line_items: rows.map(({ item, value, selector, index }) => ({
        key: selector,
        label: item.label,
        value,
        unit: unitCode(item.unit),
        section: item.section,
        code: String(index + 1),
      })),
    }),
    series: (item, points) => ({
      key: pnlKey(item),
      label: item.label,
      unit: unitCode(item.unit),
      points,
    }),
  }),
  family('banking/credit', {
    publication: STATISTICS,
    table: 'table C8',
    latest: (rows, month) => ({
      month,
      line_items: rows.map(({ item, value }) => ({
        key: item.key,
        label: item.label,
        breakdown: item.section,
        value,
        unit: unitCode(item.unit),
      })),
    }),
    series: (item, points) => ({
      key: item.key,
      label: item.label,
      breakdown: item.section,
      unit: unitCode(item.unit),
      points,
    }),
  }),
  family('banking/indicators', {
    publication: STATISTICS,
    table: 'table C4',
    latest: (rows, month) => ({
      month,
      indicators: rows.map(({ item, value }) => ({
        indicator: item.key,
        label: item.label,
        group: item.section,
        value,
        unit: unitCode(item.unit),
      })),
    }),
    series: (item, points) => ({
      indicator: item.key,
      label: item.label,
      unit: unitCode(item.unit),
      observations: points,
    }),
  }),
  family('cbs', {
    publication: 'Central Bank Survey',
    table: 'SDMX feed',
    latest: (rows, month) => ({
      month,
      accounts: rows.map(({ item, value }) => ({
        code: item.key,
        label: item.label,
        section: item.section,
        value,
        unit: unitCode(item.unit),
      })),
    }),
    series: (item, points) => ({
      indicator: item.key,
      label: item.label,
      unit: unitCode(item.unit),
      observations: points,
    }),
  }),
  family('cpi', {
    publication: 'Consumer Price Index',
    table: 'SDMX feed',
    selector: (item) => CPI_CODES[item.key] ?? item.key,
    // As documented: {"indicator":"PCPI_IX","label":"Overall index,
    // index","value","scale":0,"absolute","unit":"index"}.
    latest: (rows, month) => ({
      month,
      indicators: rows.map(({ item, value, selector }) => ({
        indicator: selector,
        label: `${item.label}, index`,
        value,
        scale: 0,
        absolute: value,
        unit: unitCode(item.unit),
      })),
    }),
    series: (item, points) => ({
      indicator: CPI_CODES[item.key] ?? item.key,
      label: `${item.label}, index`,
      unit: unitCode(item.unit),
      observations: points,
    }),
  }),
  family('interest-rates', {
    publication: 'Interest Rate Structure',
    table: 'monthly table',
    // As documented, `data` is an array: [{"metric":"base-rate","label":"Base
    // Rate","value":5.0,"unit":"percent"}].
    latest: (rows) =>
      rows.map(({ item, value }) => ({
        metric: item.key,
        label: item.label,
        value,
        unit: unitCode(item.unit),
      })),
    series: (item, points) => ({
      metric: item.key,
      label: item.label,
      unit: unitCode(item.unit),
      points,
    }),
  }),
  family('trade', {
    publication: 'Direction of Foreign Trade',
    table: 'by SITC section',
    latest: (rows, month) => ({
      month,
      line_items: rows.map(({ item, value }) => ({
        key: item.key,
        label: item.label,
        flow: /^(exports|imports)-/.exec(item.key)?.[1] ?? 'balance',
        sitc_section: /-sitc-(\d)$/.exec(item.key)?.[1] ?? null,
        value,
        unit: unitCode(item.unit),
      })),
    }),
    series: (item, points) => ({
      key: item.key,
      label: item.label,
      unit: unitCode(item.unit),
      points,
    }),
  }),
  family('macro', {
    publication: 'Current Macroeconomic and Financial Situation',
    table: 'key indicators',
    // Each indicator quotes the sentence of the latest report that gives it.
    latest: (rows, month) => ({
      month,
      indicators: rows.map(({ item, value }) => ({
        indicator: item.key,
        label: item.label,
        value,
        unit: unitCode(item.unit),
        source_quote: item.source_quote ?? null,
      })),
    }),
    series: (item, points) => ({
      indicator: item.key,
      label: item.label,
      unit: unitCode(item.unit),
      observations: points,
    }),
  }),
];

/** The dataset whose C4 indicators the snapshot serves. */
export const SNAPSHOT_FAMILY = 'banking/indicators';

export function familyByPath(path: string): Family | undefined {
  return FAMILIES.find((f) => f.dataset.path === path);
}

export function meta(dataset: DatasetFixture, publication: string, table: string) {
  return {
    source: SOURCE,
    source_url: dataset.source_url,
    attribution: `Source: ${SOURCE} — ${publication} (${table}). Republished by svc with attribution.`,
    as_of: dataset.as_of,
  };
}

/** One item over the months asked for: `from` included, `to` excluded (YYYY-MM). */
export function points(
  dataset: DatasetFixture,
  item: DatasetItemFixture,
  from: string | null,
  to: string | null,
) {
  return months(dataset)
    .map((month, i) => ({ month, value: item.values[i] ?? null }))
    .filter((p) => (from === null || p.month >= from) && (to === null || p.month < to));
}
