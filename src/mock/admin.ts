// Test-support endpoints under /_mock/: the request log, the fault queue and a readiness probe.
// They need no key, so they answer only requests addressed to a loopback name: the mock listens on
// loopback, but a web page whose DNS name is rebound to 127.0.0.1 reaches it too, with its own
// name in the Host header, and must not read the log or queue faults.
import { ApiError } from './errors.js';
import { FaultSpecError, type FaultQueue } from './faults.js';
import { parseJsonBody, type Reply, type RequestBody } from './http.js';
import type { RequestLog } from './requestlog.js';

export interface AdminDeps {
  requests: RequestLog;
  faults: FaultQueue;
}

export interface AdminRequest {
  method: string;
  pathname: string;
  /** The Host header, absent in HTTP/1.0. */
  host: string | undefined;
}

type AdminHandlers = Partial<Record<string, (body: RequestBody) => Reply>>;

/** localhost, 127.0.0.0/8 or [::1], with an optional port. */
const LOOPBACK_HOST = /^(?:localhost|\[::1\]|127(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})(?::\d{1,5})?$/i;

export function isLoopbackHostHeader(host: string | undefined): boolean {
  return host !== undefined && LOOPBACK_HOST.test(host);
}

export function handleAdmin({ method, pathname, host }: AdminRequest, body: RequestBody, deps: AdminDeps): Reply {
  if (!isLoopbackHostHeader(host)) {
    // To a page of another name these endpoints do not exist.
    const addressee = host === undefined ? 'no Host header' : `Host ${JSON.stringify(host)}`;
    throw new ApiError('NOT_FOUND', `The /_mock/ endpoints answer only requests addressed to localhost, 127.0.0.1 or [::1]; this one had ${addressee}.`);
  }
  const routes: Record<string, AdminHandlers> = {
    '/_mock/health': {
      GET: () => ok({ status: 'ok' }),
    },
    '/_mock/requests': {
      GET: () => ({ status: 200, body: deps.requests.list(), headers: { 'X-Mock-Requests-Dropped': String(deps.requests.dropped()) } }),
      DELETE: () => {
        deps.requests.clear();
        return ok({ cleared: true });
      },
    },
    '/_mock/faults': {
      GET: () => ok(deps.faults.pending()),
      POST: (raw) => {
        const parsed = parseJsonBody(raw);
        if (!parsed.ok) throw new ApiError('INVALID_REQUEST', 'The body must be a JSON fault spec or an array of them.');
        try {
          return ok({ queued: deps.faults.add(parsed.value), pending: deps.faults.pending().length });
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
  };
  const handlers = routes[pathname.replace(/\/+$/, '')];
  if (!handlers) throw new ApiError('NOT_FOUND', `No mock endpoint at ${pathname}.`);
  const handler = handlers[method];
  if (!handler) {
    throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${pathname}.`, {
      headers: { Allow: Object.keys(handlers).join(', ') },
    });
  }
  return handler(body);
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}
