// GET /v1/reports/{id}/verify, with the documented fields: a verdict, a confidence and the checks
// behind them. The checks are those a statement's own numbers allow (the mock has no document to
// inspect; a tampered upload already fails to parse); their names besides
// `balance_chain_integrity`, their severities and the verdict rule are the mock's own.
import { signed } from '../report/transaction.js';
import { clamp, type Statement } from './statement.js';

export type Severity = 'high' | 'medium' | 'low';
export type Verdict = 'authentic' | 'review' | 'suspicious';

export interface Check {
  check: string;
  passed: boolean;
  severity: Severity;
}

/**
 * How much a failed check of each severity takes off the confidence that the statement is
 * authentic.
 */
const DOUBT: Record<Severity, number> = { high: 0.6, medium: 0.25, low: 0.08 };
const FULL_CONFIDENCE = 0.99;
/** Rounding of the bank's own arithmetic that is no sign of editing. */
const PAISA = 0.005;

export function verifyView(s: Statement) {
  const checks = statementChecks(s);
  const failed = checks.filter((c) => !c.passed);
  const count = (severity: Severity) => failed.filter((c) => c.severity === severity).length;
  const verdict: Verdict =
    count('high') > 0
      ? 'suspicious'
      : count('medium') > 0 || count('low') > 1
        ? 'review'
        : 'authentic';
  const confidence = clamp(
    FULL_CONFIDENCE - failed.reduce((doubt, c) => doubt + DOUBT[c.severity], 0),
    0.01,
    FULL_CONFIDENCE,
  );
  return { verdict, confidence: Math.round(confidence * 100) / 100, checks };
}

function statementChecks(s: Statement): Check[] {
  const { transactions: txns, period } = s;
  let balance = s.opening_balance;
  const chained = txns.every((t) => {
    balance += signed(t);
    const ok = Math.abs(balance - t.balance) < PAISA + 1e-9;
    balance = t.balance;
    return ok;
  });
  const seen = new Set<string>();
  const duplicated = txns.some((t) => {
    const key = `${t.date}\n${t.direction}\n${t.amount}\n${t.narration}`;
    return seen.has(key) || !seen.add(key);
  });
  return [
    // Every balance is the one before it plus the credit or less the debit: an edited amount breaks
    // the chain.
    { check: 'balance_chain_integrity', passed: chained, severity: 'high' },
    {
      check: 'chronological_order',
      passed: txns.every((t, i) => i === 0 || txns[i - 1]!.date <= t.date),
      severity: 'medium',
    },
    {
      check: 'dates_within_period',
      passed: txns.every((t) => t.date >= period.from && t.date <= period.to),
      severity: 'medium',
    },
    { check: 'no_duplicate_transactions', passed: !duplicated, severity: 'low' },
  ];
}
