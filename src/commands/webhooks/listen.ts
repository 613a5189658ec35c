import type { Context } from '../../app/context.js';
import {
  CliError,
  EXIT,
  InterruptedError,
  NetworkError,
  UnexpectedReplyError,
  UsageError,
} from '../../core/errors.js';
import { type Masker, shownText } from '../../core/output/format.js';
import { createPaint, type Paint } from '../../core/output/paint.js';
import { fieldLines } from '../../core/output/prose.js';
import { secureUrl, shownUrl } from '../../core/urls.js';
import { exitCodeFor } from '../../service/errors.js';
import { keepingState, type ReadyFile } from '../../service/ready-file.js';
import { runUntilStopped } from '../../service/until-stopped.js';
import { USER_AGENT } from '../../version.js';
import { forwardDelivery } from '../../webhooks/forward.js';
import {
  mockCandidate,
  registerWithMock,
  type Registration,
  unregisterFromMock,
} from '../../webhooks/mock-endpoint.js';
import { type Delivery, type Receiver, startReceiver } from '../../webhooks/receiver.js';
import { MAX_SHOWN_CHARS, shownJson } from '../../webhooks/shown.js';
import { checkInteger } from '../args.js';
import { keptListenerSecret } from './listener-secret.js';
import { givenSigningSecret, noSigningSecret, SERVICE_SECRET_HINT } from './secret.js';

interface ListenFlags {
  port: string;
  secret?: string;
  forwardTo?: string;
  exitAfter?: string;
  wait?: string;
  readyFile?: string;
  printSecret?: boolean;
}

const DEFAULT_WAIT_SECONDS = 60;
/** How long the listener's registration is given to be removed from svc mock as it ends. */
const UNREGISTER_TIMEOUT_MS = 2000;

export async function listenForWebhooks(ctx: Context, options: ListenFlags): Promise<void> {
  if (options.printSecret) return printSigningSecret(ctx, options);
  // Kept from the first moment: a script waiting on it (svc ready) learns of a bad flag too.
  await keepingState(
    options.readyFile,
    'svc webhooks listen',
    { shown: (text) => shownText(text, ctx.secrets), now: () => ctx.now() },
    (ready) => listen(ctx, options, ready),
  );
}

async function listen(
  ctx: Context,
  options: ListenFlags,
  ready: ReadyFile | undefined,
): Promise<void> {
  const { port, forwardTo, exitAfter, waitSeconds, timeoutMs } = checkListenFlags(ctx, options);
  // Taken once the command line is known good: a usage error is then the only line on stderr.
  const given = givenSigningSecret(ctx, options.secret);
  // A base URL on this machine may be svc mock: the listener then registers with it (below).
  const settings = await ctx.config.settings();
  const mockUrl = mockCandidate(settings.baseUrl);
  if (given === undefined && mockUrl === undefined) throw noSigningSecret(NO_SECRET_HINTS);
  // Against svc mock without a secret of the user's: the one svc keeps for its listeners, which
  // the mock is asked to sign with (undefined when it cannot be kept: the mock then makes one).
  const kept = given === undefined ? await keptListenerSecret(ctx, false) : undefined;
  const paint = await createPaint(ctx.color);
  // The mock answers its admin routes only to one of its keys: the key in force goes with them.
  const mockCall = {
    // A profile's key kept in the keyring is read only when there is a mock to give it to.
    apiKey:
      mockUrl !== undefined && settings.keyStore === 'keyring'
        ? await ctx.config.apiKey()
        : settings.apiKey,
    timeoutMs,
    userAgent: USER_AGENT,
    transport: ctx.directTransport(),
    trace: ctx.debug ? (line: string) => ctx.err(line) : undefined,
  };
  // The global --timeout bounds each forwarded request, as it bounds every HTTP attempt.
  const forwarder =
    forwardTo === undefined ? undefined : await forwardingTo(ctx, forwardTo, timeoutMs);
  let received = 0;
  let end!: (error?: Error) => void;
  const ended = new Promise<void>(
    (resolve, reject) => (end = (error) => (error ? reject(error) : resolve())),
  );

  let receiver: Receiver | undefined;
  const onDelivery = (delivery: Delivery) => {
    received++;
    ctx.out(
      eventLine(
        delivery,
        ctx.machineOutput,
        paint,
        ctx.secrets,
        ctx.io.stdoutIsTTY ? ctx.io.columns : undefined,
      ),
    );
    forwarder?.forward(delivery);
    if (exitAfter !== undefined && received >= exitAfter) {
      receiver?.stop();
      end();
    }
  };
  receiver = await openReceiver(ctx, port, given, onDelivery);

  // Registered before "Listening" is printed, so an event fired once that line shows reaches us.
  let registeredId: string | undefined;
  try {
    const brought = given?.secret ?? kept;
    const endpoint = { url: `${receiver.url}/`, ...(brought !== undefined && { secret: brought }) };
    const registration =
      mockUrl === undefined
        ? undefined
        : await registering(
            ctx,
            registerWithMock(mockUrl, endpoint, { ...mockCall, signal: ctx.signal }),
          );
    registeredId = agreeOnSecret(
      ctx,
      receiver,
      mockUrl,
      given,
      kept,
      registration,
      mockCall.apiKey !== undefined,
    );
  } catch (error) {
    await receiver.close();
    if (!(error instanceof StoppedWhileRegistering)) throw error;
    // Ctrl-C while registering: stopped before listening.
    if (exitAfter !== undefined) throw new InterruptedError();
    return;
  }
  ready?.listeningAt(receiver.url);
  ctx.err(
    `Listening for webhook deliveries on ${receiver.url} (any path)${exitAfter === undefined ? '; Ctrl-C stops' : ''}`,
  );
  if (forwarder) ctx.err(`Forwarding valid deliveries to ${forwarder.target}`);

  try {
    await untilEnded(
      ctx,
      ended,
      end,
      exitAfter === undefined ? undefined : { exitAfter, waitSeconds, received: () => received },
    );
  } finally {
    // Best effort, and not cut short by Ctrl-C: otherwise the mock goes on delivering to a closed
    // port.
    if (mockUrl !== undefined && registeredId !== undefined) {
      const failure = await unregisterFromMock(mockUrl, registeredId, {
        ...mockCall,
        timeoutMs: UNREGISTER_TIMEOUT_MS,
      });
      if (failure)
        ctx.warn(
          `could not unregister this listener from svc mock at ${mockUrl} (${failure}); it drops the address once deliveries find nothing there`,
        );
    }
    await receiver.close();
    await forwarder?.settled();
  }
}

const NO_SECRET_HINTS = [
  SERVICE_SECRET_HINT,
  'Or run `svc mock` and point SVC_BASE_URL at it (with one of its keys): listen then registers with it and verifies with the secret it is given.',
];

/**
 * `--print-secret`: the signing secret a listener run with the same flags and settings verifies
 * with, alone on stdout (as `stripe listen --print-secret`), and nothing else done: the user's
 * (--secret, SVC_WEBHOOK_SECRET), else against svc mock the one svc keeps for its listeners
 * (listener-secret.ts). No request is sent. The secret is the output asked for: it is written
 * whole, where everything else svc writes masks it.
 */
async function printSigningSecret(ctx: Context, options: ListenFlags): Promise<void> {
  const listening = (['forwardTo', 'exitAfter', 'wait', 'readyFile'] as const).find(
    (flag) => options[flag] !== undefined,
  );
  if (listening)
    throw new UsageError(
      `--print-secret prints the signing secret and exits: it takes no --${listening.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
    );
  // The secret is no JSON for jq to read, and a filter's output is masked.
  if (ctx.flags.jq !== undefined)
    throw new UsageError('--print-secret prints the signing secret alone: it takes no --jq');
  const given = givenSigningSecret(ctx, options.secret);
  let secret = given?.secret;
  if (secret === undefined) {
    if (mockCandidate((await ctx.config.settings()).baseUrl) === undefined)
      throw noSigningSecret(NO_SECRET_HINTS);
    secret = await keptListenerSecret(ctx, true);
  }
  ctx.outSecret(`${secret}\n`);
}

/** A peer's text in a line of this command: through the one gate of peer text, cut short. */
function shown(text: string, ctx: Context): string {
  return shownText(text, ctx.secrets, MAX_SHOWN_CHARS);
}

/**
 * The flags checked, before anything else is done; `timeoutMs`: the global --timeout, the bound of
 * every request. Checked here, not by their declaration, so that a bad one is kept in --ready-file
 * for `svc ready` (keepingState): commander's refusals come before that file is opened.
 */
function checkListenFlags(
  ctx: Context,
  options: ListenFlags,
): {
  port: number;
  forwardTo?: string;
  exitAfter?: number;
  waitSeconds: number;
  timeoutMs: number;
} {
  const port = checkInteger(options.port, '--port', 0, 65_535)!;
  const forwardTo =
    options.forwardTo === undefined ? undefined : checkForwardUrl(options.forwardTo);
  const exitAfter = checkInteger(options.exitAfter, '--exit-after', 1, 1_000_000);
  if (exitAfter === undefined) runUntilStopped(ctx.flags.jq, 'svc webhooks listen');
  if (options.wait !== undefined && exitAfter === undefined) {
    throw new UsageError('--wait bounds the wait for --exit-after N events: give --exit-after too');
  }
  const waitSeconds =
    options.wait === undefined
      ? DEFAULT_WAIT_SECONDS
      : checkInteger(options.wait, '--wait', 1, 86_400)!;
  return { port, forwardTo, exitAfter, waitSeconds, timeoutMs: ctx.attemptTimeoutMs };
}

/**
 * The receiver on `port`, verifying with the given secret (or, later, one agreed with svc mock); a
 * port in use is a usage error.
 */
async function openReceiver(
  ctx: Context,
  port: number,
  given: { secret: string } | undefined,
  onDelivery: (delivery: Delivery) => void,
): Promise<Receiver> {
  try {
    return await startReceiver({
      port,
      secret: given?.secret,
      onDelivery,
      // The reason may quote the sender's header; the path is the sender's too.
      onRejected: (reason, request) =>
        ctx.warn(
          `refused a delivery (${shown(request.method, ctx)} ${shown(request.path, ctx)}): ${shown(reason, ctx)}`,
        ),
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new UsageError(
        `port ${port} is in use; pick another with --port, or --port 0 for a free one`,
      );
    throw error;
  }
}

/** Ctrl-C came while the listener was registering with svc mock. */
class StoppedWhileRegistering extends Error {}

/** The registration under way; its failure after Ctrl-C is StoppedWhileRegistering. */
async function registering(
  ctx: Context,
  registration: Promise<Registration>,
): Promise<Registration> {
  try {
    return await registration;
  } catch (error) {
    if (ctx.signal.aborted) throw new StoppedWhileRegistering();
    throw error;
  }
}

/**
 * Each valid delivery POSTed on to the --forward-to target, as it comes; what the target answers
 * is said on stderr. `settled` waits for the forwards still running (cut short after Ctrl-C).
 */
async function forwardingTo(
  ctx: Context,
  forwardTo: string,
  timeoutMs: number,
): Promise<{
  target: string;
  forward: (delivery: Delivery) => void;
  settled: () => Promise<void>;
}> {
  /** The target as messages name it: without a password it may carry. */
  const target = shownUrl(forwardTo);
  const forwards = new Set<Promise<void>>();
  const stopForwards = new AbortController();
  const forward = (delivery: Delivery) => {
    // The event's name and what the target says are theirs: shown inert, as every peer's text.
    const event = shown(delivery.event.event, ctx);
    const forwarding = forwardDelivery(forwardTo, delivery, {
      timeoutMs,
      signal: stopForwards.signal,
    })
      .then(({ status, excerpt }) => {
        if (status >= 200 && status < 300) return ctx.err(`  forwarded to ${target}: ${status}`);
        const said = shown(excerpt, ctx);
        ctx.warn(
          `${target} answered ${status} to the forwarded ${event}${said ? `: ${said}` : ''}`,
        );
      })
      .catch((error: Error) =>
        ctx.warn(`forwarding ${event} to ${target} failed: ${shown(error.message, ctx)}`),
      )
      .finally(() => forwards.delete(forwarding));
    forwards.add(forwarding);
  };
  const settled = async () => {
    if (ctx.signal.aborted) stopForwards.abort();
    await Promise.all([...forwards]);
  };
  return { target, forward, settled };
}

/**
 * Resolves when the run ends: at Ctrl-C for a plain listen, or once `end` is called (--exit-after
 * events came); with --exit-after, Ctrl-C is an interruption and the wait is bounded by --wait.
 */
async function untilEnded(
  ctx: Context,
  ended: Promise<void>,
  end: (error?: Error) => void,
  counting: { exitAfter: number; waitSeconds: number; received: () => number } | undefined,
): Promise<void> {
  const stopWaiting = new AbortController();
  if (counting) {
    const { exitAfter, waitSeconds, received } = counting;
    ctx.sleep(waitSeconds * 1000, AbortSignal.any([ctx.signal, stopWaiting.signal])).then(
      () =>
        end(
          new CliError(
            `got ${received()} of ${exitAfter} event${exitAfter === 1 ? '' : 's'} within ${waitSeconds} s`,
            EXIT.network,
            ['Raise the limit with --wait SECONDS.'],
          ),
        ),
      () => {}, // ended first
    );
  }
  // Ctrl-C ends a plain listen normally; while waiting for --exit-after events it is an
  // interruption.
  const onAbort = () => end(counting ? new InterruptedError() : undefined);
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    await ended;
  } finally {
    stopWaiting.abort();
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The secret deliveries are verified with, agreed with svc mock when the base URL is one: the
 * user's (--secret, SVC_WEBHOOK_SECRET), else the one svc keeps for its listeners (`kept`), which
 * the mock then signs this listener's deliveries with and names in its registration reply; else
 * one the mock makes for this listener and tells only there. Says on stderr what was agreed;
 * returns the registration's id, to remove it at the end.
 */
function agreeOnSecret(
  ctx: Context,
  receiver: Receiver,
  mockUrl: string | undefined,
  given: { secret: string; source: string } | undefined,
  kept: string | undefined,
  registration: Registration | undefined,
  keySent: boolean,
): string | undefined {
  if (registration?.kind === 'registered') {
    // Without a secret of the user's, the one the mock says it signs with: the one svc brought.
    const secret = given?.secret ?? registration.secret;
    ctx.secrets.add(secret);
    receiver.useSecret(secret);
    const signedWith = given
      ? `your secret (${given.source})`
      : secret === kept
        ? `the secret svc keeps for its listeners (svc webhooks listen --print-secret), …${secret.slice(-4)}`
        : `a secret it made for this listener, …${secret.slice(-4)}`;
    ctx.err(
      `Registered with svc mock at ${mockUrl} as ${shown(registration.id, ctx)}: events fired there come here, signed with ${signedWith}`,
    );
    return registration.id;
  }
  if (registration?.kind === 'unexpected') {
    const answer = `svc mock at ${mockUrl} answered the registration with ${registration.reason}`;
    if (given === undefined) throw new UnexpectedReplyError(answer);
    ctx.warn(`not registered with svc mock: ${answer}; events fired there do not come here`);
    return undefined;
  }
  // Not svc mock, or it did not answer, or it refused: as a plain listener, with the user's secret.
  const refusedByMock =
    registration?.kind === 'not-registered' && registration.fromMock ? registration : undefined;
  if (given === undefined) {
    // A service that cannot be reached is a network failure (exit 9), as for every command.
    if (registration?.kind === 'unreachable') {
      throw new NetworkError(
        `cannot reach svc mock at ${mockUrl} to agree a signing secret: ${registration.reason}`,
        undefined,
        [
          'Is svc mock running there? Start it with `svc mock`, or pass the secret of the endpoint that sends the deliveries (--secret or SVC_WEBHOOK_SECRET).',
        ],
      );
    }
    if (refusedByMock) throw mockRefusal(ctx, mockUrl!, refusedByMock, keySent);
    // Only svc mock agrees a secret: whatever another server answers, the key is not in question.
    throw noSigningSecret([
      `${mockUrl} is not svc mock, the only service that agrees a signing secret with a listener.`,
      SERVICE_SECRET_HINT,
    ]);
  }
  if (refusedByMock)
    ctx.warn(
      `not registered with svc mock: ${mockRefusal(ctx, mockUrl!, refusedByMock, keySent).message}; events fired there do not come here`,
    );
  else if (registration?.kind === 'unreachable') {
    ctx.warn(
      `not registered with svc mock: nothing answered at ${mockUrl} (${shown(registration.reason, ctx)}); if svc mock starts there, restart this listener so that fired events reach it`,
    );
  }
  return undefined;
}

/**
 * svc mock refused the registration: a key it does not know is the key's fault (exit 3), anything
 * else as its status says.
 */
function mockRefusal(
  ctx: Context,
  mockUrl: string,
  refusal: { status: number; code?: string; message?: string },
  keySent: boolean,
): CliError {
  if (refusal.status === 401) {
    return new CliError(
      keySent
        ? `svc mock at ${mockUrl} does not know the key in force`
        : `svc mock at ${mockUrl} answers only one of its keys, and no key is configured`,
      EXIT.auth,
      [
        'Use one of the keys its banner lists (svc mock keeps them from one start to the next; `svc mock --new-keys` replaces them), with SVC_API_KEY or `svc login`.',
      ],
    );
  }
  const said = refusal.message ? `: ${shown(refusal.message, ctx)}` : '';
  return new CliError(
    `svc mock at ${mockUrl} refused to register this listener (${refusal.status}${refusal.code ? ` ${shown(refusal.code, ctx)}` : ''})${said}`,
    exitCodeFor(refusal.code, undefined, refusal.status),
  );
}

/**
 * One line per event: for people a timestamp, the event and the report; for machines the body,
 * compact. Every field is the sender's, so each is shown inert (shown.ts) before it is painted.
 * On a terminal (`width`) a field that does not fit goes on to the next line, whole.
 */
function eventLine(
  delivery: Delivery,
  machine: boolean,
  paint: Paint,
  secrets: Masker,
  width?: number,
): string {
  if (machine) return shownJson(delivery.body) + '\n';
  const [event, reportId, timestamp, errorCode] = [
    delivery.event.event,
    delivery.event.report_id,
    delivery.event.timestamp,
    delivery.event.error_code ?? '',
  ].map((field) => shownText(field, secrets, MAX_SHOWN_CHARS));
  const kind =
    event === 'report.failed'
      ? paint.bad(event)
      : event === 'report.ready'
        ? paint.good(event)
        : event;
  const fields = [timestamp!, kind!, reportId!, ...(errorCode ? [errorCode] : [])];
  return (width === undefined ? fields.join('  ') : fieldLines(fields, width).join('\n')) + '\n';
}

function checkForwardUrl(value: string): string {
  // A delivery holds report data: it crosses the network only encrypted.
  const { url, problem } = secureUrl(value, 'http://localhost:3000/webhooks');
  if (!url) throw new UsageError(`--forward-to "${shownUrl(value)}" ${problem}`);
  return url.toString();
}
