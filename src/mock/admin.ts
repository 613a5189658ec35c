// Test-support endpoints under /_mock/ (no authentication; the mock listens on loopback only):
// the request log, the fault queue and a readiness probe.
import { ApiError } from './errors.js';
import { FaultSpecError, type FaultQueue } from './faults.js';
import { parseJsonBody, type Reply, type RequestBody } from './http.js';
import type { RequestLog } from './requestlog.js';

export interface AdminDeps {
  requests: RequestLog;
  faults: FaultQueue;
}

type AdminHandlers = Partial<Record<string, (body: RequestBody) => Reply>>;

export function handleAdmin(method: string, pathname: string, body: RequestBody, deps: AdminDeps): Reply {
  const routes: Record<string, AdminHandlers> = {
    '/_mock/health': {
      GET: () => ok({ status: 'ok' }),
    },
    '/_mock/requests': {
      GET: () => ok(deps.requests.list()),
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
