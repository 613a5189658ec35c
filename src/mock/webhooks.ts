// Real webhook deliveries from the mock. Each fired event is POSTed, signed, in the background, to
// every endpoint: those registered at run time (`svc webhooks listen` registers itself through
// POST /_mock/webhooks/endpoints, see admin.ts) and the URLs given with `svc mock --webhook-url`.
// A delivery that fails (no connection, a timeout, a status other than 2xx) is retried a few times
// with growing delays, then given up. close() cancels every delivery in flight and every retry
// still waiting.
//
// Secrets: every endpoint has a signing secret, as the service's endpoints do. The --webhook-url
// ones are signed with the mock's secret (its banner shows it). A registered endpoint is signed
// with the secret it brought, else with one made for it alone and told only to its registrant:
// no other caller of the mock can sign a delivery that endpoint would take.
//
// Owners: a registered endpoint belongs to the key that registered it, and gets the events of that
// key's organisation only (as the service delivers an organisation's events to its own endpoints).
import { type OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

import type { KeyIdentity } from './keys.js';
import { newSigningSecret, SIGNATURE_HEADER, signatureHeader } from './signature.js';
import { newId } from './tokens.js';

/**
 * A delivery's body, as documented: the event, the report, when, and the full report as `result`.
 */
export interface WebhookEvent {
  event: string;
  report_id: string;
  /** ISO 8601, UTC, to the second. */
  timestamp: string;
  /** The report as GET /v1/reports/{id} answers it. */
  result?: unknown;
  /** On `report.failed` only: why the report failed (the mock's own addition). */
  error_code?: string;
}

/** An endpoint registered at run time. */
export interface WebhookEndpoint {
  /** `we_` and 16 hex digits. */
  id: string;
  /** Normalised (`new URL(url).href`): one registration per address. */
  url: string;
  /** What its deliveries are signed with. */
  secret: string;
  /** The key that registered it. */
  owner: EndpointOwner;
}

/** What a registration keeps of its key: which key, and its organisation. */
export type EndpointOwner = Pick<KeyIdentity, 'hash' | 'organization_id'>;

/** Waits before the 2nd, 3rd and 4th attempt: four attempts in all, about 3.5 s of waiting. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000];
const ATTEMPT_TIMEOUT_MS = 5000;

export interface WebhookSenderOptions {
  /** Fixed endpoints (`svc mock --webhook-url`), signed with `secret`. */
  urls: readonly string[];
  /** The mock's signing secret. */
  secret: string;
  retryDelaysMs?: readonly number[];
  attemptTimeoutMs?: number;
  /** One line per attempt, registration and fire that reached no endpoint. */
  log?: (line: string) => void;
}

/** Where one delivery goes. */
interface Target {
  url: string;
  secret: string;
  /** Set for a registered endpoint. */
  id?: string;
}

/** What one attempt came to. */
type Outcome = { ok: true; status: number } | { ok: false; why: string; refused?: boolean };

export class WebhookSender {
  private readonly stopped = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  /** Registered endpoints by id, oldest first. */
  private readonly registered = new Map<string, WebhookEndpoint>();

  constructor(private readonly options: WebhookSenderOptions) {}

  /** The fixed endpoints (`--webhook-url`). */
  get urls(): readonly string[] {
    return this.options.urls;
  }

  /** The endpoints `owner` registered, oldest first. */
  endpointsOf(owner: EndpointOwner): WebhookEndpoint[] {
    return [...this.registered.values()].filter((endpoint) => endpoint.owner.hash === owner.hash);
  }

  /**
   * Registers an endpoint for `owner`; without a secret of its own it gets a new one, which only
   * the returned endpoint tells. Registering an address again within the organisation replaces its
   * earlier registration (a listener that died without unregistering and now runs again on the
   * same port), so no address gets an event twice.
   */
  register(url: string, owner: EndpointOwner, secret?: string): WebhookEndpoint {
    const href = new URL(url).href;
    for (const [id, endpoint] of this.registered) {
      if (endpoint.url === href && endpoint.owner.organization_id === owner.organization_id) {
        this.registered.delete(id);
        this.log(`webhook endpoint ${id} replaced: ${href} registered again`);
      }
    }
    const endpoint: WebhookEndpoint = {
      id: newId('we'),
      url: href,
      secret: secret ?? newSigningSecret(),
      owner: { hash: owner.hash, organization_id: owner.organization_id },
    };
    this.registered.set(endpoint.id, endpoint);
    this.log(
      `webhook endpoint ${endpoint.id} registered: ${href} (signed with ${secret === undefined ? 'a secret made for it' : 'the secret it brought'})`,
    );
    return endpoint;
  }

  /** Removes an endpoint `owner` registered; undefined when it registered none with that id. */
  unregister(id: string, owner: EndpointOwner): WebhookEndpoint | undefined {
    const endpoint = this.registered.get(id);
    if (!endpoint || endpoint.owner.hash !== owner.hash) return undefined;
    this.registered.delete(id);
    this.log(`webhook endpoint ${id} unregistered: ${endpoint.url}`);
    return endpoint;
  }

  /**
   * Starts delivering the event of an organisation to its endpoints and every --webhook-url, and
   * returns at once, with the addresses it is being delivered to (each once: a registered endpoint
   * before a --webhook-url of the same address).
   */
  send(event: WebhookEvent, organizationId: string): string[] {
    if (this.stopped.signal.aborted) return [];
    const targets = this.targets(organizationId);
    if (targets.length === 0) {
      this.log(
        `fired ${event.event} for ${event.report_id} to no endpoint: run \`svc webhooks listen\` against this mock, or start it with --webhook-url URL`,
      );
      return [];
    }
    const body = JSON.stringify(event);
    for (const target of targets) {
      const delivery = this.deliver(target, body, event).finally(() =>
        this.inFlight.delete(delivery),
      );
      this.inFlight.add(delivery);
    }
    return targets.map((target) => target.url);
  }

  /** Resolves once every delivery started so far was made or given up. */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /** Cancels deliveries in flight and pending retries; later sends do nothing. */
  close(): void {
    this.stopped.abort();
  }

  private targets(organizationId: string): Target[] {
    const targets: Target[] = [];
    for (const { id, url, secret, owner } of this.registered.values()) {
      if (owner.organization_id === organizationId) targets.push({ id, url, secret });
    }
    const taken = new Set(targets.map((target) => target.url));
    for (const url of this.options.urls) {
      const href = new URL(url).href;
      if (taken.has(href)) continue;
      taken.add(href);
      targets.push({ url: href, secret: this.options.secret });
    }
    return targets;
  }

  private async deliver(target: Target, body: string, event: WebhookEvent): Promise<void> {
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const attempts = delays.length + 1;
    const what = `${event.event} for ${event.report_id} to ${target.url}`;
    let everyAttemptRefused = true;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(target, body);
      if (this.stopped.signal.aborted) return;
      if (outcome.ok) {
        this.log(
          `delivered ${what} → ${outcome.status}${attempt > 1 ? ` (attempt ${attempt} of ${attempts})` : ''}`,
        );
        return;
      }
      everyAttemptRefused &&= outcome.refused === true;
      const delay = delays[attempt - 1];
      if (delay === undefined) {
        this.log(
          `could not deliver ${what} (${outcome.why}); gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
        );
        // Nothing listens there any more: a listener that ended without unregistering.
        if (
          everyAttemptRefused &&
          target.id !== undefined &&
          this.registered.get(target.id)?.url === target.url
        ) {
          this.registered.delete(target.id);
          this.log(`webhook endpoint ${target.id} unregistered: nothing listens at ${target.url}`);
        }
        return;
      }
      this.log(
        `could not deliver ${what} (${outcome.why}); retry ${attempt} of ${delays.length} in ${delay}ms`,
      );
      if (!(await this.pause(delay))) return;
    }
  }

  /**
   * One POST and how it went. One deadline covers the whole exchange, and the reply's body is
   * never read (its status is all a delivery needs): a receiver that hangs, or answers without end,
   * costs one attempt's time and nothing more.
   */
  private async attempt(target: Target, body: string): Promise<Outcome> {
    const timeoutMs = this.options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
    // A plain timer, held here and cleared below: a signal from AbortSignal.timeout() that only
    // AbortSignal.any() refers to is lost at a garbage collection on Node 20, and never fires.
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    const stop = () => abort.abort();
    if (this.stopped.signal.aborted) stop();
    else this.stopped.signal.addEventListener('abort', stop, { once: true });
    try {
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': 'svc-mock-webhooks',
        // Signed at each attempt, so a retry is not stale; with the real time (not the mock's
        // clock), as the receiver checks it against its own.
        [SIGNATURE_HEADER]: signatureHeader(target.secret, body, new Date()),
      };
      const status = await postForStatus(target.url, headers, body, abort.signal);
      return status >= 200 && status < 300
        ? { ok: true, status }
        : { ok: false, why: `answered ${status}` };
    } catch (error) {
      if (timedOut) return { ok: false, why: `no answer within ${timeoutMs}ms` };
      const { code, message } = error as NodeJS.ErrnoException;
      return { ok: false, why: `failed: ${code ?? message}`, refused: code === 'ECONNREFUSED' };
    } finally {
      clearTimeout(timer);
      this.stopped.signal.removeEventListener('abort', stop);
    }
  }

  /** Waits, unless close() comes first; true when the wait ran out. */
  private pause(ms: number): Promise<boolean> {
    const signal = this.stopped.signal;
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(false);
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onStop);
        resolve(true);
      }, ms);
      const onStop = () => {
        clearTimeout(timer);
        resolve(false);
      };
      signal.addEventListener('abort', onStop, { once: true });
    });
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}

/**
 * POSTs `body` and resolves with the status of the reply, whose body is never read: the connection
 * (one of its own, no agent) is closed as soon as the status is known. node:http, not the global
 * fetch: fetch refuses ports such as 6000 or 10080 ("bad port"), where a receiver may well listen.
 * Rejects on a network failure and on `signal`, which bounds the exchange.
 */
function postForStatus(
  url: string,
  headers: OutgoingHttpHeaders,
  body: string,
  signal: AbortSignal,
): Promise<number> {
  const request = new URL(url).protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        signal,
        agent: false,
      },
      (response) => {
        resolve(response.statusCode ?? 0);
        response.destroy();
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
