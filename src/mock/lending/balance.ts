// GET /v1/reports/{id}/balance, with the documented fields. The average daily balance is the mean
// of every day's closing balance over the period; the trend is the report's `balance_trend`.
import { addDays } from '../dates.js';
import { balanceTrend } from '../report/summaries.js';
import { money } from '../report/transaction.js';
import { closingBalance, type Statement } from './statement.js';

export function balanceView(s: Statement, currency: string) {
  const closing = closingBalance(s);
  return {
    currency,
    period: s.period,
    opening_balance: s.opening_balance,
    closing_balance: closing,
    avg_daily_balance: averageDailyBalance(s),
    trend: balanceTrend(s.opening_balance, closing),
  };
}

/**
 * Days without transactions keep the balance of the day before; the first starts from the opening
 * balance.
 */
export function averageDailyBalance(s: Statement): number {
  let balance = s.opening_balance;
  let next = 0;
  let total = 0;
  let days = 0;
  for (let day = s.period.from; day <= s.period.to; day = addDays(day, 1)) {
    while (next < s.transactions.length && s.transactions[next]!.date <= day)
      balance = s.transactions[next++]!.balance;
    total += balance;
    days += 1;
  }
  return days ? money(total / days) : s.opening_balance;
}
