// Which state of the file is this run's. The file may hold what an earlier run at the same path
// left: a server killed outright leaves `listening` or `starting`, one that could not start leaves
// `failed`; and the pid in it may since have been given to another process (a container started
// anew numbers its processes alike). So a state is taken on one of two proofs only:
//  - its writer still runs: the process of that pid, started when the state says (`pid_start`;
//    where the OS does not tell a process's start, the pid alone). A `listening` state so proved is
//    live, whenever it was written: a server that listened before svc ready started is found at
//    once.
//  - it was written since svc ready began: its `written_at` is not before the start of svc ready's
//    process, or the file changed while svc ready watched it. Its server is then this run's, and a
//    `failed` state, or the state of a writer that no longer runs, is how that server ended.
// Anything else was left by an earlier run and is waited past: the server started with svc ready
// replaces it with its own. A server that failed before svc ready's process started (svc ready
// started late, or after a pause) cannot be told from an earlier run's: svc ready then exits 9 at
// its bound, naming what the file holds.
import type { Context } from '../../app/context.js';
import { CliError, EXIT, UsageError } from '../../core/errors.js';
import { readReadyFile, type ServerState, writerRuns } from '../../service/ready-file.js';

const DEFAULT_WAIT_SECONDS = 30;
const POLL_MS = 50;

export async function waitUntilReady(
  ctx: Context,
  file: string,
  options: { wait?: number },
): Promise<void> {
  const waitSeconds = options.wait ?? DEFAULT_WAIT_SECONDS;
  const started = ctx.now();
  /** The file as first read: what it says later is new. */
  let first: string | undefined;
  /** The last starting state of a server seen running: gone from the file later, it stopped. */
  let seen: ServerState | undefined;
  for (let reads = 0; ; reads++) {
    const reading = readReadyFile(file);
    if (reading.kind === 'refused') throw new UsageError(`cannot read ${file}: ${reading.reason}`);
    const state = reading.kind === 'state' ? reading.state : undefined;
    const text = state && JSON.stringify(state);
    if (reads === 0) first = text;
    if (state) {
      const runs = writerRuns(state);
      if (runs && state.state === 'listening')
        return ctx.out(
          ctx.format === 'json' ? JSON.stringify(state, null, 2) + '\n' : `${state.url}\n`,
        );
      const thisRun = Date.parse(state.written_at) >= ctx.began || text !== first;
      if (thisRun && (state.state === 'failed' || !runs)) throw endedBeforeListening(state);
      if (runs && state.state === 'starting') seen = state;
    } else if (seen) {
      // Removed: the server it named stopped without listening (Ctrl-C), or after (then too late to
      // use).
      throw new CliError(
        `${seen.command} (pid ${seen.pid}) stopped before it could be used`,
        EXIT.failure,
        ['Its stderr says why.'],
      );
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
      // Its own exit code, which a script may branch on; a file can say anything, so only a failing
      // one.
      const exitCode =
        state.exit_code >= 1 && state.exit_code <= 255 ? state.exit_code : EXIT.failure;
      return new CliError(`${who} could not start: ${state.error}`, exitCode, state.hints);
    }
    case 'starting':
      return new CliError(`${who} stopped before it listened, without saying why`, EXIT.failure, [
        'It was killed, or crashed: its stderr may say more.',
      ]);
    case 'listening':
      return new CliError(`${who} listened at ${state.url}, but no longer runs`, EXIT.failure, [
        'It was killed: its stderr may say more.',
      ]);
  }
}

/**
 * The bound passed: the file was not written, its server is still starting, or it holds an earlier
 * run's state.
 */
function nothingListened(
  file: string,
  waitSeconds: number,
  state: ServerState | undefined,
): CliError {
  const within = `nothing listened within ${waitSeconds} s`;
  if (!state) {
    return new CliError(`${within}: ${file} was not written`, EXIT.network, [
      `Was the server started with --ready-file ${file}? Raise the bound with --wait SECONDS.`,
    ]);
  }
  if (state.state === 'starting' && writerRuns(state)) {
    return new CliError(
      `${within}: ${state.command} (pid ${state.pid}) is still starting`,
      EXIT.network,
      ['Raise the bound with --wait SECONDS.'],
    );
  }
  return new CliError(
    `${within}: ${file} holds only a state written before svc ready began (${endedBeforeListening(state).message})`,
    EXIT.network,
    [
      "An earlier run's state is never taken for this run's: start svc ready along with the server, and give each run a new file (mktemp -d).",
    ],
  );
}
