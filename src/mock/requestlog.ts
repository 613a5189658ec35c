// The service requests the mock received, for tests to inspect (GET /_mock/requests): what the CLI
// actually sent, with API keys and tokens (headers, `token` query values) masked as svc masks them
// in any output. Only the latest requests are kept, and their bodies only when asked: a long
// benchmark against the mock must not grow it without bound. The entries sit in a ring, so that
// recording a request costs the same whether the log holds ten entries or a million.
import type { IncomingHttpHeaders } from 'node:http';

import { isTokenParameter, maskHeader, maskSecret } from './masking.js';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body_bytes: number;
  /** The body as text when bodies are kept and it is JSON or text and small; null otherwise. */
  body: string | null;
  time: string;
  request_id: string;
  /** Status answered, or null while pending or when the connection was reset by a fault. */
  status: number | null;
}

/** An entry as the log keeps it: its time as a number, written out only when the log is read. */
export type LoggedRequest = Omit<RecordedRequest, 'time'> & { time: number };

/** The query of the many requests that have none, shared. */
const NO_QUERY = Object.freeze(Object.create(null) as Record<string, string | string[]>);

export interface RequestLogOptions {
  /** Requests kept; past it the oldest is dropped. Default 1,000. */
  capacity?: number;
  /** Keep request bodies (JSON and text, up to 256 KiB each). Default false. */
  bodies?: boolean;
}

export const DEFAULT_LOG_CAPACITY = 1000;
const MAX_RECORDED_BODY = 256 * 1024;

export class RequestLog {
  /** The ring: while it is not full, entries in order; then `next` is where the oldest sits. */
  private entries: LoggedRequest[] = [];
  private next = 0;
  private droppedCount = 0;
  private readonly capacity: number;
  private readonly bodies: boolean;

  constructor(options: RequestLogOptions = {}) {
    this.capacity = options.capacity ?? DEFAULT_LOG_CAPACITY;
    this.bodies = options.bodies ?? false;
  }

  /** The new entry, which the server completes with the status it answers. */
  record(
    method: string,
    url: URL,
    headers: IncomingHttpHeaders,
    body: Buffer,
    bodyBytes: number,
    requestId: string,
  ): LoggedRequest {
    const entry: LoggedRequest = {
      method,
      path: url.pathname,
      query: url.search === '' ? NO_QUERY : queryObject(url.searchParams),
      headers: maskedHeaders(headers),
      body_bytes: bodyBytes,
      body: this.bodies ? textBody(headers['content-type'], body, bodyBytes) : null,
      time: Date.now(),
      request_id: requestId,
      status: null,
    };
    if (this.capacity === 0) {
      this.droppedCount++;
    } else if (this.entries.length < this.capacity) {
      this.entries.push(entry);
    } else {
      this.entries[this.next] = entry;
      this.next = (this.next + 1) % this.capacity;
      this.droppedCount++;
    }
    return entry;
  }

  /** Oldest first. */
  list(): RecordedRequest[] {
    const inOrder =
      this.next === 0
        ? this.entries
        : [...this.entries.slice(this.next), ...this.entries.slice(0, this.next)];
    return inOrder.map((entry) => ({ ...entry, time: new Date(entry.time).toISOString() }));
  }

  /** How many entries the log holds. */
  get size(): number {
    return this.entries.length;
  }

  /** Requests recorded since the last clear that no longer fit in the log. */
  dropped(): number {
    return this.droppedCount;
  }

  clear(): void {
    this.entries = [];
    this.next = 0;
    this.droppedCount = 0;
  }
}

// Prototype-free, so that a parameter or header named `__proto__` is recorded like any other.
function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [name, sent] of params) {
    const value = sent !== '' && isTokenParameter(name) ? maskSecret(sent) : sent;
    const seen = query[name];
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return query;
}

function maskedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const masked = Object.create(null) as Record<string, string>;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    masked[name] = maskHeader(name, text);
  }
  return masked;
}

function textBody(contentType: string | undefined, body: Buffer, bodyBytes: number): string | null {
  if (bodyBytes === 0 || bodyBytes > MAX_RECORDED_BODY) return null;
  const textual =
    /^(application\/([\w.-]+\+)?json|application\/x-www-form-urlencoded|text\/)/i.test(
      contentType ?? '',
    );
  return textual ? body.toString('utf8') : null;
}
