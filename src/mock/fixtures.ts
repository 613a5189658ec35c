// The fixture data files, typed. The JSON is the data; these types say what each file holds.
// (See fixtures/README.md for which ids are which.)
import banksJson from './fixtures/banks.json' with { type: 'json' };
import counterpartiesJson from './fixtures/counterparties.json' with { type: 'json' };
import holdersJson from './fixtures/holders.json' with { type: 'json' };
import organizationsJson from './fixtures/organizations.json' with { type: 'json' };
import recurringJson from './fixtures/recurring.json' with { type: 'json' };
import reportsJson from './fixtures/reports.json' with { type: 'json' };
import statementsJson from './fixtures/statements.json' with { type: 'json' };

export type ReportStatus = 'complete' | 'processing' | 'failed';
export type CounterpartyType = 'merchant' | 'individual' | 'institution' | 'wallet' | 'cash' | 'self';

export interface Bank {
  bank_code: string;
  bank_name: string;
  /** Licence class of Nepal Rastra Bank: A commercial bank, B development bank, C finance company. */
  class: 'A' | 'B' | 'C';
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

export interface ReportFixture {
  organization_id: string;
  report_id: string;
  status: ReportStatus;
  bank_code: string;
  created_at: string;
  account_holder: string | null;
  account_number: string | null;
  file_name: string | null;
  pages: number | null;
  transaction_count: number | null;
  statement_period: { from: string; to: string } | null;
  completed_at: string | null;
  error: { error_code: string; error_message: string } | null;
  /** How the data was obtained: `statement_parsed` (upload) or `connect_verified` (Connect flow). */
  verification_status: string | null;
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

export interface StatementFixture {
  organization_id: string;
  statement_id: string;
  status: 'issued' | 'revoked';
  report_id: string;
  account_holder: string | null;
  content_hash: string;
  issued_at: string;
  revoked_at: string | null;
}

// The JSON modules are typed by inference (plain strings); the casts narrow them to the unions above.
export const fixtures = {
  banks: banksJson as Bank[],
  holders: holdersJson as string[],
  organizations: organizationsJson as OrganizationFixture[],
  reports: reportsJson as ReportFixture[],
  counterparties: counterpartiesJson as Record<string, CounterpartiesFixture>,
  recurring: recurringJson as Record<string, RecurringFixture>,
  statements: statementsJson as StatementFixture[],
};

export type Fixtures = typeof fixtures;
