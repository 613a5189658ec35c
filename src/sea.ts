// The entry of svc's single executable (scripts/release.mjs): Node with the whole program in one
// script, for a machine without Node. The program, the emulator, the packages and jq are all in
// that script, as a Node single executable runs one script and requires built-in modules alone;
// Node keeps V8's code of its top level in the executable. It does what bin/svc.cjs does but load
// the program: `--version` and `--help` are the program's here, as it is already loaded.
import { run } from './cli.js';
import { runComplete } from './completion/entry.js';

const args = process.argv.slice(2);

/**
 * stdout failed: a reader that went away is the program's to handle (it knows the run's exit
 * code); anything else (a full disk, a closed terminal) is one line on stderr and exit 1.
 */
function outputFailed(error: NodeJS.ErrnoException): void {
  if (error.code === 'EPIPE') return;
  // "ENOSPC: no space left on device, write" reads as "no space left on device".
  const reason = /^E[A-Z0-9]+: ([^,]+)/.exec(error.message)?.[1] ?? error.code ?? error.message;
  process.stderr.write(`error: cannot write output: ${reason}\n`, () => process.exit(1));
}

process.stdout.on('error', outputFailed);
if (args[0] === '__complete') {
  // A completion script asking for values while the user presses TAB.
  process.exitCode = runComplete(args.slice(1));
} else {
  void run(args).then((code) => {
    process.exitCode = code;
  });
}
