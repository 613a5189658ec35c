// `--jq EXPRESSION`, as in gh: the JSON a command prints, filtered by jq itself (jq compiled to
// WebAssembly, `jq-wasm`; the build keeps it in a file of its own, loaded only for this flag).
// Strings come out raw, one per line, as gh prints them; any other value as jq prints it.
import { Writable } from 'node:stream';

import { CliError, EXIT, UsageError } from '../errors.js';
import { importJq } from '../external.js';
import { type IO, withStreams } from '../io.js';
import { printable } from './format.js';

type Jq = typeof import('jq-wasm');

let loaded: Promise<Jq> | undefined;
const jq = (): Promise<Jq> =>
  (loaded ??= importJq().then((module) =>
    'raw' in module ? module : (module as { default: Jq }).default,
  ));

/**
 * jq's message on one line, without its `jq: error (at /dev/stdin:0): ` preamble or the echoed
 * expression.
 */
function jqMessage(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(
    /^Failed to execute raw query: /,
    '',
  );
  // The WebAssembly runtime's own words for a jq that ran out of room.
  if (text.startsWith('Aborted('))
    return 'jq stopped: the expression needs more memory, or deeper recursion, than jq has';
  const first = text.split('\n')[0] ?? '';
  return first
    .replace(/^jq: (error(?: \(at [^)]*\))?: )?/, '')
    .replace(/ \(Unix shell quoting issues\?\)/, '')
    .replace(/ at <top-level>, line \d+:$/, '')
    .trim();
}

/** Refuses an expression jq cannot compile, before any request is made (exit 2). */
export async function checkJqExpression(expression: string): Promise<void> {
  try {
    await (await jq()).raw('null', expression, ['-r']);
  } catch (error) {
    const message = jqMessage(error);
    // Only a compile error is the expression's fault; one that fails on `null` may work on the
    // reply.
    if (/compile error/.test(error instanceof Error ? error.message : '')) {
      throw new UsageError(`--jq: ${message}`, [
        'See https://jqlang.org/manual/ for the language.',
      ]);
    }
  }
}

/**
 * The output of `expression` over the JSON text (one or more values), each result on its own line.
 */
async function applyJq(json: string, expression: string): Promise<string> {
  let output: string;
  try {
    output = await (await jq()).raw(json, expression, ['-r']);
  } catch (error) {
    throw new CliError(`--jq: ${jqMessage(error)}`, EXIT.failure);
  }
  return output === '' || output.endsWith('\n') ? output : output + '\n';
}

/** The most output `--jq` holds to filter it. */
const MAX_CAPTURE_BYTES = 512 * 1024 * 1024;

/** The IO a command runs on under `--jq`, and what prints the filtered output once it is done. */
export interface JqFilter {
  io: IO;
  /**
   * Filters what the command printed. A command that failed (`svc api`'s error body, the report of
   * a parse that failed) is filtered too, as gh filters an error body: under --jq, never the
   * unfiltered output. There the filter failing is no failure of its own (the command's stays):
   * nothing goes to stdout, and what jq said is returned, for the error to tell.
   */
  finish: (succeeded: boolean) => Promise<string | undefined>;
}

/**
 * The IO a command runs on under `--jq`: its stdout is held, then filtered once the command is
 * done.
 */
export function filteredIO(io: IO, expression: string, mask: (text: string) => string): JqFilter {
  const chunks: Buffer[] = [];
  let size = 0;
  const held = new Writable({
    write(chunk: Buffer | string, encoding, done) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
      size += bytes.length;
      if (size > MAX_CAPTURE_BYTES) {
        done(
          new CliError(
            '--jq holds the whole output to filter it, and it passed 512 MiB: use -o ndjson and pipe it into jq',
            EXIT.failure,
          ),
        );
        return;
      }
      chunks.push(bytes);
      done();
    },
  });
  // A raw string is the service's text: on a terminal its control characters (an escape code in
  // a name) are dropped, as in every view, once its secrets are masked (while an escape sequence
  // that splits one is still whole); a pipe gets it as jq gives it.
  const write = (output: string) =>
    io.stdout.write(io.stdoutIsTTY ? printable(mask(output)) : output);
  const finish = async (succeeded: boolean): Promise<string | undefined> => {
    const text = Buffer.concat(chunks).toString('utf8');
    if (text === '') return undefined;
    if (succeeded) {
      write(await applyJq(text, expression));
      return undefined;
    }
    try {
      write(await applyJq(text, expression));
      return undefined;
    } catch (error) {
      return `--jq printed nothing: ${(error as Error).message.replace(/^--jq: /, '')}`;
    }
  };
  // What the command prints goes to jq, not to a terminal: no colour, nothing for people.
  return { io: withStreams(io, { stdout: held, stdoutIsTTY: false }), finish };
}
