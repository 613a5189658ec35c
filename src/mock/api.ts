// The emulated service under /v1: authentication, routing, key mode and scope. Each area of the
// service declares its routes in routes/; handlers return a Reply or throw ApiError, and server.ts
// turns both into HTTP.
import { ApiError } from './errors.js';
import type { Reply } from './http.js';
import type { KeyIdentity, KeyRing } from './keys.js';
import { type ApiDeps, type ApiRequest, decodePathSegment, type Route } from './route.js';
import { connectRoutes } from './routes/connect.js';
import { consentRoutes } from './routes/consents.js';
import { dataRoutes } from './routes/data.js';
import { decisionRoutes } from './routes/decisions.js';
import { enrichRoutes } from './routes/enrich.js';
import { lendingRoutes } from './routes/lending.js';
import { merchantRoutes } from './routes/merchants.js';
import { reportRoutes } from './routes/reports.js';
import { sandboxRoutes } from './routes/sandbox.js';

export type { ApiDeps, ApiRequest } from './route.js';
export { handleVerifyPage, MAX_FILE_BYTES } from './routes/reports.js';

const ROUTES: Route[] = [
  ...reportRoutes,
  ...lendingRoutes,
  ...enrichRoutes,
  ...merchantRoutes,
  ...connectRoutes,
  ...consentRoutes,
  ...decisionRoutes,
  ...sandboxRoutes,
  ...dataRoutes,
];

/** The route of this method and path, with its match; undefined when none. */
function findRoute(
  method: string,
  pathname: string,
): { route: Route; match: RegExpExecArray } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(pathname);
    if (match) return { route, match };
  }
  return undefined;
}

/**
 * The key a /v1 request needs, checked from its headers alone, so that the server refuses a
 * request without a known key before reading its body (a stranger's upload takes no memory).
 * Throws the 401 handleApi would answer; a route that a token opens needs none.
 */
export function requireKnownKey(
  method: string,
  pathname: string,
  authorization: string | undefined,
  keys: KeyRing,
): void {
  if (findRoute(method, pathname)?.route.access === 'token') return;
  authenticate(authorization, keys);
}

function authenticate(authorization: string | undefined, keys: KeyRing): KeyIdentity {
  const key = keys.authenticate(authorization);
  if (!key)
    throw new ApiError(
      'INVALID_API_KEY',
      authorization ? 'Unknown API key.' : 'No API key was sent.',
    );
  return key;
}

export function handleApi(request: ApiRequest, deps: ApiDeps): Reply {
  const { pathname } = request.url;
  // The route of this method and path; the routes of the path under other methods are looked for
  // only to answer 405 (or 404 when there are none).
  const found = findRoute(request.method, pathname);
  const route = found?.route;
  // Named one by one: an object rest and spread per request cost more than the handler of a small
  // GET.
  const { store, webhooks, connect, consents, decisions, clock } = deps;
  const params = () => found!.match.slice(1).map(decodePathSegment);
  // A route that a token opens needs no key: a key sent along is neither checked nor used.
  if (route?.access === 'token')
    return route.handle({
      store,
      webhooks,
      connect,
      consents,
      decisions,
      clock,
      request,
      params: params(),
    });

  // Authentication comes first, as in the service: an unknown path with a bad key is a 401.
  const key = authenticate(request.authorization, deps.keys);
  if (!route) {
    const onPath = ROUTES.filter((r) => r.pattern.test(pathname));
    if (onPath.length === 0)
      throw new ApiError('NOT_FOUND', `No endpoint at ${request.method} ${pathname}.`);
    const allow = onPath.map((r) => r.method).join(', ');
    throw new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${pathname}.`, {
      headers: { Allow: allow },
    });
  }
  if (route.keyMode === 'test' && key.mode !== 'test') {
    throw new ApiError(
      'TEST_KEY_REQUIRED',
      'The sandbox works with test keys only; this is a live key.',
      {
        displayMessage: 'Use a test key (svc_sk_test_...) for sandbox operations.',
      },
    );
  }
  if (route.scope === 'FULL' && key.scope !== 'FULL') {
    throw new ApiError(
      'INSUFFICIENT_SCOPE',
      'This operation needs an API key with the FULL scope; this key is READ_ONLY.',
    );
  }
  return route.handle({
    store,
    webhooks,
    connect,
    consents,
    decisions,
    clock,
    request,
    key,
    params: params(),
  });
}
