// The bundle's entry: wires the real process (streams, the signals that stop svc) to main().
// bin/svc.cjs handles a stdout that fails for good (a full disk), for this path and its own short
// ones alike; a reader that went away is handled here, where the run's exit code is known.
import { constants } from 'node:os';

import { commandRan } from './core/command-ran.js';
import { EXIT } from './core/errors.js';
import { processIO } from './core/io.js';
import { sayLastWords } from './core/last-words.js';
import { pagerRunning } from './core/stream/pager.js';
import { main } from './main.js';
import { ranUntilStopped } from './service/until-stopped.js';

/** For the build: which bundle runs which command line (src/launch/route.ts). */
export { launchTable } from './main.js';

/**
 * Ctrl-C, `kill` and a closed terminal all ask svc to stop: the command stops cleanly (a
 * `merchants resolve` finishes its writes and saves the lookups not resolved), then svc exits with
 * the code a shell gives a process that signal ended, 128 + its number: 130, 143, 129.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type StopSignal = (typeof STOP_SIGNALS)[number];
/** How long a stopping command may take to finish its writes. */
const STOP_GRACE_MS = 5_000;

export async function run(argv: readonly string[]): Promise<number> {
  const interrupt = new AbortController();
  let stoppedBy: StopSignal | undefined;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      // Ctrl-C while a pager shows the output is the pager's (less ends a search with it, or stops
      // waiting for more): svc goes on until the pager quits, and never leaves it on a terminal
      // that no longer waits for it.
      if (signal === 'SIGINT' && pagerRunning()) return;
      // The first signal lets the command stop cleanly; a second one, or a command still running
      // after the grace period (one blocked reading stdin), does not wait: `timeout` sends one.
      if (stoppedBy) endNow(exitCodeOf(signal));
      stoppedBy = signal;
      interrupt.abort();
      setTimeout(() => endNow(exitCodeOf(signal)), STOP_GRACE_MS).unref();
    });
  }
  // The exit code is the run's, never the fate of a message: a stderr whose reader went away
  // (`svc … 2>&1 | head -1`) or that fails otherwise leaves nobody to tell, so its error is
  // dropped (unheard, Node would end svc with exit 1 at a random moment of the report).
  process.stderr.on('error', () => {});
  // The reader of stdout went away (`svc … | head -1`): no failure of svc's. A command still
  // producing output is asked to stop; one that already failed keeps its exit code (an error
  // status of `svc api` whose body could not be written is still its own code, not 0).
  let stdoutClosed = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' || stdoutClosed) return;
    stdoutClosed = true;
    interrupt.abort();
    setTimeout(() => process.exit(EXIT.ok), STOP_GRACE_MS).unref();
  });
  const code = await main(argv, processIO(), interrupt.signal);
  if (code !== EXIT.interrupted) return code;
  // main() reports any stop as an interruption, Ctrl-C's code; what stopped it decides the code.
  if (stoppedBy) return exitCodeOf(stoppedBy);
  return stdoutClosed ? EXIT.ok : code;
}

/**
 * Ends svc before the command has finished stopping: what it has to say of its work is said first.
 */
function endNow(code: number): never {
  sayLastWords();
  process.exit(code);
}

function exitCodeOf(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

/**
 * What the launcher keeps the code this run compiled as (src/launch/code-cache.ts): the command it
 * ran, '' when it ran none (help, a mistake on the command line); undefined for a server's, whose
 * code is never kept (until-stopped.ts).
 */
export function codeWorthKeeping(): string | undefined {
  return ranUntilStopped() ? undefined : (commandRan() ?? '');
}
