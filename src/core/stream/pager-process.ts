// The pager as a process of its own (pager.ts), a module apart: only a run that pages loads
// node:child_process.
import { spawn } from 'node:child_process';

import type { Env } from '../variables.js';
import type { PagerProcess } from './pager.js';

/** Starts the pager as a process of its own, drawing on the terminal we draw on. */
export async function startPagerProcess(
  command: readonly string[],
  env: Env,
): Promise<PagerProcess> {
  const child = spawn(command[0]!, command.slice(1), {
    stdio: ['pipe', 'inherit', 'inherit'],
    env,
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  // Once started, its failures are its exit: a pager quit early closes its input (EPIPE).
  child.on('error', () => {});
  child.stdin.on('error', () => {});
  return { input: child.stdin, exited, stop: () => child.kill() };
}
