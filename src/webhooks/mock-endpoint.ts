// `svc webhooks listen` against `svc mock`: the listener registers its own address with the mock,
// the way `stripe listen` does, so `svc sandbox fire` reaches it with no extra flag, and removes it
// when it ends. The mock answers these admin routes only to one of its keys, sent as to the API
// (contract §6); the service has none, so a base URL that does not answer them with a
// registration is simply not a mock.
//
//   POST   {base}/_mock/webhooks/endpoints       {"url", "secret"?} → 201 {"id", "url", "secret"}
//   DELETE {base}/_mock/webhooks/endpoints/{id}  → 200 {"id", "url", "deleted": true}
//
// The secret: with "secret" the mock signs this endpoint's deliveries with it; without, with a
// secret it makes for this endpoint and tells only in the reply, which the listener verifies with.
// The endpoint belongs to the key that registered it: that key removes it.
//
// These are not service requests (not under /v1, no retries), so they do not go through the API
// client: one attempt each, bounded in time, only ever to a loopback base URL.
import { isRecord } from '../api/reading.js';
import { isLoopbackHost } from '../core/urls.js';

const MOCK_ENDPOINTS_PATH = '/_mock/webhooks/endpoints';

export type Registration =
  /** The base URL is svc mock and will deliver fired events to the listener. */
  | { kind: 'registered'; id: string; secret: string }
  /** The base URL answered, but not with a registration: not svc mock (404 from the service), or it refused (400). */
  | { kind: 'not-registered'; status: number; message?: string }
  /** Nothing answered (refused, timed out, reset). */
  | { kind: 'unreachable'; reason: string };

export interface MockCallOptions {
  /** The key in force, sent as `Authorization: Bearer`: the mock answers its admin routes to its own keys only. */
  apiKey: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal;
  userAgent: string;
  /** One line per request and reply (--debug). */
  trace?: (line: string) => void;
}

/** The base URL without trailing slashes, when it could be svc mock: http(s) to this machine. */
export function mockCandidate(baseUrl: string | undefined): string | undefined {
  if (baseUrl === undefined) return undefined;
  try {
    const url = new URL(baseUrl);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isLoopbackHost(url.hostname)) return undefined;
  } catch {
    return undefined;
  }
  return baseUrl.replace(/\/+$/, '');
}

/** Asks the mock at `baseUrl` to deliver fired events to `url` too. */
export async function registerWithMock(baseUrl: string, endpoint: { url: string; secret?: string }, options: MockCallOptions): Promise<Registration> {
  const reply = await call('POST', `${baseUrl}${MOCK_ENDPOINTS_PATH}`, JSON.stringify(endpoint), options);
  if ('reason' in reply) return { kind: 'unreachable', reason: reply.reason };
  const body = parse(reply.text);
  if (reply.status >= 200 && reply.status < 300) {
    if (typeof body?.id === 'string' && typeof body.secret === 'string' && body.secret !== '') return { kind: 'registered', id: body.id, secret: body.secret };
    return { kind: 'not-registered', status: reply.status, message: 'the reply holds no endpoint id and secret' };
  }
  const message = typeof body?.error_message === 'string' ? body.error_message : undefined;
  return { kind: 'not-registered', status: reply.status, message };
}

/** Removes the registration; undefined once done (or when the mock no longer knows it), else why not. */
export async function unregisterFromMock(baseUrl: string, id: string, options: MockCallOptions): Promise<string | undefined> {
  const reply = await call('DELETE', `${baseUrl}${MOCK_ENDPOINTS_PATH}/${encodeURIComponent(id)}`, undefined, options);
  if ('reason' in reply) return reply.refused ? undefined : reply.reason; // a mock that stopped delivers nowhere
  if ((reply.status >= 200 && reply.status < 300) || reply.status === 404) return undefined; // 404: a restarted mock
  return `it answered ${reply.status}`;
}

type Answer = { status: number; text: string } | { reason: string; refused: boolean };

async function call(method: string, url: string, body: string | undefined, options: MockCallOptions): Promise<Answer> {
  const started = performance.now();
  const ms = () => `${Math.round(performance.now() - started)}ms`;
  options.trace?.(`debug: → ${method} ${url} (svc mock's webhook endpoints)`);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  try {
    const response = await fetch(url, {
      method,
      headers: {
        Accept: 'application/json',
        'User-Agent': options.userAgent,
        ...(options.apiKey !== undefined && { Authorization: `Bearer ${options.apiKey}` }),
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      body,
      redirect: 'manual',
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
    const text = await replyText(response);
    options.trace?.(`debug: ← ${response.status} ${method} ${url} ${ms()}`);
    return { status: response.status, text };
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = timeout.aborted ? `no answer within ${options.timeoutMs / 1000} s` : (cause?.code ?? cause?.message ?? (error as Error).message);
    options.trace?.(`debug: ✗ ${method} ${url} ${ms()} ${reason}`);
    return { reason, refused: cause?.code === 'ECONNREFUSED' };
  }
}

/** The mock's replies are a few hundred bytes; a server that is not the mock may send without end. */
const MAX_REPLY_BYTES = 64 * 1024;

/** The reply's text, read no further than MAX_REPLY_BYTES (the rest is cancelled: a longer one is not the mock's). */
async function replyText(response: Response): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
      if (size > MAX_REPLY_BYTES) return '';
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
