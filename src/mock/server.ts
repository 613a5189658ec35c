// `svc mock`: a local emulation of the Statement Reports service on loopback, for trying the CLI
// without an account and for end-to-end tests. This module is the HTTP plumbing: request ids,
// body reading, who may call /_mock/, the request log, injected faults, idempotency keys,
// dispatch, and the error envelope.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { admitAdminCaller, OwnAddress } from './admin-access.js';
import { handleAdmin } from './admin.js';
import { handleApi, handleVerifyPage, MAX_FILE_BYTES, type ApiRequest } from './api.js';
import { ConsentBook } from './consents.js';
import { systemClock, type Clock } from './dates.js';
import { DecisionBook } from './decisions.js';
import { ApiError, errorEnvelope, errorFields, newRequestId, type ErrorFields } from './errors.js';
import { faultReplies, FaultQueue, sendFault, type FaultSpec } from './faults.js';
import { fixtures } from './fixtures.js';
import { ConnectFlows } from './grants.js';
import { bodyBytes, bodyJson, emptyBody, hasNoBody, readBody, sendJsonText, type Reply, type RequestBody } from './http.js';
import { IDEMPOTENCY_HEADER, IdempotencyTable, type Claim } from './idempotency.js';
import { KeyRing, type MockKey } from './keys.js';
import { maskQuery } from './masking.js';
import { RequestLog, type RequestLogOptions } from './requestlog.js';
import { ACCESS_TOKEN_HEADER, handleConnectApproval, handleConnectPage } from './routes/connect.js';
import { newSigningSecret } from './signature.js';
import { MockStore } from './store.js';
import { WebhookSender } from './webhooks.js';

export type { Clock } from './dates.js';
export type { MockKey } from './keys.js';

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
}

export interface MockServer {
  /** Base URL without `/v1` and without a trailing slash, e.g. http://127.0.0.1:43123. */
  url: string;
  /** The generated keys in plain text; the server itself keeps only their hashes. */
  keys: MockKey[];
  /** The secret webhook deliveries are signed with (X-Svc-Signature). */
  webhookSecret: string;
  close(): Promise<void>;
}

/** Room for the multipart envelope around a file of the maximum size. */
const MAX_BODY_BYTES = MAX_FILE_BYTES + 64 * 1024;

const INJECTED = 'This reply was injected by svc mock --fault.';

export async function startMockServer(options: MockOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  const store = new MockStore(fixtures, options.processingDelayMs ?? 2000, clock);
  const keyRing = new KeyRing();
  const keys = keyRing.issue(fixtures.organizations);
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

    let body: RequestBody;
    if (hasNoBody(req)) {
      body = emptyBody(); // nothing to wait for (most requests): answered in this turn of the event loop
    } else {
      try {
        body = await readBody(req, MAX_BODY_BYTES);
      } catch {
        return done('reset'); // the client went away mid-upload
      }
    }

    if (url.pathname === '/_mock' || url.pathname.startsWith('/_mock/')) {
      const { host, origin, authorization } = req.headers;
      const reply = answer(requestId, () => {
        const caller = admitAdminCaller({ method, host, origin, authorization, contentType: req.headers['content-type'] }, ownAddress, keyRing);
        return handleAdmin({ method, pathname: url.pathname, caller }, body, adminDeps);
      });
      sendJsonText(res, reply.status, bodyJson(reply.body), requestId, reply.headers);
      return done(reply.status);
    }

    const entry = requests.record(method, url, req.headers, body.data, body.size, requestId);
    const fault = faults.take(method, url.pathname);
    // A fault that answers (or drops the connection) stands in for the service: nothing is run or kept.
    if (fault && (fault.reset || faultReplies(fault))) {
      if (fault.delay_ms) await sleep(fault.delay_ms);
      if (res.destroyed) return done('reset');
      if (fault.reset) {
        req.socket.destroy();
        return done('reset');
      }
      res.setHeader('X-Request-Id', requestId);
      entry.status = sendFault(res, fault.error ? { ...fault, error: undefined, json: injectedEnvelope(fault.error, requestId) } : fault);
      return done(entry.status);
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
      return done('reset');
    }
    const reply = early ?? answer(requestId, () => route(request));
    // Serialised once: for the client, and for the idempotency table to replay.
    const json = bodyBytes(reply.body);
    pending?.settle(reply, json);
    sendJsonText(res, reply.status, json, requestId, reply.headers, fault?.headers);
    entry.status = reply.status;
    done(reply.status);
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

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
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
