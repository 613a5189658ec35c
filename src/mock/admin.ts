// Test-support endpoints under /_mock/: the request log, the fault queue, a readiness probe, and
// the webhook endpoints sandbox events are delivered to (`svc webhooks listen` registers itself
// there, the way `stripe listen` does). Only callers admitted by admin-access.ts reach them: with
// one of the mock's keys, from no web page. A webhook endpoint belongs to the key that registered
// it: only that key lists or removes it, it gets its organisation's events, and its signing secret
// is told once, in the reply to the registration. The service has no such routes: a client that
// finds them (a 2xx) knows it talks to `svc mock`.
import { ApiError } from './errors.js';
import { type FaultQueue, FaultSpecError } from './faults.js';
import { isObject } from './fields.js';
import { parseJsonBody, type Reply, type RequestBody } from './http.js';
import type { KeyIdentity } from './keys.js';
import type { RequestLog } from './requestlog.js';
import { decodePathSegment } from './route.js';
import type { WebhookSender } from './webhooks.js';

export interface AdminDeps {
  requests: RequestLog;
  faults: FaultQueue;
  webhooks: WebhookSender;
}

export interface AdminRequest {
  method: string;
  pathname: string;
  /** The key the caller was admitted with. */
  caller: KeyIdentity;
}

type AdminHandlers = Partial<Record<string, (body: RequestBody) => Reply>>;

/**
 * A signing secret a registration may bring: 8 to 1024 characters, no white space (as `svc mock
 * --webhook-secret`).
 */
const SECRET_FORM = /^\S{8,1024}$/;
const ENDPOINTS_PATH = '/_mock/webhooks/endpoints';

export function handleAdmin(
  { method, pathname, caller }: AdminRequest,
  body: RequestBody,
  deps: AdminDeps,
): Reply {
  const routes: Record<string, AdminHandlers> = {
    '/_mock/health': {
      GET: () => ok({ status: 'ok' }),
    },
    '/_mock/requests': {
      GET: () => ({
        status: 200,
        body: deps.requests.list(),
        headers: { 'X-Mock-Requests-Dropped': String(deps.requests.dropped()) },
      }),
      DELETE: () => {
        deps.requests.clear();
        return ok({ cleared: true });
      },
    },
    '/_mock/faults': {
      GET: () => ok(deps.faults.pending()),
      POST: (raw) => {
        const parsed = parseJsonBody(raw);
        if (!parsed.ok)
          throw new ApiError(
            'INVALID_REQUEST',
            'The body must be a JSON fault spec or an array of them.',
          );
        try {
          return ok({
            queued: deps.faults.add(parsed.value),
            pending: deps.faults.pending().length,
          });
        } catch (error) {
          if (error instanceof FaultSpecError) throw new ApiError('INVALID_REQUEST', error.message);
          throw error;
        }
      },
      DELETE: () => {
        deps.faults.clear();
        return ok({ cleared: true });
      },
    },
    [ENDPOINTS_PATH]: {
      GET: () => ok(listEndpoints(deps.webhooks, caller)),
      POST: (raw) => registerEndpoint(raw, caller, deps.webhooks),
    },
  };
  const path = pathname.replace(/\/+$/, '');
  const endpoint = path.startsWith(`${ENDPOINTS_PATH}/`)
    ? path.slice(ENDPOINTS_PATH.length + 1)
    : undefined;
  const handlers =
    endpoint !== undefined && !endpoint.includes('/')
      ? { DELETE: () => unregisterEndpoint(endpoint, caller, deps.webhooks) }
      : routes[path];
  if (!handlers) throw new ApiError('NOT_FOUND', `No mock endpoint at ${pathname}.`);
  const handler = handlers[method];
  if (!handler) {
    throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${pathname}.`, {
      headers: { Allow: Object.keys(handlers).join(', ') },
    });
  }
  return handler(body);
}

/**
 * POST /_mock/webhooks/endpoints {"url", "secret"?} → 201 {"id", "url", "secret"}: the events of
 * the caller's organisation fired from now on are delivered to `url` too, signed with `secret`,
 * else with a new secret made for this endpoint (returned here, and never again).
 */
function registerEndpoint(raw: RequestBody, caller: KeyIdentity, webhooks: WebhookSender): Reply {
  const example =
    'Send {"url": "http://127.0.0.1:8788/"}, with "secret" to sign its deliveries with a secret of your own.';
  const parsed = parseJsonBody(raw);
  if (!parsed.ok || !isObject(parsed.value))
    throw new ApiError('INVALID_REQUEST', `The body must be a JSON object. ${example}`);
  const { url, secret } = parsed.value;
  if (typeof url !== 'string' || !isHttpUrl(url))
    throw new ApiError(
      'INVALID_REQUEST',
      `'url' must be an absolute http or https URL. ${example}`,
    );
  if (secret !== undefined && (typeof secret !== 'string' || !SECRET_FORM.test(secret))) {
    throw new ApiError(
      'INVALID_REQUEST',
      "'secret' must be 8 to 1024 characters without white space.",
    );
  }
  const registered = webhooks.register(url, caller, secret);
  return {
    status: 201,
    body: { id: registered.id, url: registered.url, secret: registered.secret },
  };
}

/**
 * Where events go: the caller's registered endpoints (their secrets withheld), then the
 * --webhook-url ones.
 */
function listEndpoints(webhooks: WebhookSender, caller: KeyIdentity) {
  return [
    ...webhooks.endpointsOf(caller).map(({ id, url }) => ({ id, url, source: 'registered' })),
    ...webhooks.urls.map((url) => ({ id: null, url, source: '--webhook-url' })),
  ];
}

/** Only by the key that registered it: to any other, it does not exist. */
function unregisterEndpoint(id: string, caller: KeyIdentity, webhooks: WebhookSender): Reply {
  const decoded = decodePathSegment(id);
  const removed = webhooks.unregister(decoded, caller);
  if (!removed)
    throw new ApiError(
      'NOT_FOUND',
      `No webhook endpoint ${decoded} is registered (it may have been unregistered already, or the mock restarted).`,
    );
  return ok({ id: removed.id, url: removed.url, deleted: true });
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}
