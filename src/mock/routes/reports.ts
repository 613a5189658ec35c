// The report endpoints: list and read reports, parse uploads, the product views, name match,
// issued statements and usage.
import { isoSeconds } from '../dates.js';
import { readDocument, sniffFileKind } from '../documents.js';
import { ApiError } from '../errors.js';
import type { Bank, ReportStatus } from '../fixtures.js';
import { parseJsonBody, type Reply } from '../http.js';
import { multipartBoundary, MultipartError, parseMultipart } from '../multipart.js';
import { matchNames } from '../namematch.js';
import { decodePathSegment, invalid, SEGMENT, type Call, type Route } from '../route.js';
import type { MockStore } from '../store.js';
import {
  authView,
  counterpartiesView,
  identityView,
  recurringView,
  reportSummaryView,
  reportView,
  statementView,
  type StoredReport,
} from '../views.js';

export const MAX_FILE_BYTES = 20 * 1024 * 1024;

export const reportRoutes: Route[] = [
  { method: 'GET', pattern: /^\/v1\/reports$/, handle: listReports },
  { method: 'GET', pattern: new RegExp(`^/v1/reports/${SEGMENT}$`), handle: getReport },
  { method: 'POST', pattern: /^\/v1\/parse$/, scope: 'FULL', handle: parse },
  { method: 'POST', pattern: new RegExp(`^/v1/reports/${SEGMENT}/identity/match$`), handle: matchName },
  { method: 'GET', pattern: new RegExp(`^/v1/reports/${SEGMENT}/auth$`), handle: productView(authView) },
  { method: 'GET', pattern: new RegExp(`^/v1/reports/${SEGMENT}/identity$`), handle: productView(identityView) },
  { method: 'GET', pattern: new RegExp(`^/v1/reports/${SEGMENT}/counterparties$`), handle: productView(counterpartiesView) },
  { method: 'GET', pattern: new RegExp(`^/v1/reports/${SEGMENT}/recurring$`), handle: productView(recurringView) },
  { method: 'GET', pattern: /^\/v1\/statements$/, handle: listStatements },
  { method: 'GET', pattern: /^\/v1\/usage$/, handle: usage },
];

// --- reports ---

const REPORT_STATUSES: readonly ReportStatus[] = ['complete', 'processing', 'failed'];

function listReports({ request, key, store }: Call): Reply {
  const query = request.url.searchParams;
  const limitText = query.get('limit');
  let limit = 20;
  if (limitText !== null) {
    limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : NaN;
    if (!(limit >= 1 && limit <= 100)) throw invalid(`limit must be an integer from 1 to 100, got '${limitText}'.`);
  }
  const status = query.get('status');
  if (status !== null && !REPORT_STATUSES.includes(status as ReportStatus)) {
    throw invalid(`status must be one of ${REPORT_STATUSES.join(', ')}, got '${status}'.`);
  }
  const { reports, hasMore } = store.listReports(key.organization_id, {
    limit,
    ...(status !== null && { status: status as ReportStatus }),
  });
  return { status: 200, body: { data: reports.map(reportSummaryView), has_more: hasMore } };
}

function getReport({ key, params, store }: Call): Reply {
  const report = store.findReport(key.organization_id, params[0]!);
  return { status: 200, body: reportView(report, store.bank(report.bank_code)) };
}

/** The four product views share their rules: only a complete report of the caller's organisation. */
function productView(build: (report: StoredReport, bank: Bank | undefined) => unknown) {
  return ({ key, params, store }: Call): Reply => {
    const report = store.completeReport(key.organization_id, params[0]!);
    return { status: 200, body: build(report, store.bank(report.bank_code)) };
  };
}

function matchName({ request, key, params, store }: Call): Reply {
  const parsed = parseJsonBody(request.body);
  if (!parsed.ok) throw invalid('The request body must be JSON: {"name": "..."}.');
  const name = (parsed.value as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || name.trim() === '') throw invalid("'name' is required and must be a non-empty string.");
  const report = store.completeReport(key.organization_id, params[0]!);
  return { status: 200, body: matchNames(name, report.account_holder) };
}

// --- parse ---

function parse({ request, key, store }: Call): Reply {
  const boundary = multipartBoundary(request.contentType);
  if (!boundary) throw invalid('Send the statement as multipart/form-data with a `file` field.');
  if (request.body.overflow) throw tooLarge();
  let parts;
  try {
    parts = parseMultipart(request.body.data, boundary);
  } catch (error) {
    if (error instanceof MultipartError) throw invalid(`Malformed multipart body: ${error.message}.`);
    throw error;
  }
  const field = (name: string) => parts.find((p) => p.name === name);
  const text = (name: string) => field(name)?.data.toString('utf8').trim();

  const file = field('file');
  if (!file || file.data.length === 0) throw invalid('The `file` field is missing or empty.');
  if (file.data.length > MAX_FILE_BYTES) throw tooLarge();
  const kind = sniffFileKind(file.data);
  if (!kind) throw new ApiError('UNSUPPORTED_FILE_TYPE', 'The file is not a PDF, JPEG or PNG document.');

  const bankText = text('bank') || 'auto';
  const bankCode = bankText.toLowerCase() === 'auto' ? null : store.knownBankCode(bankText);
  if (bankCode === undefined) throw invalid(`Unknown bank code '${bankText}'; use 'auto' or a bank code such as NABIL.`);

  const asyncText = (text('async') || 'false').toLowerCase();
  if (asyncText !== 'true' && asyncText !== 'false') throw invalid(`async must be 'true' or 'false', got '${asyncText}'.`);
  const mode = asyncText === 'true' ? 'async' : 'sync';

  store.charge(key.organization_id, 'parse');
  const upload = { document: readDocument(file.data, kind), bankCode, fileName: file.filename };
  const report = store.createReport(key.organization_id, upload, mode);
  if (mode === 'async') return { status: 202, body: reportSummaryView(report) };
  if (report.status === 'failed' && report.error) {
    const code = report.error.error_code === 'TAMPER_DETECTED' ? 'TAMPER_DETECTED' : 'DOCUMENT_PARSE_FAILED';
    throw new ApiError(code, `${report.error.error_message} (report ${report.report_id})`);
  }
  return { status: 200, body: reportView(report, store.bank(report.bank_code)) };
}

function tooLarge(): ApiError {
  return new ApiError('FILE_TOO_LARGE', `The file is larger than ${MAX_FILE_BYTES / (1024 * 1024)} MB.`);
}

// --- statements and usage ---

function listStatements({ request, key, store }: Call): Reply {
  const status = request.url.searchParams.get('status');
  if (status !== null && status !== 'issued' && status !== 'revoked') {
    throw invalid(`status must be 'issued' or 'revoked', got '${status}'.`);
  }
  const statements = store.statements(key.organization_id, status ?? undefined);
  return { status: 200, body: { statements: statements.map((s) => statementView(s, request.baseUrl)) } };
}

function usage({ key, store }: Call): Reply {
  const org = store.organization(key.organization_id);
  const now = new Date();
  const periodStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const periodEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const resetsAt = isoSeconds(periodEnd);
  return {
    status: 200,
    body: {
      organization_id: org.organization_id,
      organization_name: org.organization_name,
      plan: org.plan,
      environment: key.mode,
      period_start: isoSeconds(periodStart),
      period_end: resetsAt,
      quotas: (['parse', 'data_api', 'merchant_resolve'] as const).map((name) => ({
        name,
        used: org.usage[name].used,
        limit: org.usage[name].limit,
        resets_at: resetsAt,
      })),
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
