// The central bank's datasets as the mock serves them: the generated fixture files
// (scripts/generate-data-fixtures.mjs), typed, and the replies built from them. The mock keeps
// its own list of families (the fixture files say their path and selector parameter), so a
// client that names a family wrongly is caught by the tests instead of agreeing with itself.
import balanceSheet from '../fixtures/data/balance-sheet.json' with { type: 'json' };
import cbs from '../fixtures/data/cbs.json' with { type: 'json' };
import cpi from '../fixtures/data/cpi.json' with { type: 'json' };
import credit from '../fixtures/data/credit.json' with { type: 'json' };
import indicators from '../fixtures/data/indicators.json' with { type: 'json' };
import interestRates from '../fixtures/data/interest-rates.json' with { type: 'json' };
import macro from '../fixtures/data/macro.json' with { type: 'json' };
import pnl from '../fixtures/data/pnl.json' with { type: 'json' };
import trade from '../fixtures/data/trade.json' with { type: 'json' };

export interface DatasetItemFixture {
  key: string;
  label: string;
  section: string;
  unit: string | null;
  source_quote?: string;
  /** One value per month, from `first_month` to `last_month`. */
  values: number[];
}

export interface DatasetFixture {
  family: string;
  /** Path under /v1/data/cbank/. */
  path: string;
  /** Query parameter of `/series` that names the line item. */
  selector_param: string;
  title: string;
  unit: string | null;
  note: string | null;
  source_url: string;
  as_of: string;
  first_month: string;
  last_month: string;
  items: DatasetItemFixture[];
}

export const DATASETS: readonly DatasetFixture[] = [balanceSheet, pnl, credit, indicators, cbs, cpi, interestRates, trade, macro] as DatasetFixture[];

/** The dataset whose C4 indicators the snapshot serves. */
export const SNAPSHOT_DATASET = 'banking/indicators';

export const SOURCE = 'Nepal Rastra Bank';
export const ATTRIBUTION = 'Data: Nepal Rastra Bank (nrb.org.np), the central bank of Nepal; republished with attribution.';

export function datasetByPath(path: string): DatasetFixture | undefined {
  return DATASETS.find((d) => d.path === path);
}

const monthIndex = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
const monthName = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

/** Every month a dataset covers, oldest first. */
export function months(dataset: DatasetFixture): string[] {
  const first = monthIndex(dataset.first_month);
  return Array.from({ length: monthIndex(dataset.last_month) - first + 1 }, (_, i) => monthName(first + i));
}

export function meta(dataset: DatasetFixture) {
  return { source: SOURCE, source_url: dataset.source_url, attribution: ATTRIBUTION, as_of: dataset.as_of };
}

/** Every line item of one month (the latest by default). */
export function latestReply(dataset: DatasetFixture, month: string = dataset.last_month) {
  const at = months(dataset).indexOf(month);
  if (at < 0) throw new Error(`${month} is outside ${dataset.path}`);
  return {
    data: {
      dataset: dataset.path,
      title: dataset.title,
      period: month,
      frequency: 'monthly',
      unit: dataset.unit,
      note: dataset.note,
      items: dataset.items.map((item) => ({
        key: item.key,
        label: item.label,
        section: item.section,
        value: item.values[at] ?? null,
        unit: item.unit,
        ...(item.source_quote !== undefined && month === dataset.last_month && { source_quote: item.source_quote }),
      })),
    },
    meta: meta(dataset),
  };
}

/** One line item over time; `from` inclusive, `to` exclusive, both YYYY-MM. */
export function seriesReply(dataset: DatasetFixture, item: DatasetItemFixture, from: string | null, to: string | null) {
  const points = months(dataset)
    .map((period, i) => ({ period, value: item.values[i] ?? null }))
    .filter((p) => (from === null || p.period >= from) && (to === null || p.period < to));
  return {
    data: {
      dataset: dataset.path,
      key: item.key,
      label: item.label,
      section: item.section,
      unit: item.unit,
      frequency: 'monthly',
      from,
      to,
      points,
    },
    meta: meta(dataset),
  };
}
