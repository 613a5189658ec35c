// `svc mock`: a local emulation of the Statement Reports service on loopback, for trying the CLI
// without an account and for end-to-end tests. This module is the HTTP plumbing: request ids,
// body reading, the request log, injected faults, dispatch, and the error envelope.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { newSigningSecret } from '../webhooks/signature.js';
import { handleAdmin } from './admin.js';
import { handleApi, handleVerifyPage, MAX_FILE_BYTES } from './api.js';
import { ApiError, errorEnvelope, newRequestId } from './errors.js';
import { faultReplies, FaultQueue, sendFault, type FaultSpec } from './faults.js';
import { fixtures } from './fixtures.js';
import { readBody, sendJson, type Reply, type RequestBody } from './http.js';
import { KeyRing, type MockKey } from './keys.js';
import { RequestLog } from './requestlog.js';
import { handleConnectPage, type ConnectRequest } from './routes/connect.js';
import { MockStore } from './store.js';
import { WebhookSender } from './webhooks.js';

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
  /** Where sandbox webhook deliveries are POSTed (`svc mock --webhook-url`); none by default. */
  webhookUrls?: readonly string[];
  /** The secret deliveries are signed with; a new one at every start by default. */
  webhookSecret?: string;
  /** Waits between delivery attempts; the default makes four attempts over about 3.5 s. */
  webhookRetryDelaysMs?: readonly number[];
  /** Faults queued from the start (`svc mock --fault NAME`). */
  faults?: readonly FaultSpec[];
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

export async function startMockServer(options: MockOptions = {}): Promise<MockServer> {
  const host = options.host ?? '127.0.0.1';
  const store = new MockStore(fixtures, options.processingDelayMs ?? 2000);
  const keyRing = new KeyRing();
  const keys = keyRing.issue(fixtures.organizations);
  const requests = new RequestLog();
  const faults = new FaultQueue();
  if (options.faults?.length) faults.add([...options.faults]);
  const webhookSecret = options.webhookSecret ?? newSigningSecret();
  const webhooks = new WebhookSender({
    urls: options.webhookUrls ?? [],
    secret: webhookSecret,
    retryDelaysMs: options.webhookRetryDelaysMs,
    log: options.log,
  });
  const connectRequests = new Map<string, ConnectRequest>();
  // Fault delays in flight, cancelled on close so the process can exit at once.
  const delays = new Set<NodeJS.Timeout>();
  let baseUrl = '';

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
      options.log?.(`${method} ${url.pathname}${url.search} ${status} ${Math.round(performance.now() - started)}ms`);
    res.setHeader('X-Request-Id', requestId);

    let body: RequestBody;
    try {
      body = await readBody(req, MAX_BODY_BYTES);
    } catch {
      return done('reset'); // the client went away mid-upload
    }

    if (url.pathname === '/_mock' || url.pathname.startsWith('/_mock/')) {
      const reply = answer(requestId, () => handleAdmin(method, url.pathname, body, { requests, faults }));
      sendJson(res, reply);
      return done(reply.status);
    }

    const entry = requests.record(method, url, req.headers, body.data, body.size, requestId);
    const fault = faults.take(method, url.pathname);
    if (fault?.delay_ms) await sleep(fault.delay_ms);
    if (res.destroyed) return done('reset');
    if (fault?.reset) {
      req.socket.destroy();
      return done('reset');
    }
    const reply = fault && faultReplies(fault) ? null : answer(requestId, () => route(method, url, req, body));
    if (reply) {
      sendJson(res, { ...reply, headers: { ...reply.headers, ...fault?.headers } });
      entry.status = reply.status;
    } else {
      entry.status = sendFault(res, fault!);
    }
    done(entry.status);
  }

  function route(method: string, url: URL, req: IncomingMessage, body: RequestBody): Reply {
    if (url.pathname === '/v1' || url.pathname.startsWith('/v1/')) {
      const request = {
        method,
        url,
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body,
        baseUrl,
      };
      return handleApi(request, { store, keys: keyRing, webhooks, connectRequests });
    }
    const verify = /^\/verify\/([^/]+)$/.exec(url.pathname);
    if (verify && method === 'GET') return handleVerifyPage(verify[1]!, store);
    const connect = /^\/connect\/([^/]+)$/.exec(url.pathname);
    if (connect && method === 'GET') return handleConnectPage(connect[1]!, connectRequests);
    throw new ApiError('NOT_FOUND', `No endpoint at ${method} ${url.pathname}.`);
  }

  /** Runs a handler; its ApiError (or any bug) becomes the service's flat error envelope. */
  function answer(requestId: string, handler: () => Reply): Reply {
    try {
      return handler();
    } catch (error) {
      if (!(error instanceof ApiError)) options.log?.(`mock error: ${(error as Error).stack ?? String(error)}`);
      const apiError =
        error instanceof ApiError ? error : new ApiError('API_ERROR', `Mock server error: ${(error as Error).message}`);
      return { status: apiError.status, body: errorEnvelope(apiError, requestId, baseUrl), headers: apiError.headers };
    }
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

