// The fixture data files, typed. The JSON is the data; these types say what each file holds.
// (See fixtures/README.md for which ids are which.)
import banksJson from './fixtures/banks.json' with { type: 'json' };
import counterpartiesJson from './fixtures/counterparties.json' with { type: 'json' };
import holdersJson from './fixtures/holders.json' with { type: 'json' };
import organizationsJson from './fixtures/organizations.json' with { type: 'json' };
import recurringJson from './fixtures/recurring.json' with { type: 'json' };
import reportsJson from './fixtures/reports.json' with { type: 'json' };
import scenariosJson from './fixtures/scenarios.json' with { type: 'json' };
import statementsJson from './fixtures/statements.json' with { type: 'json' };

export type ReportStatus = 'complete' | 'processing' | 'failed';
export type CounterpartyType =
  'merchant' | 'individual' | 'institution' | 'wallet' | 'cash' | 'self';

/** The two transaction shapes of the documents: older replies, and newer ones. */
export type TransactionShape = 'older' | 'newer';

export interface Bank {
  bank_code: string;
  /** The full name, as the report's `statement.bank` gives it ("Nabil Bank"). */
  bank_name: string;
  /**
   * Licence class of Nepal Rastra Bank (A commercial bank, B development bank, C finance company),
   * or a wallet.
   */
  class: 'A' | 'B' | 'C' | 'wallet';
  swift_bic: string | null;
  swift_note: string | null;
}

export type QuotaName = 'parse' | 'data_api' | 'merchant_resolve';

export interface QuotaUsage {
  used: number;
  limit: number | null;
}

export interface OrganizationFixture {
  organization_id: string;
  organization_name: string;
  plan: 'sandbox' | 'growth';
  usage: Record<QuotaName, QuotaUsage>;
}

export interface ReportError {
  error_code: string;
  error_message: string;
}

export interface Period {
  /** YYYY-MM-DD, both included. */
  from: string;
  to: string;
}

export interface ReportFixture {
  organization_id: string;
  report_id: string;
  status: ReportStatus;
  bank_code: string;
  created_at: string;
  account_holder: string | null;
  account_number: string | null;
  /** The sum of the counts in its counterparties fixture: one transaction each. */
  transaction_count: number | null;
  statement_period: Period | null;
  error: ReportError | null;
  /**
   * How the data was obtained: `statement_parsed` (upload) or `connect_verified` (Connect flow).
   */
  verification_status: string | null;
  /** Complete reports only. */
  transaction_shape?: TransactionShape;
}

export interface FlowByType {
  type: CounterpartyType;
  inflow: number;
  outflow: number;
  inflow_count: number;
  outflow_count: number;
}

export interface NamedCounterparty {
  name: string;
  type: CounterpartyType;
  inflow: number;
  outflow: number;
  transaction_count: number;
}

export interface CounterpartiesFixture {
  total_inflow: number;
  total_outflow: number;
  by_type: FlowByType[];
  top_people: NamedCounterparty[];
  top_merchants: NamedCounterparty[];
}

export interface RecurringStreamFixture {
  counterparty: string;
  category: string;
  cadence: 'weekly' | 'monthly' | 'quarterly';
  average_amount: number;
  occurrences: number;
  status: 'MATURE' | 'EARLY_DETECTION';
  is_active: boolean;
  last_date: string;
  next_date: string | null;
}

export interface RecurringFixture {
  inflow_streams: RecurringStreamFixture[];
  outflow_streams: RecurringStreamFixture[];
}

/** What a statement holds, as the fixtures describe it; the transactions are made from it. */
export interface StatementFixture {
  account_holder: string;
  account_number: string;
  transaction_count: number;
  statement_period: Period;
  counterparties: CounterpartiesFixture;
  recurring: RecurringFixture;
}

export interface ReportScenario {
  scenario: string;
  description: string;
  bank_code: string;
  /** Absent: the lowest balance of the period stays a little above zero. */
  opening_balance?: number;
  statement: StatementFixture;
}

export interface ErrorScenario {
  scenario: string;
  description: string;
  error_code: string;
  error_message: string;
}

export interface ScenariosFixture {
  default: string;
  report_scenarios: ReportScenario[];
  error_scenarios: ErrorScenario[];
}

export interface IssuedStatementFixture {
  organization_id: string;
  statement_id: string;
  status: 'issued' | 'revoked';
  report_id: string;
  account_holder: string | null;
  content_hash: string;
  issued_at: string;
  revoked_at: string | null;
}

// The JSON modules are typed by inference (plain strings); the casts narrow them to the unions
// above.
export const fixtures = {
  banks: banksJson as Bank[],
  holders: holdersJson,
  organizations: organizationsJson as OrganizationFixture[],
  reports: reportsJson as ReportFixture[],
  counterparties: counterpartiesJson as Record<string, CounterpartiesFixture>,
  recurring: recurringJson as Record<string, RecurringFixture>,
  scenarios: scenariosJson as ScenariosFixture,
  statements: statementsJson as IssuedStatementFixture[],
};

export type Fixtures = typeof fixtures;
