// What a report says about its transactions as a whole. `merchant_categories` follows the
// documents ({"groceries":{"count":12,"total":8420}}); the documents show that `signals`,
// `monthly_summary` and `categories` exist but not what they hold: their shapes here are the
// mock's own, and so is the counterparties view (fixtures/README.md).
import { monthOf, monthsBetween } from '../dates.js';
import type { CounterpartyType, Period } from '../fixtures.js';
import { type Category, money, type Transaction } from './transaction.js';

const COUNTERPARTY_TYPES: readonly CounterpartyType[] = [
  'merchant',
  'individual',
  'institution',
  'wallet',
  'cash',
  'self',
];
/** Named counterparties listed in the counterparties view, per list. */
const TOP = 5;

export const sum = (transactions: readonly Transaction[]) =>
  money(transactions.reduce((s, t) => s + t.amount, 0));
export const credits = (transactions: readonly Transaction[]) =>
  transactions.filter((t) => t.direction === 'credit');
export const debits = (transactions: readonly Transaction[]) =>
  transactions.filter((t) => t.direction === 'debit');

/** Spending at merchants by the directory's spend category: count and total of the payments. */
export function merchantCategories(
  transactions: readonly Transaction[],
): Record<string, { count: number; total: number }> {
  const byCategory: Record<string, { count: number; total: number }> = {};
  for (const t of debits(transactions)) {
    if (!t.merchant) continue;
    const entry = (byCategory[t.merchant.category] ??= { count: 0, total: 0 });
    entry.count += 1;
    entry.total = money(entry.total + t.amount);
  }
  return byCategory;
}

/** Per transaction category (the documented list) present: how many, and the money in and out. */
export function categories(
  transactions: readonly Transaction[],
): Partial<Record<Category, { count: number; credit: number; debit: number }>> {
  const byCategory: Partial<Record<Category, { count: number; credit: number; debit: number }>> =
    {};
  for (const t of transactions) {
    const entry = (byCategory[t.category] ??= { count: 0, credit: 0, debit: 0 });
    entry.count += 1;
    entry[t.direction] = money(entry[t.direction] + t.amount);
  }
  return byCategory;
}

/** One row per calendar month of the period, months without transactions included. */
export function monthlySummary(
  transactions: readonly Transaction[],
  period: Period,
  openingBalance: number,
) {
  let balance = openingBalance;
  return monthsBetween(monthOf(period.from), monthOf(period.to)).map((month) => {
    const inMonth = transactions.filter((t) => monthOf(t.date) === month);
    balance = inMonth.at(-1)?.balance ?? balance;
    const totalCredits = sum(credits(inMonth));
    const totalDebits = sum(debits(inMonth));
    return {
      month,
      total_credits: totalCredits,
      total_debits: totalDebits,
      net: money(totalCredits - totalDebits),
      closing_balance: balance,
      transaction_count: inMonth.length,
    };
  });
}

/** Flags a lender looks at first. */
export function signals(
  transactions: readonly Transaction[],
  openingBalance: number,
  closingBalance: number,
) {
  const of = (category: Category) => transactions.filter((t) => t.category === category);
  const salaries = credits(of('salary'));
  const outgoing = sum(debits(transactions));
  return {
    salary_detected: salaries.length > 0,
    salary_amount: salaries.at(-1)?.amount ?? null,
    remittance_detected: of('remittance').length > 0,
    loan_repayments_detected: of('loan_repayment').length > 0,
    // Per month that had any, so that a statement starting or ending mid-month does not dilute it.
    average_monthly_emi: money(
      sum(of('loan_repayment')) /
        (new Set(of('loan_repayment').map((t) => monthOf(t.date))).size || 1),
    ),
    cash_withdrawal_ratio:
      outgoing > 0 ? Math.round((sum(of('cash_withdrawal')) / outgoing) * 1000) / 1000 : 0,
    negative_balance_days: new Set(transactions.filter((t) => t.balance < 0).map((t) => t.date))
      .size,
    balance_trend: balanceTrend(openingBalance, closingBalance),
  };
}

export type BalanceTrend = 'growing' | 'stable' | 'declining';

/** Closing against opening balance: a change of more than 5 % (of at least 10,000) is a trend. */
export function balanceTrend(openingBalance: number, closingBalance: number): BalanceTrend {
  const change = closingBalance - openingBalance;
  const scale = Math.max(Math.abs(openingBalance), 10_000);
  return change > 0.05 * scale ? 'growing' : change < -0.05 * scale ? 'declining' : 'stable';
}

/** The counterparties view: flows by counterparty type and the biggest named people and shops. */
export function counterpartyFlows(transactions: readonly Transaction[]) {
  const top = (type: CounterpartyType) => {
    const byName = new Map<string, Transaction[]>();
    for (const t of transactions.filter((x) => x.counterparty.type === type)) {
      byName.set(t.counterparty.name, [...(byName.get(t.counterparty.name) ?? []), t]);
    }
    return [...byName]
      .map(([name, own]) => ({
        name,
        type,
        inflow: sum(credits(own)),
        outflow: sum(debits(own)),
        transaction_count: own.length,
      }))
      .sort((a, b) => b.inflow + b.outflow - (a.inflow + a.outflow) || a.name.localeCompare(b.name))
      .slice(0, TOP);
  };
  return {
    total_inflow: sum(credits(transactions)),
    total_outflow: sum(debits(transactions)),
    by_type: COUNTERPARTY_TYPES.map((type) => {
      const own = transactions.filter((t) => t.counterparty.type === type);
      return {
        type,
        inflow: sum(credits(own)),
        outflow: sum(debits(own)),
        inflow_count: credits(own).length,
        outflow_count: debits(own).length,
      };
    }),
    top_people: top('individual'),
    top_merchants: top('merchant'),
  };
}
