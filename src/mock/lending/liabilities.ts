// GET /v1/reports/{id}/liabilities, with the documented fields. Repayments are the debits
// categorised `loan_repayment`, grouped by lender; the rules (lender names, which loans are still
// being repaid, what a bounce is) are the mock's own (fixtures/README.md).
import { daysBetween, monthOf } from '../dates.js';
import { fixtures } from '../fixtures.js';
import { listedTransaction } from '../report/shapes.js';
import { money, type Transaction } from '../report/transaction.js';
import { monthlyIncome } from './income.js';
import { debits, type Statement, sum } from './statement.js';

/**
 * A lender last paid longer ago than this before the statement ends is paid off: its EMI no longer
 * counts.
 */
const ACTIVE_WITHIN_DAYS = 45;
/** What a bank prints for a payment refused for want of funds. */
const BOUNCE = /\b(BOUNCED?|RETURNED|DISHONOU?RED|INSUFFICIENT FUNDS?|CHQ RTN|ECS RTN)\b/i;
/**
 * The product a loan account is named after, dropped to name the lender: "NMB Bank Vehicle Loan" →
 * "NMB Bank".
 */
const LOAN_PRODUCT =
  /\s+(?:(?:home|housing|vehicle|auto|business|agriculture|personal|education|gold)\s+loan|overdraft(?:\s+interest)?|loan)$/i;
/** Words of a narration that name the payment rather than the lender ("EMI NMB BANK MAY 2026"). */
const PAYMENT_WORDS =
  /\b(?:EMI|LOAN|REPAYMENT|INSTAL+MENT|JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)\b|\d+/gi;

export interface Lender {
  lender: string;
  total: number;
  count: number;
  monthly_avg: number;
}

export type LiabilitiesView = ReturnType<typeof liabilitiesView>;

/** `income` is monthlyIncome(s), passed by a caller that has it already. */
export function liabilitiesView(s: Statement, income = monthlyIncome(s)) {
  const repayments = repaymentsOf(s);
  const byLender = groupByLender(repayments);
  const lenders = lendersOf(byLender);
  const emi = monthlyEmi(s, lenders, byLender);
  return {
    monthly_emi_total: emi,
    // Without income, any EMI takes all of it.
    emi_load_pct: income > 0 ? Math.round((emi / income) * 1000) / 10 : emi > 0 ? 100 : 0,
    bounce_count: s.transactions.filter((t) => BOUNCE.test(t.narration)).length,
    lenders,
    liability_transactions: repayments.map(listedTransaction),
  };
}

/** What the loans still being repaid cost a month: each active lender's average monthly payment. */
function monthlyEmi(
  s: Statement,
  lenders: readonly Lender[],
  byLender: ReadonlyMap<string, readonly Transaction[]>,
): number {
  const active = lenders.filter((l) => {
    const last = byLender.get(l.lender)!.at(-1)!;
    return daysBetween(last.date, s.period.to) <= ACTIVE_WITHIN_DAYS;
  });
  return money(active.reduce((total, l) => total + l.monthly_avg, 0));
}

function repaymentsOf(s: Statement): Transaction[] {
  return debits(s.transactions).filter((t) => t.category === 'loan_repayment');
}

/** The repayments by lender, each lender's in statement order. */
function groupByLender(repayments: readonly Transaction[]): Map<string, Transaction[]> {
  const byLender = new Map<string, Transaction[]>();
  for (const t of repayments) {
    const name = lenderName(t);
    const paid = byLender.get(name);
    if (paid) paid.push(t);
    else byLender.set(name, [t]);
  }
  return byLender;
}

/** Biggest total first; `monthly_avg` over the months the lender was paid in. */
function lendersOf(byLender: ReadonlyMap<string, readonly Transaction[]>): Lender[] {
  return [...byLender]
    .map(([lender, paid]) => ({
      lender,
      total: sum(paid),
      count: paid.length,
      monthly_avg: money(sum(paid) / new Set(paid.map((t) => monthOf(t.date))).size),
    }))
    .sort((a, b) => b.total - a.total || a.lender.localeCompare(b.lender));
}

/**
 * The institution repaid, as the bank list writes it when it is a bank ("NABIL Bank Home Loan" →
 * "Nabil Bank").
 */
function lenderName(t: Transaction): string {
  // A categorised narration names its counterparty by the narration itself: keep its lender words
  // only.
  const named =
    t.counterparty.name === t.narration
      ? t.narration.replace(PAYMENT_WORDS, ' ').replace(/\s+/g, ' ').trim()
      : t.counterparty.name;
  const lender = named.replace(LOAN_PRODUCT, '').trim() || 'Unknown lender';
  return (
    fixtures.banks.find((b) => b.bank_name.toLowerCase() === lender.toLowerCase())?.bank_name ??
    lender
  );
}
