// The endpoints svc calls: method, path, the scope of key they need and what they cost. Commands
// build their requests from this table, the reply cache and completion find URLs with the same
// function as the client, and each command's help names its request from here.
import { UsageError } from '../core/errors.js';
import { hasControlCharacter } from '../core/output/format.js';
import { encodedSeparatorIn, urlInsideApi } from './request-paths.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Endpoint {
  method: Method;
  /**
   * The path under the base URL. `{name}` is an id given by the user, checked and URL-encoded
   * (its name, with `_` as a space, names it in messages); `{+name}` is a path of svc's own.
   */
  path: string;
  /**
   * READ_ONLY keys read; FULL keys also write and spend. `none`: no key is sent (a token stands
   * in).
   */
  scope: 'READ_ONLY' | 'FULL' | 'none';
  /** Billing units per call, where the documents mark a cost. */
  billing?: number;
}

const GET = 'GET';
const POST = 'POST';

export const ENDPOINTS = {
  listReports: { method: GET, path: '/v1/reports', scope: 'READ_ONLY' },
  getReport: { method: GET, path: '/v1/reports/{report_id}', scope: 'READ_ONLY' },
  parse: { method: POST, path: '/v1/parse', scope: 'FULL' },
  matchName: { method: POST, path: '/v1/reports/{report_id}/identity/match', scope: 'READ_ONLY' },
  auth: { method: GET, path: '/v1/reports/{report_id}/auth', scope: 'READ_ONLY' },
  identity: { method: GET, path: '/v1/reports/{report_id}/identity', scope: 'READ_ONLY' },
  counterparties: {
    method: GET,
    path: '/v1/reports/{report_id}/counterparties',
    scope: 'READ_ONLY',
  },
  recurring: { method: GET, path: '/v1/reports/{report_id}/recurring', scope: 'READ_ONLY' },
  transactions: { method: GET, path: '/v1/reports/{report_id}/transactions', scope: 'READ_ONLY' },
  income: { method: GET, path: '/v1/reports/{report_id}/income', scope: 'READ_ONLY' },
  balance: { method: GET, path: '/v1/reports/{report_id}/balance', scope: 'READ_ONLY' },
  liabilities: { method: GET, path: '/v1/reports/{report_id}/liabilities', scope: 'READ_ONLY' },
  score: { method: GET, path: '/v1/reports/{report_id}/score', scope: 'READ_ONLY', billing: 1 },
  verify: { method: GET, path: '/v1/reports/{report_id}/verify', scope: 'READ_ONLY', billing: 1 },
  underwrite: {
    method: POST,
    path: '/v1/reports/{report_id}/underwriting',
    scope: 'FULL',
    billing: 1,
  },
  enrich: { method: POST, path: '/v1/enrich', scope: 'FULL', billing: 1 },
  statements: { method: GET, path: '/v1/statements', scope: 'READ_ONLY' },
  resolveMerchants: { method: POST, path: '/v1/merchants/resolve', scope: 'FULL', billing: 1 },
  connectRequest: { method: POST, path: '/v1/connect/request', scope: 'FULL' },
  connectExchange: { method: POST, path: '/v1/connect/exchange', scope: 'FULL' },
  grantData: { method: GET, path: '/v1/grants/{grant_id}/data', scope: 'READ_ONLY' },
  createConsent: { method: POST, path: '/v1/consents', scope: 'FULL' },
  listConsents: { method: GET, path: '/v1/consents', scope: 'FULL' },
  revokeConsent: { method: POST, path: '/v1/consents/{consent_id}/revoke', scope: 'FULL' },
  consentData: { method: GET, path: '/v1/consents/{consent_id}/data', scope: 'none' },
  recordDecision: { method: POST, path: '/v1/decisions', scope: 'FULL' },
  listDecisions: { method: GET, path: '/v1/decisions', scope: 'FULL' },
  recordOutcome: { method: POST, path: '/v1/outcomes', scope: 'FULL' },
  usage: { method: GET, path: '/v1/usage', scope: 'READ_ONLY' },
  sandboxCreate: { method: POST, path: '/v1/sandbox/reports', scope: 'FULL' },
  sandboxFire: {
    method: POST,
    path: '/v1/sandbox/reports/{report_id}/fire_webhook',
    scope: 'FULL',
  },
  sandboxScenarios: { method: GET, path: '/v1/sandbox/scenarios', scope: 'READ_ONLY' },
  dataLatest: { method: GET, path: '/v1/data/cbank/{+family}/latest', scope: 'READ_ONLY' },
  dataSeries: { method: GET, path: '/v1/data/cbank/{+family}/series', scope: 'READ_ONLY' },
  dataSnapshot: { method: GET, path: '/v1/data/cbank/banking/snapshot', scope: 'READ_ONLY' },
} as const satisfies Record<string, Endpoint>;

/**
 * Longer than any id the documents show, many times over: a longer one is a mistake (a pasted
 * file).
 */
const MAX_ID_LENGTH = 256;

/**
 * An id as one path segment: not empty, no `/ \ ? #`, white space or control character (a URL
 * reads `\` as `/`), no encoded `/ \ .` (`%2f`, `%5c`, `%2e`: a server that decodes the path reads
 * them as such), not `.` or `..`, which URL resolution would take as this folder or the one above
 * (`/v1/reports/..` is `/v1`), and not longer than MAX_ID_LENGTH.
 */
export function checkId(id: string | undefined, what = 'report id'): string {
  if (id === undefined || id === '') throw new UsageError(`the ${what} is empty`);
  if (id.length > MAX_ID_LENGTH)
    throw new UsageError(
      `the ${what} "${id.slice(0, 20)}…" is ${id.length} characters long; an id has at most ${MAX_ID_LENGTH}`,
    );
  if (/[/\\?#\s]/.test(id))
    throw new UsageError(
      `the ${what} "${id.replace(/\s/g, ' ')}" must not contain / \\ ? # or white space`,
    );
  if (hasControlCharacter(id)) throw new UsageError(`the ${what} contains a control character`);
  const encoded = encodedSeparatorIn(id);
  if (encoded !== undefined)
    throw new UsageError(`the ${what} "${id}" must not contain ${encoded}, an encoded / \\ or .`);
  if (id === '.' || id === '..')
    throw new UsageError(`the ${what} "${id}" is not an id: "." and ".." name a folder of the URL`);
  return id;
}

/** The endpoint's path with its ids filled in; a bad id is a usage error, before any request. */
export function endpointPath(
  endpoint: Endpoint,
  values: Readonly<Record<string, string>> = {},
): string {
  return endpoint.path.replace(/\{(\+?)(\w+)\}/g, (_, raw: string, name: string) => {
    const value = values[name];
    if (raw) {
      if (value === undefined) throw new Error(`no value for {+${name}} in ${endpoint.path}`);
      return value;
    }
    return encodeURIComponent(checkId(value, name.replace(/_/g, ' ')));
  });
}

/**
 * The URL of a request: the base URL, the path and the query with absent values left out and the
 * names in order, so a request's URL is the same however its options were given. The client sends
 * this URL and the reply cache files replies under it.
 */
export function requestUrl(
  baseUrl: string,
  path: string,
  query: Readonly<Record<string, string | number | undefined>> = {},
): URL {
  // Checked here, where every request's URL is made, whatever its path, ids or link came from.
  const url = urlInsideApi(baseUrl, path);
  const names = Object.keys(query)
    .filter((name) => query[name] !== undefined)
    .sort();
  for (const name of names) url.searchParams.set(name, String(query[name]));
  return url;
}

/** One line for a command's help: the request it sends and what it costs. */
export function requestNote(endpoint: Endpoint): string {
  const cost = endpoint.billing
    ? `; costs ${endpoint.billing} billing unit${endpoint.billing === 1 ? '' : 's'} per call`
    : '';
  const key =
    endpoint.scope === 'none' ? 'no API key' : endpoint.scope === 'FULL' ? 'a FULL key' : 'any key';
  return `Request: ${endpoint.method} ${endpoint.path.replace('{+', '{')} (${key}${cost})`;
}

/** A call to an endpoint: its method and path with the ids filled in, and how messages name it. */
export interface Target {
  method: Method;
  path: string;
  /** `GET /v1/reports/rpt_1`. */
  what: string;
}

export function target(endpoint: Endpoint, values?: Readonly<Record<string, string>>): Target {
  const path = endpointPath(endpoint, values);
  return { method: endpoint.method, path, what: `${endpoint.method} ${path}` };
}
