// The streams and terminal facts a command may use. Commands never touch `process` directly:
// they get an IO, so tests can run them as "a person at a terminal" or as "a script".
import { fstatSync } from 'node:fs';
import { isatty } from 'node:tty';

import { MaskedStream } from './secrets/masked-stream.js';
import type { Secrets } from './secrets/secrets.js';
import { readEnv } from './variables.js';

export interface IO {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  /**
   * stdout goes into a pipe (or socket): another program reads it and may print it on the
   * terminal svc draws on. Unknown (undefined) in tests.
   */
  readonly stdoutIsPipe?: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Width of the terminal on stdout, or FALLBACK_COLUMNS when it is not a terminal or tells no
   * width.
   */
  readonly columns: number;
  /**
   * Height of the terminal on stdout, for the pager; undefined when stdout is not a terminal or it
   * tells none.
   */
  readonly rows?: number;
  /**
   * Width of the terminal on stderr, where spinners, progress and messages go; undefined when
   * stderr is not a terminal or the terminal tells no width (see `knownWidth`).
   */
  readonly stderrColumns?: number;
}

/** The width text is fitted to when the terminal tells none. */
export const FALLBACK_COLUMNS = 80;

/**
 * The width a terminal reports, when it reports one: a terminal with no size set (`script` without
 * one, some CI runners and containers) says 0 columns, which fits nothing; that is no width known.
 */
export function knownWidth(columns: number | undefined): number | undefined {
  return columns !== undefined && Number.isFinite(columns) && columns >= 1
    ? Math.floor(columns)
    : undefined;
}

export function processIO(): IO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    // Made on first use: Node builds stdin's stream (~5 ms) only for the commands that read it.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    stdinIsTTY: isatty(0),
    stdoutIsPipe: isPipe(1),
    env: process.env,
    columns: knownWidth(process.stdout.columns) ?? FALLBACK_COLUMNS,
    rows: process.stdout.isTTY === true ? knownWidth(process.stdout.rows) : undefined,
    stderrColumns: process.stderr.isTTY === true ? knownWidth(process.stderr.columns) : undefined,
  };
}

function isPipe(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/**
 * The IO with stdout and stderr masking every secret in `secrets` (docs/reference/configuration.md,
 * "Keys": a full key never appears in any output). Output that had to be masked is no longer the
 * reply as received, which stderr says once. `flush` writes what a stream held back, at the end of
 * the run.
 */
export function maskedIO(io: IO, secrets: Secrets): { io: IO; flush: () => void } {
  const stderr = new MaskedStream(io.stderr, secrets);
  let told = false;
  const stdout = new MaskedStream(io.stdout, secrets, () => {
    if (told) return;
    told = true;
    stderr.stream.write(
      'warning: the output held a secret in use (the API key or a token): it is masked\n',
    );
  });
  // On one screen, what one stream holds back must not wait while the other writes past it.
  if (io.stdoutIsTTY && io.stderrIsTTY) MaskedStream.pair(stdout, stderr);
  return {
    io: withStreams(io, { stdout: stdout.stream, stderr: stderr.stream }),
    flush: () => {
      stdout.flush();
      stderr.flush();
    },
  };
}

/**
 * The same IO with some of its properties replaced; stdin is still made only when read (a getter,
 * kept as one).
 */
export function withStreams(
  io: IO,
  replacements: Partial<Pick<IO, 'stdout' | 'stderr' | 'stdoutIsTTY'>>,
): IO {
  const replaced = Object.fromEntries(
    Object.entries(replacements).map(([name, value]) => [name, { value, enumerable: true }]),
  );
  return Object.defineProperties({} as IO, {
    ...Object.getOwnPropertyDescriptors(io),
    ...replaced,
  });
}

function truthyFlag(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0';
}

/**
 * Whether to colour what goes to a stream (docs/reference/output.md, "Colour"). NO_COLOR and
 * --no-color win over everything; FORCE_COLOR and CLICOLOR_FORCE force colour into a pipe;
 * otherwise colour only on a terminal that is not dumb and when CLICOLOR is not 0.
 */
export function colorEnabled(env: IO['env'], isTTY: boolean, noColorFlag: boolean): boolean {
  if (noColorFlag || (readEnv(env, 'NO_COLOR') ?? '') !== '') return false;
  if (truthyFlag(readEnv(env, 'FORCE_COLOR')) || truthyFlag(readEnv(env, 'CLICOLOR_FORCE')))
    return true;
  if (readEnv(env, 'CLICOLOR') === '0') return false;
  if (!isTTY || readEnv(env, 'TERM') === 'dumb') return false;
  return true;
}

/** Prompts only for a person: stdin and stderr are terminals and no CI runs us. */
export function canPrompt(io: IO): boolean {
  return io.stdinIsTTY && io.stderrIsTTY && !runsInCI(io.env);
}

/**
 * Why svc may not ask a question (when `canPrompt` says no): "CI is set", or "there is no
 * terminal".
 */
export function noPromptReason(io: IO): string {
  return io.stdinIsTTY && io.stderrIsTTY ? 'CI is set' : 'there is no terminal';
}

function runsInCI(env: IO['env']): boolean {
  const ci = readEnv(env, 'CI');
  return truthyFlag(ci) && ci?.toLowerCase() !== 'false';
}
