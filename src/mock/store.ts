// The mock's state: reports, statements and quota usage per organisation, seeded from the fixture
// files and changed by parse and sandbox calls. Every read is scoped to one organisation.
import { randomBytes } from 'node:crypto';

import { addDays, type Clock, isoDate, isoSeconds } from './dates.js';
import { pickBy, type ReadDocument } from './documents.js';
import { ApiError } from './errors.js';
import type {
  Bank,
  Fixtures,
  IssuedStatementFixture,
  OrganizationFixture,
  Period,
  QuotaName,
  RecurringFixture,
  ReportError,
  ReportStatus,
  TransactionShape,
} from './fixtures.js';
import {
  shiftProfile,
  type StatementProfile,
  synthesizeTransactions,
} from './report/synthesize.js';
import type { Transaction } from './report/transaction.js';

/** What was read from a complete report's statement. */
export interface ReadStatement {
  account_holder: string | null;
  account_number: string;
  period: Period;
  opening_balance: number;
  transactions: Transaction[];
  recurring: RecurringFixture;
  /** Which of the two documented transaction shapes the report's reply uses. */
  shape: TransactionShape;
}

export interface StoredReport {
  organization_id: string;
  report_id: string;
  status: ReportStatus;
  bank_code: string;
  created_at: string;
  error: ReportError | null;
  /** How the data was obtained (auth view): `statement_parsed` or `connect_verified`. */
  verification_status: string;
  /** Complete reports only. */
  statement: ReadStatement | null;
}

/** A report whose statement was read: every product view can be built from it. */
export type CompleteReport = StoredReport & { statement: ReadStatement };

/** A report as a caller of the store describes it; the store gives it an id and a time. */
export type NewReport = Pick<StoredReport, 'status' | 'bank_code' | 'error' | 'statement'>;

export interface Upload {
  document: ReadDocument;
  /** A known bank code, or null for `auto` (then picked from the file's hash). */
  bankCode: string | null;
}

export interface ListQuery {
  status?: ReportStatus;
  limit: number;
}

/** How long before an upload its statement ends. */
const STATEMENT_AGE_DAYS = 5;

export class MockStore {
  private readonly reports = new Map<string, StoredReport>();
  /**
   * Each organisation's reports, newest first: a list request reads the first few, however many
   * there are.
   */
  private readonly newestFirst = new Map<string, StoredReport[]>();
  private readonly banks: Map<string, Bank>;
  private readonly organizations: Map<string, OrganizationFixture>;
  /** Statements of complete fixture reports that new uploads borrow their money flows from. */
  private readonly templates: StatementProfile[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly fixtures: Fixtures,
    private readonly processingDelayMs: number,
    private readonly clock: Clock,
  ) {
    this.banks = new Map(fixtures.banks.map((b) => [b.bank_code, b]));
    // Deep copies: usage counters change, the imported fixture modules must not.
    this.organizations = new Map(
      structuredClone(fixtures.organizations).map((o) => [o.organization_id, o]),
    );
    for (const r of fixtures.reports) {
      let statement: ReadStatement | null = null;
      if (r.status === 'complete') {
        const profile = {
          period: r.statement_period!,
          counterparties: fixtures.counterparties[r.report_id]!,
          recurring: fixtures.recurring[r.report_id]!,
        };
        if (r.account_holder) this.templates.push(profile);
        statement = {
          account_holder: r.account_holder,
          account_number: r.account_number!,
          ...synthesizeTransactions(profile, r.report_id),
          period: profile.period,
          recurring: profile.recurring,
          shape: r.transaction_shape ?? 'newer',
        };
      }
      this.keep({
        organization_id: r.organization_id,
        report_id: r.report_id,
        status: r.status,
        bank_code: r.bank_code,
        created_at: r.created_at,
        error: r.error,
        verification_status: r.verification_status ?? 'statement_parsed',
        statement,
      });
    }
  }

  bank(code: string): Bank | undefined {
    return this.banks.get(code);
  }

  /** A bank code as the client wrote it (any case), or undefined when unknown. */
  knownBankCode(code: string): string | undefined {
    return this.banks.get(code.toUpperCase())?.bank_code;
  }

  organization(organizationId: string): OrganizationFixture {
    const org = this.organizations.get(organizationId);
    if (!org) throw new Error(`unknown organisation ${organizationId}`);
    return org;
  }

  /** Newest first. */
  listReports(
    organizationId: string,
    query: ListQuery,
  ): { reports: StoredReport[]; hasMore: boolean } {
    const reports: StoredReport[] = [];
    for (const report of this.newestFirst.get(organizationId) ?? []) {
      if (query.status && report.status !== query.status) continue;
      if (reports.length === query.limit) return { reports, hasMore: true };
      reports.push(report);
    }
    return { reports, hasMore: false };
  }

  /** Another organisation's report is indistinguishable from a missing one. */
  findReport(organizationId: string, reportId: string): StoredReport {
    const report = this.reports.get(reportId);
    if (!report || report.organization_id !== organizationId) {
      throw new ApiError(
        'REPORT_NOT_FOUND',
        `No report with id '${reportId}' exists for this organization.`,
      );
    }
    return report;
  }

  /** A report whose product views can be read: complete, else 409 (processing) or 400 (failed). */
  completeReport(organizationId: string, reportId: string): CompleteReport {
    const report = this.findReport(organizationId, reportId);
    if (report.status === 'processing') {
      throw new ApiError('REPORT_NOT_READY', `Report '${reportId}' is still processing.`);
    }
    if (report.status === 'failed' || !report.statement) {
      const reason = report.error
        ? `${report.error.error_code}: ${report.error.error_message}`
        : 'unknown reason';
      throw new ApiError(
        'DOCUMENT_PARSE_FAILED',
        `Report '${reportId}' could not be parsed (${reason}).`,
      );
    }
    return report as CompleteReport;
  }

  statements(
    organizationId: string,
    status?: IssuedStatementFixture['status'],
  ): IssuedStatementFixture[] {
    return this.fixtures.statements
      .filter((s) => s.organization_id === organizationId && (!status || s.status === status))
      .sort((a, b) => b.issued_at.localeCompare(a.issued_at));
  }

  /** Any organisation's statement: the public verification page needs no key. */
  statementById(statementId: string): IssuedStatementFixture | undefined {
    return this.fixtures.statements.find((s) => s.statement_id === statementId);
  }

  /** Counts units against one of the organisation's monthly quotas, refusing when it is used up. */
  charge(organizationId: string, quotaName: QuotaName, units = 1): void {
    const quota = this.organization(organizationId).usage[quotaName];
    if (quota.limit !== null && quota.used + units > quota.limit) {
      throw new ApiError(
        'QUOTA_EXCEEDED',
        `The monthly ${quotaName} quota of ${quota.limit} is used up.`,
      );
    }
    quota.used += units;
  }

  /** Stores a new report of the organisation, with a new id, created now. */
  addReport(organizationId: string, report: NewReport): StoredReport {
    const stored: StoredReport = {
      organization_id: organizationId,
      report_id: `rpt_${randomBytes(8).toString('hex')}`,
      created_at: isoSeconds(this.clock()),
      verification_status: 'statement_parsed',
      ...report,
    };
    this.keep(stored);
    return stored;
  }

  /** Adds a report to the store and to its organisation's list, in its place. */
  private keep(report: StoredReport): void {
    this.reports.set(report.report_id, report);
    let list = this.newestFirst.get(report.organization_id);
    if (!list) this.newestFirst.set(report.organization_id, (list = []));
    // Binary search for the first report older than this one (a new report usually goes first).
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (newerFirst(list[middle]!, report) < 0) low = middle + 1;
      else high = middle;
    }
    list.splice(low, 0, report);
  }

  /**
   * Stores a report for an upload. Synchronous: the report is final when this returns.
   * Asynchronous: it is `processing` now and becomes final after the processing delay.
   */
  createReport(organizationId: string, upload: Upload, mode: 'sync' | 'async'): StoredReport {
    const final = this.readUpload(upload);
    if (mode === 'sync') return this.addReport(organizationId, final);
    const pending = this.addReport(organizationId, {
      ...final,
      status: 'processing',
      error: null,
      statement: null,
    });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // In place: the organisation's list holds this same object.
      Object.assign(pending, final);
    }, this.processingDelayMs);
    this.timers.add(timer);
    return pending;
  }

  /** Stops pending async parses (the server is closing). */
  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  /**
   * What the mock "reads" from an upload: a failure, or a fixture's money flows moved to end a few
   * days ago.
   */
  private readUpload({ document, bankCode }: Upload): NewReport {
    const bank_code = bankCode ?? pickBy(this.fixtures.banks, document.sha256, 2).bank_code;
    if (document.failure)
      return { status: 'failed', bank_code, error: { ...document.failure }, statement: null };
    const end = addDays(isoDate(this.clock().getTime()), -STATEMENT_AGE_DAYS);
    const profile = shiftProfile(pickBy(this.templates, document.sha256, 0), end);
    const statement: ReadStatement = {
      account_holder: document.holder ?? pickBy(this.fixtures.holders, document.sha256, 1),
      account_number: accountNumberFrom(document.sha256),
      ...synthesizeTransactions(profile, document.sha256),
      period: profile.period,
      recurring: profile.recurring,
      shape: 'newer',
    };
    return { status: 'complete', bank_code, error: null, statement };
  }
}

/** The list order: newest first, then by report id (descending) for reports of the same second. */
function newerFirst(a: StoredReport, b: StoredReport): number {
  return b.created_at.localeCompare(a.created_at) || b.report_id.localeCompare(a.report_id);
}

/** 14 digits, the common length of Nepali bank account numbers, derived from the file hash. */
function accountNumberFrom(sha256: string): string {
  return BigInt(`0x${sha256.slice(8, 24)}`)
    .toString()
    .padStart(20, '0')
    .slice(-14);
}
