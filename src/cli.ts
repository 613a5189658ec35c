// The bundle's entry: wires the real process (streams, Ctrl-C, a closed stdout) to main().
import { readEnv } from './core/environment.js';
import { EXIT } from './core/errors.js';
import { processIO } from './core/io.js';
import { main } from './main.js';

export async function run(argv: readonly string[]): Promise<number> {
  // The bundle is minified: a stack trace (printed only with --debug) names the sources instead.
  if (argv.includes('--debug') || readEnv(process.env, 'SVC_DEBUG') === '1') process.setSourceMapsEnabled(true);
  const interrupt = new AbortController();
  process.on('SIGINT', () => {
    // The first Ctrl-C lets the command stop cleanly; a second one does not wait.
    if (interrupt.signal.aborted) process.exit(EXIT.interrupted);
    interrupt.abort();
  });
  // `svc … | head -1`: the reader went away, which is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
  return main(argv, processIO(), interrupt.signal);
}
