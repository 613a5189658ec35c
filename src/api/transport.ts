// How a request reaches the service and its reply comes back, below retries and error envelopes.
// A direct connection uses node:http or node:https, which are ready at once. The built-in fetch
// loads undici and compiles its WebAssembly HTTP parser at the first request, about 100 ms on
// Node 20 (bench/startup.mjs shows both). A proxy that applies to the base URL switches to npm
// undici's fetch with its ProxyAgent, which speaks CONNECT. Webhook forwarding opens its requests
// here too (openRequest), and reads of each reply only what it needs. npm undici comes from
// dist/external.cjs, loaded only for a proxy.
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { finished } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

import { UsageError } from '../core/errors.js';
import { importUndici } from '../core/external.js';
import { ReplyHeaders } from '../core/reply-headers.js';
import { isLoopbackHost } from '../core/urls.js';
import { type Env } from '../core/variables.js';
import { readEnv, type VariableName } from '../service/environment.js';
import { formatSize } from './reply-size.js';

export interface WireRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: Uint8Array;
  /** Aborts the attempt, body included (Ctrl-C or the attempt's time limit). */
  signal: AbortSignal;
  /** The most bytes of decoded body taken; past it the transfer is aborted (ReplyTooLargeError). */
  maxBodyBytes: number;
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
  const headers: Record<string, string> = {
    'Accept-Encoding': ACCEPT_ENCODING,
    ...request.headers,
  };
  const response = await openRequest({ ...request, headers });
  const status = response.statusCode ?? 0;
  const replyHeaders = new ReplyHeaders(
    Object.entries(response.headers).flatMap(([name, value]): [string, string][] =>
      value === undefined
        ? []
        : Array.isArray(value)
          ? value.map((one): [string, string] => [name, one])
          : [[name, value]],
    ),
  );
  const chunks: Buffer[] = [];
  let received = 0;
  // Rejects when the connection is reset or aborted before the body is complete: `finished` tells
  // what a `for await` over the reply would throw, without its promise for every chunk.
  await new Promise<void>((resolve, reject) => {
    response.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received <= request.maxBodyBytes) return void chunks.push(chunk);
      reject(new ReplyTooLargeError(request.maxBodyBytes, { status, headers: replyHeaders }));
      response.destroy();
    });
    finished(response, (error) => (error ? reject(error) : resolve()));
  });
  const body = decodeBody(
    Buffer.concat(chunks),
    replyHeaders.get('content-encoding'),
    request.maxBodyBytes,
    { status, headers: replyHeaders },
  );
  return { status, headers: replyHeaders, raw: utf8(body) };
};

/**
 * Sends a request over node:http or node:https (loaded for the first request of its scheme) and
 * resolves with the reply's status and headers, its body left to the caller to read, cap or leave.
 * Every connection svc opens to a peer starts here; `ownConnection`: no agent, the connection is
 * closed with the exchange (a webhook target keeps nothing of svc's).
 */
export function openRequest(
  request: Omit<WireRequest, 'maxBodyBytes'>,
  ownConnection = false,
): Promise<IncomingMessage> {
  const send = request.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers = request.body
    ? { ...request.headers, 'Content-Length': String(request.body.byteLength) }
    : request.headers;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(
      request.url,
      {
        method: request.method,
        headers,
        signal: request.signal,
        ...(ownConnection && { agent: false }),
      },
      resolve,
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/** npm undici's fetch through the proxy; it undoes Content-Encoding itself, as the body streams. */
export async function proxyTransport(proxy: Proxy): Promise<Transport> {
  const undici = await importUndici();
  const dispatcher = new undici.ProxyAgent({ uri: proxy.url.href });
  return async (request) => {
    const response = await undici.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
      redirect: 'manual',
      dispatcher,
    });
    const headers = new ReplyHeaders(response.headers);
    const chunks: Uint8Array[] = [];
    let received = 0;
    // undici types the chunks of a body as any: they are bytes.
    const body: AsyncIterable<Uint8Array> | Uint8Array[] = response.body ?? [];
    for await (const chunk of body) {
      received += chunk.byteLength;
      // Leaving the loop cancels the body: a compressed bomb stops at the cap, decoded.
      if (received > request.maxBodyBytes)
        throw new ReplyTooLargeError(request.maxBodyBytes, { status: response.status, headers });
      chunks.push(chunk);
    }
    return { status: response.status, headers, raw: utf8(Buffer.concat(chunks)) };
  };
}

/**
 * The proxy a request goes through: its address, the variable that named it, and how to show it.
 */
export interface Proxy {
  url: URL;
  variable: VariableName;
  /** The address with any user and password masked, and the variable: for messages. */
  shown: string;
}

/**
 * The proxy for requests to `target`, read from the environment as undici's EnvHttpProxyAgent
 * reads it (lower-case first; https falls back to the http proxy; NO_PROXY hosts and domains,
 * with an optional port, or `*`); undefined for a direct connection. A loopback target is always
 * reached directly, as curl does: an http:// base URL would otherwise hand the key to the proxy in
 * clear text. A malformed proxy variable is a usage error naming it.
 */
export function proxyFor(target: URL, env: Env): Proxy | undefined {
  if (isLoopbackHost(target.hostname)) return undefined;
  const setAs = (
    name: VariableName,
    value: string | undefined,
  ): [VariableName, string] | undefined => (value ? [name, value] : undefined);
  const forHttp =
    setAs('http_proxy', readEnv(env, 'http_proxy')) ??
    setAs('HTTP_PROXY', readEnv(env, 'HTTP_PROXY'));
  const forHttps =
    setAs('https_proxy', readEnv(env, 'https_proxy')) ??
    setAs('HTTPS_PROXY', readEnv(env, 'HTTPS_PROXY'));
  const chosen = target.protocol === 'https:' ? (forHttps ?? forHttp) : forHttp;
  if (!chosen || bypassesProxy(target, readEnv(env, 'no_proxy') ?? readEnv(env, 'NO_PROXY') ?? ''))
    return undefined;
  const [variable, value] = chosen;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${variable} is not a proxy address: "${maskCredentials(value)}"`, [
      'Write it as http://host:port, or http://user:password@host:port.',
    ]);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      `${variable} must be an http:// or https:// proxy address, not "${maskCredentials(value)}"`,
    );
  }
  const credentials = url.username || url.password ? '***@' : '';
  return { url, variable, shown: `${url.protocol}//${credentials}${url.host} (${variable})` };
}

function bypassesProxy(target: URL, noProxy: string): boolean {
  if (noProxy.trim() === '*') return true;
  const hostname = target.hostname.toLowerCase();
  const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  return noProxy
    .split(/[,\s]/)
    .filter((entry) => entry !== '')
    .some((entry) => {
      const withPort = /^(.+):(\d+)$/.exec(entry);
      if (withPort && Number(withPort[2]) !== port) return false;
      const host = (withPort ? withPort[1]! : entry).replace(/^\*?\./, '').toLowerCase();
      return hostname === host || hostname.endsWith(`.${host}`);
    });
}

/**
 * A proxy address with its user and password (if any) replaced by `***`, even when it does not
 * parse.
 */
export function maskCredentials(address: string): string {
  return address.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/**
 * A reply body past the cap of --max-reply-size: the transfer was aborted. `reply`: its status and
 * headers.
 */
export class ReplyTooLargeError extends Error {
  constructor(
    readonly limit: number,
    readonly reply: { status: number; headers: ReplyHeaders },
  ) {
    super(`a body larger than ${formatSize(limit)}`);
  }
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

/**
 * Undoes gzip, deflate or brotli; other encodings (and none) pass through. zlib stops at `maxBytes`
 * of output: a small compressed body that expands to gigabytes never takes more memory than that.
 */
function decodeBody(
  bytes: Buffer,
  encoding: string | null,
  maxBytes: number,
  reply: ReplyTooLargeError['reply'],
): Buffer {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return bytes;
  // Codings are listed in the order they were applied, so they are undone from the last.
  const options = { maxOutputLength: maxBytes };
  let body = bytes;
  for (const coding of codings.reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') body = gunzipSync(body, options);
      // Some servers send raw deflate where the standard asks for zlib's wrapping; fetch takes
      // both.
      else if (coding === 'deflate')
        body =
          ((body[0] ?? 0) & 0x0f) === 8
            ? inflateSync(body, options)
            : inflateRawSync(body, options);
      else if (coding === 'br') body = brotliDecompressSync(body, options);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new ReplyTooLargeError(maxBytes, reply);
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
