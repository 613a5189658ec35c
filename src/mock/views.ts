// Reply bodies built from stored records. Where the documents show a shape (the full report, the
// list items, identity, the transactions listing) it is followed exactly; the bodies of processing
// and failed reports and the auth, counterparties and recurring views are the mock's own
// (fixtures/README.md says which is which).
import type { Bank, IssuedStatementFixture } from './fixtures.js';
import { listedTransaction, reportTransaction } from './report/shapes.js';
import {
  categories,
  counterpartyFlows,
  merchantCategories,
  monthlySummary,
  signals,
} from './report/summaries.js';
import type { Transaction } from './report/transaction.js';
import type { CompleteReport, StoredReport } from './store.js';

const CURRENCY = 'NPR';

/** An item of GET /v1/reports (the spec's four fields). */
export function reportListItem(r: StoredReport) {
  return {
    report_id: r.report_id,
    status: r.status,
    bank_code: r.bank_code,
    created_at: r.created_at,
  };
}

/** GET /v1/reports/{id}, the synchronous parse reply and a webhook's `result`. */
export function reportBody(r: StoredReport, bank: Bank | undefined) {
  if (r.status === 'complete' && r.statement) return fullReport(r as CompleteReport, bank);
  // Processing and failed reports: the list item, and why a failed one failed.
  return { ...reportListItem(r), ...(r.status === 'failed' && { error: r.error }) };
}

function fullReport(r: CompleteReport, bank: Bank | undefined) {
  const { statement } = r;
  const { transactions, opening_balance: opening } = statement;
  const closing = transactions.at(-1)?.balance ?? opening;
  return {
    report_id: r.report_id,
    status: r.status,
    created_at: r.created_at,
    statement: {
      bank: bank?.bank_name ?? r.bank_code,
      bank_code: r.bank_code,
      currency: CURRENCY,
      period: statement.period,
      opening_balance: opening,
      closing_balance: closing,
      total_transactions: transactions.length,
    },
    signals: signals(transactions, opening, closing),
    monthly_summary: monthlySummary(transactions, statement.period, opening),
    categories: categories(transactions),
    merchant_categories: merchantCategories(transactions),
    transactions: transactions.map((t) => reportTransaction(t, statement.shape)),
    data_source: 'PARSED_STATEMENT',
    tamper_verifiable: true,
  };
}

export function identityView(r: CompleteReport, bank: Bank | undefined) {
  return {
    bank: bank?.bank_name ?? r.bank_code,
    bank_code: r.bank_code,
    account_holder: r.statement.account_holder,
    account_number: r.statement.account_number,
    currency: CURRENCY,
    period: r.statement.period,
  };
}

export function authView(r: CompleteReport, bank: Bank | undefined) {
  return {
    report_id: r.report_id,
    account_holder: r.statement.account_holder,
    account_number: r.statement.account_number,
    bank_code: r.bank_code,
    bank_name: bank?.bank_name ?? null,
    swift_bic: bank?.swift_bic ?? null,
    swift_note: bank?.swift_note ?? null,
    verification_status: r.verification_status,
  };
}

export function counterpartiesView(r: CompleteReport) {
  return {
    report_id: r.report_id,
    currency: CURRENCY,
    ...counterpartyFlows(r.statement.transactions),
  };
}

export function recurringView(r: CompleteReport) {
  return { report_id: r.report_id, currency: CURRENCY, ...r.statement.recurring };
}

/** GET /v1/reports/{id}/transactions: the documented `{count, transactions}`. */
export function transactionsView(transactions: readonly Transaction[]) {
  return { count: transactions.length, transactions: transactions.map(listedTransaction) };
}

export function issuedStatementView(s: IssuedStatementFixture, baseUrl: string) {
  const { organization_id: _org, ...fields } = s;
  return { ...fields, verify_url: `${baseUrl}/verify/${s.statement_id}` };
}
