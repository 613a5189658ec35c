// Profit and loss per bank (sheet C9), in the documents but not in the spec:
// GET /v1/data/cbank/banks/pnl/latest[?bank=NABIL] and /series?bank=…&line=…. The mock makes each
// bank's figures from the consolidated profit and loss (banking/pnl) and the bank's share of it.
import bankPnl from '../fixtures/bank-pnl.json' with { type: 'json' };
import type { DatasetItemFixture } from './datasets.js';
import { familyByPath, points, unitCode } from './replies.js';

export const BANK_PNL_TABLE = 'sheet C9';
export const consolidatedPnl = familyByPath('banking/pnl')!;

/** The bank codes served, e.g. NABIL (the mock serves a few; the service has 50+ institutions). */
export const BANK_CODES: readonly string[] = bankPnl.banks.map((b) => b.bank);

/** The lower-case form of a bank code, as the documents write it in keys (`nabil`). */
const lower = (bank: string) => bank.toLowerCase();

/** A bank as the client wrote it, in either case (`NABIL`, `nabil`); undefined when unknown. */
export function bankCodeOf(text: string): string | undefined {
  return BANK_CODES.find((code) => code === text.toUpperCase());
}

/**
 * `line` as the client wrote it: the consolidated key (`income.interest-income`), or the bank's
 * key.
 */
export function lineOf(bank: string, text: string): DatasetItemFixture | undefined {
  const line = text.toLowerCase().startsWith(`${lower(bank)}.`)
    ? text.slice(bank.length + 1)
    : text;
  return consolidatedPnl.dataset.items.find((item) => consolidatedPnl.selector(item) === line);
}

const share = (bank: string) => bankPnl.banks.find((b) => b.bank === bank)!.share;
const ofBank = (bank: string, value: number | null) =>
  value === null ? null : Math.round(value * share(bank) * 1000) / 1000;

/**
 * One month of every line item of one bank (as documented), or of every bank when none is named.
 */
export function bankPnlLatest(bank: string | null) {
  const { dataset } = consolidatedPnl;
  const month = dataset.last_month;
  const lineItems = (code: string) =>
    dataset.items.map((item, index) => ({
      key: `${lower(code)}.${consolidatedPnl.selector(item)}`,
      bank: code,
      line_item: item.label,
      value: ofBank(code, item.values.at(-1) ?? null),
      unit: unitCode(item.unit),
      section: item.section,
      code: String(index + 1),
    }));
  if (bank !== null) return { month, bank: lower(bank), line_items: lineItems(bank) };
  return { month, line_items: BANK_CODES.flatMap(lineItems) };
}

/** One line item of one bank over time; `from` included, `to` excluded. */
export function bankPnlSeries(
  bank: string,
  item: DatasetItemFixture,
  from: string | null,
  to: string | null,
) {
  const line = consolidatedPnl.selector(item);
  return {
    bank: lower(bank),
    line,
    key: `${lower(bank)}.${line}`,
    line_item: item.label,
    unit: unitCode(item.unit),
    points: points(consolidatedPnl.dataset, item, from, to).map((p) => ({
      month: p.month,
      value: ofBank(bank, p.value),
    })),
  };
}
