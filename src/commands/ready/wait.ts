import type { Context } from '../../app/context.js';
import { CliError, EXIT, UsageError } from '../../core/errors.js';
import { isRunning, readReadyFile, type ServerState } from '../../core/ready-file.js';

const DEFAULT_WAIT_SECONDS = 30;
const POLL_MS = 50;
/**
 * How long the final state of a server that no longer runs is given to be replaced before it is
 * believed: a state left by an earlier run at the same path (a script run twice) reads the same
 * as this run's, until this run's server writes its own.
 */
const LEFT_BEHIND_GRACE_MS = 2000;

export async function waitUntilReady(ctx: Context, file: string, options: { wait?: number }): Promise<void> {
  const waitSeconds = options.wait ?? DEFAULT_WAIT_SECONDS;
  const started = ctx.now();
  /** The file as first read: the one state that may be an earlier run's. */
  let first: string | undefined;
  /** The last state of a running server seen: gone from the file later, it stopped. */
  let seen: ServerState | undefined;
  let ended: { text: string; since: number } | undefined;
  for (let reads = 0; ; reads++) {
    const reading = readReadyFile(file);
    if (reading.kind === 'refused') throw new UsageError(`cannot read ${file}: ${reading.reason}`);
    const state = reading.kind === 'state' ? reading.state : undefined;
    const text = state && JSON.stringify(state);
    if (reads === 0) first = text;
    const running = state !== undefined && isRunning(state.pid);
    if (state?.state === 'listening' && running) return ctx.out(ctx.format === 'json' ? JSON.stringify(state, null, 2) + '\n' : `${state.url}\n`);
    if (state && (state.state === 'failed' || !running)) {
      // It ended (a failed server may not have exited yet): this run's server when the file changed
      // since it was first read, else given a moment to be replaced by this run's.
      if (ended?.text !== text) ended = { text: text!, since: ctx.now() };
      const settled = text !== first || ctx.now() - ended!.since >= LEFT_BEHIND_GRACE_MS;
      if (settled || ctx.now() - started >= waitSeconds * 1000) throw endedBeforeListening(state);
    } else if (state) {
      seen = state;
    } else if (seen) {
      // Removed: the server it named stopped without listening (Ctrl-C), or after (then too late to use).
      throw new CliError(`${seen.command} (pid ${seen.pid}) stopped before it could be used`, EXIT.failure, ['Its stderr says why.']);
    }
    if (ctx.now() - started >= waitSeconds * 1000) throw nothingListened(file, waitSeconds, state);
    await ctx.sleep(POLL_MS);
  }
}

/** The server is gone: what it said as it failed, else that it said nothing. */
function endedBeforeListening(state: ServerState): CliError {
  const who = `${state.command} (pid ${state.pid})`;
  switch (state.state) {
    case 'failed': {
      // Its own exit code, which a script may branch on; a file can say anything, so only a failing one.
      const exitCode = state.exit_code >= 1 && state.exit_code <= 255 ? state.exit_code : EXIT.failure;
      return new CliError(`${who} could not start: ${state.error}`, exitCode, state.hints);
    }
    case 'starting':
      return new CliError(`${who} stopped before it listened, without saying why`, EXIT.failure, ['It was killed, or crashed: its stderr may say more.']);
    case 'listening':
      return new CliError(`${who} listened at ${state.url}, but no longer runs`, EXIT.failure, ['It was killed, or its state file was left by an earlier run.']);
  }
}

function nothingListened(file: string, waitSeconds: number, state: ServerState | undefined): CliError {
  const found = state ? `${state.command} (pid ${state.pid}) is still starting` : `${file} was not written`;
  return new CliError(`nothing listened within ${waitSeconds} s: ${found}`, EXIT.network, [
    state ? 'Raise the bound with --wait SECONDS.' : `Was the server started with --ready-file ${file}? Raise the bound with --wait SECONDS.`,
  ]);
}
