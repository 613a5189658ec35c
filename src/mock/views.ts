// Reply bodies built from stored records. Field names follow src/api/schemas.ts.
import type { Bank, CounterpartiesFixture, RecurringFixture, ReportFixture, StatementFixture } from './fixtures.js';

const CURRENCY = 'NPR';

/** A report as the store keeps it: the fixture fields plus the views of a complete report. */
export interface StoredReport extends ReportFixture {
  counterparties: CounterpartiesFixture | null;
  recurring: RecurringFixture | null;
}

export function reportSummaryView(r: StoredReport) {
  return { report_id: r.report_id, status: r.status, bank_code: r.bank_code, created_at: r.created_at };
}

export function reportView(r: StoredReport, bank: Bank | undefined) {
  return {
    ...reportSummaryView(r),
    account_holder: r.account_holder,
    account_number: r.account_number,
    bank_name: bank?.bank_name ?? null,
    file_name: r.file_name,
    pages: r.pages,
    transaction_count: r.transaction_count,
    statement_period: r.statement_period,
    completed_at: r.completed_at,
    error: r.error,
  };
}

export function authView(r: StoredReport, bank: Bank | undefined) {
  return {
    report_id: r.report_id,
    account_holder: r.account_holder,
    account_number: r.account_number,
    bank_code: r.bank_code,
    bank_name: bank?.bank_name ?? null,
    swift_bic: bank?.swift_bic ?? null,
    swift_note: bank?.swift_note ?? null,
    verification_status: r.verification_status ?? 'statement_parsed',
  };
}

export function identityView(r: StoredReport, bank: Bank | undefined) {
  return {
    report_id: r.report_id,
    account_holder: r.account_holder,
    account_number: r.account_number,
    bank_code: r.bank_code,
    bank_name: bank?.bank_name ?? null,
    currency: CURRENCY,
    statement_period: r.statement_period,
  };
}

export function counterpartiesView(r: StoredReport) {
  const c = r.counterparties ?? emptyCounterparties();
  return { report_id: r.report_id, currency: CURRENCY, ...c };
}

export function recurringView(r: StoredReport) {
  const streams = r.recurring ?? { inflow_streams: [], outflow_streams: [] };
  return { report_id: r.report_id, currency: CURRENCY, ...streams };
}

export function statementView(s: StatementFixture, baseUrl: string) {
  const { organization_id: _org, ...fields } = s;
  return { ...fields, verify_url: `${baseUrl}/verify/${s.statement_id}` };
}

function emptyCounterparties(): CounterpartiesFixture {
  const types = ['merchant', 'individual', 'institution', 'wallet', 'cash', 'self'] as const;
  return {
    total_inflow: 0,
    total_outflow: 0,
    by_type: types.map((type) => ({ type, inflow: 0, outflow: 0, inflow_count: 0, outflow_count: 0 })),
    top_people: [],
    top_merchants: [],
  };
}
