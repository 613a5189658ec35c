// The central bank's datasets as generated (scripts/generate-data-fixtures.mjs): the fixture
// files, typed, one value per month for every line item. replies.ts gives them the shapes the
// mock answers with. The mock keeps its own list of families (the fixture files say their path
// and selector parameter), so a client that names a family wrongly is caught by the tests instead
// of agreeing with itself.
import { monthsBetween } from '../dates.js';
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

export const DATASETS: readonly DatasetFixture[] = [
  balanceSheet,
  pnl,
  credit,
  indicators,
  cbs,
  cpi,
  interestRates,
  trade,
  macro,
] as DatasetFixture[];

/** Every month a dataset covers, oldest first. */
export function months(dataset: DatasetFixture): string[] {
  return monthsBetween(dataset.first_month, dataset.last_month);
}
