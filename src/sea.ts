// The entry of svc's single executable (scripts/release.mjs): Node with the whole program in one
// script, for a machine without Node. The program, the emulator, the packages and jq are all in
// that script, as a Node single executable runs one script and requires built-in modules alone;
// Node keeps V8's code of its top level in the executable. It takes the paths bin/svc.cjs takes:
// the program is evaluated only when a command runs (the bundle's `import()`s are functions of
// the one script), so `--version`, `--help` and a TAB in a shell do without it.
import { isatty } from 'node:tty';

import { VERSION } from './version.js';

/** `svc --help` as the build made it (dist/help.txt), 80 columns wide. */
declare const __SVC_HELP__: string;

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
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${VERSION}\n`);
} else if (
  args.length === 1 &&
  (args[0] === '--help' || args[0] === '-h') &&
  !(isatty(1) && (process.stdout.columns || 80) < 80)
) {
  // The prepared help fits a pipe or a terminal of 80 columns or more; a narrower one gets the
  // program's.
  process.stdout.write(__SVC_HELP__);
} else if (args[0] === '__complete') {
  // A completion script asking for values while the user presses TAB.
  void import('./completion/entry.js').then(({ runComplete }) => {
    process.exitCode = runComplete(args.slice(1));
  });
} else {
  void import('./cli.js')
    .then(({ run }) => run(args))
    .then((code) => {
      process.exitCode = code;
    });
}
