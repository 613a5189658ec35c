// `svc mock`: a local emulation of the Statement Reports service on loopback, for trying the CLI
// without an account and for end-to-end tests. This module starts it: the mock's state, the HTTP
// server and its limits, and close(). Each request is answered by handler.ts.
import { createServer, type Server } from 'node:http';

import { BodyBudget } from './body-reader.js';
import { ConsentBook } from './consents.js';
import { type Clock, systemClock } from './dates.js';
import { DecisionBook } from './decisions.js';
import { FaultQueue, type FaultSpec } from './faults.js';
import { fixtures } from './fixtures.js';
import { ConnectFlows } from './grants.js';
import { type HandlerDeps, MockHandler } from './handler.js';
import { IdempotencyTable } from './idempotency.js';
import { type KeptKeys, KeyRing, keysFor, type MockKey, newKeys } from './keys.js';
import { RequestLog, type RequestLogOptions } from './requestlog.js';
import { newSigningSecret } from './signature.js';
import { MockStore } from './store.js';
import { WebhookSender } from './webhooks.js';

export type { Clock } from './dates.js';
export type { KeptKeys, MockKey } from './keys.js';

export interface MockOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** How long an async parse stays `processing`; default 2000. */
  processingDelayMs?: number;
  /**
   * Called with one line per request: `METHOD path status ms` (and one per webhook delivery
   * attempt).
   */
  log?: (line: string) => void;
  /**
   * Where sandbox webhook deliveries are POSTed (`svc mock --webhook-url`), besides the endpoints
   * registered at run time through POST /_mock/webhooks/endpoints; none by default.
   */
  webhookUrls?: readonly string[];
  /** The secret deliveries are signed with; a new one at every start by default. */
  webhookSecret?: string;
  /** Waits between delivery attempts; the default makes four attempts over about 3.5 s. */
  webhookRetryDelaysMs?: readonly number[];
  /**
   * The keys it accepts, in plain text (`svc mock` keeps them in the user's data folder: `mockKeys`
   * makes or mends the list); new ones at every start by default. Only their hashes are kept.
   */
  keys?: readonly MockKey[];
  /** Faults queued from the start (`svc mock --fault NAME`). */
  faults?: readonly FaultSpec[];
  /**
   * The time replies are made at (usage periods, report dates, idempotency windows); the system
   * clock by default.
   */
  clock?: Clock;
  /** Idempotency keys remembered at most (default 10,000). */
  idempotencyCapacity?: number;
  /**
   * Bytes of replies to Idempotency-Keys remembered at most (default 16 MiB); the oldest keys are
   * forgotten first.
   */
  idempotencyReplyBytes?: number;
  /**
   * How many requests GET /_mock/requests keeps (default 1,000), and whether with their bodies
   * (default not).
   */
  requestLog?: RequestLogOptions;
  /** What one client, or many at once, may take of the mock; the defaults suit any use of svc. */
  limits?: MockLimits;
}

export interface MockLimits {
  /** Connections open at one time; one past it is closed at once. Default 256. */
  maxConnections?: number;
  /**
   * Time a client has to send a request's headers (default 10 s), and the whole request (default 60
   * s).
   */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /**
   * Bytes of request bodies held at one time, all requests together (default 64 MiB); past it a
   * request is answered 503.
   */
  bodyBudgetBytes?: number;
}

export interface MockServer {
  /** Base URL without `/v1` and without a trailing slash, e.g. http://127.0.0.1:43123. */
  url: string;
  /** The keys in plain text, given or made; the server itself keeps only their hashes. */
  keys: MockKey[];
  /** The secret webhook deliveries are signed with (X-Svc-Signature). */
  webhookSecret: string;
  close(): Promise<void>;
}

const MIB = 1024 * 1024;
const DEFAULT_LIMITS: Required<MockLimits> = {
  maxConnections: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  // Three uploads of the largest size at once.
  bodyBudgetBytes: 64 * MIB,
};

/**
 * The keys of the mock's organisations, taken from a list kept from an earlier start (anything read
 * from a file; empty for new keys) where it holds good ones, made new for the rest.
 */
export function mockKeys(kept: readonly unknown[] = []): KeptKeys {
  return keysFor(fixtures.organizations, kept);
}

export async function startMockServer(options: MockOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const keys = options.keys ? [...options.keys] : newKeys(fixtures.organizations);
  const webhookSecret = options.webhookSecret ?? newSigningSecret();
  const deps = mockState(options, keys, webhookSecret, limits);
  const handler = new MockHandler(deps);
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
      // How often the timeouts above are checked (Node's default, 30 s, would let them run long).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    (req, res) => {
      handler.handle(req, res).catch(() => res.destroy());
    },
  );
  server.maxConnections = limits.maxConnections;
  const port = await listen(server, options.port ?? 0, host);
  const url = handler.listeningAt(host, port);

  let closing: Promise<void> | undefined;
  return {
    url,
    keys,
    webhookSecret,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        deps.api.store.dispose();
        deps.api.webhooks.close();
        handler.cancelDelays();
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets would hold close() open for seconds; in-flight ones are cut too.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * The mock's state at its start: reports, keys, consents and the rest, the request log, faults and
 * webhooks.
 */
function mockState(
  options: MockOptions,
  keys: readonly MockKey[],
  webhookSecret: string,
  limits: Required<MockLimits>,
): HandlerDeps {
  const clock = options.clock ?? systemClock;
  const store = new MockStore(fixtures, options.processingDelayMs ?? 2000, clock);
  const keyRing = new KeyRing();
  keyRing.admit(keys);
  const requests = new RequestLog(options.requestLog);
  const faults = new FaultQueue();
  if (options.faults?.length) faults.add([...options.faults]);
  const webhooks = new WebhookSender({
    urls: options.webhookUrls ?? [],
    secret: webhookSecret,
    retryDelaysMs: options.webhookRetryDelaysMs,
    log: options.log,
  });
  return {
    api: {
      store,
      keys: keyRing,
      webhooks,
      connect: new ConnectFlows(clock),
      consents: new ConsentBook(clock),
      decisions: new DecisionBook(clock),
      clock,
    },
    admin: { requests, faults, webhooks },
    idempotency: new IdempotencyTable(clock, {
      capacity: options.idempotencyCapacity,
      replyBytes: options.idempotencyReplyBytes,
    }),
    bodies: new BodyBudget(limits.bodyBudgetBytes),
    log: options.log,
  };
}

/** Listens on `port` (0: a free one) at `host`; resolves with the port taken. */
async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return typeof address === 'object' && address ? address.port : port;
}
