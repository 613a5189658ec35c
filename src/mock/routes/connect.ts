// Connect: POST /v1/connect/request starts a hosted consent flow and answers, as documented, with
// an opaque token and the address the end user opens, `…/connect?token=…`; that address is served
// by the mock itself.
import { randomBytes } from 'node:crypto';
import { isoSeconds } from '../dates.js';
import { ApiError } from '../errors.js';
import { parseJsonBody, type Reply } from '../http.js';
import { invalid, type Call, type Route } from '../route.js';

/** The scopes a flow may ask for: the values the spec gives. */
const CONNECT_SCOPE_NAMES: readonly string[] = ['identity', 'income'];
/** How long a Connect link can be opened (not documented). */
const LIFETIME_MS = 30 * 60 * 1000;
// URL.hostname writes IPv6 in brackets.
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

export interface ConnectRequest {
  request_token: string;
  organization_name: string;
  scopes: string[];
  redirect_uri: string;
  created_at: string;
  expires_at: string;
}

export const connectRoutes: Route[] = [{ method: 'POST', pattern: /^\/v1\/connect\/request$/, scope: 'FULL', handle: createConnectRequest }];

function createConnectRequest({ request, key, connectRequests, clock }: Call): Reply {
  const parsed = parseJsonBody(request.body);
  const body = parsed.ok ? parsed.value : undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('The request body must be a JSON object: {"scopes": [...], "redirect_uri": "https://..."}.');
  }
  const { scopes, redirect_uri: redirectUri } = body as { scopes?: unknown; redirect_uri?: unknown };
  if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((s) => typeof s === 'string')) {
    throw invalid(`'scopes' is required: a non-empty array of scope names (${CONNECT_SCOPE_NAMES.join(', ')}).`);
  }
  const unknown = scopes.filter((s) => !CONNECT_SCOPE_NAMES.includes(s));
  if (unknown.length) throw invalid(`Unknown scope '${unknown[0]}'; the scopes are ${CONNECT_SCOPE_NAMES.join(', ')}.`);
  if (typeof redirectUri !== 'string' || redirectUri === '') throw invalid("'redirect_uri' is required: the address the flow returns to.");
  const problem = redirectUriProblem(redirectUri);
  if (problem) throw invalid(`redirect_uri ${problem}.`);

  const now = clock().getTime();
  const connect: ConnectRequest = {
    request_token: `creq_${randomBytes(12).toString('hex')}`,
    organization_name: key.organization_name,
    scopes: [...new Set(scopes as string[])],
    redirect_uri: redirectUri,
    created_at: isoSeconds(new Date(now)),
    expires_at: isoSeconds(new Date(now + LIFETIME_MS)),
  };
  connectRequests.set(connect.request_token, connect);
  const connectUrl = new URL('/connect', request.baseUrl);
  connectUrl.searchParams.set('token', connect.request_token);
  return { status: 200, body: { request_token: connect.request_token, connect_url: connectUrl.toString() } };
}

/** GET /connect?token=… (no key: the end user's browser opens it): what the flow asks for. */
export function handleConnectPage(token: string, connectRequests: Map<string, ConnectRequest>, now: Date): Reply {
  const connect = connectRequests.get(token);
  if (!connect || Date.parse(connect.expires_at) < now.getTime()) {
    throw new ApiError('NOT_FOUND', `No pending Connect request '${token}' (unknown or expired).`);
  }
  return { status: 200, body: { ...connect, status: 'pending' } };
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
    if (!isLoopback(url.hostname)) return `"${value}" uses http to ${url.hostname}; use https (http is only for localhost, 127.0.0.1 or ::1)`;
  } else if (url.protocol !== 'https:') {
    return `"${value}" is not an https URL`;
  }
  if (url.hash) return `"${value}" must not carry a #fragment`;
  return undefined;
}

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}
