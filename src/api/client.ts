// The one HTTP path. Every request of every command goes through `ApiClient.request`: headers,
// per-attempt timeout, retries with backoff and Retry-After, idempotency keys, the proxy, the cap
// on a reply's size, the --debug trace with the key masked, and the decoding of both error
// envelopes. What a run adds around its requests (a spinner, a message naming a refused key) comes
// as layers, given to the constructor in order, as gh composes RoundTrippers: nothing reassigns
// `request`.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';

import {
  InterruptedError,
  NetworkError,
  UnexpectedReplyError,
  UsageError,
} from '../core/errors.js';
import { shownText } from '../core/output/format.js';
import type { ReplyHeaders } from '../core/reply-headers.js';
import { Secrets } from '../core/secrets/secrets.js';
import { sleep } from '../core/sleep.js';
import { ApiError, type ApiErrorEnvelope } from '../service/errors.js';
import { KEY_FORMS, maskKey } from '../service/keys.js';
import { type Method, requestUrl } from './endpoints.js';
import { DEFAULT_MAX_REPLY_BYTES } from './reply-size.js';
import {
  BodyDecodingError,
  directTransport,
  type Proxy,
  proxyFor,
  proxyTransport,
  ReplyTooLargeError,
  type Transport,
  type WireReply,
} from './transport.js';

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
  /**
   * Return a successful reply whose body is not JSON as it is (body undefined) instead of failing.
   */
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

/**
 * Sends one request of the service and gives its successful reply: the client's own sending, or a
 * layer over it.
 */
export type Send = (spec: RequestSpec) => Promise<ApiReply>;

/**
 * What a run adds around every request (gh's RoundTripper): given the next sender, the one that
 * does its part and calls it.
 */
export type Layer = (next: Send) => Send;

export interface ClientOptions {
  baseUrl: string;
  /**
   * The key sent as `Authorization: Bearer …`. Absent: no Authorization header at all, for the one
   * request a token stands in for the key (`GET /v1/consents/{id}/data?token=…`).
   */
  apiKey?: string;
  userAgent: string;
  timeoutMs: number;
  retries: number;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on Ctrl-C. */
  signal: AbortSignal;
  /** One line per request and reply, when --debug is on. */
  debug?: (line: string) => void;
  /**
   * The secrets in use, masked in what the client itself makes printable or cuts short (the trace,
   * a piece of a body in an error), where the output's masking would come too late; default: the
   * key.
   */
  secrets?: Secrets;
  /** The largest decoded reply body taken (--max-reply-size); default 64 MiB. */
  maxReplyBytes?: number;
  /** How requests are sent; absent: directly, or through the proxy the environment names. */
  transport?: Transport;
  /**
   * Around every request, outermost first; the innermost calls the client's own sending (retries,
   * then the transport).
   */
  layers?: readonly Layer[];
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** The clock that dates a Retry-After. */
  now?: () => number;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRY_AFTER_CAP_MS = 60_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 8_000;
const EXCERPT_LENGTH = 120;
/** Each field of an error line is cut to this many characters: a 5 MB message is no message. */
const ERROR_FIELD_LENGTH = 500;
/** What Node lets through in a header value: no control character but tab, nothing past Latin-1. */
const SENDABLE_HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** A key is one word: not even a tab. */
const SENDABLE_KEY = /^[\x20-\x7e\x80-\xff]*$/;

export class ApiClient {
  private transport?: Promise<Transport>;
  /** The proxy the base URL is reached through, once the transport is chosen. */
  private proxy?: Proxy;

  private readonly secrets: Secrets;

  /**
   * Sends a request through the layers, retrying where docs/reference/reliability.md allows, and
   * returns the successful reply.
   */
  readonly request: Send;

  constructor(private readonly options: ClientOptions) {
    this.secrets = options.secrets ?? new Secrets(KEY_FORMS);
    this.secrets.add(options.apiKey);
    this.request = (options.layers ?? []).reduceRight<Send>(
      (next, layer) => layer(next),
      (spec) => this.send(spec),
    );
  }

  /**
   * The client's own sending, below every layer: attempts, retries and the decoding of the reply.
   */
  private async send(spec: RequestSpec): Promise<ApiReply> {
    const url = this.url(spec);
    const headers = this.headers(spec);
    const payload =
      spec.body?.bytes ??
      (spec.json === undefined ? undefined : new TextEncoder().encode(JSON.stringify(spec.json)));
    const attempts = this.options.retries + 1;
    for (let attempt = 1; ; attempt++) {
      let reply: WireReply;
      try {
        reply = await this.attempt(spec.method, url, headers, payload, attempt);
      } catch (error) {
        if (
          error instanceof NetworkError &&
          !(error instanceof ProxyAuthenticationError) &&
          attempt < attempts
        ) {
          await this.wait(this.backoff(attempt), spec, url, attempt, error.message);
          continue;
        }
        throw error;
      }
      // A retried POST may find its own earlier attempt (timed out here) still running on the
      // service: 409 IDEMPOTENCY_IN_PROGRESS is then worth waiting for, unlike other 4xx.
      const ownAttemptRunning =
        attempt > 1 &&
        reply.status === 409 &&
        decodeErrorEnvelope(reply.raw)?.error_code === 'IDEMPOTENCY_IN_PROGRESS';
      // A used-up quota does not clear in seconds: asking again only spends time (and requests).
      const quotaUsedUp =
        reply.status === 429 && decodeErrorEnvelope(reply.raw)?.error_code === 'QUOTA_EXCEEDED';
      if (
        ((RETRY_STATUSES.has(reply.status) && !quotaUsedUp) || ownAttemptRunning) &&
        attempt < attempts
      ) {
        const delay =
          retryAfterMs(reply.headers.get('retry-after'), this.options.now?.() ?? Date.now()) ??
          this.backoff(attempt);
        await this.wait(delay, spec, url, attempt, `HTTP ${reply.status}`);
        continue;
      }
      try {
        return this.decode(spec, url, reply, attempt);
      } catch (error) {
        if (ownAttemptRunning && error instanceof ApiError)
          error.trouble = { kind: 'still-running' };
        throw error;
      }
    }
  }

  private url(spec: RequestSpec): string {
    return requestUrl(this.options.baseUrl, spec.path, spec.query).toString();
  }

  private headers(spec: RequestSpec): Record<string, string> {
    // Checked before anything is sent: a line break in a header would otherwise fail as a network
    // error, and be retried. The key is never shown, only where it comes from.
    const { apiKey } = this.options;
    if (apiKey !== undefined && !SENDABLE_KEY.test(apiKey)) {
      throw new UsageError(
        'the API key contains a control character (such as a line break) or a character HTTP cannot carry',
        ["Check SVC_API_KEY, --api-key or the profile's key (`svc login` saves a new one)."],
      );
    }
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      if (!SENDABLE_HEADER_VALUE.test(value))
        throw new UsageError(
          `the value of the ${name} header contains a control character or a character HTTP cannot carry`,
        );
    }
    const headers: Record<string, string> = {
      ...(apiKey !== undefined && { Authorization: `Bearer ${apiKey}` }),
      Accept: 'application/json',
      'User-Agent': this.options.userAgent,
    };
    if (spec.json !== undefined) headers['Content-Type'] = 'application/json';
    if (spec.body) headers['Content-Type'] = spec.body.contentType;
    // One key per request, the same on each of its retries, so a retried POST is not done twice.
    if (spec.method === 'POST') headers['Idempotency-Key'] = randomUUID();
    return { ...headers, ...spec.headers };
  }

  private async attempt(
    method: Method,
    url: string,
    headers: Record<string, string>,
    payload: Uint8Array | undefined,
    attempt: number,
  ): Promise<WireReply> {
    const send = await this.chooseTransport();
    // The attempt's time limit is a timer of its own that keeps svc running until it fires
    // (AbortSignal.timeout's does not), and the attempt ends there whether or not the transport
    // hears the abort: node:http writes a request into a connection found closed and waits for a
    // 'close' that may have passed already, and such a request never settles.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), this.options.timeoutMs);
    const signal = AbortSignal.any([this.options.signal, timeout.signal]);
    // hrtime, not performance.now(): the global `performance` loads perf_hooks at first use.
    const started = process.hrtime.bigint();
    const elapsed = () => `${Math.round(Number(process.hrtime.bigint() - started) / 1e6)}ms`;
    const key = this.options.apiKey === undefined ? 'none' : maskKey(this.options.apiKey);
    this.trace(`→ ${method} ${url}${attempt > 1 ? ` (attempt ${attempt})` : ''} key=${key}`);
    try {
      const maxBodyBytes = this.options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
      // Only the time limit is raced: a reply already in hand when Ctrl-C comes still counts (a
      // merchants call paid for), and svc ends a command that does not stop within its grace
      // period.
      const reply = await untilAborted(
        send({ method, url: new URL(url), headers, body: payload, signal, maxBodyBytes }),
        timeout.signal,
      );
      const requestId = reply.headers.get('x-request-id') ?? undefined;
      this.trace(
        `← ${reply.status} ${method} ${url} ${elapsed()}${requestId ? ` ${requestId}` : ''}`,
      );
      return reply;
    } catch (error) {
      if (this.options.signal.aborted) throw new InterruptedError();
      if (error instanceof BodyDecodingError)
        throw new UnexpectedReplyError(`${method} ${pathOf(url)} answered with ${error.message}`);
      if (error instanceof ReplyTooLargeError) {
        this.trace(`✗ ${method} ${url} ${elapsed()} ${error.reply.status} with ${error.message}`);
        // An error status is classified by its status, whatever its body (which is left unread).
        if (error.reply.status >= 400)
          return { status: error.reply.status, headers: error.reply.headers, raw: '' };
        // Not retried: the same request would bring the same body.
        throw new UnexpectedReplyError(
          `${method} ${pathOf(url)} answered with ${error.message}; the transfer was stopped (raise --max-reply-size to take it)`,
        );
      }
      const failure = timeout.signal.aborted
        ? new NetworkError(
            `no reply from ${new URL(url).host} within ${this.options.timeoutMs / 1000} s`,
            { kind: 'timeout' },
          )
        : ((this.proxy && proxyError(error, url, this.proxy)) ?? networkError(error, url));
      this.trace(`✗ ${method} ${url} ${elapsed()} ${failure.message}`);
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The reply as a result, or as the error it is; `attempts`: how many were made to get it. */
  private decode(spec: RequestSpec, url: string, reply: WireReply, attempts: number): ApiReply {
    const { method } = spec;
    const requestId = reply.headers.get('x-request-id') ?? undefined;
    if (reply.status >= 200 && reply.status < 300) {
      let body: unknown;
      try {
        body = JSON.parse(reply.raw);
      } catch {
        if (spec.anyBody) return { ...reply, body: undefined, requestId };
        throw new UnexpectedReplyError(
          `${method} ${pathOf(url)} answered ${reply.status} with a body that is not JSON: ${excerpt(this.secrets.mask(reply.raw))}`,
        );
      }
      return { ...reply, body, requestId };
    }
    if (reply.status >= 300 && reply.status < 400) {
      throw new UnexpectedReplyError(
        `${method} ${pathOf(url)} answered with a redirect (${reply.status}) to ${reply.headers.get('location') ?? 'nowhere'}; check the base URL`,
      );
    }
    const envelope = decodeErrorEnvelope(reply.raw);
    const shortEnvelope = envelope && shortenEnvelope(envelope, (text) => this.secrets.mask(text));
    if (envelope && shortEnvelope !== envelope)
      this.trace(`error envelope, uncut: ${JSON.stringify(envelope)}`);
    throw new ApiError(
      reply.status,
      shortEnvelope ?? {
        error_code: `HTTP_${reply.status}`,
        error_message:
          statusInWords(reply.status, attempts) +
          (reply.raw.trim()
            ? ` (the body is no error from the service: ${excerpt(this.secrets.mask(reply.raw))})`
            : ''),
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

  private async wait(
    ms: number,
    spec: RequestSpec,
    url: string,
    attempt: number,
    why: string,
  ): Promise<void> {
    this.trace(
      `… ${spec.method} ${url} ${why}; retry ${attempt} of ${this.options.retries} in ${ms}ms`,
    );
    await (this.options.sleep ?? sleep)(ms, this.options.signal);
  }

  private trace(line: string): void {
    // What the server sent (a request id, say) cannot move the cursor of the terminal it is read
    // on; secrets are masked first, while an escape sequence inside one is still whole.
    if (this.options.debug)
      this.options.debug(shownText(maskTokenQuery(`debug: ${line}`), this.secrets));
  }

  /**
   * A direct connection, or undici's fetch with its proxy agent when a proxy applies to the base
   * URL.
   */
  private chooseTransport(): Promise<Transport> {
    if (!this.transport && this.options.transport)
      this.transport = Promise.resolve(this.options.transport);
    if (!this.transport) {
      // Outside the promise: a malformed proxy variable is a usage error at the first request.
      this.proxy = proxyFor(new URL(this.options.baseUrl), this.options.env);
      this.transport = this.proxy ? proxyTransport(this.proxy) : Promise.resolve(directTransport);
    }
    return this.transport;
  }
}

/**
 * `work`, or its signal's abort as a rejection, whichever comes first: what `work` does later is
 * let go.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('the request was stopped'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
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
    const text = (key: string) => (typeof flat[key] === 'string' ? flat[key] : undefined);
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

/** An HTTP date in one of its three forms (RFC 9110 §5.6.7): a weekday, then a time of day. */
const HTTP_DATE = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? .*\d{2}:\d{2}:\d{2}/i;

/**
 * `Retry-After` in seconds (decimals read too) or as an HTTP date, capped at 60 s; undefined when
 * absent, negative or unreadable, so the backoff applies. (Date.parse alone takes `1.5`, `-5`
 * and `junk 2` for dates long past: retries with no wait.)
 */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Math.round(Number(trimmed) * 1000);
  else {
    const date = HTTP_DATE.test(trimmed) ? Date.parse(trimmed) : NaN;
    if (Number.isNaN(date)) return undefined;
    ms = Math.max(0, date - now);
  }
  return Math.min(ms, RETRY_AFTER_CAP_MS);
}

/**
 * The envelope with each field cut to a readable length, for the error line; the same object when
 * nothing needed cutting. A field is masked (`mask`) before it is cut: a secret cut short is no
 * longer recognisable. The reply body stays whole for --json.
 */
export function shortenEnvelope(
  envelope: ApiErrorEnvelope,
  mask: (text: string) => string = (text) => text,
): ApiErrorEnvelope {
  let cut = false;
  const short = Object.fromEntries(
    Object.entries(envelope).map(([field, value]) => {
      if (typeof value !== 'string' || value.length <= ERROR_FIELD_LENGTH) return [field, value];
      cut = true;
      const masked = mask(value);
      return [
        field,
        masked.length <= ERROR_FIELD_LENGTH ? masked : masked.slice(0, ERROR_FIELD_LENGTH) + '…',
      ];
    }),
  ) as unknown as ApiErrorEnvelope;
  return cut ? short : envelope;
}

/**
 * A proxy that failed the request, named with its credentials masked; undefined: not the proxy's
 * doing.
 */
function proxyError(error: unknown, url: string, proxy: Proxy): NetworkError | undefined {
  const chain: { code?: unknown; message?: unknown; cause?: unknown }[] = [];
  for (
    let link = error as { cause?: unknown } | undefined;
    link && typeof link === 'object' && chain.length < 5;
    link = link.cause as typeof link
  )
    chain.push(link);
  // undici: "Proxy response (407) !== 200 when HTTP Tunneling", or "Proxy Authentication Required
  // (407)".
  const status = chain
    .map(
      (link) =>
        /Proxy (?:response|Authentication Required) \((\d{3})\)/.exec(String(link.message))?.[1],
    )
    .find(Boolean);
  if (status === '407') {
    return new ProxyAuthenticationError(`the proxy ${proxy.shown} asked for authentication`, {
      kind: 'proxy-auth',
      variable: proxy.variable,
      credentialsGiven: proxy.url.username !== '',
    });
  }
  if (status)
    return new NetworkError(
      `the proxy ${proxy.shown} did not connect to ${new URL(url).host} (HTTP ${status})`,
    );
  const codes = chain.map((link) => link.code);
  if (codes.includes('ECONNREFUSED'))
    return new NetworkError(`connection refused by the proxy ${proxy.shown}`, {
      kind: 'proxy-refused',
      variable: proxy.variable,
    });
  if (codes.includes('ENOTFOUND') || codes.includes('EAI_AGAIN'))
    return new NetworkError(`cannot resolve the proxy ${proxy.shown} (DNS)`, {
      kind: 'proxy-dns',
      variable: proxy.variable,
    });
  if (codes.includes('UND_ERR_CONNECT_TIMEOUT') || codes.includes('ETIMEDOUT'))
    return new NetworkError(`connecting to the proxy ${proxy.shown} timed out`);
  return undefined;
}

/** The proxy refused our credentials or wants some: asking again changes nothing, so no retry. */
class ProxyAuthenticationError extends NetworkError {}

function networkError(error: unknown, url: string): NetworkError {
  const host = new URL(url).host;
  const cause = (error as { cause?: { code?: unknown; message?: string } })?.cause;
  // undici gives some failures a numeric code (0): only a text code is a system error's.
  const given = cause?.code ?? (error as { code?: unknown })?.code;
  const code = typeof given === 'string' ? given : '';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new NetworkError(`cannot resolve ${new URL(url).hostname} (DNS)`, { kind: 'dns' });
  }
  if (code === 'ECONNREFUSED')
    return new NetworkError(`connection refused by ${host}`, { kind: 'refused' });
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
    return new NetworkError(`connection to ${host} was reset`);
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT')
    return new NetworkError(`connecting to ${host} timed out`);
  // node:http's parser (llhttp) names its failures HPE_…: what came back was not an HTTP reply.
  if (code.startsWith('HPE_'))
    return new NetworkError(`${host} did not answer in HTTP (${(error as Error).message})`, {
      kind: 'not-http',
    });
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code)) {
    return new NetworkError(`TLS failure talking to ${host}: ${cause?.message ?? code}`, {
      kind: 'tls',
    });
  }
  const message = cause?.message ?? (error as Error)?.message ?? String(error);
  return new NetworkError(`request to ${host} failed: ${message}`);
}

function pathOf(url: string): string {
  const u = new URL(url);
  return maskTokenQuery(u.pathname + u.search);
}

/**
 * A text with the value of each `token=` query parameter masked (docs/reference/reliability.md,
 * "Secrets and a hostile server": a consent token in a URL is a secret like a key), whether or not
 * the run knows the token: `?token=…9f2c`.
 */
export function maskTokenQuery(text: string): string {
  return text.replace(
    /([?&]token=)([^&#\s]*)/gi,
    (_, name: string, value: string) => name + (value === '' ? '' : maskKey(value)),
  );
}

/** What an error status means, for a reply without an error envelope to say it. */
const STATUS_MEANINGS: Readonly<Record<number, string>> = {
  400: 'the service found the request malformed',
  401: 'the service did not accept the API key',
  403: 'the key may not do this',
  404: 'there is nothing at this address (is the base URL right?)',
  408: 'the service gave up waiting for the request',
  409: 'the request conflicts with the state of the service',
  413: 'the request is too large for the service',
  422: 'the service could not process the request',
  429: 'too many requests: a rate limit was reached',
  500: 'the service failed on this request',
  502: 'a gateway or proxy in front of the service got no valid reply from it',
  503: 'the service is down or overloaded',
  504: 'a gateway or proxy in front of the service timed out waiting for it',
};

/**
 * `502 Bad Gateway, after 3 attempts: a gateway or proxy in front of the service got no valid reply
 * from it`.
 */
function statusInWords(status: number, attempts: number): string {
  const reason = STATUS_CODES[status];
  const meaning =
    STATUS_MEANINGS[status] ??
    (status >= 500 ? 'the service failed' : 'the service refused the request');
  const tries =
    attempts > 1
      ? `, after ${attempts} attempts`
      : RETRY_STATUSES.has(status)
        ? ', after 1 attempt (--retries 0)'
        : '';
  return `${status}${reason ? ` ${reason}` : ''}${tries}: ${meaning}`;
}

/** A short, one-line, printable piece of a body for error messages. */
export function excerpt(raw: string): string {
  const flat = raw
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    .trim();
  const cut = flat.length > EXCERPT_LENGTH ? flat.slice(0, EXCERPT_LENGTH) + '…' : flat;
  return cut === '' ? '(empty body)' : JSON.stringify(cut);
}
