// Connect: POST /v1/connect/request starts a hosted consent flow and answers with a token and the
// address the end user opens; that address is served by the mock itself (GET /connect/{token}).
import { randomBytes } from 'node:crypto';
import { CONNECT_SCOPE_NAMES, redirectUriProblem } from '../../api/connect-schemas.js';
import { isoSeconds } from '../dates.js';
import { ApiError } from '../errors.js';
import { parseJsonBody, type Reply } from '../http.js';
import { decodePathSegment, invalid, type Call, type Route } from '../route.js';

/** How long a Connect link can be opened. */
const LIFETIME_MS = 30 * 60 * 1000;

export interface ConnectRequest {
  request_token: string;
  organization_name: string;
  scopes: string[];
  redirect_uri: string;
  created_at: string;
  expires_at: string;
}

export const connectRoutes: Route[] = [{ method: 'POST', pattern: /^\/v1\/connect\/request$/, scope: 'FULL', handle: createConnectRequest }];

function createConnectRequest({ request, key, connectRequests }: Call): Reply {
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

  const now = Date.now();
  const connect: ConnectRequest = {
    request_token: `creq_${randomBytes(12).toString('hex')}`,
    organization_name: key.organization_name,
    scopes: [...new Set(scopes as string[])],
    redirect_uri: redirectUri,
    created_at: isoSeconds(new Date(now)),
    expires_at: isoSeconds(new Date(now + LIFETIME_MS)),
  };
  connectRequests.set(connect.request_token, connect);
  return {
    status: 200,
    body: {
      request_token: connect.request_token,
      connect_url: `${request.baseUrl}/connect/${connect.request_token}`,
      expires_at: connect.expires_at,
    },
  };
}

/** GET /connect/{token} (no key: the end user's browser opens it): what the flow asks for. */
export function handleConnectPage(pathSegment: string, connectRequests: Map<string, ConnectRequest>): Reply {
  const token = decodePathSegment(pathSegment);
  const connect = connectRequests.get(token);
  if (!connect || Date.parse(connect.expires_at) < Date.now()) {
    throw new ApiError('NOT_FOUND', `No pending Connect request '${token}' (unknown or expired).`);
  }
  return { status: 200, body: { ...connect, status: 'pending' } };
}
