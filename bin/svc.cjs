#!/usr/bin/env node
// Tiny launcher: the bundled program, loaded with its code cache (dist/launch.cjs). The commands
// run most often by machines take shorter paths: `--version` and `--help` need none of the
// program, and `svc __complete` (a TAB in a shell) loads the completion entry alone. Everything is
// CommonJS: Node's ES module loader costs ~1 ms for each module it resolves.
'use strict';
const { fstatSync, readFileSync, statSync, writeSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);

/**
 * stdout failed, on every path (short or not). A reader that went away (`svc --help | head -1`)
 * is not an error: exit 0 quietly (the program's path decides that itself). Anything else (a full
 * disk, a closed terminal) is one line on stderr and exit 1, never a stack trace.
 */
function outputFailed(error) {
  if (error.code === 'EPIPE') process.exit(0);
  // "ENOSPC: no space left on device, write" reads as "no space left on device".
  const reason = /^E[A-Z0-9]+: ([^,]+)/.exec(error.message)?.[1] ?? error.code ?? error.message;
  try {
    writeSync(2, `error: cannot write output: ${reason}\n`);
  } catch {
    // stderr is gone too: the exit code is all that is left.
  }
  process.exit(1);
}

/**
 * Writes the whole text to stdout at once, without making process.stdout: Node's stream machinery
 * costs a few milliseconds to load, as much as the rest of these short paths. A non-blocking
 * stdout falls back to the stream.
 */
function writeOut(text) {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    if (error.code !== 'EAGAIN') return outputFailed(error);
    process.stdout.on('error', outputFailed);
    process.stdout.write(bytes.subarray(written));
  }
}

/**
 * Whether stdout is a terminal. Only a character device may be one, and the null device (`>
 * /dev/null`, cron, a CI step that drops the output) is none: node:tty, which tells, brings Node's
 * network streams with it (a tenth of `--help`), so a pipe, a file or /dev/null is not asked.
 */
function stdoutIsTerminal() {
  let stdout;
  try {
    stdout = fstatSync(1);
  } catch {
    return false; // no stdout: writing says so
  }
  if (!stdout.isCharacterDevice() || isNullDevice(stdout)) return false;
  return require('node:tty').isatty(1);
}

/** Whether a character device is /dev/null: the same device number. */
function isNullDevice(device) {
  try {
    return device.rdev === statSync('/dev/null').rdev;
  } catch {
    return false; // no /dev/null (Windows): node:tty tells
  }
}

/**
 * The root help made at build time, wrapped at 80 columns: for a pipe, or a terminal 80 columns
 * wide.
 */
function printPreparedHelp() {
  if (stdoutIsTerminal() && (process.stdout.columns || 80) !== 80) return false;
  let help;
  try {
    help = readFileSync(join(__dirname, '..', 'dist', 'help.txt'), 'utf8');
  } catch {
    return false;
  }
  writeOut(help);
  return true;
}

if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The version alone needs none of the program.
  writeOut(`${JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
} else if (args.length === 1 && (args[0] === '--help' || args[0] === '-h') && printPreparedHelp()) {
  // Printed from dist/help.txt, made by the program at build time.
} else if (args[0] === '__complete') {
  // A completion script asking for values while the user presses TAB: the small entry, not the
  // program.
  process.exitCode = require('../dist/complete.cjs').runComplete(args.slice(1), writeOut);
} else {
  // A reader gone from stdout (EPIPE) is the program's to handle (dist/cli.cjs): it knows the run's
  // exit code, which a message that could not be written must not change.
  process.stdout.on('error', (error) => error.code === 'EPIPE' || outputFailed(error));
  const { program, keepCode } = require('../dist/launch.cjs').load(
    join(__dirname, '..', 'dist'),
    args,
  );
  program.run(args).then((code) => {
    process.exitCode = code;
    const worth = program.codeWorthKeeping();
    if (worth !== undefined) keepCode(worth);
  });
}
