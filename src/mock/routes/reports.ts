// The report endpoints: list and read reports, parse uploads, the product views, name match,
// issued statements and usage.
import { isCalendarDate, isoSeconds, monthOf } from '../dates.js';
import { readDocument, sniffFileKind } from '../documents.js';
import { ApiError } from '../errors.js';
import { integerQuery } from '../fields.js';
import type { Bank, ReportStatus } from '../fixtures.js';
import { parseJsonBody, type Reply } from '../http.js';
import { multipartBoundary, MultipartError, parseMultipart } from '../multipart.js';
import { matchNames } from '../namematch.js';
import { CATEGORIES, type Category, type Transaction } from '../report/transaction.js';
import { type Call, decodePathSegment, invalid, type Route, SEGMENT } from '../route.js';
import type { CompleteReport, MockStore } from '../store.js';
import {
  authView,
  counterpartiesView,
  identityView,
  issuedStatementView,
  recurringView,
  reportBody,
  reportListItem,
  transactionsView,
} from '../views.js';

export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const reportRoutes: Route[] = [
  { method: 'GET', pattern: /^\/v1\/reports$/, handle: listReports },
  { method: 'GET', pattern: new RegExp(`^/v1/reports/${SEGMENT}$`), handle: getReport },
  { method: 'POST', pattern: /^\/v1\/parse$/, scope: 'FULL', handle: parse },
  {
    method: 'POST',
    pattern: new RegExp(`^/v1/reports/${SEGMENT}/identity/match$`),
    handle: matchName,
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/reports/${SEGMENT}/auth$`),
    handle: productView(authView),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/reports/${SEGMENT}/identity$`),
    handle: productView(identityView),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/reports/${SEGMENT}/counterparties$`),
    handle: productView(counterpartiesView),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/reports/${SEGMENT}/recurring$`),
    handle: productView(recurringView),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/reports/${SEGMENT}/transactions$`),
    handle: listTransactions,
  },
  { method: 'GET', pattern: /^\/v1\/statements$/, handle: listStatements },
  { method: 'GET', pattern: /^\/v1\/usage$/, handle: usage },
];

// --- reports ---

const REPORT_STATUSES: readonly ReportStatus[] = ['complete', 'processing', 'failed'];

function listReports({ request, key, store }: Call): Reply {
  const query = request.url.searchParams;
  const limit = integerQuery(query, 'limit', 1, 100) ?? 20;
  const status = query.get('status');
  if (status !== null && !REPORT_STATUSES.includes(status as ReportStatus)) {
    throw invalid(`status must be one of ${REPORT_STATUSES.join(', ')}, got '${status}'.`);
  }
  const { reports, hasMore } = store.listReports(key.organization_id, {
    limit,
    ...(status !== null && { status: status as ReportStatus }),
  });
  return { status: 200, body: { data: reports.map(reportListItem), has_more: hasMore } };
}

function getReport({ key, params, store }: Call): Reply {
  const report = store.findReport(key.organization_id, params[0]!);
  return { status: 200, body: reportBody(report, store.bank(report.bank_code)) };
}

/** The product views share their rules: only a complete report of the caller's organisation. */
export function productView(build: (report: CompleteReport, bank: Bank | undefined) => unknown) {
  return ({ key, params, store }: Call): Reply => {
    const report = store.completeReport(key.organization_id, params[0]!);
    return { status: 200, body: build(report, store.bank(report.bank_code)) };
  };
}

function matchName({ request, key, params, store }: Call): Reply {
  const parsed = parseJsonBody(request.body);
  if (!parsed.ok) throw invalid('The request body must be JSON: {"name": "..."}.');
  const name = (parsed.value as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || name.trim() === '')
    throw invalid("'name' is required and must be a non-empty string.");
  const report = store.completeReport(key.organization_id, params[0]!);
  return { status: 200, body: matchNames(name, report.statement.account_holder) };
}

// --- transactions of a report ---

/** The documented filters, combined with AND; `since` and `until` are both included. */
function listTransactions({ request, key, params, store }: Call): Reply {
  const query = request.url.searchParams;
  const category = query.get('category');
  if (category !== null && !CATEGORIES.includes(category as Category)) {
    throw invalid(`category must be one of ${CATEGORIES.join(', ')}, got '${category}'.`);
  }
  const merchantCategory = query.get('merchant_category');
  const direction = query.get('direction');
  if (direction !== null && direction !== 'credit' && direction !== 'debit')
    throw invalid(`direction must be 'credit' or 'debit', got '${direction}'.`);
  const [since = null, until = null] = (['since', 'until'] as const).map((name) => {
    const value = query.get(name);
    if (value !== null && !isCalendarDate(value))
      throw invalid(`${name} must be a date written YYYY-MM-DD, got '${value}'.`);
    return value;
  });
  const limit = integerQuery(query, 'limit', 1, 1000) ?? 500;
  const keep = (t: Transaction) =>
    (category === null || t.category === category) &&
    (merchantCategory === null || t.merchant?.category === merchantCategory) &&
    (direction === null || t.direction === direction) &&
    (since === null || t.date >= since) &&
    (until === null || t.date <= until);
  const report = store.completeReport(key.organization_id, params[0]!);
  return {
    status: 200,
    body: transactionsView(report.statement.transactions.filter(keep).slice(0, limit)),
  };
}

// --- parse ---

function parse({ request, key, store }: Call): Reply {
  const boundary = multipartBoundary(request.contentType);
  if (!boundary) throw invalid('Send the statement as multipart/form-data with a `file` field.');
  let parts;
  try {
    parts = parseMultipart(request.body.data, boundary);
  } catch (error) {
    if (error instanceof MultipartError)
      throw invalid(`Malformed multipart body: ${error.message}.`);
    throw error;
  }
  const field = (name: string) => parts.find((p) => p.name === name);
  const text = (name: string) => field(name)?.data.toString('utf8').trim();

  const file = field('file');
  if (!file || file.data.length === 0) throw invalid('The `file` field is missing or empty.');
  if (file.data.length > MAX_FILE_BYTES) throw tooLarge();
  const kind = sniffFileKind(file.data);
  if (!kind)
    throw new ApiError('UNSUPPORTED_FILE_TYPE', 'The file is not a PDF, JPEG or PNG document.');

  const bankText = text('bank') || 'auto';
  const bankCode = bankText.toLowerCase() === 'auto' ? null : store.knownBankCode(bankText);
  if (bankCode === undefined)
    throw invalid(`Unknown bank code '${bankText}'; use 'auto' or a bank code such as NABIL.`);

  const asyncText = (text('async') || 'false').toLowerCase();
  if (asyncText !== 'true' && asyncText !== 'false')
    throw invalid(`async must be 'true' or 'false', got '${asyncText}'.`);
  const mode = asyncText === 'true' ? 'async' : 'sync';

  store.charge(key.organization_id, 'parse');
  const report = store.createReport(
    key.organization_id,
    { document: readDocument(file.data, kind), bankCode },
    mode,
  );
  if (mode === 'async') {
    // The documents show only `poll_url` in this reply; report_id and status are the mock's own.
    return {
      status: 202,
      body: {
        report_id: report.report_id,
        status: report.status,
        poll_url: `/v1/reports/${report.report_id}`,
      },
    };
  }
  if (report.status === 'failed' && report.error) {
    const code =
      report.error.error_code === 'TAMPER_DETECTED' ? 'TAMPER_DETECTED' : 'DOCUMENT_PARSE_FAILED';
    throw new ApiError(code, `${report.error.error_message} (report ${report.report_id})`);
  }
  return { status: 200, body: reportBody(report, store.bank(report.bank_code)) };
}

function tooLarge(): ApiError {
  return new ApiError(
    'FILE_TOO_LARGE',
    `The file is larger than ${MAX_FILE_BYTES / (1024 * 1024)} MB.`,
  );
}

// --- statements and usage ---

function listStatements({ request, key, store }: Call): Reply {
  const status = request.url.searchParams.get('status');
  if (status !== null && status !== 'issued' && status !== 'revoked') {
    throw invalid(`status must be 'issued' or 'revoked', got '${status}'.`);
  }
  const statements = store.statements(key.organization_id, status ?? undefined);
  return {
    status: 200,
    body: { statements: statements.map((s) => issuedStatementView(s, request.baseUrl)) },
  };
}

/**
 * The documented reply is the parse quota of this month. `data_api` and `merchant_resolve` are the
 * mock's own additions (the documents allow a server to add Data API counters).
 */
function usage({ key, store, clock }: Call): Reply {
  const org = store.organization(key.organization_id);
  const now = clock();
  const resetsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const counter = ({ used, limit }: { used: number; limit: number | null }) => ({
    quota: limit,
    used,
    remaining: limit === null ? null : Math.max(0, limit - used),
  });
  return {
    status: 200,
    body: {
      plan: org.plan,
      ...counter(org.usage.parse),
      period: monthOf(now.toISOString()),
      resets_at: isoSeconds(resetsAt),
      data_api: counter(org.usage.data_api),
      merchant_resolve: { used: org.usage.merchant_resolve.used },
    },
  };
}

// --- public verification page (outside /v1, no key) ---

/** GET /verify/{statement_id}: what the verify_url of an issued statement shows. */
export function handleVerifyPage(pathSegment: string, store: MockStore): Reply {
  const statementId = decodePathSegment(pathSegment);
  const statement = store.statementById(statementId);
  if (!statement) throw new ApiError('NOT_FOUND', `No statement with id '${statementId}'.`);
  return {
    status: 200,
    body: {
      statement_id: statement.statement_id,
      valid: statement.status === 'issued',
      status: statement.status,
      content_hash: statement.content_hash,
      issued_at: statement.issued_at,
      revoked_at: statement.revoked_at,
    },
  };
}
