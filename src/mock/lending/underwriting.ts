// POST /v1/reports/{id}/underwriting: can the account holder carry the loan asked for? The
// documents say what the reply bundles (FOIR, disposable income, the largest supportable EMI,
// affordability, risk flags, an optional name match, a verdict with reasons, the score and verify
// results) but not its field names: every name below, and every rule, is the mock's own
// (fixtures/README.md).
import { matchNames } from '../namematch.js';
import { balanceTrend } from '../report/summaries.js';
import { money } from '../report/transaction.js';
import { type IncomeView, incomeView, monthlyIncome } from './income.js';
import { type LiabilitiesView, liabilitiesView } from './liabilities.js';
import { scoreView } from './score.js';
import {
  closingBalance,
  debits,
  periodMonths,
  perMonth,
  type Statement,
  sum,
} from './statement.js';
import { verifyView } from './verify.js';

export interface Loan {
  principal: number;
  tenor_months: number;
  annual_rate_pct: number;
}

export interface LoanApplication {
  applicant_name?: string;
  /** The largest share of monthly income all EMIs together may take, in (0, 1]. */
  foir_ceiling: number;
  loan: Loan;
}

export interface Applicant {
  report_id: string;
  account_holder: string | null;
  statement: Statement;
}

export type UnderwritingVerdict = 'approve' | 'review' | 'decline';
export type Affordability = 'affordable' | 'stretched' | 'unaffordable';

/** The FOIR ceiling when the application names none (the documents' example). */
export const DEFAULT_FOIR_CEILING = 0.5;

const ratio = (value: number) => Math.round(value * 10_000) / 10_000;

export function underwrite(
  { report_id, account_holder, statement: s }: Applicant,
  application: LoanApplication,
) {
  const { loan, foir_ceiling: ceiling } = application;
  // Each view once: the score and the risk flags read the same ones.
  const income = monthlyIncome(s);
  const incomes = incomeView(s);
  const liabilities = liabilitiesView(s, income);
  const existing = liabilities.monthly_emi_total;
  const emi = amortisedEmi(loan);
  // What living costs each month: every debit but loan repayments and money put aside.
  const expenses = perMonth(
    sum(
      debits(s.transactions).filter(
        (t) =>
          t.category !== 'loan_repayment' &&
          t.category !== 'investment' &&
          t.counterparty.type !== 'self',
      ),
    ),
    s.period,
  );
  const disposable = money(income - existing - expenses);
  const maxEmi = money(Math.max(0, ceiling * income - existing));
  const affordability: Affordability =
    income > 0 && emi <= maxEmi ? (emi <= disposable ? 'affordable' : 'stretched') : 'unaffordable';
  const nameMatch =
    application.applicant_name === undefined
      ? undefined
      : matchNames(application.applicant_name, account_holder);
  const score = scoreView(s, { income: incomes, liabilities, monthlyIncome: income });
  const verify = verifyView(s);
  const flags = riskFlags(s, {
    income,
    existing,
    ceiling,
    nameResult: nameMatch?.result,
    verdict: verify.verdict,
    view: incomes,
    liabilities,
  });
  const { verdict, reasons } = decide({
    affordability,
    emi,
    maxEmi,
    ceiling,
    income,
    band: score.band,
    verifyVerdict: verify.verdict,
    nameResult: nameMatch?.result,
    flags,
  });
  return {
    report_id,
    currency: 'NPR',
    verdict,
    reasons,
    loan: {
      ...loan,
      emi,
      total_repayable: money(emi * loan.tenor_months),
      total_interest: money(emi * loan.tenor_months - loan.principal),
    },
    monthly_income: income,
    existing_emi: existing,
    monthly_expenses: expenses,
    disposable_income: disposable,
    foir: {
      ceiling,
      current: income > 0 ? ratio(existing / income) : null,
      with_loan: income > 0 ? ratio((existing + emi) / income) : null,
    },
    max_supportable_emi: maxEmi,
    max_supportable_principal: principalFor(maxEmi, loan),
    affordability: { status: affordability, headroom: money(maxEmi - emi) },
    risk_flags: flags,
    ...(nameMatch && { name_match: nameMatch }),
    score,
    verify,
  };
}

/**
 * The equal monthly instalment that repays `principal` over `tenor_months` at `annual_rate_pct`
 * (reducing balance).
 */
export function amortisedEmi({ principal, tenor_months: n, annual_rate_pct: rate }: Loan): number {
  const r = rate / 1200;
  return money(r === 0 ? principal / n : (principal * r * (1 + r) ** n) / ((1 + r) ** n - 1));
}

/** The principal an EMI of `emi` repays over the loan's tenor at its rate. */
function principalFor(emi: number, { tenor_months: n, annual_rate_pct: rate }: Loan): number {
  const r = rate / 1200;
  return money(r === 0 ? emi * n : (emi * (1 - (1 + r) ** -n)) / r);
}

interface FlagInputs {
  income: number;
  existing: number;
  ceiling: number;
  nameResult: string | undefined;
  verdict: string;
  view: IncomeView;
  liabilities: LiabilitiesView;
}

/** Short codes of what a credit officer should look at. */
function riskFlags(
  s: Statement,
  { income, existing, ceiling, nameResult, verdict, view, liabilities }: FlagInputs,
): string[] {
  const remittance = sum(
    s.transactions.filter((t) => t.direction === 'credit' && t.category === 'remittance'),
  );
  const flagged: [boolean, string][] = [
    [!view.salary_detected, 'no_salary'],
    [view.salary_regularity === 'irregular', 'irregular_salary'],
    [view.income_stability_score < 50, 'unstable_income'],
    [income > 0 && remittance / periodMonths(s.period) > income / 2, 'remittance_dependent'],
    [income > 0 && existing / income > ceiling, 'existing_emi_above_ceiling'],
    [s.transactions.some((t) => t.balance < 0), 'overdraft'],
    [liabilities.bounce_count > 0, 'bounced_payments'],
    [balanceTrend(s.opening_balance, closingBalance(s)) === 'declining', 'declining_balance'],
    [periodMonths(s.period) < 3, 'short_history'],
    [nameResult !== undefined && nameResult !== 'match', 'name_mismatch'],
    [verdict !== 'authentic', 'statement_not_authentic'],
  ];
  return flagged.filter(([raised]) => raised).map(([, flag]) => flag);
}

interface Grounds {
  affordability: Affordability;
  emi: number;
  maxEmi: number;
  ceiling: number;
  income: number;
  band: string;
  verifyVerdict: string;
  nameResult: string | undefined;
  flags: string[];
}

/** Any ground to decline declines; else any ground to look closer means review; else approve. */
function decide(g: Grounds): { verdict: UnderwritingVerdict; reasons: string[] } {
  const decline: string[] = [];
  const review: string[] = [];
  if (g.income <= 0) decline.push('No income was found in the statement.');
  else if (g.affordability === 'unaffordable')
    decline.push(
      `The EMI of ${g.emi} exceeds the largest supportable EMI of ${g.maxEmi} at a FOIR ceiling of ${g.ceiling}.`,
    );
  else if (g.affordability === 'stretched')
    review.push(
      `The EMI of ${g.emi} fits the FOIR ceiling but leaves less than it needs after living costs.`,
    );
  if (g.verifyVerdict === 'suspicious')
    decline.push('The statement failed its authenticity checks.');
  else if (g.verifyVerdict === 'review') review.push('The statement needs an authenticity review.');
  if (g.band === 'very_poor') decline.push('The score is very poor.');
  else if (g.band === 'poor') review.push('The score is poor.');
  if (g.nameResult === 'no_match')
    decline.push('The applicant name does not match the account holder.');
  else if (g.nameResult === 'partial_match' || g.nameResult === 'no_data')
    review.push('The applicant name could not be fully matched with the account holder.');
  for (const flag of [
    'overdraft',
    'bounced_payments',
    'declining_balance',
    'short_history',
  ] as const) {
    if (g.flags.includes(flag)) review.push(`Risk flag: ${flag}.`);
  }
  if (decline.length) return { verdict: 'decline', reasons: decline };
  if (review.length) return { verdict: 'review', reasons: review };
  return {
    verdict: 'approve',
    reasons: [
      `The EMI of ${g.emi} fits within the largest supportable EMI of ${g.maxEmi} at a FOIR ceiling of ${g.ceiling}.`,
    ],
  };
}
