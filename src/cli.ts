// The bundle's entry: wires the real process (streams, the signals that stop svc) to main().
// bin/svc.cjs handles a failing stdout, for this path and its own short ones alike.
import { constants } from 'node:os';
import { readEnv } from './core/environment.js';
import { EXIT } from './core/errors.js';
import { processIO } from './core/io.js';
import { main } from './main.js';

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
  // The bundle is minified: a stack trace (printed only with --debug) names the sources instead.
  if (argv.includes('--debug') || readEnv(process.env, 'SVC_DEBUG') === '1') process.setSourceMapsEnabled(true);
  const interrupt = new AbortController();
  let stoppedBy: StopSignal | undefined;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      // The first signal lets the command stop cleanly; a second one, or a command still running
      // after the grace period (one blocked reading stdin), does not wait: `timeout` sends one.
      if (stoppedBy) process.exit(exitCodeOf(signal));
      stoppedBy = signal;
      interrupt.abort();
      setTimeout(() => process.exit(exitCodeOf(signal)), STOP_GRACE_MS).unref();
    });
  }
  const code = await main(argv, processIO(), interrupt.signal);
  // main() reports any stop as an interruption, Ctrl-C's code; the signal decides the code.
  return code === EXIT.interrupted && stoppedBy ? exitCodeOf(stoppedBy) : code;
}

function exitCodeOf(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}
