// GET /v1/reports/{id}/income, with the documented fields. The rules behind them are the mock's own
// (fixtures/README.md): which credits are income, when a salary is `monthly`, and how stable
// income is.
import { addMonths, daysBetween, monthOf, monthsBetween } from '../dates.js';
import { listedTransaction } from '../report/shapes.js';
import type { Transaction } from '../report/transaction.js';
import { clamp, credits, median, perMonth, type Statement, sum, wholeMonths } from './statement.js';

/**
 * A salary paid longer ago than this before the statement ends has stopped: no longer `monthly`.
 */
const SALARY_CURRENT_DAYS = 40;
/** Paydays may move this many days around their usual day (weekends, holidays). */
const PAYDAY_SPREAD_DAYS = 5;

/**
 * Money earned rather than moved: salary, remittance and interest, and the other credits of
 * institutions (a pension, a business's settlements, gig payouts). Transfers from people, refunds,
 * wallet withdrawals and cash deposits are not income.
 */
function isIncome(t: Transaction): boolean {
  if (t.direction !== 'credit') return false;
  return (
    t.category === 'salary' ||
    t.category === 'remittance' ||
    t.category === 'interest' ||
    (t.category === 'other' && t.counterparty.type === 'institution')
  );
}

/** The income a lender may count on in a month: the period's income credits per month. */
export function monthlyIncome(s: Statement): number {
  return perMonth(sum(s.transactions.filter(isIncome)), s.period);
}

export type SalaryRegularity = 'monthly' | 'irregular';
export type IncomeView = ReturnType<typeof incomeView>;

export function incomeView(s: Statement) {
  const salaries = s.transactions.filter(
    (t) => t.direction === 'credit' && t.category === 'salary',
  );
  const paydays = salaries.map((t) => Number(t.date.slice(8, 10)));
  return {
    salary_detected: salaries.length > 0,
    salary_amount: salaries.at(-1)?.amount ?? null,
    salary_regularity: salaries.length ? salaryRegularity(salaries, s) : null,
    salary_day_of_month: paydays.length ? Math.round(median(paydays)) : null,
    avg_monthly_credit: perMonth(sum(credits(s.transactions)), s.period),
    income_stability_score: incomeStability(s),
    remittance_detected: s.transactions.some(
      (t) => t.direction === 'credit' && t.category === 'remittance',
    ),
    monthly_credits: monthsBetween(monthOf(s.period.from), monthOf(s.period.to)).map((month) => ({
      month,
      total_credits: sum(credits(s.transactions).filter((t) => monthOf(t.date) === month)),
    })),
    income_transactions: s.transactions.filter(isIncome).map(listedTransaction),
  };
}

/** `monthly`: one salary in each of consecutive months, on about the same day, still being paid. */
function salaryRegularity(salaries: readonly Transaction[], s: Statement): SalaryRegularity {
  const months = salaries.map((t) => monthOf(t.date));
  const consecutive = months.every(
    (month, i) => i === 0 || monthOf(addMonths(`${months[i - 1]}-01`, 1)) === month,
  );
  const days = salaries.map((t) => Number(t.date.slice(8, 10)));
  const usual = median(days);
  const onTime = days.every((day) => Math.abs(day - usual) <= PAYDAY_SPREAD_DAYS);
  const current = daysBetween(salaries.at(-1)!.date, s.period.to) <= SALARY_CURRENT_DAYS;
  return salaries.length >= 2 && consecutive && onTime && current ? 'monthly' : 'irregular';
}

/**
 * 0 to 100: how little income varies from one whole month to the next (100 less the coefficient
 * of variation in percent); 0 without income.
 */
function incomeStability(s: Statement): number {
  const income = s.transactions.filter(isIncome);
  const totals = wholeMonths(s.period).map((month) =>
    income.filter((t) => monthOf(t.date) === month).reduce((total, t) => total + t.amount, 0),
  );
  const mean = totals.reduce((a, b) => a + b, 0) / totals.length;
  if (mean <= 0) return 0;
  const deviation = Math.sqrt(totals.reduce((a, t) => a + (t - mean) ** 2, 0) / totals.length);
  return Math.round(clamp(100 * (1 - deviation / mean), 0, 100));
}
