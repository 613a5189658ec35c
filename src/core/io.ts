// The streams and terminal facts a command may use. Commands never touch `process` directly:
// they get an IO, so tests can run them as "a person at a terminal" or as "a script".
import { readEnv } from './environment.js';

export interface IO {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Width of the terminal on stdout, or 80 when it is not a terminal. */
  readonly columns: number;
}

export function processIO(): IO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: process.stdin.isTTY === true,
    env: process.env,
    columns: process.stdout.columns || 80,
  };
}

function truthyFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0';
}

/**
 * Whether to colour what goes to a stream (contract §3). NO_COLOR and --no-color win over
 * everything; FORCE_COLOR and CLICOLOR_FORCE force colour into a pipe; otherwise colour only on a
 * terminal that is not dumb and when CLICOLOR is not 0.
 */
export function colorEnabled(env: IO['env'], isTTY: boolean, noColorFlag: boolean): boolean {
  if (noColorFlag || (readEnv(env, 'NO_COLOR') ?? '') !== '') return false;
  if (truthyFlag(readEnv(env, 'FORCE_COLOR')) || truthyFlag(readEnv(env, 'CLICOLOR_FORCE'))) return true;
  if (readEnv(env, 'CLICOLOR') === '0') return false;
  if (!isTTY || readEnv(env, 'TERM') === 'dumb') return false;
  return true;
}

/** Prompts only for a person: stdin and stderr are terminals and no CI runs us. */
export function canPrompt(io: IO): boolean {
  return io.stdinIsTTY && io.stderrIsTTY && !runsInCI(io.env);
}

function runsInCI(env: IO['env']): boolean {
  const ci = readEnv(env, 'CI');
  return truthyFlag(ci) && ci?.toLowerCase() !== 'false';
}
