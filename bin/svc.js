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

if (process.argv[2] === '__complete') {
  // A completion script asking for values while the user presses TAB: the small entry, not the program.
  const { runComplete } = await import('../dist/complete.js');
  process.exitCode = runComplete(process.argv.slice(3));
} else {
  const { run } = await import('../dist/cli.js');
  process.exitCode = await run(process.argv.slice(2));
}
