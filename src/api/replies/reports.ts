// The report views (the service's documentation, GET /v1/reports/{id} and its views), as documented: each a loose reply read
// field by field (a view shows what it cannot read as it came), none of its fields required.
// Fields read under two documented forms (`bank_code` at the top or in `statement`, `period` or
// `statement_period`, `total_transactions` or the transactions counted) are read by the views
// from whichever is present; only the documented fields are noted for --debug when absent.
import { field, loose, named, object, optional, text, undocumented } from './schema.js';

/** `period` or `statement_period`, `{from, to}`: documented as a whole, its parts read where they come. */
const period = () =>
  named(
    object({ from: undocumented(text()), to: undocumented(text()) }),
    'period',
    'statement_period',
  );

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
export const IdentityReply = object({
  period: period(),
  account_holder: text(),
  account_number: text(),
  bank: text(),
  bank_code: text(),
  currency: text(),
});

/** The names a SWIFT/BIC code comes under in the auth view (none documented). */
export const SWIFT_NAMES = ['swift_bic', 'swift', 'bic', 'swift_code'];

/** GET /v1/reports/{id}/auth: the documents name two fields of it; the words of the others are read where they come. */
export const AuthReply = object({
  swift_note: text(),
  verification_status: text(),
  account_holder: undocumented(text()),
  account_number: undocumented(text()),
  bank: undocumented(named(text(), 'bank', 'bank_name')),
  bank_code: undocumented(text()),
  swift_bic: undocumented(named(text(), ...SWIFT_NAMES)),
});

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
