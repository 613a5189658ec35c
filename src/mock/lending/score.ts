// GET /v1/reports/{id}/score, with the documented fields: a score from 0 to 1000, its band, and the
// factors that moved it, each a signed impact. The factors, their weights and the band limits are
// the mock's own (fixtures/README.md): a plain scorecard that starts every statement at 500.
import { signals } from '../report/summaries.js';
import { averageDailyBalance } from './balance.js';
import { type IncomeView, incomeView, monthlyIncome } from './income.js';
import { type LiabilitiesView, liabilitiesView } from './liabilities.js';
import {
  clamp,
  closingBalance,
  debits,
  periodMonths,
  perMonth,
  type Statement,
  sum,
} from './statement.js';

export type Band = 'excellent' | 'good' | 'fair' | 'poor' | 'very_poor';

/** The lowest score of each band, best first. */
export const BANDS: readonly [Band, number][] = [
  ['excellent', 750],
  ['good', 650],
  ['fair', 550],
  ['poor', 400],
  ['very_poor', 0],
];

const BASE_SCORE = 500;

export interface Factor {
  factor: string;
  impact: number;
  detail: string;
}

/** The views the score reads: a caller that has them already (underwriting) passes them. */
export interface ScoreInputs {
  income: IncomeView;
  liabilities: LiabilitiesView;
  monthlyIncome: number;
}

export function scoreView(s: Statement, inputs: ScoreInputs = scoreInputs(s)) {
  const factors = scoreFactors(s, inputs).sort(
    (a, b) => Math.abs(b.impact) - Math.abs(a.impact) || a.factor.localeCompare(b.factor),
  );
  const score = Math.round(
    clamp(BASE_SCORE + factors.reduce((total, f) => total + f.impact, 0), 0, 1000),
  );
  return { score, band: bandOf(score), factors };
}

function bandOf(score: number): Band {
  return BANDS.find(([, min]) => score >= min)![0];
}

function scoreInputs(s: Statement): ScoreInputs {
  const monthly = monthlyIncome(s);
  return {
    income: incomeView(s),
    liabilities: liabilitiesView(s, monthly),
    monthlyIncome: monthly,
  };
}

function scoreFactors(
  s: Statement,
  { income, liabilities, monthlyIncome: monthly }: ScoreInputs,
): Factor[] {
  const flags = signals(s.transactions, s.opening_balance, closingBalance(s));
  // A statement from 16 July to 15 January is six months, whether that is 181 days or 184.
  const months = Math.round(periodMonths(s.period));
  const spending = perMonth(sum(debits(s.transactions)), s.period);
  const buffer = spending > 0 ? averageDailyBalance(s) / spending : 0;
  // Never -0, which JSON writes as 0 but a comparison tells apart.
  const round = (value: number) => Math.round(value) || 0;
  return [
    {
      factor: 'income_stability',
      impact: round((income.income_stability_score - 50) * 2),
      detail: `Income stability ${income.income_stability_score}/100 from month to month.`,
    },
    {
      factor: 'salary',
      impact: income.salary_regularity === 'monthly' ? 80 : income.salary_detected ? 20 : -40,
      detail: income.salary_detected
        ? `Salary of ${income.salary_amount} detected, ${income.salary_regularity}.`
        : 'No salary detected.',
    },
    {
      factor: 'emi_load',
      impact: round(clamp((30 - liabilities.emi_load_pct) * 4, -150, 80)),
      detail: `EMIs take ${liabilities.emi_load_pct}% of a monthly income of ${monthly}.`,
    },
    {
      factor: 'balance_trend',
      impact: { growing: 60, stable: 10, declining: -80 }[flags.balance_trend],
      detail: `The balance is ${flags.balance_trend} over the statement.`,
    },
    {
      factor: 'overdraft_days',
      impact: penalty(Math.min(150, flags.negative_balance_days * 10)),
      detail: `${flags.negative_balance_days} day(s) ended with a negative balance.`,
    },
    {
      factor: 'bounced_payments',
      impact: penalty(Math.min(200, liabilities.bounce_count * 50)),
      detail: `${liabilities.bounce_count} payment(s) bounced.`,
    },
    {
      factor: 'cash_withdrawals',
      impact: penalty(round(Math.max(0, flags.cash_withdrawal_ratio - 0.3) * 300)),
      detail: `${round(flags.cash_withdrawal_ratio * 100)}% of the money out was withdrawn in cash.`,
    },
    {
      factor: 'history_length',
      impact: months < 3 ? -80 : months >= 6 ? 40 : 0,
      detail: `The statement covers about ${months} month(s).`,
    },
    {
      factor: 'savings_buffer',
      impact: round(clamp(buffer * 40, -100, 100)),
      detail: `The average daily balance covers ${buffer.toFixed(1)} months of spending.`,
    },
  ];
}

/** Points taken off, as a negative impact (0 stays 0, not -0). */
function penalty(points: number): number {
  return points > 0 ? -points : 0;
}
