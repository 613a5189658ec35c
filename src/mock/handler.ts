// The HTTP plumbing of `svc mock`: one request at a time, who is answered before a body is read,
// body reading within limits, the request log, injected faults, idempotency keys, dispatch to the
// routes, and the error envelope. server.ts builds the mock's state and serves it through this.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { type AdminDeps, handleAdmin } from './admin.js';
import { admitAdminCaller, OwnAddress } from './admin-access.js';
import {
  type ApiDeps,
  type ApiRequest,
  handleApi,
  handleVerifyPage,
  MAX_FILE_BYTES,
  requireKnownKey,
} from './api.js';
import { type BodyBudget, emptyBody, hasNoBody, readBody } from './body-reader.js';
import { ApiError, errorEnvelope, type ErrorFields, errorFields, newRequestId } from './errors.js';
import { faultReplies, type FaultSpec, sendFault } from './faults.js';
import { bodyBytes, bodyJson, type Reply, type RequestBody, sendJsonText } from './http.js';
import { type Claim, IDEMPOTENCY_HEADER, type IdempotencyTable } from './idempotency.js';
import type { KeyIdentity } from './keys.js';
import { maskQuery } from './masking.js';
import { ACCESS_TOKEN_HEADER, handleConnectApproval, handleConnectPage } from './routes/connect.js';

const KIB = 1024;
const MIB = 1024 * KIB;
/** A body to /v1: room for the multipart envelope around a file of the maximum size. */
const MAX_BODY_BYTES = MAX_FILE_BYTES + 64 * KIB;
/**
 * A body to /_mock/ (a key holder's): a fault spec may carry a reply of several MB to stand in for
 * the service's.
 */
const MAX_ADMIN_BODY_BYTES = 32 * MIB;
/** A body to one of the pages (Connect approval), which read none. */
const MAX_PAGE_BODY_BYTES = 64 * KIB;
/** How soon a request refused for the body budget may come again. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * What a request's body came to: read, refused unread (the error to answer), or its client went
 * away.
 */
type Received = { body: RequestBody; release: () => void } | { refused: unknown } | 'gone';

/** 64 MiB, 64 KiB: a limit as a message names it. */
function sizeName(bytes: number): string {
  if (bytes >= MIB) return `${+(bytes / MIB).toFixed(1)} MiB`;
  return bytes >= KIB ? `${+(bytes / KIB).toFixed(1)} KiB` : `${bytes} bytes`;
}

const INJECTED = 'This reply was injected by svc mock --fault.';

/** What the handler answers from: the mock's state, and the budget of request bodies. */
export interface HandlerDeps {
  api: ApiDeps;
  admin: AdminDeps;
  idempotency: IdempotencyTable;
  bodies: BodyBudget;
  /** One line per request: `METHOD path status ms`; and a handler's failure. */
  log?: (line: string) => void;
}

export class MockHandler {
  /** The mock's own base URL and address, known once it listens (listeningAt). */
  private baseUrl = '';
  private ownAddress!: OwnAddress;
  /** Fault delays in flight, cancelled on close so the process can exit at once. */
  private readonly delays = new Set<NodeJS.Timeout>();

  constructor(private readonly deps: HandlerDeps) {}

  /** Where the mock listens: its base URL without a trailing slash. */
  listeningAt(host: string, port: number): string {
    this.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    this.ownAddress = new OwnAddress(host, port);
    return this.baseUrl;
  }

  /** Cancels the fault delays in flight. */
  cancelDelays(): void {
    for (const timer of this.delays) clearTimeout(timer);
    this.delays.clear();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.delays.delete(timer);
        resolve();
      }, ms);
      this.delays.add(timer);
    });
  }

  /**
   * Answers one request: /_mock/* to a key holder, otherwise a body read within limits, then
   * served.
   */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    // Concatenated rather than resolved, so a path like `//x` stays a path and is not read as a
    // host.
    const url = new URL(`${this.baseUrl}${req.url ?? '/'}`);
    const requestId = newRequestId();
    const done = (status: number | 'reset') =>
      this.deps.log?.(
        `${method} ${url.pathname}${maskQuery(url.search)} ${status} ${Math.round(performance.now() - started)}ms`,
      );

    if (url.pathname === '/_mock' || url.pathname.startsWith('/_mock/'))
      return done(await this.handleAdminRequest(req, res, method, url, requestId));

    // Most requests have no body: nothing to wait for, answered in this turn of the event loop.
    if (hasNoBody(req))
      return done(await this.serve(req, res, method, url, requestId, emptyBody()));
    const isApi = url.pathname === '/v1' || url.pathname.startsWith('/v1/');
    let received: Received;
    try {
      // A request without a key it needs is refused before its body is read: a stranger's upload
      // takes no memory.
      if (isApi)
        requireKnownKey(method, url.pathname, req.headers.authorization, this.deps.api.keys);
      received = await this.receiveBody(
        req,
        isApi ? MAX_BODY_BYTES : MAX_PAGE_BODY_BYTES,
        url.pathname,
      );
    } catch (error) {
      received = { refused: error };
    }
    if (received === 'gone') return done('reset');
    if ('refused' in received) {
      const refused = this.errorReply(requestId, received.refused);
      // Logged with nothing of its body, which was never read.
      this.deps.admin.requests.record(
        method,
        url,
        req.headers,
        emptyBody().data,
        0,
        requestId,
      ).status = refused.status;
      this.sendRefusal(res, refused, requestId, true);
      return done(refused.status);
    }
    try {
      done(await this.serve(req, res, method, url, requestId, received.body));
    } finally {
      received.release();
    }
  }

  /**
   * /_mock/*: the caller is admitted on the headers alone (admin-access.ts), then the body is read.
   */
  private async handleAdminRequest(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    requestId: string,
  ): Promise<number | 'reset'> {
    // Every reply here, a refusal too, says it is the mock's: a client tells "svc mock refused my
    // key" from "this server is not svc mock" (src/webhooks/mock-endpoint.ts reads it).
    res.setHeader('X-Svc-Mock', '1');
    let caller: KeyIdentity;
    let received: Received;
    try {
      const { host, origin, authorization } = req.headers;
      caller = admitAdminCaller(
        { method, host, origin, authorization, contentType: req.headers['content-type'] },
        this.ownAddress,
        this.deps.api.keys,
      );
      received = await this.receiveBody(req, MAX_ADMIN_BODY_BYTES, url.pathname);
    } catch (error) {
      const refused = this.errorReply(requestId, error);
      this.sendRefusal(res, refused, requestId, !hasNoBody(req));
      return refused.status;
    }
    if (received === 'gone') return 'reset';
    if ('refused' in received) {
      const refused = this.errorReply(requestId, received.refused);
      this.sendRefusal(res, refused, requestId, true);
      return refused.status;
    }
    const { body } = received;
    try {
      const reply = this.answer(requestId, () =>
        handleAdmin({ method, pathname: url.pathname, caller }, body, this.deps.admin),
      );
      sendJsonText(res, reply.status, bodyJson(reply.body), requestId, reply.headers);
      return reply.status;
    } finally {
      received.release();
    }
  }

  /** The body, read within `cap` and the budget of all bodies; or why it was not read. */
  private async receiveBody(
    req: IncomingMessage,
    cap: number,
    pathname: string,
  ): Promise<Received> {
    if (hasNoBody(req)) return { body: emptyBody(), release: () => {} };
    const read = await readBody(req, cap, this.deps.bodies);
    if (read.kind === 'read') return read;
    if (read.kind === 'gone') return 'gone';
    return { refused: this.bodyRefusal(read.kind, pathname, cap) };
  }

  /**
   * A refusal, in the service's error envelope. When the body was left unread the connection is
   * closed after it: the rest of the body would otherwise be read as the next request.
   */
  private sendRefusal(
    res: ServerResponse,
    reply: Reply,
    requestId: string,
    bodyLeftUnread: boolean,
  ): void {
    sendJsonText(
      res,
      reply.status,
      bodyJson(reply.body),
      requestId,
      reply.headers,
      bodyLeftUnread ? { Connection: 'close' } : undefined,
    );
  }

  /** Why a body was not read, as the service would say it. */
  private bodyRefusal(why: 'too-large' | 'busy', pathname: string, cap: number): ApiError {
    if (why === 'busy') {
      return new ApiError(
        'SERVICE_UNAVAILABLE',
        `svc mock holds ${sizeName(this.deps.bodies.limit)} of request bodies at most at one time, and other requests hold them now.`,
        {
          headers: { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) },
        },
      );
    }
    if (pathname === '/v1/parse')
      return new ApiError(
        'FILE_TOO_LARGE',
        `The upload is larger than ${MAX_FILE_BYTES / MIB} MB.`,
      );
    return new ApiError(
      'REQUEST_TOO_LARGE',
      `svc mock reads at most ${sizeName(cap)} of a request body to ${pathname}; this one is larger.`,
    );
  }

  /** Answers a request whose body (if any) was read: faults, idempotency keys, then the route. */
  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    requestId: string,
    body: RequestBody,
  ): Promise<number | 'reset'> {
    const entry = this.deps.admin.requests.record(
      method,
      url,
      req.headers,
      body.data,
      body.size,
      requestId,
    );
    const fault = this.deps.admin.faults.take(method, url.pathname);
    // A fault that answers (or drops the connection) stands in for the service: nothing is run or
    // kept.
    if (fault && (fault.reset || faultReplies(fault))) {
      if (fault.delay_ms) await this.sleep(fault.delay_ms);
      if (res.destroyed) return 'reset';
      if (fault.reset) {
        req.socket.destroy();
        return 'reset';
      }
      res.setHeader('X-Request-Id', requestId);
      entry.status = sendFault(
        res,
        fault.error
          ? { ...fault, error: undefined, json: this.injectedEnvelope(fault.error, requestId) }
          : fault,
      );
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
      baseUrl: this.baseUrl,
    };
    // Claimed before any delay, so that a second request with the key meanwhile finds it in flight.
    let claim: Claim | undefined;
    let early: Reply | undefined; // answered without running the request: a replay, or a refused key
    try {
      claim = this.claimIdempotencyKey(request, req.headers[IDEMPOTENCY_HEADER]);
      if (claim && 'replay' in claim) early = claim.replay;
    } catch (error) {
      early = this.errorReply(requestId, error);
    }
    const pending = claim && 'settle' in claim ? claim : undefined;
    if (!early && fault?.delay_ms) await this.sleep(fault.delay_ms);
    if (res.destroyed) {
      pending?.release();
      return 'reset';
    }
    const reply = early ?? this.answer(requestId, () => this.route(request));
    // Serialised once: for the client, and for the idempotency table to replay.
    const json = bodyBytes(reply.body);
    pending?.settle(reply, json);
    sendJsonText(res, reply.status, json, requestId, reply.headers, fault?.headers);
    entry.status = reply.status;
    return reply.status;
  }

  /**
   * An Idempotency-Key on a POST to /v1 with a known key: claimed in the caller's organisation and
   * environment.
   */
  private claimIdempotencyKey(
    request: ApiRequest,
    header: string | string[] | undefined,
  ): Claim | undefined {
    if (
      request.method !== 'POST' ||
      header === undefined ||
      !request.url.pathname.startsWith('/v1/')
    )
      return undefined;
    const key = this.deps.api.keys.authenticate(request.authorization);
    if (!key) return undefined; // answered 401 by the API
    return this.deps.idempotency.claim({
      scope: `${key.organization_id}/${key.mode}`,
      key: Array.isArray(header) ? header.join(', ') : header,
      method: request.method,
      url: request.url,
      contentType: request.contentType,
      body: request.body,
    });
  }

  private route(request: ApiRequest): Reply {
    const { method, url } = request;
    if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) {
      return handleApi(request, this.deps.api);
    }
    const verify = /^\/verify\/([^/]+)$/.exec(url.pathname);
    if (verify && method === 'GET') return handleVerifyPage(verify[1]!, this.deps.api.store);
    if (url.pathname === '/connect' && method === 'GET')
      return handleConnectPage(url, this.deps.api.connect);
    if (url.pathname === '/connect/approve') {
      if (method !== 'POST')
        throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${url.pathname}.`, {
          headers: { Allow: 'POST' },
        });
      return handleConnectApproval(url, this.deps.api.connect, this.deps.api.store);
    }
    throw new ApiError('NOT_FOUND', `No endpoint at ${method} ${url.pathname}.`);
  }

  /** Runs a handler; its ApiError (or any bug) becomes the service's flat error envelope. */
  private answer(requestId: string, handler: () => Reply): Reply {
    try {
      return handler();
    } catch (error) {
      return this.errorReply(requestId, error);
    }
  }

  private errorReply(requestId: string, error: unknown): Reply {
    if (!(error instanceof ApiError))
      this.deps.log?.(`mock error: ${(error as Error).stack ?? String(error)}`);
    const apiError =
      error instanceof ApiError
        ? error
        : new ApiError('API_ERROR', `Mock server error: ${(error as Error).message}`);
    return {
      status: apiError.status,
      body: errorEnvelope(errorFields(apiError), requestId, this.baseUrl),
      headers: apiError.headers,
    };
  }

  /** A fault's error, in the envelope a real one would come in. */
  private injectedEnvelope(error: NonNullable<FaultSpec['error']>, requestId: string) {
    const fields: ErrorFields = { ...error, display_message: null, suggested_action: INJECTED };
    return errorEnvelope(fields, requestId, this.baseUrl);
  }
}
