// Small HTTP helpers shared by the mock's handlers: the body as JSON, replying with JSON. Bodies
// are read by body-reader.ts.
import type { ServerResponse } from 'node:http';

/** What a handler answers with; errors are thrown as ApiError instead. */
export interface Reply {
  status: number;
  /** A value to send as JSON, or JsonText. */
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A body written as JSON text already, by a handler that writes its large replies faster than
 * JSON.stringify would (the server sends the text as it is). Serialised again, it is the same JSON.
 */
export class JsonText {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** The JSON text of a reply's body. */
export function bodyJson(body: unknown): string {
  return body instanceof JsonText ? body.text : JSON.stringify(body);
}

/**
 * The JSON of a reply's body in UTF-8. Most replies are ASCII (as long in UTF-8 as in UTF-16 code
 * units), whose UTF-8 is their Latin-1: a copy of V8's one-byte string, several times cheaper than
 * encoding UTF-8.
 */
export function bodyBytes(body: unknown): Buffer {
  const text = bodyJson(body);
  return Buffer.from(text, Buffer.byteLength(text, 'utf8') === text.length ? 'latin1' : 'utf8');
}

export interface RequestBody {
  /** The bytes received (a body past the server's cap is never read). */
  data: Buffer;
  /** Its length. */
  size: number;
  /** What parseJsonBody made of it, kept: the body is parsed once, however many readers it has. */
  parsed?: ParsedJson;
}

type ParsedJson = { ok: true; value: unknown } | { ok: false };

/**
 * The body read as JSON. Handlers must not change the value: the idempotency check reads the
 * same parse before them.
 */
export function parseJsonBody(body: RequestBody): ParsedJson {
  if (body.parsed) return body.parsed;
  try {
    body.parsed = { ok: true, value: JSON.parse(body.data.toString('utf8')) };
  } catch {
    body.parsed = { ok: false };
  }
  return body.parsed;
}

/**
 * True when no string JSON.parse reads from the body needs escaping to be written as JSON again
 * (JSON.stringify writes it between quotes as it is): only an escape sequence can give a string a
 * quote, a backslash, a control character (JSON refuses one unescaped) or a lone surrogate (UTF-8
 * cannot carry one: the decoder makes it U+FFFD).
 */
export function stringsNeedNoEscape(body: RequestBody): boolean {
  return !body.data.includes(0x5c); // a backslash
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A JSON reply whose body is serialised already, written with one writeHead (cheaper than a
 * setHeader per header): the request id and content type, then `headers` and `extra` (a later
 * one wins; names are compared without case, as setHeader would), and the length.
 */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  json: string | Buffer,
  requestId: string,
  headers?: Record<string, string>,
  extra?: Record<string, string>,
): void {
  if (res.destroyed || res.headersSent) return; // the client went away, or a fault already answered
  const all = Object.create(null) as Record<string, string | number>;
  all['x-request-id'] = requestId;
  all['content-type'] = JSON_TYPE;
  for (const name in headers) all[name.toLowerCase()] = headers[name]!;
  for (const name in extra) all[name.toLowerCase()] = extra[name]!;
  all['content-length'] = typeof json === 'string' ? Buffer.byteLength(json) : json.length;
  res.writeHead(status, all);
  res.end(json);
}

export function sendRaw(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string>,
): void {
  if (res.destroyed || res.headersSent) return; // the client went away, or a fault already answered
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.statusCode = status;
  res.end(body);
}
