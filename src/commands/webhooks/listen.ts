import { secureUrl } from '../../core/urls.js';
import type { Context } from '../../core/context.js';
import { CliError, EXIT, InterruptedError, UsageError } from '../../core/errors.js';
import { createPaint, type Paint } from '../../core/output/paint.js';
import type { Delivery, Receiver } from '../../webhooks/receiver.js';
import { checkInteger } from '../args.js';
import { signingSecret } from './secret.js';

interface ListenFlags {
  port: string;
  secret?: string;
  forwardTo?: string;
  exitAfter?: string;
  wait?: string;
}

const DEFAULT_WAIT_SECONDS = 60;

export async function listenForWebhooks(ctx: Context, options: ListenFlags): Promise<void> {
  const port = checkInteger(options.port, '--port', 0, 65_535)!;
  const secret = signingSecret(ctx, options.secret);
  const forwardTo = options.forwardTo === undefined ? undefined : checkForwardUrl(options.forwardTo);
  const exitAfter = checkInteger(options.exitAfter, '--exit-after', 1, 1_000_000);
  if (options.wait !== undefined && exitAfter === undefined) {
    throw new UsageError('--wait bounds the wait for --exit-after N events: give --exit-after too');
  }
  const waitSeconds = options.wait === undefined ? DEFAULT_WAIT_SECONDS : checkInteger(options.wait, '--wait', 1, 86_400)!;
  // The global --timeout bounds each forwarded request, as it bounds every HTTP attempt.
  const forwardTimeoutMs = ctx.attemptTimeoutMs;
  const paint = await createPaint(ctx.color);

  const [{ startReceiver }, { forwardDelivery }] = await Promise.all([import('../../webhooks/receiver.js'), import('../../webhooks/forward.js')]);
  const forwards = new Set<Promise<void>>();
  const stopForwards = new AbortController();
  let received = 0;
  let end!: (error?: Error) => void;
  const ended = new Promise<void>((resolve, reject) => (end = (error) => (error ? reject(error) : resolve())));

  const onDelivery = (delivery: Delivery) => {
    received++;
    ctx.out(eventLine(delivery, ctx.machineOutput, paint));
    if (forwardTo) {
      const forward = forwardDelivery(forwardTo, delivery, { timeoutMs: forwardTimeoutMs, signal: stopForwards.signal })
        .then((status) => (status >= 200 && status < 300 ? ctx.err(`  forwarded to ${forwardTo}: ${status}`) : ctx.warn(`${forwardTo} answered ${status} to the forwarded ${delivery.event.event}`)))
        .catch((error: Error) => ctx.warn(`forwarding ${delivery.event.event} to ${forwardTo} failed: ${error.cause instanceof Error ? error.cause.message : error.message}`))
        .finally(() => forwards.delete(forward));
      forwards.add(forward);
    }
    if (exitAfter !== undefined && received >= exitAfter) {
      receiver?.stop();
      end();
    }
  };

  let receiver: Receiver | undefined;
  try {
    receiver = await startReceiver({
      port,
      secret,
      onDelivery,
      onRejected: (reason, request) => ctx.warn(`refused a delivery (${request.method} ${request.path}): ${reason}`),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new UsageError(`port ${port} is in use; pick another with --port, or --port 0 for a free one`);
    throw error;
  }
  ctx.err(`Listening for webhook deliveries on ${receiver.url} (any path)${exitAfter === undefined ? '; Ctrl-C stops' : ''}`);
  if (forwardTo) ctx.err(`Forwarding valid deliveries to ${forwardTo}`);

  const stopWaiting = new AbortController();
  if (exitAfter !== undefined) {
    ctx.sleep(waitSeconds * 1000, AbortSignal.any([ctx.signal, stopWaiting.signal])).then(
      () => end(new CliError(`got ${received} of ${exitAfter} event${exitAfter === 1 ? '' : 's'} within ${waitSeconds} s`, EXIT.network, ['Raise the limit with --wait SECONDS.'])),
      () => {}, // ended first
    );
  }
  // Ctrl-C ends a plain listen normally; while waiting for --exit-after events it is an interruption.
  const onAbort = () => end(exitAfter === undefined ? undefined : new InterruptedError());
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await ended;
  } finally {
    stopWaiting.abort();
    ctx.signal.removeEventListener('abort', onAbort);
    await receiver.close();
    if (ctx.signal.aborted) stopForwards.abort();
    await Promise.all([...forwards]);
  }
}

/** One line per event: for people a timestamp, the event and the report; for machines the body, compact. */
function eventLine(delivery: Delivery, machine: boolean, paint: Paint): string {
  if (machine) return JSON.stringify(JSON.parse(delivery.raw.toString('utf8'))) + '\n';
  const { event, report_id: reportId, timestamp, error_code: errorCode } = delivery.event;
  const kind = event === 'report.failed' ? paint.bad(event) : event === 'report.ready' ? paint.good(event) : event;
  return [timestamp, kind, reportId, ...(errorCode ? [errorCode] : [])].join('  ') + '\n';
}

function checkForwardUrl(value: string): string {
  // A delivery holds report data: it crosses the network only encrypted.
  const { url, problem } = secureUrl(value, 'http://localhost:3000/webhooks');
  if (!url) throw new UsageError(`--forward-to "${value}" ${problem}`);
  return url.toString();
}
