// `svc webhooks listen` against `svc mock`: the listener registers its own address with the mock,
// the way `stripe listen` does, so `svc sandbox fire` reaches it with no extra flag, and removes it
// when it ends. The mock answers these admin routes only to one of its keys, sent as to the API
// (docs/guides/webhooks-and-ci.md, "How `listen` finds the mock"); the service has none, so a base
// URL that does not answer them with a registration is simply not a mock.
//
//   POST   {base}/_mock/webhooks/endpoints       {"url", "secret"?} → 201 {"id", "url", "secret"}
//   DELETE {base}/_mock/webhooks/endpoints/{id}  → 200 {"id", "url", "deleted": true}
//
// The secret: with "secret" the mock signs this endpoint's deliveries with it; without, with a
// secret it makes for this endpoint and tells only in the reply, which the listener verifies with.
// The endpoint belongs to the key that registered it: that key removes it.
//
// Every reply of the mock's admin routes, a refusal too, carries `X-Svc-Mock: 1`: a refusal from
// svc mock (a key it does not know) is told apart from a server that has no such routes at all (the
// service, whatever it answers), so that neither is blamed for the other.
//
// These are not service requests (not under /v1, no retries), so they do not go through the API
// client: one attempt each over a direct connection, bounded in time and size, only ever to a
// loopback base URL.
import { ReplyTooLargeError, type Transport } from '../api/transport.js';
import { isRecord } from '../core/json/values.js';
import { isLoopbackHost } from '../core/urls.js';

const MOCK_ENDPOINTS_PATH = '/_mock/webhooks/endpoints';
/** The header svc mock marks its admin replies with. */
export const MOCK_MARK_HEADER = 'x-svc-mock';

export type Registration =
  /** The base URL is svc mock and will deliver fired events to the listener. */
  | { kind: 'registered'; id: string; secret: string }
  /**
   * The base URL answered, but not with a registration: svc mock refused it (`fromMock`), or the
   * server is not svc mock.
   */
  | { kind: 'not-registered'; status: number; fromMock: boolean; code?: string; message?: string }
  /**
   * A registration, but with an id or a secret that svc mock would never give: `reason` says which,
   * as "a signing secret of 70000 characters".
   */
  | { kind: 'unexpected'; reason: string }
  /** Nothing answered (refused, timed out, reset). */
  | { kind: 'unreachable'; reason: string };

export interface MockCallOptions {
  /**
   * The key in force, sent as `Authorization: Bearer`: the mock answers its admin routes to its own
   * keys only.
   */
  apiKey: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * A direct connection (node:http): the admin routes are on this machine, never behind a proxy.
   */
  transport: Transport;
  userAgent: string;
  /** One line per request and reply (--debug). */
  trace?: (line: string) => void;
}

/** The base URL without trailing slashes, when it could be svc mock: http(s) to this machine. */
export function mockCandidate(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  try {
    const url = new URL(baseUrl);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isLoopbackHost(url.hostname))
      return undefined;
  } catch {
    return undefined;
  }
  return baseUrl.replace(/\/+$/, '');
}

/** Asks the mock at `baseUrl` to deliver fired events to `url` too. */
export async function registerWithMock(
  baseUrl: string,
  endpoint: { url: string; secret?: string },
  options: MockCallOptions,
): Promise<Registration> {
  const reply = await call(
    'POST',
    `${baseUrl}${MOCK_ENDPOINTS_PATH}`,
    JSON.stringify(endpoint),
    options,
  );
  if ('reason' in reply) return { kind: 'unreachable', reason: reply.reason };
  const body = parse(reply.text);
  if (reply.status >= 200 && reply.status < 300) {
    if (typeof body?.id === 'string' && typeof body.secret === 'string') {
      const problem = registrationProblem(body.id, body.secret);
      return problem
        ? { kind: 'unexpected', reason: problem }
        : { kind: 'registered', id: body.id, secret: body.secret };
    }
    return {
      kind: 'not-registered',
      status: reply.status,
      fromMock: reply.fromMock,
      message: 'the reply holds no endpoint id and secret',
    };
  }
  const code = typeof body?.error_code === 'string' ? body.error_code : undefined;
  const message = typeof body?.error_message === 'string' ? body.error_message : undefined;
  return { kind: 'not-registered', status: reply.status, fromMock: reply.fromMock, code, message };
}

/** svc mock's ids are `we_` and 16 hex digits; far longer is no id of its. */
const MAX_ID_CHARS = 256;
/**
 * svc mock makes `whsec_` and 64 hex digits, and takes a secret brought along of 8 to 1024
 * characters without white space.
 */
const SECRET_CHARS = { min: 8, max: 1024 };

/** What makes an endpoint's id and secret ones svc mock would not give, if anything. */
function registrationProblem(id: string, secret: string): string | undefined {
  if (id === '' || id.length > MAX_ID_CHARS) return `an endpoint id of ${id.length} characters`;
  if (secret.length < SECRET_CHARS.min || secret.length > SECRET_CHARS.max)
    return `a signing secret of ${secret.length} characters`;
  if (/[\s\p{Cc}\p{Cf}]/u.test(secret))
    return 'a signing secret with white space or control characters';
  return undefined;
}

/**
 * Removes the registration; undefined once done (or when the mock no longer knows it), else why
 * not.
 */
export async function unregisterFromMock(
  baseUrl: string,
  id: string,
  options: MockCallOptions,
): Promise<string | undefined> {
  const reply = await call(
    'DELETE',
    `${baseUrl}${MOCK_ENDPOINTS_PATH}/${encodeURIComponent(id)}`,
    undefined,
    options,
  );
  if ('reason' in reply) return reply.refused ? undefined : reply.reason; // a mock that stopped delivers nowhere
  if ((reply.status >= 200 && reply.status < 300) || reply.status === 404) return undefined; // 404: a restarted mock
  return `it answered ${reply.status}`;
}

type Answer =
  { status: number; fromMock: boolean; text: string } | { reason: string; refused: boolean };

async function call(
  method: string,
  url: string,
  body: string | undefined,
  options: MockCallOptions,
): Promise<Answer> {
  const started = performance.now();
  const ms = () => `${Math.round(performance.now() - started)}ms`;
  options.trace?.(`debug: → ${method} ${url} (svc mock's webhook endpoints)`);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    const reply = await options.transport({
      method,
      url: new URL(url),
      headers: {
        Accept: 'application/json',
        'User-Agent': options.userAgent,
        ...(options.apiKey !== undefined && { Authorization: `Bearer ${options.apiKey}` }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : Buffer.from(body),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
      maxBodyBytes: MAX_REPLY_BYTES,
    });
    options.trace?.(`debug: ← ${reply.status} ${method} ${url} ${ms()}`);
    return {
      status: reply.status,
      fromMock: reply.headers.get(MOCK_MARK_HEADER) === '1',
      text: reply.raw,
    };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (error instanceof ReplyTooLargeError)
      return { status: error.reply.status, fromMock: false, text: '' }; // not the mock's
    const { code, message } = error as NodeJS.ErrnoException;
    const reason = timeout.aborted
      ? `no answer within ${options.timeoutMs / 1000} s`
      : (code ?? message);
    options.trace?.(`debug: ✗ ${method} ${url} ${ms()} ${reason}`);
    return { reason, refused: code === 'ECONNREFUSED' };
  }
}

/**
 * The mock's replies are a few hundred bytes; a server that is not the mock may send without end.
 */
const MAX_REPLY_BYTES = 64 * 1024;

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
