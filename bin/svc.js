#!/usr/bin/env node
// Tiny launcher: the compile cache where this Node has it, then the bundled program (or, for
// `svc __complete`, the completion entry alone).
import module from 'node:module';

if (typeof module.enableCompileCache === 'function' && !process.env.CI) {
  try {
    module.enableCompileCache();
  } catch {
    // A read-only cache folder only costs speed.
  }
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // The version alone needs none of the program.
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (args[0] === '__complete') {
  // A completion script asking for values while the user presses TAB: the small entry, not the program.
  const { runComplete } = await import('../dist/complete.js');
  process.exitCode = runComplete(args.slice(1));
} else {
  const { run } = await import('../dist/cli.js');
  process.exitCode = await run(args);
}
