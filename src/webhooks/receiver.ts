// A loopback HTTP server that takes webhook deliveries for `svc webhooks listen`: it checks each
// delivery's signature against the raw body and answers 200 to a valid one and 4xx to anything
// else (a replay of one already accepted too), so the sender knows whether to retry. It prints
// nothing itself: the caller is told.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { readEvent, type WebhookEvent } from './events.js';
import { ReplayGuard } from './replay.js';
import { computeSignature, SIGNATURE_HEADER, TOLERANCE_SECONDS, verifySignature } from './signature.js';

/** A delivery body larger than this is refused (413) unread. */
const MAX_BODY_BYTES = 1024 * 1024;

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
  /** What deliveries are signed with; until one is given (useSecret), deliveries are answered 503. */
  secret?: string;
  /** Each valid delivery, once it has been answered 200. */
  onDelivery: (delivery: Delivery) => void;
  /** Each refused request, with why. */
  onRejected: (reason: string, request: { method: string; path: string }) => void;
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

export async function startReceiver(options: ReceiverOptions): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  let stopped = false;
  let secret = options.secret;
  const replays = new ReplayGuard();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const refuse = (status: number, reason: string) => {
      reply(res, status, { error: reason });
      options.onRejected(reason, { method, path });
    };
    if (stopped) return reply(res, 503, { error: 'the listener is stopping' });
    if (secret === undefined) return reply(res, 503, { error: 'the listener is not ready yet' });
    if (method !== 'POST') return refuse(405, `${method} ${path}: deliveries are POST requests`);
    const raw = await readCapped(req, MAX_BODY_BYTES);
    if (raw === undefined) return refuse(413, `a body larger than ${MAX_BODY_BYTES} bytes`);
    // Stopped while the body came (the last event wanted arrived meanwhile): not taken, so not lost.
    if (stopped) return reply(res, 503, { error: 'the listener is stopping' });
    const header = req.headers[SIGNATURE_HEADER.toLowerCase()];
    if (typeof header !== 'string') return refuse(400, `no ${SIGNATURE_HEADER} header`);
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
    // The signature of this timestamp and body: a replay carries the same one, whatever else its header holds.
    if (!replays.accept(computeSignature(secret, verdict.timestamp, raw), verdict.timestamp)) {
      return refuse(409, `a replay: this delivery was already accepted (a signature counts once within ${TOLERANCE_SECONDS} s)`);
    }
    reply(res, 200, { received: true });
    options.onDelivery({ event, body, raw, headers: req.headers, path, signedAt: verdict.timestamp });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
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
      secret = value;
    },
    stop() {
      stopped = true;
    },
    close() {
      stopped = true;
      closing ??= new Promise<void>((resolve) => {
        // Answers are sent with `Connection: close`, so waiting for open connections is short.
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), Connection: 'close' });
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
  });
}
