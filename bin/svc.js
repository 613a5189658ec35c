#!/usr/bin/env node
// Tiny launcher: the compile cache where this Node has it, then the bundled program.
import module from 'node:module';

if (typeof module.enableCompileCache === 'function' && !process.env.CI) {
  try {
    module.enableCompileCache();
  } catch {
    // A read-only cache folder only costs speed.
  }
}

const { run } = await import('../dist/cli.js');
process.exitCode = await run(process.argv.slice(2));
