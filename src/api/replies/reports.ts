// The report views (the service's documentation, GET /v1/reports/{id} and its views), as documented: each a loose reply read
// field by field (a view shows what it cannot read as it came), none of its fields required.
// Fields read under two documented forms (`bank_code` at the top or in `statement`, `period` or
// `statement_period`, `total_transactions` or the transactions counted) are read by the views
// from whichever is present; only the documented fields are noted for --debug when absent.
import { field, loose, optional } from './schema.js';

/** The full report (GET /v1/reports/{id}, a synchronous parse, a sandbox report). */
export const ReportReply = loose({
  statement: optional(
    loose({
      bank: field(),
      bank_code: field(),
      currency: field(),
      period: field('period', 'statement_period'),
      opening_balance: field(),
      closing_balance: field(),
      total_transactions: field(),
    }),
  ),
  transactions: field(),
  report_id: field(),
  status: field(),
  created_at: field(),
  data_source: field(),
  tamper_verifiable: field(),
});

/** GET /v1/reports/{id}/identity. */
export const IdentityReply = loose({
  period: field('period', 'statement_period'),
  account_holder: field(),
  account_number: field(),
  bank: field(),
  bank_code: field(),
  currency: field(),
});

/** GET /v1/reports/{id}/auth: the documents name two fields of it. */
export const AuthReply = loose({ swift_note: field(), verification_status: field() });

/** GET /v1/reports/{id}/balance. */
export const BalanceReply = loose({
  currency: field(),
  period: field('period', 'statement_period'),
  opening_balance: field(),
  closing_balance: field(),
  avg_daily_balance: field(),
  trend: field(),
});

/** GET /v1/reports/{id}/score. */
export const ScoreReply = loose({ band: field(), score: field(), factors: field() });

/** GET /v1/reports/{id}/verify. */
export const VerifyReply = loose({ verdict: field(), confidence: field(), checks: field() });

/** GET /v1/reports/{id}/income. */
export const IncomeReply = loose({
  salary_detected: field(),
  salary_amount: field(),
  salary_regularity: field(),
  salary_day_of_month: field(),
  income_stability_score: field(),
  remittance_detected: field(),
  avg_monthly_credit: field(),
  monthly_credits: field(),
  income_transactions: field(),
});

/** GET /v1/reports/{id}/liabilities. */
export const LiabilitiesReply = loose({
  monthly_emi_total: field(),
  emi_load_pct: field(),
  bounce_count: field(),
  lenders: field(),
  liability_transactions: field(),
});

/** POST /v1/parse in the background (202): its `poll_url` (the id and status are read where they come). */
export const ParseAcceptedReply = loose({ poll_url: field() });

/** POST /v1/reports/{id}/match. */
export const MatchReply = loose({
  reasons: field(),
  match_score: field(),
  result: field(),
  statement_name: field(),
});

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply } from './schema.js';
