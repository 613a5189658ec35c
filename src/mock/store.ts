// The mock's state: reports, statements and quota usage per organisation, seeded from the fixture
// files and changed by parse calls. Every read is scoped to one organisation.
import { randomBytes } from 'node:crypto';
import { isoDate, isoSeconds } from './dates.js';
import { pickBy, type ReadDocument } from './documents.js';
import { ApiError } from './errors.js';
import type { Bank, Fixtures, OrganizationFixture, QuotaName, ReportStatus, StatementFixture } from './fixtures.js';
import type { StoredReport } from './views.js';

export interface Upload {
  document: ReadDocument;
  /** A known bank code, or null for `auto` (then picked from the file's hash). */
  bankCode: string | null;
  fileName: string | null;
}

export interface ListQuery {
  status?: ReportStatus;
  limit: number;
}

const DAY_MS = 86_400_000;

/** The fields of a report that exist only once its statement was read. */
export const NOTHING_READ = {
  account_holder: null,
  account_number: null,
  pages: null,
  transaction_count: null,
  statement_period: null,
  completed_at: null,
  verification_status: null,
  counterparties: null,
  recurring: null,
} as const;

export class MockStore {
  private readonly reports = new Map<string, StoredReport>();
  private readonly banks: Map<string, Bank>;
  private readonly organizations: Map<string, OrganizationFixture>;
  /** Complete fixture reports that new uploads borrow their counterparties and streams from. */
  private readonly templates: StoredReport[];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly fixtures: Fixtures,
    private readonly processingDelayMs: number,
  ) {
    this.banks = new Map(fixtures.banks.map((b) => [b.bank_code, b]));
    // Deep copies: usage counters and reports change, the imported fixture modules must not.
    this.organizations = new Map(structuredClone(fixtures.organizations).map((o) => [o.organization_id, o]));
    for (const r of structuredClone(fixtures.reports)) {
      this.reports.set(r.report_id, {
        ...r,
        counterparties: structuredClone(fixtures.counterparties[r.report_id]) ?? null,
        recurring: structuredClone(fixtures.recurring[r.report_id]) ?? null,
      });
    }
    this.templates = [...this.reports.values()].filter((r) => r.counterparties && r.recurring && r.account_holder);
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
  listReports(organizationId: string, query: ListQuery): { reports: StoredReport[]; hasMore: boolean } {
    const matching = [...this.reports.values()]
      .filter((r) => r.organization_id === organizationId && (!query.status || r.status === query.status))
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.report_id.localeCompare(a.report_id));
    return { reports: matching.slice(0, query.limit), hasMore: matching.length > query.limit };
  }

  /** Another organisation's report is indistinguishable from a missing one. */
  findReport(organizationId: string, reportId: string): StoredReport {
    const report = this.reports.get(reportId);
    if (!report || report.organization_id !== organizationId) {
      throw new ApiError('REPORT_NOT_FOUND', `No report with id '${reportId}' exists for this organization.`);
    }
    return report;
  }

  /** A report whose product views can be read: complete, else 409 (processing) or 400 (failed). */
  completeReport(organizationId: string, reportId: string): StoredReport {
    const report = this.findReport(organizationId, reportId);
    if (report.status === 'processing') {
      throw new ApiError('REPORT_NOT_READY', `Report '${reportId}' is still processing.`);
    }
    if (report.status === 'failed') {
      const reason = report.error ? `${report.error.error_code}: ${report.error.error_message}` : 'unknown reason';
      throw new ApiError('DOCUMENT_PARSE_FAILED', `Report '${reportId}' could not be parsed (${reason}).`);
    }
    return report;
  }

  statements(organizationId: string, status?: StatementFixture['status']): StatementFixture[] {
    return this.fixtures.statements
      .filter((s) => s.organization_id === organizationId && (!status || s.status === status))
      .sort((a, b) => b.issued_at.localeCompare(a.issued_at));
  }

  /** Any organisation's statement: the public verification page needs no key. */
  statementById(statementId: string): StatementFixture | undefined {
    return this.fixtures.statements.find((s) => s.statement_id === statementId);
  }

  /** Counts units against one of the organisation's monthly quotas, refusing when it is used up. */
  charge(organizationId: string, quotaName: QuotaName, units = 1): void {
    const quota = this.organization(organizationId).usage[quotaName];
    if (quota.limit !== null && quota.used + units > quota.limit) {
      throw new ApiError('QUOTA_EXCEEDED', `The monthly ${quotaName} quota of ${quota.limit} is used up.`);
    }
    quota.used += units;
  }

  /**
   * Stores a report for an upload. Synchronous: the report is final when this returns.
   * Asynchronous: it is `processing` now and becomes final after the processing delay.
   */
  createReport(organizationId: string, upload: Upload, mode: 'sync' | 'async'): StoredReport {
    const final = this.finishedReport(organizationId, upload, new Date());
    if (mode === 'sync') {
      this.reports.set(final.report_id, final);
      return final;
    }
    const pending: StoredReport = { ...final, ...NOTHING_READ, status: 'processing', error: null };
    this.reports.set(pending.report_id, pending);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const completedAt = final.status === 'complete' ? isoSeconds(new Date()) : null;
      this.reports.set(final.report_id, { ...final, completed_at: completedAt });
    }, this.processingDelayMs);
    this.timers.add(timer);
    return pending;
  }

  /** Stores a report as given, replacing any of the same id. */
  saveReport(report: StoredReport): void {
    this.reports.set(report.report_id, report);
  }

  /** Stops pending async parses (the server is closing). */
  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private finishedReport(organizationId: string, upload: Upload, now: Date): StoredReport {
    const { document } = upload;
    const base = {
      organization_id: organizationId,
      report_id: `rpt_${randomBytes(8).toString('hex')}`,
      bank_code: upload.bankCode ?? pickBy(this.fixtures.banks, document.sha256, 2).bank_code,
      created_at: isoSeconds(now),
      file_name: upload.fileName,
    };
    if (document.failure) {
      return { ...base, ...NOTHING_READ, status: 'failed', error: { ...document.failure } };
    }
    // Borrow a fixture report's money flows, moved in time so the statement ends a few days ago.
    const template = pickBy(this.templates, document.sha256, 0);
    const period = template.statement_period!;
    const shiftDays = Math.round((now.getTime() - 5 * DAY_MS - Date.parse(period.to)) / DAY_MS);
    const shift = (date: string) => isoDate(Date.parse(date) + shiftDays * DAY_MS);
    const recurring = structuredClone(template.recurring!);
    for (const stream of [...recurring.inflow_streams, ...recurring.outflow_streams]) {
      stream.last_date = shift(stream.last_date);
      stream.next_date = stream.next_date === null ? null : shift(stream.next_date);
    }
    return {
      ...base,
      status: 'complete',
      account_holder: document.holder ?? pickBy(this.fixtures.holders, document.sha256, 1),
      account_number: accountNumberFrom(document.sha256),
      pages: document.pages,
      transaction_count: template.transaction_count,
      statement_period: { from: shift(period.from), to: shift(period.to) },
      completed_at: isoSeconds(now),
      error: null,
      verification_status: 'statement_parsed',
      counterparties: structuredClone(template.counterparties),
      recurring,
    };
  }
}

/** 14 digits, the common length of Nepali bank account numbers, derived from the file hash. */
function accountNumberFrom(sha256: string): string {
  return BigInt(`0x${sha256.slice(8, 24)}`).toString().padStart(20, '0').slice(-14);
}
