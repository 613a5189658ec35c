// Passes a verified delivery on to the user's own endpoint (`webhooks listen --forward-to`):
// the same body and the same signature, so that endpoint can verify it too. The target is a peer
// like any other: one deadline covers the whole exchange (connecting, its headers, its body), and
// of its reply only the start is read, for a one-line summary; the rest is never taken.
import type { IncomingMessage } from 'node:http';

import { openRequest } from '../api/transport.js';
import type { Delivery } from './receiver.js';

/** The most of a target's reply read: enough for a one-line summary of a refusal. */
export const MAX_REPLY_EXCERPT_BYTES = 1024;

export interface ForwardOptions {
  /** The deadline of the whole exchange, reply included. */
  timeoutMs: number;
  /** Aborts the forward (the listener is interrupted). */
  signal: AbortSignal;
}

export interface ForwardAnswer {
  status: number;
  /**
   * The start of the reply to a refusal (a status other than 2xx), as the target sent it; '' for a
   * 2xx.
   */
  excerpt: string;
}

/** The deadline ran out: nothing, or not all of the headers, came in time. */
export class ForwardTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs / 1000} s`);
  }
}

/** Headers passed on: the content type, the sender's user agent and every X-Svc-… header. */
function forwardedHeaders(delivery: Delivery): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers)) {
    if (value === undefined) continue;
    if (name === 'content-type' || name === 'user-agent' || name.startsWith('x-svc-')) {
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
  }
  return headers;
}

/**
 * POSTs the delivery to `url`; resolves with the status answered (and the start of a refusal's
 * reply), rejects on a network failure, on `signal`, or with ForwardTimeoutError.
 */
export async function forwardDelivery(
  url: string,
  delivery: Delivery,
  options: ForwardOptions,
): Promise<ForwardAnswer> {
  // A plain timer, held here and cleared below: a signal from AbortSignal.timeout() that only
  // AbortSignal.any() refers to is lost at a garbage collection on Node 20, and never fires.
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort();
  }, options.timeoutMs);
  const stop = () => abort.abort();
  if (options.signal.aborted) stop();
  else options.signal.addEventListener('abort', stop, { once: true });
  try {
    // No agent: one connection per forward, closed with it, so nothing of a target lingers.
    const response = await openRequest(
      {
        method: 'POST',
        url: new URL(url),
        headers: forwardedHeaders(delivery),
        body: delivery.raw,
        signal: abort.signal,
      },
      true,
    );
    const ok =
      response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300;
    const excerpt = ok ? '' : await readExcerpt(response, MAX_REPLY_EXCERPT_BYTES);
    response.destroy();
    return { status: response.statusCode ?? 0, excerpt };
  } catch (error) {
    if (timedOut) throw new ForwardTimeoutError(options.timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener('abort', stop);
  }
}

/**
 * Up to `limit` bytes of the reply, as UTF-8 text: what came before the reply ended, the limit was
 * reached or the deadline ran out (a reply cut short by the deadline still has a status to report).
 */
function readExcerpt(response: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      response.off('data', onData);
      response.pause();
      resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) done();
    };
    response.on('data', onData);
    // Kept after the excerpt is taken: the reply may still fail as it is destroyed.
    response.on('error', done);
    response.once('end', done);
    response.once('close', done);
  });
}
