// Commands that run until stopped, the servers `svc mock` and `svc webhooks listen`: what they
// refuse, and what they leave out.
import { UsageError } from '../core/errors.js';

let serving = false;

/**
 * Called as such a command starts. It refuses `--jq`, which filters a command's output once it
 * ends. And the run keeps no code cache (src/launch/code-cache.ts): the cache would hold the
 * server's code, which later commands never run and would only load, slower, at every start.
 */
export function runUntilStopped(jqExpression: string | undefined, command: string): void {
  if (jqExpression !== undefined) {
    throw new UsageError(
      `--jq filters a command's output once it ends, and ${command} runs until stopped`,
      [`Pipe its --json into jq instead: ${command} --json | jq …`],
    );
  }
  serving = true;
}

/** Whether this run was a server's. */
export function ranUntilStopped(): boolean {
  return serving;
}
