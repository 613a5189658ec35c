// Which fields of the report views are money (commands/money.ts): amounts by the last word of their
// name, never counts, shares, scores or days.
import { describe, expect, it } from 'vitest';

import { holdsMoney, moneyOf } from '../../src/commands/money.js';

describe('money fields', () => {
  it('names the amounts the service sends', () => {
    for (const key of [
      'total_inflow',
      'outflow',
      'average_amount',
      'closing_balance',
      'signals.salary_amount',
      'monthly_summary.net',
      'total_credits',
      'debit',
      'loan.emi',
      'loan.total_repayable',
      'loan.total_interest',
      'monthly_income',
      'monthly_expenses',
      'affordability.headroom',
      'monthly_avg',
      'merchant_categories.groceries.total',
      'max_supportable_principal',
    ]) {
      expect(holdsMoney(key), key).toBe(true);
    }
  });

  it('leaves out counts, shares, scores, days and words', () => {
    for (const key of [
      'inflow_count',
      'transaction_count',
      'count',
      'emi_load_pct',
      'cash_withdrawal_ratio',
      'income_stability_score',
      'negative_balance_days',
      'loan.tenor_months',
      'loan.annual_rate_pct',
      'foir.ceiling',
      'balance_trend',
      'salary_detected',
      'netflix',
    ]) {
      expect(holdsMoney(key), key).toBe(false);
    }
  });

  it('takes the currency a reply names, at the top or in its statement', () => {
    expect(moneyOf({ currency: 'NPR' }).currency).toBe('NPR');
    expect(moneyOf({ statement: { currency: 'USD' } }).currency).toBe('USD');
    expect(moneyOf({ currency: 5 }).currency).toBeUndefined();
    expect(moneyOf([]).currency).toBeUndefined();
  });
});
