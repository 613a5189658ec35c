// Real webhook deliveries from the mock: each fired event is POSTed, signed, to every URL given
// with `svc mock --webhook-url`, in the background. A delivery that fails (no connection, a
// timeout, a status other than 2xx) is retried a few times with growing delays, then given up.
// close() cancels every delivery in flight and every retry still waiting.
import { SIGNATURE_HEADER, signatureHeader } from './signature.js';

/** A delivery's body, as documented: the event, the report, when, and the full report as `result`. */
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

/** Waits before the 2nd, 3rd and 4th attempt: four attempts in all, about 3.5 s of waiting. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [500, 1000, 2000];
const ATTEMPT_TIMEOUT_MS = 5000;

export interface WebhookSenderOptions {
  urls: readonly string[];
  secret: string;
  retryDelaysMs?: readonly number[];
  attemptTimeoutMs?: number;
  /** One line per attempt. */
  log?: (line: string) => void;
}

export class WebhookSender {
  private readonly stopped = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: WebhookSenderOptions) {}

  get urls(): readonly string[] {
    return this.options.urls;
  }

  /** Starts delivering the event to every URL and returns at once. */
  send(event: WebhookEvent): void {
    if (this.stopped.signal.aborted) return;
    const body = JSON.stringify(event);
    for (const url of this.options.urls) {
      const delivery = this.deliver(url, body, event).finally(() => this.inFlight.delete(delivery));
      this.inFlight.add(delivery);
    }
  }

  /** Resolves once every delivery started so far was made or given up. */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /** Cancels deliveries in flight and pending retries; later sends do nothing. */
  close(): void {
    this.stopped.abort();
  }

  private async deliver(url: string, body: string, event: WebhookEvent): Promise<void> {
    const delays = this.options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const attempts = delays.length + 1;
    const what = `webhook ${event.event} ${event.report_id} → ${url}`;
    for (let attempt = 1; ; attempt++) {
      const failure = await this.attempt(url, body);
      if (this.stopped.signal.aborted) return;
      if (failure === undefined) {
        this.log(`${what} delivered (attempt ${attempt} of ${attempts})`);
        return;
      }
      const delay = delays[attempt - 1];
      if (delay === undefined) {
        this.log(`${what} ${failure}; gave up after ${attempts} attempts`);
        return;
      }
      this.log(`${what} ${failure}; retry ${attempt} of ${delays.length} in ${delay}ms`);
      if (!(await this.pause(delay))) return;
    }
  }

  /** One POST; undefined when the receiver answered 2xx, else what went wrong. */
  private async attempt(url: string, body: string): Promise<string | undefined> {
    const timeoutMs = this.options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'svc-mock-webhooks',
          // Signed at each attempt, so a retry is not stale; with the real time (not the mock's
          // clock), as the receiver checks it against its own.
          [SIGNATURE_HEADER]: signatureHeader(this.options.secret, body, new Date()),
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([this.stopped.signal, AbortSignal.timeout(timeoutMs)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.status >= 200 && response.status < 300 ? undefined : `answered ${response.status}`;
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') return `no answer within ${timeoutMs}ms`;
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return `failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
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
