// `svc mock`: a local emulation of the Statement Reports service on loopback, for trying the CLI
// without an account and for end-to-end tests. This module is the HTTP plumbing: request ids,
// who is answered before a body is read, body reading within limits, the request log, injected
// faults, idempotency keys, dispatch, and the error envelope.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { admitAdminCaller, OwnAddress } from './admin-access.js';
import { handleAdmin } from './admin.js';
import { handleApi, handleVerifyPage, MAX_FILE_BYTES, requireKnownKey, type ApiRequest } from './api.js';
import { BodyBudget, emptyBody, hasNoBody, readBody } from './body-reader.js';
import { ConsentBook } from './consents.js';
import { systemClock, type Clock } from './dates.js';
import { DecisionBook } from './decisions.js';
import { ApiError, errorEnvelope, errorFields, newRequestId, type ErrorFields } from './errors.js';
import { faultReplies, FaultQueue, sendFault, type FaultSpec } from './faults.js';
import { fixtures } from './fixtures.js';
import { ConnectFlows } from './grants.js';
import { bodyBytes, bodyJson, sendJsonText, type Reply, type RequestBody } from './http.js';
import { IDEMPOTENCY_HEADER, IdempotencyTable, type Claim } from './idempotency.js';
import { KeyRing, keysFor, newKeys, type KeptKeys, type KeyIdentity, type MockKey } from './keys.js';
import { maskQuery } from './masking.js';
import { RequestLog, type RequestLogOptions } from './requestlog.js';
import { ACCESS_TOKEN_HEADER, handleConnectApproval, handleConnectPage } from './routes/connect.js';
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
  /** Called with one line per request: `METHOD path status ms` (and one per webhook delivery attempt). */
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
  /** The time replies are made at (usage periods, report dates, idempotency windows); the system clock by default. */
  clock?: Clock;
  /** Idempotency keys remembered at most (default 10,000). */
  idempotencyCapacity?: number;
  /** Bytes of replies to Idempotency-Keys remembered at most (default 16 MiB); the oldest keys are forgotten first. */
  idempotencyReplyBytes?: number;
  /** How many requests GET /_mock/requests keeps (default 1,000), and whether with their bodies (default not). */
  requestLog?: RequestLogOptions;
  /** What one client, or many at once, may take of the mock; the defaults suit any use of svc. */
  limits?: MockLimits;
}

export interface MockLimits {
  /** Connections open at one time; one past it is closed at once. Default 256. */
  maxConnections?: number;
  /** Time a client has to send a request's headers (default 10 s), and the whole request (default 60 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Bytes of request bodies held at one time, all requests together (default 64 MiB); past it a request is answered 503. */
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

const KIB = 1024;
const MIB = 1024 * KIB;
/** A body to /v1: room for the multipart envelope around a file of the maximum size. */
const MAX_BODY_BYTES = MAX_FILE_BYTES + 64 * KIB;
/** A body to /_mock/ (a key holder's): a fault spec may carry a reply of several MB to stand in for the service's. */
const MAX_ADMIN_BODY_BYTES = 32 * MIB;
/** A body to one of the pages (Connect approval), which read none. */
const MAX_PAGE_BODY_BYTES = 64 * KIB;
const DEFAULT_LIMITS: Required<MockLimits> = {
  maxConnections: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  // Three uploads of the largest size at once.
  bodyBudgetBytes: 64 * MIB,
};
/** How soon a request refused for the body budget may come again. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** What a request's body came to: read, refused unread (the error to answer), or its client went away. */
type Received = { body: RequestBody; release: () => void } | { refused: unknown } | 'gone';

/** 64 MiB, 64 KiB: a limit as a message names it. */
function sizeName(bytes: number): string {
  if (bytes >= MIB) return `${+(bytes / MIB).toFixed(1)} MiB`;
  return bytes >= KIB ? `${+(bytes / KIB).toFixed(1)} KiB` : `${bytes} bytes`;
}

const INJECTED = 'This reply was injected by svc mock --fault.';

/**
 * The keys of the mock's organisations, taken from a list kept from an earlier start (anything read
 * from a file; empty for new keys) where it holds good ones, made new for the rest.
 */
export function mockKeys(kept: readonly unknown[] = []): KeptKeys {
  return keysFor(fixtures.organizations, kept);
}

export async function startMockServer(options: MockOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  const store = new MockStore(fixtures, options.processingDelayMs ?? 2000, clock);
  const keyRing = new KeyRing();
  const keys = options.keys ? [...options.keys] : newKeys(fixtures.organizations);
  keyRing.admit(keys);
  const requests = new RequestLog(options.requestLog);
  const faults = new FaultQueue();
  if (options.faults?.length) faults.add([...options.faults]);
  const idempotency = new IdempotencyTable(clock, { capacity: options.idempotencyCapacity, replyBytes: options.idempotencyReplyBytes });
  const webhookSecret = options.webhookSecret ?? newSigningSecret();
  const webhooks = new WebhookSender({
    urls: options.webhookUrls ?? [],
    secret: webhookSecret,
    retryDelaysMs: options.webhookRetryDelaysMs,
    log: options.log,
  });
  const connect = new ConnectFlows(clock);
  const consents = new ConsentBook(clock);
  const decisions = new DecisionBook(clock);
  const apiDeps = { store, keys: keyRing, webhooks, connect, consents, decisions, clock };
  const adminDeps = { requests, faults, webhooks };
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const bodies = new BodyBudget(limits.bodyBudgetBytes);
  // Fault delays in flight, cancelled on close so the process can exit at once.
  const delays = new Set<NodeJS.Timeout>();
  let baseUrl = '';
  let ownAddress: OwnAddress;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        delays.delete(timer);
        resolve();
      }, ms);
      delays.add(timer);
    });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    // Concatenated rather than resolved, so a path like `//x` stays a path and is not read as a host.
    const url = new URL(`${baseUrl}${req.url ?? '/'}`);
    const requestId = newRequestId();
    const done = (status: number | 'reset') =>
      options.log?.(`${method} ${url.pathname}${maskQuery(url.search)} ${status} ${Math.round(performance.now() - started)}ms`);

    if (url.pathname === '/_mock' || url.pathname.startsWith('/_mock/')) return done(await handleAdminRequest(req, res, method, url, requestId));

    // Most requests have no body: nothing to wait for, answered in this turn of the event loop.
    if (hasNoBody(req)) return done(await serve(req, res, method, url, requestId, emptyBody()));
    const isApi = url.pathname === '/v1' || url.pathname.startsWith('/v1/');
    let received: Received;
    try {
      // A request without a key it needs is refused before its body is read: a stranger's upload takes no memory.
      if (isApi) requireKnownKey(method, url.pathname, req.headers.authorization, keyRing);
      received = await receiveBody(req, isApi ? MAX_BODY_BYTES : MAX_PAGE_BODY_BYTES, url.pathname);
    } catch (error) {
      received = { refused: error };
    }
    if (received === 'gone') return done('reset');
    if ('refused' in received) {
      const refused = errorReply(requestId, received.refused);
      // Logged with nothing of its body, which was never read.
      requests.record(method, url, req.headers, emptyBody().data, 0, requestId).status = refused.status;
      sendRefusal(res, refused, requestId, true);
      return done(refused.status);
    }
    try {
      done(await serve(req, res, method, url, requestId, received.body));
    } finally {
      received.release();
    }
  }

  /** /_mock/*: the caller is admitted on the headers alone (admin-access.ts), then the body is read. */
  async function handleAdminRequest(req: IncomingMessage, res: ServerResponse, method: string, url: URL, requestId: string): Promise<number | 'reset'> {
    // Every reply here, a refusal too, says it is the mock's: a client tells "svc mock refused my
    // key" from "this server is not svc mock" (src/webhooks/mock-endpoint.ts reads it).
    res.setHeader('X-Svc-Mock', '1');
    let caller: KeyIdentity;
    let received: Received;
    try {
      const { host, origin, authorization } = req.headers;
      caller = admitAdminCaller({ method, host, origin, authorization, contentType: req.headers['content-type'] }, ownAddress, keyRing);
      received = await receiveBody(req, MAX_ADMIN_BODY_BYTES, url.pathname);
    } catch (error) {
      const refused = errorReply(requestId, error);
      sendRefusal(res, refused, requestId, !hasNoBody(req));
      return refused.status;
    }
    if (received === 'gone') return 'reset';
    if ('refused' in received) {
      const refused = errorReply(requestId, received.refused);
      sendRefusal(res, refused, requestId, true);
      return refused.status;
    }
    const { body } = received;
    try {
      const reply = answer(requestId, () => handleAdmin({ method, pathname: url.pathname, caller }, body, adminDeps));
      sendJsonText(res, reply.status, bodyJson(reply.body), requestId, reply.headers);
      return reply.status;
    } finally {
      received.release();
    }
  }

  /** The body, read within `cap` and the budget of all bodies; or why it was not read. */
  async function receiveBody(req: IncomingMessage, cap: number, pathname: string): Promise<Received> {
    if (hasNoBody(req)) return { body: emptyBody(), release: () => {} };
    const read = await readBody(req, cap, bodies);
    if (read.kind === 'read') return read;
    if (read.kind === 'gone') return 'gone';
    return { refused: bodyRefusal(read.kind, pathname, cap) };
  }

  /**
   * A refusal, in the service's error envelope. When the body was left unread the connection is
   * closed after it: the rest of the body would otherwise be read as the next request.
   */
  function sendRefusal(res: ServerResponse, reply: Reply, requestId: string, bodyLeftUnread: boolean): void {
    sendJsonText(res, reply.status, bodyJson(reply.body), requestId, reply.headers, bodyLeftUnread ? { Connection: 'close' } : undefined);
  }

  /** Why a body was not read, as the service would say it. */
  function bodyRefusal(why: 'too-large' | 'busy', pathname: string, cap: number): ApiError {
    if (why === 'busy') {
      return new ApiError('SERVICE_UNAVAILABLE', `svc mock holds ${sizeName(bodies.limit)} of request bodies at most at one time, and other requests hold them now.`, {
        headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
      });
    }
    if (pathname === '/v1/parse') return new ApiError('FILE_TOO_LARGE', `The upload is larger than ${MAX_FILE_BYTES / MIB} MB.`);
    return new ApiError('REQUEST_TOO_LARGE', `svc mock reads at most ${sizeName(cap)} of a request body to ${pathname}; this one is larger.`);
  }

  /** Answers a request whose body (if any) was read: faults, idempotency keys, then the route. */
  async function serve(req: IncomingMessage, res: ServerResponse, method: string, url: URL, requestId: string, body: RequestBody): Promise<number | 'reset'> {
    const entry = requests.record(method, url, req.headers, body.data, body.size, requestId);
    const fault = faults.take(method, url.pathname);
    // A fault that answers (or drops the connection) stands in for the service: nothing is run or kept.
    if (fault && (fault.reset || faultReplies(fault))) {
      if (fault.delay_ms) await sleep(fault.delay_ms);
      if (res.destroyed) return 'reset';
      if (fault.reset) {
        req.socket.destroy();
        return 'reset';
      }
      res.setHeader('X-Request-Id', requestId);
      entry.status = sendFault(res, fault.error ? { ...fault, error: undefined, json: injectedEnvelope(fault.error, requestId) } : fault);
      return entry.status;
    }

    const accessToken = req.headers[ACCESS_TOKEN_HEADER];
    const request: ApiRequest = {
      method,
      url,
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      accessToken: Array.isArray(accessToken) ? accessToken.join(', ') : accessToken,
      body,
      baseUrl,
    };
    // Claimed before any delay, so that a second request with the key meanwhile finds it in flight.
    let claim: Claim | undefined;
    let early: Reply | undefined; // answered without running the request: a replay, or a refused key
    try {
      claim = claimIdempotencyKey(request, req.headers[IDEMPOTENCY_HEADER]);
      if (claim && 'replay' in claim) early = claim.replay;
    } catch (error) {
      early = errorReply(requestId, error);
    }
    const pending = claim && 'settle' in claim ? claim : undefined;
    if (!early && fault?.delay_ms) await sleep(fault.delay_ms);
    if (res.destroyed) {
      pending?.release();
      return 'reset';
    }
    const reply = early ?? answer(requestId, () => route(request));
    // Serialised once: for the client, and for the idempotency table to replay.
    const json = bodyBytes(reply.body);
    pending?.settle(reply, json);
    sendJsonText(res, reply.status, json, requestId, reply.headers, fault?.headers);
    entry.status = reply.status;
    return reply.status;
  }

  /** An Idempotency-Key on a POST to /v1 with a known key: claimed in the caller's organisation and environment. */
  function claimIdempotencyKey(request: ApiRequest, header: string | string[] | undefined): Claim | undefined {
    if (request.method !== 'POST' || header === undefined || !request.url.pathname.startsWith('/v1/')) return undefined;
    const key = keyRing.authenticate(request.authorization);
    if (!key) return undefined; // answered 401 by the API
    return idempotency.claim({
      scope: `${key.organization_id}/${key.mode}`,
      key: Array.isArray(header) ? header.join(', ') : header,
      method: request.method,
      url: request.url,
      contentType: request.contentType,
      body: request.body,
    });
  }

  function route(request: ApiRequest): Reply {
    const { method, url } = request;
    if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) {
      return handleApi(request, apiDeps);
    }
    const verify = /^\/verify\/([^/]+)$/.exec(url.pathname);
    if (verify && method === 'GET') return handleVerifyPage(verify[1]!, store);
    if (url.pathname === '/connect' && method === 'GET') return handleConnectPage(url, connect);
    if (url.pathname === '/connect/approve') {
      if (method !== 'POST') throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}.`, { headers: { Allow: 'POST' } });
      return handleConnectApproval(url, connect, store);
    }
    throw new ApiError('NOT_FOUND', `No endpoint at ${method} ${url.pathname}.`);
  }

  /** Runs a handler; its ApiError (or any bug) becomes the service's flat error envelope. */
  function answer(requestId: string, handler: () => Reply): Reply {
    try {
      return handler();
    } catch (error) {
      return errorReply(requestId, error);
    }
  }

  function errorReply(requestId: string, error: unknown): Reply {
    if (!(error instanceof ApiError)) options.log?.(`mock error: ${(error as Error).stack ?? String(error)}`);
    const apiError = error instanceof ApiError ? error : new ApiError('API_ERROR', `Mock server error: ${(error as Error).message}`);
    return { status: apiError.status, body: errorEnvelope(errorFields(apiError), requestId, baseUrl), headers: apiError.headers };
  }

  /** A fault's error, in the envelope a real one would come in. */
  function injectedEnvelope(error: NonNullable<FaultSpec['error']>, requestId: string) {
    const fields: ErrorFields = { ...error, display_message: null, suggested_action: INJECTED };
    return errorEnvelope(fields, requestId, baseUrl);
  }

  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
      // How often the timeouts above are checked (Node's default, 30 s, would let them run long).
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    (req, res) => {
      handle(req, res).catch(() => res.destroy());
    },
  );
  server.maxConnections = limits.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  ownAddress = new OwnAddress(host, Number(port));

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    keys,
    webhookSecret,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        store.dispose();
        webhooks.close();
        for (const timer of delays) clearTimeout(timer);
        delays.clear();
        server.close((error) => (error ? reject(error) : resolve()));
        // Idle keep-alive sockets would hold close() open for seconds; in-flight ones are cut too.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
