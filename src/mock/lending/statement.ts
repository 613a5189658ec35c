// What the lending views read from a report: its period, opening balance and transactions, and a
// few measures several views share.
import { daysBetween, monthOf, monthsBetween } from '../dates.js';
import type { Period } from '../fixtures.js';
import { money, type Transaction } from '../report/transaction.js';

export interface Statement {
  period: Period;
  opening_balance: number;
  /** In statement order: by date, running balance after each. */
  transactions: readonly Transaction[];
}

/** Average days in a month: the period's length in months, partial months counted in part. */
const DAYS_PER_MONTH = 365.25 / 12;

/** The report's own: the lending views total and split transactions the same way. */
export { credits, debits, sum } from '../report/summaries.js';

export function closingBalance(s: Statement): number {
  return s.transactions.at(-1)?.balance ?? s.opening_balance;
}

/** How many months the period spans (a statement from 16 July to 15 January is 6), at least 1. */
export function periodMonths(period: Period): number {
  return Math.max(1, (daysBetween(period.from, period.to) + 1) / DAYS_PER_MONTH);
}

/** A monthly figure from a total over the period. */
export function perMonth(total: number, period: Period): number {
  return money(total / periodMonths(period));
}

/**
 * The calendar months the period covers from their first day to their last; all its months when
 * fewer than two.
 */
export function wholeMonths(period: Period): string[] {
  const all = monthsBetween(monthOf(period.from), monthOf(period.to));
  const whole = all.filter(
    (month) => `${month}-01` >= period.from && lastDayOf(month) <= period.to,
  );
  return whole.length >= 2 ? whole : all;
}

function lastDayOf(month: string): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, m, 0)).toISOString().slice(0, 10);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
