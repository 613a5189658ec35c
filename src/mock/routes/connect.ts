// Connect: POST /v1/connect/request starts a hosted consent flow and answers, as documented, with
// an opaque token and the address the end user opens, `…/connect?token=…`; that address is served
// by the mock itself, and so is the end user's approval, which hands a public token to the
// caller's redirect address. The caller exchanges it (POST /v1/connect/exchange) for a grant whose
// data its access token reads (GET /v1/grants/{id}/data, the token in a header only).
import { randomBytes } from 'node:crypto';

import { isoSeconds } from '../dates.js';
import { ApiError } from '../errors.js';
import { jsonObjectBody, requiredString } from '../fields.js';
import type { ConnectFlows, ConnectRequest } from '../grants.js';
import { parseJsonBody, type Reply } from '../http.js';
import { sharedData, type SharedScope } from '../lending/granted.js';
import { type Call, invalid, type Route, SEGMENT } from '../route.js';
import type { CompleteReport, MockStore } from '../store.js';

/** The scopes a flow may ask for: the values the spec gives. */
const CONNECT_SCOPE_NAMES: readonly SharedScope[] = ['identity', 'income'];
/** How long a Connect link can be opened (not documented). */
const LIFETIME_MS = 30 * 60 * 1000;
// URL.hostname writes IPv6 in brackets.
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);
/** The header that carries a grant's access token; never a query parameter. */
export const ACCESS_TOKEN_HEADER = 'x-svc-access-token';

export const connectRoutes: Route[] = [
  {
    method: 'POST',
    pattern: /^\/v1\/connect\/request$/,
    scope: 'FULL',
    handle: createConnectRequest,
  },
  {
    method: 'POST',
    pattern: /^\/v1\/connect\/exchange$/,
    scope: 'FULL',
    handle: exchangePublicToken,
  },
  { method: 'GET', pattern: new RegExp(`^/v1/grants/${SEGMENT}/data$`), handle: grantData },
];

function createConnectRequest({ request, key, connect: flows, clock }: Call): Reply {
  const parsed = parseJsonBody(request.body);
  const body = parsed.ok ? parsed.value : undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid(
      'The request body must be a JSON object: {"scopes": [...], "redirect_uri": "https://..."}.',
    );
  }
  const { scopes, redirect_uri: redirectUri } = body as {
    scopes?: unknown;
    redirect_uri?: unknown;
  };
  if (
    !Array.isArray(scopes) ||
    scopes.length === 0 ||
    !scopes.every((s) => typeof s === 'string')
  ) {
    throw invalid(
      `'scopes' is required: a non-empty array of scope names (${CONNECT_SCOPE_NAMES.join(', ')}).`,
    );
  }
  const unknown = scopes.filter((s) => !CONNECT_SCOPE_NAMES.includes(s as SharedScope));
  if (unknown.length)
    throw invalid(
      `Unknown scope '${unknown[0]}'; the scopes are ${CONNECT_SCOPE_NAMES.join(', ')}.`,
    );
  if (typeof redirectUri !== 'string' || redirectUri === '')
    throw invalid("'redirect_uri' is required: the address the flow returns to.");
  const problem = redirectUriProblem(redirectUri);
  if (problem) throw invalid(`redirect_uri ${problem}.`);

  const now = clock().getTime();
  const connect: ConnectRequest = {
    request_token: `creq_${randomBytes(12).toString('hex')}`,
    organization_name: key.organization_name,
    scopes: [...new Set(scopes as SharedScope[])],
    redirect_uri: redirectUri,
    created_at: isoSeconds(new Date(now)),
    expires_at: isoSeconds(new Date(now + LIFETIME_MS)),
  };
  flows.open(key.organization_id, connect);
  const connectUrl = new URL('/connect', request.baseUrl);
  connectUrl.searchParams.set('token', connect.request_token);
  return {
    status: 200,
    body: { request_token: connect.request_token, connect_url: connectUrl.toString() },
  };
}

/** POST /v1/connect/exchange {public_token}: a grant, once per public token. */
function exchangePublicToken({ request, key, connect }: Call): Reply {
  const publicToken = requiredString(
    jsonObjectBody(request.body, '{"public_token": "cpt_…"}'),
    'public_token',
  );
  const { grant, accessToken } = connect.exchange(key.organization_id, publicToken);
  return {
    status: 200,
    body: { access_token: accessToken, grant_id: grant.grant_id, scopes: grant.scopes },
  };
}

/**
 * GET /v1/grants/{grant_id}/data: the API key of the grant's organisation and, in a header, its
 * access token.
 */
function grantData({ request, key, params, connect, store }: Call): Reply {
  // The documents forbid the token in the URL, where logs and browser histories keep it: refuse it
  // loudly.
  if (request.url.searchParams.has('access_token')) {
    throw invalid('The access token goes in the X-Svc-Access-Token header, never in the URL.');
  }
  const grant = connect.grant(key.organization_id, params[0]!, request.accessToken);
  const report = store.completeReport(grant.organization_id, grant.report_id);
  return { status: 200, body: sharedData(report, store.bank(report.bank_code), grant.scopes) };
}

// --- the end user's side (no key: the browser opens these) ---

/** GET /connect?token=…: what the flow asks for, and where to approve it. */
export function handleConnectPage(url: URL, flows: ConnectFlows): Reply {
  const token = url.searchParams.get('token') ?? '';
  const flow = flows.find(token);
  if (!flow)
    throw new ApiError('NOT_FOUND', `No pending Connect request '${token}' (unknown or expired).`);
  const approveUrl = new URL('/connect/approve', url);
  approveUrl.search = new URLSearchParams({ token }).toString();
  return {
    status: 200,
    body: {
      ...flow.request,
      status: flow.status,
      ...(flow.status === 'pending' && { approve_url: approveUrl.toString() }),
    },
  };
}

/**
 * POST /connect/approve?token=…[&report_id=…]: the end user approves, sharing a complete report of
 * the requesting organisation (by default the one it verified through Connect, else its newest).
 * Answers 303 to the redirect address with `public_token` (and `request_token`) in its query; the
 * body says the same for a script that does not follow redirects.
 */
export function handleConnectApproval(url: URL, flows: ConnectFlows, store: MockStore): Reply {
  const token = url.searchParams.get('token') ?? '';
  const flow = flows.find(token);
  if (!flow)
    throw new ApiError('NOT_FOUND', `No pending Connect request '${token}' (unknown or expired).`);
  if (flow.status !== 'pending') throw invalid(`Connect request '${token}' was already approved.`);
  const reportId = url.searchParams.get('report_id');
  const report =
    reportId === null
      ? defaultReport(store, flow.organization_id)
      : store.completeReport(flow.organization_id, reportId);
  const publicToken = flows.approve(token, report.report_id);
  const redirect = new URL(flow.request.redirect_uri);
  redirect.searchParams.set('public_token', publicToken);
  redirect.searchParams.set('request_token', token);
  return {
    status: 303,
    headers: { Location: redirect.toString() },
    body: { public_token: publicToken, redirect_url: redirect.toString() },
  };
}

function defaultReport(store: MockStore, organizationId: string): CompleteReport {
  const { reports } = store.listReports(organizationId, {
    status: 'complete',
    limit: Number.MAX_SAFE_INTEGER,
  });
  const chosen = reports.find((r) => r.verification_status === 'connect_verified') ?? reports[0];
  if (!chosen)
    throw new ApiError('REPORT_NOT_FOUND', 'The organization has no complete report to share.');
  return store.completeReport(organizationId, chosen.report_id);
}

/**
 * Why a redirect address is refused, or undefined when it is fine: an absolute `https` URL, or
 * `http` to this machine (a local development server), with no fragment.
 */
function redirectUriProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not an absolute URL (example: https://app.example.com/connect/done)`;
  }
  if (url.protocol === 'http:') {
    if (!isLoopback(url.hostname))
      return `"${value}" uses http to ${url.hostname}; use https (http is only for localhost, 127.0.0.1 or ::1)`;
  } else if (url.protocol !== 'https:') {
    return `"${value}" is not an https URL`;
  }
  if (url.hash) return `"${value}" must not carry a #fragment`;
  return undefined;
}

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}
