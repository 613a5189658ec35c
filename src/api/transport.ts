// How a request reaches the service and its reply comes back, below retries and error envelopes.
// A direct connection uses node:http or node:https, which are ready at once. The built-in fetch
// loads undici and compiles its WebAssembly HTTP parser at the first request, about 100 ms on
// Node 20 (bench/startup.mjs shows both). A proxy variable switches to npm undici's fetch with its
// EnvHttpProxyAgent, which speaks CONNECT and honours NO_PROXY.
import type { IncomingMessage } from 'node:http';
import { ReplyHeaders } from './reply-headers.js';

export interface WireRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** Aborts the attempt, body included (Ctrl-C or the attempt's time limit). */
  signal: AbortSignal;
}

export interface WireReply {
  status: number;
  headers: ReplyHeaders;
  /** The body as text (UTF-8, a byte order mark dropped, a Content-Encoding undone). */
  raw: string;
}

export type Transport = (request: WireRequest) => Promise<WireReply>;

/** What we accept, as fetch asks by default; replies are decoded by `decodeBody`. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** node:http or node:https, loaded for the first request of its scheme. */
export const directTransport: Transport = async (request) => {
  const { request: send } = process.getBuiltinModule(request.url.protocol === 'https:' ? 'node:https' : 'node:http');
  const headers: Record<string, string> = { 'Accept-Encoding': ACCEPT_ENCODING, ...request.headers };
  if (request.body) headers['Content-Length'] = String(request.body.byteLength);
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(request.url, { method: request.method, headers, signal: request.signal }, resolve);
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
  const chunks: Buffer[] = [];
  // Rejects when the connection is reset or aborted before the body is complete.
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const replyHeaders = new ReplyHeaders(
    Object.entries(response.headers).flatMap(([name, value]): [string, string][] =>
      value === undefined ? [] : Array.isArray(value) ? value.map((one): [string, string] => [name, one]) : [[name, value]],
    ),
  );
  const body = decodeBody(Buffer.concat(chunks), replyHeaders.get('content-encoding'));
  return { status: response.statusCode ?? 0, headers: replyHeaders, raw: utf8(body) };
};

/** npm undici's fetch through EnvHttpProxyAgent; it undoes Content-Encoding itself. */
export async function proxyTransport(proxy: { httpProxy?: string; httpsProxy?: string; noProxy: string }): Promise<Transport> {
  const undici = await import('undici');
  const dispatcher = new undici.EnvHttpProxyAgent(proxy);
  return async (request) => {
    const response = await undici.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
      redirect: 'manual',
      dispatcher,
    });
    const raw = await response.text();
    return { status: response.status, headers: new ReplyHeaders(response.headers), raw };
  };
}

/** A body that its Content-Encoding does not describe: a bad reply, not a network failure. */
export class BodyDecodingError extends Error {
  constructor(
    readonly encoding: string,
    reason: string,
  ) {
    super(`a ${encoding} body that does not decode (${reason})`);
  }
}

/** Undoes gzip, deflate or brotli; other encodings (and none) pass through. */
function decodeBody(bytes: Buffer, encoding: string | null): Buffer {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return bytes;
  const zlib = process.getBuiltinModule('node:zlib');
  // Codings are listed in the order they were applied, so they are undone from the last.
  let body = bytes;
  for (const coding of codings.reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') body = zlib.gunzipSync(body);
      // Some servers send raw deflate where the standard asks for zlib's wrapping; fetch takes both.
      else if (coding === 'deflate') body = ((body[0] ?? 0) & 0x0f) === 8 ? zlib.inflateSync(body) : zlib.inflateRawSync(body);
      else if (coding === 'br') body = zlib.brotliDecompressSync(body);
    } catch (error) {
      throw new BodyDecodingError(coding, (error as Error).message);
    }
  }
  return body;
}

/** UTF-8 as fetch's text() reads it: a leading byte order mark is not part of the text. */
function utf8(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
