// Every service request the mock received, for tests to inspect (GET /_mock/requests): what the
// CLI actually sent, with the API key masked as it would be in any output.
import type { IncomingHttpHeaders } from 'node:http';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body_bytes: number;
  /** The body as text when it is JSON or text and small; null otherwise (uploads, binaries). */
  body: string | null;
  time: string;
  request_id: string;
  /** Status answered, or null while pending or when the connection was reset by a fault. */
  status: number | null;
}

const MAX_RECORDED_BODY = 256 * 1024;

export class RequestLog {
  private entries: RecordedRequest[] = [];

  record(method: string, url: URL, headers: IncomingHttpHeaders, body: Buffer, bodyBytes: number, requestId: string): RecordedRequest {
    const entry: RecordedRequest = {
      method,
      path: url.pathname,
      query: queryObject(url.searchParams),
      headers: maskedHeaders(headers),
      body_bytes: bodyBytes,
      body: textBody(headers['content-type'], body, bodyBytes),
      time: new Date().toISOString(),
      request_id: requestId,
      status: null,
    };
    this.entries.push(entry);
    return entry;
  }

  list(): RecordedRequest[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}

function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of params) {
    const seen = query[name];
    query[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return query;
}

function maskedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const masked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    masked[name] = name === 'authorization' ? `…${text.slice(-4)}` : text;
  }
  return masked;
}

function textBody(contentType: string | undefined, body: Buffer, bodyBytes: number): string | null {
  if (bodyBytes === 0 || bodyBytes > MAX_RECORDED_BODY) return null;
  const textual = /^(application\/([\w.-]+\+)?json|application\/x-www-form-urlencoded|text\/)/i.test(contentType ?? '');
  return textual ? body.toString('utf8') : null;
}
