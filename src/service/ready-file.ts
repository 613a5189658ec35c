// The state file of a command that runs until stopped (`svc mock`, `svc webhooks listen`), for
// scripts: `--ready-file FILE` keeps it, `svc ready FILE` waits on it within a bound. A script that
// starts a server in the background cannot otherwise tell "not listening yet" from "never will":
// a loop reading the server's stderr for its "Listening" line waits forever when it fails.
//
// The file is one JSON object, replaced in one step at each change:
//   {"state":"starting","command":"svc mock","pid":N,…}      as soon as the flags are read
//   {"state":"listening",…,"url":"http://…"}                 once a request reaches it
//   {"state":"failed",…,"exit_code":9,"error":"…","hints":[…]} when it could not start
// and it is removed when the server stops but for a failure to start. Each state also names the
// one process that wrote it and when: `pid`, `pid_start` (the process's start as the OS counts
// it, where it tells: Linux), and `written_at`. svc ready takes a state for its run's only by
// them (commands/ready/wait.ts): a pid alone may since have been given to another process.
//
// The server replaces a state file (an earlier run's) and nothing else: a path that holds anything
// else (a file of another shape, a folder, a link, a pipe) is refused, as is a file or a folder
// another user could change, before anything is written.
import { readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';

import { CliError, EXIT, UsageError } from '../core/errors.js';
import { whyUnreadable } from '../core/fs-errors.js';
import { replaceFile } from '../core/replace-file.js';
import { readTrustedFile, sharedFolderReason } from '../core/trusted-files.js';

/** Who wrote a state, and when. */
interface Writer {
  command: string;
  pid: number;
  /**
   * The start of process `pid` as the OS counts it (processStart); absent where it cannot be told.
   */
  pid_start?: string;
  /** ISO 8601, as the writer's clock read it. */
  written_at: string;
}

/** Where the server is. */
type Phase =
  | { state: 'starting' }
  | { state: 'listening'; url: string }
  | { state: 'failed'; exit_code: number; error: string; hints: string[] };

export type ServerState = Writer & Phase;

/** More than any state svc writes: a larger file is not one of them. */
const MAX_STATE_BYTES = 8 * 1024;

/** The file a server keeps its state in, for as long as it runs. */
export class ReadyFile {
  private listening = false;
  private readonly writer: Omit<Writer, 'written_at'>;

  private constructor(
    private readonly file: string,
    command: string,
    private readonly now: () => number,
  ) {
    const started = processStart(process.pid);
    this.writer = {
      command,
      pid: process.pid,
      ...(started === undefined ? {} : { pid_start: started }),
    };
  }

  /**
   * Writes the starting state at once: a state left by an earlier run no longer speaks for this
   * one. A path that holds anything else, or that another user could change, is refused (exit 2).
   */
  static start(file: string, command: string, now: () => number): ReadyFile {
    const hints = [
      'Give a new path in a folder of your own, such as one `mktemp -d` made: svc replaces a state file of its own and nothing else.',
    ];
    const found = readReadyFile(file);
    if (found.kind === 'refused')
      throw new UsageError(`refusing --ready-file ${file}: ${found.reason}`, hints);
    const ready = new ReadyFile(file, command, now);
    try {
      ready.write({ state: 'starting' });
    } catch (error) {
      throw new UsageError(`cannot write --ready-file ${file}: ${whyUnreadable(error)}`, hints);
    }
    return ready;
  }

  /** Written before the server says it listens: a waiter that sees it may send at once. */
  listeningAt(url: string): void {
    this.write({ state: 'listening', url });
    this.listening = true;
  }

  /**
   * Best effort: the server's own error is what the user sees first. Once it listened, a failure
   * is no failure to start: the file is removed, as when it stops.
   */
  failed(exitCode: number, error: string, hints: string[]): void {
    if (this.listening) return this.stopped();
    try {
      this.write({ state: 'failed', exit_code: exitCode, error, hints });
    } catch {
      // The waiter then sees the starting state of a process that no longer runs, and says so.
    }
  }

  /**
   * Once stopped: removed, if it is still this server's (a waiter then finds nothing listening).
   */
  stopped(): void {
    const found = readReadyFile(this.file);
    if (
      found.kind === 'state' &&
      found.state.pid === this.writer.pid &&
      found.state.pid_start === this.writer.pid_start
    )
      rmSync(this.file, { force: true });
  }

  private write(phase: Phase): void {
    // In the order svc ready --json prints a state: what, who and when, then the rest.
    const { state, ...rest } = phase;
    const written = {
      state,
      ...this.writer,
      written_at: new Date(this.now()).toISOString(),
      ...rest,
    } as ServerState;
    replaceFile(this.file, JSON.stringify(written) + '\n');
  }
}

/**
 * Runs a server with its state kept in `file` (when given): starting at once; failed, with the
 * exit code and the error (`shown`: masked, one line), when `run` throws before it listens; and
 * removed once it ends otherwise. `run` marks the moment it listens (`ReadyFile.listeningAt`);
 * `now` is the clock the states are dated by.
 */
export async function keepingState(
  file: string | undefined,
  command: string,
  { shown, now }: { shown: (text: string) => string; now: () => number },
  run: (ready: ReadyFile | undefined) => Promise<void>,
): Promise<void> {
  const ready = file === undefined ? undefined : ReadyFile.start(file, command, now);
  try {
    await run(ready);
  } catch (error) {
    const [exitCode, hints] =
      error instanceof CliError ? [error.exitCode, error.hints] : [EXIT.failure, []];
    ready?.failed(exitCode, shown((error as Error).message), hints.map(shown));
    throw error;
  }
  ready?.stopped();
}

export type Reading =
  { kind: 'missing' } | { kind: 'state'; state: ServerState } | { kind: 'refused'; reason: string };

/**
 * What the file says now. Read without following a link or blocking on a pipe, and only when it
 * is the user's own, in a folder of theirs, and nobody else may write either: another user's file
 * could point a script at their own server.
 */
export function readReadyFile(file: string): Reading {
  let folderReason: string | undefined;
  try {
    folderReason = sharedFolderReason(dirname(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'refused', reason: whyUnreadable(error) };
  }
  if (folderReason) return { kind: 'refused', reason: folderReason };
  let bytes: Buffer;
  let distrust: string | undefined;
  try {
    bytes = readTrustedFile(file, (reason) => (distrust = reason), MAX_STATE_BYTES + 1);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'refused', reason: distrust ?? whyUnreadable(error) };
  }
  const state = bytes.length > MAX_STATE_BYTES ? undefined : parseState(bytes.toString('utf8'));
  return state
    ? { kind: 'state', state }
    : { kind: 'refused', reason: `${file} is not a state file of svc mock or svc webhooks listen` };
}

function parseState(text: string): ServerState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { state, command, pid, pid_start, written_at, url, exit_code, error, hints } =
    value as Record<string, unknown>;
  if (typeof command !== 'string' || !Number.isSafeInteger(pid) || (pid as number) <= 0)
    return undefined;
  // A state without a date reads as written long ago: never taken for a new run's.
  const writer: Writer = {
    command,
    pid: pid as number,
    ...(typeof pid_start === 'string' ? { pid_start } : {}),
    written_at:
      typeof written_at === 'string' && !Number.isNaN(Date.parse(written_at))
        ? written_at
        : new Date(0).toISOString(),
  };
  if (state === 'starting') return { state, ...writer };
  if (state === 'listening' && typeof url === 'string') return { state, ...writer, url };
  if (state === 'failed' && Number.isSafeInteger(exit_code) && typeof error === 'string') {
    return {
      state,
      ...writer,
      exit_code: exit_code as number,
      error,
      hints: Array.isArray(hints) ? hints.filter((hint) => typeof hint === 'string') : [],
    };
  }
  return undefined;
}

/**
 * Whether the process that wrote `state` still runs: a process of that id runs (one of another
 * user counts), and it started when the state says. Where the OS does not tell a process's start
 * (not Linux), the id alone.
 */
export function writerRuns(state: ServerState): boolean {
  return isRunning(state.pid) && processStart(state.pid) === state.pid_start;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When process `pid` started, as Linux counts it (clock ticks since boot, field 22 of
 * /proc/PID/stat): with the id, it names one process, even once the id is given to another.
 * Undefined where there is no /proc (macOS, Windows), or no such process.
 */
export function processStart(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The second field, the command's name in parentheses, may hold spaces and ')': count from the
  // last.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}
