// A loopback HTTP server that takes webhook deliveries for `svc webhooks listen`: it checks each
// delivery's signature against the raw body and answers 200 to a valid one and 4xx to anything
// else (a replay of one already accepted too), so the sender knows whether to retry. It prints
// nothing itself: the caller is told.
//
// Any local process can connect, so what one sender can hold is bounded: a few connections at
// once, a small header, a body of at most MAX_DELIVERY_BYTES, and the whole request within a
// time limit. At most maxConnections × maxBodyBytes is ever buffered.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';

import { MAX_DELIVERY_BYTES, readEvent, type WebhookEvent } from './events.js';
import { ReplayGuard } from './replay.js';
import {
  checkSignatureHeader,
  computeSignature,
  SIGNATURE_HEADER,
  TOLERANCE_SECONDS,
  verifySignature,
} from './signature.js';

export interface ReceiverLimits {
  /** Connections open at once; one more is closed as it comes (a sender retries later). */
  maxConnections: number;
  /** A body larger than this is refused (413), unread when its Content-Length says so. */
  maxBodyBytes: number;
  /** The request line and headers together (431 past it). */
  maxHeaderBytes: number;
  /** The headers must have come within this (408, closed). */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must have come within this (408, closed). */
  requestTimeoutMs: number;
  /** A connection on which nothing comes for this long is closed. */
  idleTimeoutMs: number;
}

export const RECEIVER_LIMITS: Readonly<ReceiverLimits> = {
  maxConnections: 16,
  maxBodyBytes: MAX_DELIVERY_BYTES,
  maxHeaderBytes: 8 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 10_000,
};

/** How long close() lets a request already answered finish before its connection is cut. */
const CLOSE_GRACE_MS = 1000;

export interface Delivery {
  event: WebhookEvent;
  /** The body parsed: the event with every field it came with. */
  body: unknown;
  /** The body byte for byte, as signed. */
  raw: Buffer;
  headers: IncomingHttpHeaders;
  path: string;
  /** When the sender signed it (unix seconds). */
  signedAt: number;
}

export interface ReceiverOptions {
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * What deliveries are signed with; until one is given (useSecret), deliveries are answered 503.
   */
  secret?: string;
  /** Each valid delivery, once it has been answered 200. */
  onDelivery: (delivery: Delivery) => void;
  /** Each refused request, with why. */
  onRejected: (reason: string, request: { method: string; path: string }) => void;
  /** Tighter (or looser) bounds than RECEIVER_LIMITS. */
  limits?: Partial<ReceiverLimits>;
}

export interface Receiver {
  /** e.g. http://127.0.0.1:8788 */
  url: string;
  /** Verifies deliveries with this secret from now on (one agreed after the port was known). */
  useSecret(secret: string): void;
  /** Refuses further deliveries (503) from now on, so none is taken and then dropped. */
  stop(): void;
  close(): Promise<void>;
}

/**
 * What the receiver's requests are checked against; `stopped` and `secret` change as the listener
 * runs.
 */
interface ReceiverState {
  stopped: boolean;
  secret?: string;
  readonly replays: ReplayGuard;
  readonly limits: ReceiverLimits;
  readonly options: ReceiverOptions;
}

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  const limits: ReceiverLimits = { ...RECEIVER_LIMITS, ...options.limits };
  const state: ReceiverState = {
    stopped: false,
    secret: options.secret,
    replays: new ReplayGuard(),
    limits,
    options,
  };
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // How often the two time limits above are checked (Node's default, 30 s, would let a stalled
      // request live up to 30 s past them).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    (req, res) => {
      takeDelivery(req, res, state).catch(() => res.destroy());
    },
  );
  server.maxConnections = limits.maxConnections;
  server.timeout = limits.idleTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    useSecret(value) {
      state.secret = value;
    },
    stop() {
      state.stopped = true;
    },
    close() {
      state.stopped = true;
      closing ??= new Promise<void>((resolve) => {
        // Answers are sent with `Connection: close`, so a request already answered ends at once;
        // one still coming in (a sender that stalls) is cut after a moment, not at its time limit.
        const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

/**
 * Checks one request and answers it: 200 to a valid delivery, which the caller is then given; 4xx
 * or 503 to anything else.
 */
async function takeDelivery(
  req: IncomingMessage,
  res: ServerResponse,
  state: ReceiverState,
): Promise<void> {
  const { limits, options, replays } = state;
  const tooLarge = `a body larger than ${limits.maxBodyBytes} bytes`;
  const method = req.method ?? 'GET';
  const path = req.url ?? '/';
  const refuse = (status: number, reason: string) => {
    reply(res, status, { error: reason });
    options.onRejected(reason, { method, path });
  };
  const secret = state.secret;
  if (state.stopped) return reply(res, 503, { error: 'the listener is stopping' });
  if (secret === undefined) return reply(res, 503, { error: 'the listener is not ready yet' });
  if (method !== 'POST') return refuse(405, `${method} ${path}: deliveries are POST requests`);
  if (Number(req.headers['content-length']) > limits.maxBodyBytes) return refuse(413, tooLarge);
  // An unsigned, malformed or stale delivery is refused on its header: its body is never read.
  const header = req.headers[SIGNATURE_HEADER.toLowerCase()];
  if (typeof header !== 'string') return refuse(400, `no ${SIGNATURE_HEADER} header`);
  const signed = checkSignatureHeader({ header });
  if (!signed.valid) return refuse(400, signed.reason);
  const raw = await readCapped(req, limits.maxBodyBytes);
  if (raw === undefined) return refuse(413, tooLarge);
  // Stopped while the body came (the last event wanted arrived meanwhile): not taken, so not lost.
  if (state.stopped) return reply(res, 503, { error: 'the listener is stopping' });
  const verdict = verifySignature({ secret, header, body: raw });
  if (!verdict.valid) return refuse(400, verdict.reason);
  let body: unknown;
  let event: WebhookEvent | undefined;
  try {
    body = JSON.parse(raw.toString('utf8'));
    event = readEvent(body);
  } catch {
    event = undefined;
  }
  if (!event) return refuse(400, 'the body is not a webhook event ({event, report_id, timestamp})');
  // The signature of this timestamp and body: a replay carries the same one, whatever else its
  // header holds.
  if (!replays.accept(computeSignature(secret, verdict.timestamp, raw), verdict.timestamp)) {
    return refuse(
      409,
      `a replay: this delivery was already accepted (a signature counts once within ${TOLERANCE_SECONDS} s)`,
    );
  }
  reply(res, 200, { received: true });
  options.onDelivery({ event, body, raw, headers: req.headers, path, signedAt: verdict.timestamp });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    Connection: 'close',
  });
  res.end(text);
}

/** The whole body, or undefined when it is longer than `cap` (the rest is not read). */
function readCapped(req: IncomingMessage, cap: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > cap) {
        req.pause();
        resolve(undefined);
      } else {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    // Cut off before its end (a time limit, the listener closing): what came is dropped.
    req.on('close', () => reject(new Error('the request was cut off')));
  });
}
