// The one HTTP path. Every request of every command goes through `ApiClient.request`: headers,
// per-attempt timeout, retries with backoff and Retry-After, idempotency keys, the proxy, the
// --debug trace with the key masked, and the decoding of both error envelopes.
import { maskKey, redactKey } from '../config/keys.js';
import { readEnv } from '../core/environment.js';
import { sleep } from '../core/sleep.js';
import { ApiError, type ApiErrorEnvelope, InterruptedError, NetworkError, UnexpectedReplyError } from '../core/errors.js';
import type { ReplyHeaders } from './reply-headers.js';
import { BodyDecodingError, directTransport, proxyTransport, type Transport, type WireReply } from './transport.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestSpec {
  method: Method;
  /** Path from the base URL, starting with `/v1/`. */
  path: string;
  query?: Record<string, string | number | undefined>;
  /** A JSON body: sent with `Content-Type: application/json`. */
  json?: unknown;
  /** A prepared body with its content type (multipart uploads). */
  body?: { bytes: Uint8Array; contentType: string };
  /** Extra headers (`svc api -H`). */
  headers?: Record<string, string>;
  /** Return a successful reply whose body is not JSON as it is (body undefined) instead of failing. */
  anyBody?: boolean;
}

export interface ApiReply {
  status: number;
  headers: ReplyHeaders;
  /** The body exactly as received. */
  raw: string;
  /** The parsed body (JSON). */
  body: unknown;
  requestId?: string;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  userAgent: string;
  timeoutMs: number;
  retries: number;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** One line per request and reply, when --debug is on. */
  debug?: (line: string) => void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRY_AFTER_CAP_MS = 60_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;
const EXCERPT_LENGTH = 120;

export class ApiClient {
  private transport?: Promise<Transport>;

  constructor(private readonly options: ClientOptions) {}

  /** Sends a request, retrying where the contract allows, and returns the successful reply. */
  async request(spec: RequestSpec): Promise<ApiReply> {
    const url = this.url(spec);
    const headers = this.headers(spec);
    const payload = spec.body?.bytes ?? (spec.json === undefined ? undefined : new TextEncoder().encode(JSON.stringify(spec.json)));
    const attempts = this.options.retries + 1;
    for (let attempt = 1; ; attempt++) {
      let reply: WireReply;
      try {
        reply = await this.attempt(spec.method, url, headers, payload, attempt);
      } catch (error) {
        if (error instanceof NetworkError && attempt < attempts) {
          await this.wait(this.backoff(attempt), spec, url, attempt, error.message);
          continue;
        }
        throw error;
      }
      // A retried POST may find its own earlier attempt (timed out here) still running on the
      // service: 409 IDEMPOTENCY_IN_PROGRESS is then worth waiting for, unlike other 4xx.
      const ownAttemptRunning = attempt > 1 && reply.status === 409 && decodeErrorEnvelope(reply.raw)?.error_code === 'IDEMPOTENCY_IN_PROGRESS';
      if ((RETRY_STATUSES.has(reply.status) || ownAttemptRunning) && attempt < attempts) {
        const delay = retryAfterMs(reply.headers.get('retry-after')) ?? this.backoff(attempt);
        await this.wait(delay, spec, url, attempt, `HTTP ${reply.status}`);
        continue;
      }
      try {
        return this.decode(spec, url, reply);
      } catch (error) {
        if (ownAttemptRunning && error instanceof ApiError) {
          error.hints.push('An earlier attempt of this request timed out here and is still running on the service; it is not done twice. Check its result later, or raise --timeout.');
        }
        throw error;
      }
    }
  }

  private url(spec: RequestSpec): string {
    const url = new URL(this.options.baseUrl + spec.path);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  private headers(spec: RequestSpec): Record<string, string> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: 'application/json',
      'User-Agent': this.options.userAgent,
    };
    if (spec.json !== undefined) headers['Content-Type'] = 'application/json';
    if (spec.body) headers['Content-Type'] = spec.body.contentType;
    // One key per request, the same on each of its retries, so a retried POST is not done twice.
    // (node:crypto takes ~4 ms to load: a GET does not pay it.)
    if (spec.method === 'POST') headers['Idempotency-Key'] = process.getBuiltinModule('node:crypto').randomUUID();
    return { ...headers, ...spec.headers };
  }

  private async attempt(method: Method, url: string, headers: Record<string, string>, payload: Uint8Array | undefined, attempt: number): Promise<WireReply> {
    const send = await this.chooseTransport();
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = AbortSignal.any([this.options.signal, timeout]);
    const started = performance.now();
    this.trace(`→ ${method} ${url}${attempt > 1 ? ` (attempt ${attempt})` : ''} key=${maskKey(this.options.apiKey)}`);
    try {
      const reply = await send({ method, url: new URL(url), headers, body: payload, signal });
      const ms = Math.round(performance.now() - started);
      const requestId = reply.headers.get('x-request-id') ?? undefined;
      this.trace(`← ${reply.status} ${method} ${url} ${ms}ms${requestId ? ` ${requestId}` : ''}`);
      return reply;
    } catch (error) {
      if (this.options.signal.aborted) throw new InterruptedError();
      if (error instanceof BodyDecodingError) throw new UnexpectedReplyError(`${method} ${pathOf(url)} answered with ${error.message}`);
      const failure = timeout.aborted
        ? new NetworkError(`no reply from ${new URL(url).host} within ${this.options.timeoutMs / 1000} s`, ['Raise --timeout if the service is slow.'])
        : networkError(error, url);
      this.trace(`✗ ${method} ${url} ${Math.round(performance.now() - started)}ms ${failure.message}`);
      throw failure;
    }
  }

  private decode(spec: RequestSpec, url: string, reply: WireReply): ApiReply {
    const { method } = spec;
    const requestId = reply.headers.get('x-request-id') ?? undefined;
    if (reply.status >= 200 && reply.status < 300) {
      let body: unknown;
      try {
        body = JSON.parse(reply.raw);
      } catch {
        if (spec.anyBody) return { ...reply, body: undefined, requestId };
        throw new UnexpectedReplyError(`${method} ${pathOf(url)} answered ${reply.status} with a body that is not JSON: ${excerpt(reply.raw)}`);
      }
      return { ...reply, body, requestId };
    }
    if (reply.status >= 300 && reply.status < 400) {
      throw new UnexpectedReplyError(`${method} ${pathOf(url)} answered with a redirect (${reply.status}) to ${reply.headers.get('location') ?? 'nowhere'}; check the base URL`);
    }
    const envelope = decodeErrorEnvelope(reply.raw);
    throw new ApiError(
      reply.status,
      envelope ?? {
        error_code: `HTTP_${reply.status}`,
        error_message: `the service answered ${reply.status} without an error envelope` + (reply.raw.trim() ? `: ${excerpt(reply.raw)}` : ''),
        request_id: requestId,
      },
      reply.raw,
      envelope !== undefined,
      reply.headers,
    );
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
    const random = this.options.random ?? Math.random;
    return Math.round(ceiling / 2 + random() * (ceiling / 2));
  }

  private async wait(ms: number, spec: RequestSpec, url: string, attempt: number, why: string): Promise<void> {
    this.trace(`… ${spec.method} ${url} ${why}; retry ${attempt} of ${this.options.retries} in ${ms}ms`);
    await (this.options.sleep ?? sleep)(ms, this.options.signal);
  }

  private trace(line: string): void {
    if (this.options.debug) this.options.debug(redactKey(`debug: ${line}`, this.options.apiKey));
  }

  /** A direct connection, or undici's fetch with its proxy agent when a proxy variable is set. */
  private chooseTransport(): Promise<Transport> {
    this.transport ??= (async () => {
      const env = this.options.env;
      const httpProxy = readEnv(env, 'http_proxy') || readEnv(env, 'HTTP_PROXY');
      const httpsProxy = readEnv(env, 'https_proxy') || readEnv(env, 'HTTPS_PROXY');
      if (!httpProxy && !httpsProxy) return directTransport;
      return proxyTransport({ httpProxy, httpsProxy, noProxy: readEnv(env, 'no_proxy') ?? readEnv(env, 'NO_PROXY') ?? '' });
    })();
    return this.transport;
  }
}

/** Decodes the flat envelope, or the older nested one (its code upper-cased). */
export function decodeErrorEnvelope(raw: string): ApiErrorEnvelope | undefined {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object') return undefined;
  const flat = data as Record<string, unknown>;
  if (typeof flat.error_code === 'string') {
    const text = (key: string) => (typeof flat[key] === 'string' ? (flat[key] as string) : undefined);
    return {
      error_type: text('error_type'),
      error_code: flat.error_code,
      error_message: text('error_message'),
      display_message: text('display_message') ?? null,
      request_id: text('request_id'),
      documentation_url: text('documentation_url'),
      suggested_action: text('suggested_action'),
    };
  }
  const nested = flat.error as Record<string, unknown> | undefined;
  if (nested && typeof nested === 'object' && typeof nested.code === 'string') {
    return {
      error_code: nested.code.toUpperCase(),
      error_type: typeof nested.type === 'string' ? nested.type.toUpperCase() : undefined,
      error_message: typeof nested.message === 'string' ? nested.message : undefined,
      request_id: typeof nested.request_id === 'string' ? nested.request_id : undefined,
    };
  }
  return undefined;
}

/** `Retry-After` in seconds or as an HTTP date, capped at 60 s; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const date = Date.parse(trimmed);
    if (Number.isNaN(date)) return undefined;
    ms = Math.max(0, date - now);
  }
  return Math.min(ms, RETRY_AFTER_CAP_MS);
}

function networkError(error: unknown, url: string): NetworkError {
  const host = new URL(url).host;
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (error as { code?: string })?.code ?? '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new NetworkError(`cannot resolve ${new URL(url).hostname} (DNS)`, ['Check the base URL and your network connection.']);
  }
  if (code === 'ECONNREFUSED') return new NetworkError(`connection refused by ${host}`, ['Is the service running at that address?']);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return new NetworkError(`connection to ${host} was reset`);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return new NetworkError(`connecting to ${host} timed out`);
  // node:http's parser (llhttp) names its failures HPE_…: what came back was not an HTTP reply.
  if (code.startsWith('HPE_')) return new NetworkError(`${host} did not answer in HTTP (${(error as Error).message})`, ['Check the base URL: is it the service, on the right port?']);
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code)) {
    return new NetworkError(`TLS failure talking to ${host}: ${cause?.message ?? code}`, [
      'If a proxy intercepts TLS, set NODE_EXTRA_CA_CERTS to its certificate.',
    ]);
  }
  const message = cause?.message ?? (error as Error)?.message ?? String(error);
  return new NetworkError(`request to ${host} failed: ${message}`);
}

function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/** A short, one-line, printable piece of a body for error messages. */
export function excerpt(raw: string): string {
  const flat = raw.replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
  const cut = flat.length > EXCERPT_LENGTH ? flat.slice(0, EXCERPT_LENGTH) + '…' : flat;
  return cut === '' ? '(empty body)' : JSON.stringify(cut);
}
