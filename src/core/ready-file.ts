// The state file of a command that runs until stopped (`svc mock`, `svc webhooks listen`), for
// scripts: `--ready-file FILE` keeps it, `svc ready FILE` waits on it within a bound. A script that
// starts a server in the background cannot otherwise tell "not listening yet" from "never will":
// a loop reading the server's stderr for its "Listening" line waits forever when it fails.
//
// The file is one JSON object, replaced in one step at each change:
//   {"state":"starting","command":"svc mock","pid":N}          as soon as the flags are read
//   {"state":"listening","command":…,"pid":N,"url":"http://…"}  once a request reaches it
//   {"state":"failed",…,"exit_code":9,"error":"…","hints":[…]}    when it could not start
// and it is removed when the server stops but for a failure to start. The pid lets the waiter see
// a server that died without a word (killed) while it was starting.
import { readFileSync, rmSync } from 'node:fs';
import { CliError, EXIT, UsageError } from './errors.js';
import { whyUnreadable } from './fs-errors.js';
import { replaceFile } from './replace-file.js';
import { readTrustedFile } from './trusted-files.js';

export type ServerState =
  | { state: 'starting'; command: string; pid: number }
  | { state: 'listening'; command: string; pid: number; url: string }
  | { state: 'failed'; command: string; pid: number; exit_code: number; error: string; hints: string[] };

/** More than any state svc writes: a larger file is not one of them. */
const MAX_STATE_BYTES = 8 * 1024;

/** The file a server keeps its state in, for as long as it runs. */
export class ReadyFile {
  private listening = false;

  private constructor(
    private readonly file: string,
    private readonly command: string,
  ) {}

  /** Writes the starting state at once: a file left by an earlier run no longer speaks for this one. */
  static start(file: string, command: string): ReadyFile {
    const ready = new ReadyFile(file, command);
    try {
      ready.write({ state: 'starting', command, pid: process.pid });
    } catch (error) {
      throw new UsageError(`cannot write --ready-file ${file}: ${whyUnreadable(error)}`, ['Give a path in a folder of your own, such as one `mktemp -d` made.']);
    }
    return ready;
  }

  /** Written before the server says it listens: a waiter that sees it may send at once. */
  listeningAt(url: string): void {
    this.write({ state: 'listening', command: this.command, pid: process.pid, url });
    this.listening = true;
  }

  /**
   * Best effort: the server's own error is what the user sees first. Once it listened, a failure
   * is no failure to start: the file is removed, as when it stops.
   */
  failed(exitCode: number, error: string, hints: string[]): void {
    if (this.listening) return this.stopped();
    try {
      this.write({ state: 'failed', command: this.command, pid: process.pid, exit_code: exitCode, error, hints });
    } catch {
      // The waiter then sees a dead pid in the starting state, and says so.
    }
  }

  /** Once stopped: removed, if it is still this server's (a waiter then finds nothing listening). */
  stopped(): void {
    try {
      const state = parseState(readFileSync(this.file, 'utf8'));
      if (state?.pid === process.pid) rmSync(this.file, { force: true });
    } catch {
      // Gone already.
    }
  }

  private write(state: ServerState): void {
    replaceFile(this.file, JSON.stringify(state) + '\n');
  }
}

/**
 * Runs a server with its state kept in `file` (when given): starting at once; failed, with the
 * exit code and the error (`shown`: masked, one line), when `run` throws before it listens; and
 * removed once it ends otherwise. `run` marks the moment it listens (`ReadyFile.listeningAt`).
 */
export async function keepingState(file: string | undefined, command: string, shown: (text: string) => string, run: (ready: ReadyFile | undefined) => Promise<void>): Promise<void> {
  const ready = file === undefined ? undefined : ReadyFile.start(file, command);
  try {
    await run(ready);
  } catch (error) {
    const [exitCode, hints] = error instanceof CliError ? [error.exitCode, error.hints] : [EXIT.failure, []];
    ready?.failed(exitCode, shown((error as Error).message), hints.map(shown));
    throw error;
  }
  ready?.stopped();
}

export type Reading = { kind: 'missing' } | { kind: 'state'; state: ServerState } | { kind: 'refused'; reason: string };

/**
 * What the file says now. Read without following a link or blocking on a pipe, and only when it
 * is the user's own and nobody else may write it: another user's file could point a script at
 * their own server.
 */
export function readReadyFile(file: string): Reading {
  let bytes: Buffer;
  let distrust: string | undefined;
  try {
    bytes = readTrustedFile(file, (reason) => (distrust = reason), MAX_STATE_BYTES + 1);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'refused', reason: distrust ?? whyUnreadable(error) };
  }
  const state = bytes.length > MAX_STATE_BYTES ? undefined : parseState(bytes.toString('utf8'));
  return state ? { kind: 'state', state } : { kind: 'refused', reason: `${file} is not a state file of svc mock or svc webhooks listen` };
}

function parseState(text: string): ServerState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { state, command, pid, url, exit_code, error, hints } = value as Record<string, unknown>;
  if (typeof command !== 'string' || !Number.isSafeInteger(pid) || (pid as number) <= 0) return undefined;
  const base = { command, pid: pid as number };
  if (state === 'starting') return { state, ...base };
  if (state === 'listening' && typeof url === 'string') return { state, ...base, url };
  if (state === 'failed' && Number.isSafeInteger(exit_code) && typeof error === 'string') {
    return { state, ...base, exit_code: exit_code as number, error, hints: Array.isArray(hints) ? hints.filter((hint) => typeof hint === 'string') : [] };
  }
  return undefined;
}

/** Whether a process of that id runs (one of another user counts: it runs). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
