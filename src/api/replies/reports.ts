// The report views (the service's documentation, GET /v1/reports/{id} and its views), as
// documented: each a loose reply read field by field (a view shows what it cannot read as it came),
// none of its fields required. Fields read under two documented forms (`bank_code` at the top or in
// `statement`, `period` or `statement_period`, `total_transactions` or the transactions counted)
// are read by the views from whichever is present; only the documented fields are noted for --debug
// when absent.
import {
  any,
  boolean,
  decimal,
  listOf,
  named,
  number,
  object,
  scalar,
  string,
  text,
  texts,
  undocumented,
} from './schema.js';

/**
 * `period` or `statement_period`, `{from, to}`: documented as a whole, its parts read where they
 * come.
 */
const period = () =>
  named(
    object({ from: undocumented(text()), to: undocumented(text()) }),
    'period',
    'statement_period',
  );

/** The full report (GET /v1/reports/{id}, a synchronous parse, a sandbox report). */
export const ReportReply = object({
  statement: object({
    bank: text(),
    bank_code: text(),
    currency: text(),
    period: period(),
    // Shown as received (an amount formatted, anything else as it came).
    opening_balance: any(),
    closing_balance: any(),
    total_transactions: any(),
  }),
  // Counted, and the records of -o csv and -o ndjson as received.
  transactions: any(),
  report_id: text(),
  status: text(),
  created_at: text(),
  data_source: text(),
  tamper_verifiable: boolean(),
  // The list's flat shape carries these at the top.
  bank: undocumented(text()),
  bank_code: undocumented(text()),
  period: undocumented(period()),
  // How a failed report names its error is not shown: the envelope's two forms are read.
  error: undocumented(
    object({
      code: named(text(), 'error_code', 'code'),
      message: named(text(), 'error_message', 'message'),
    }),
  ),
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

/**
 * GET /v1/reports/{id}/auth: the documents name two fields of it; the words of the others are read
 * where they come.
 */
export const AuthReply = object({
  swift_note: text(),
  verification_status: text(),
  account_holder: undocumented(text()),
  account_number: undocumented(text()),
  bank: undocumented(named(text(), 'bank', 'bank_name')),
  bank_code: undocumented(text()),
  swift_bic: undocumented(named(text(), ...SWIFT_NAMES)),
});

/** Where a view may name the currency of its amounts, none documented: read where they come. */
export const currencies = () => ({
  currency: undocumented(string()),
  iso_currency_code: undocumented(string()),
  statement: undocumented(object({ currency: string() })),
});

/** GET /v1/reports/{id}/balance. */
export const BalanceReply = object({
  ...currencies(),
  currency: string(),
  period: period(),
  opening_balance: decimal(),
  closing_balance: decimal(),
  avg_daily_balance: decimal(),
  trend: string(),
  // Which of its names the period came under: what else it holds is shown under that name.
  period_named_period: undocumented(named(any(), 'period')),
});

/**
 * GET /v1/reports/{id}/score. Its list is a table when it is a list of objects, else shown as it
 * came.
 */
export const ScoreReply = object({ band: string(), score: decimal(), factors: any() });

/** A factor of the score, as its table orders them: by the size of its impact. */
export const ScoreFactor = object({ impact: number() });

/** A check of the verification, as its table reads whether it passed. */
export const VerifyCheck = object({ passed: boolean() });

/** GET /v1/reports/{id}/verify. */
export const VerifyReply = object({ verdict: string(), confidence: decimal(), checks: any() });

/** GET /v1/reports/{id}/income. */
export const IncomeReply = object({
  salary_detected: boolean(),
  salary_amount: decimal(),
  salary_regularity: string(),
  salary_day_of_month: decimal(),
  income_stability_score: decimal(),
  remittance_detected: boolean(),
  avg_monthly_credit: decimal(),
  monthly_credits: any(),
  income_transactions: any(),
  ...currencies(),
});

/** The monthly credits `--chart` draws: every item an object, or none drawn. */
export const MonthlyCreditsReply = object({
  monthly_credits: listOf(object({ month: text(), total_credits: number() })),
});

/** GET /v1/reports/{id}/liabilities. */
export const LiabilitiesReply = object({
  monthly_emi_total: decimal(),
  emi_load_pct: decimal(),
  bounce_count: decimal(),
  lenders: any(),
  liability_transactions: any(),
  ...currencies(),
});

/** POST /v1/reports/{id}/underwrite: no document names its fields; a verdict of one word leads. */
export const UnderwriteReply = object({ verdict: undocumented(scalar()) });

/**
 * POST /v1/parse in the background (202): its `poll_url` (the id and status are read where they
 * come).
 */
export const ParseAcceptedReply = object({
  poll_url: text(),
  // Not documented in the 202: read where they come.
  report_id: undocumented(text()),
  status: undocumented(text()),
});

/** POST /v1/reports/{id}/match. */
export const MatchReply = object({
  reasons: texts(),
  match_score: number(),
  result: text(),
  statement_name: text(),
});

/** Read through with the reply's reading (loaded with these schemas, never at start-up). */
export { readReply, received, unread } from './schema.js';
