// Tokens: checked when given on the command line, and shown in full once when a reply hands one
// over (a consent token, a Connect access token); the one place svc shows such a secret.
//
// Every byte svc writes passes through streams that mask each secret in `ctx.secrets`
// (core/io.ts maskedIO, core/secrets/secrets.ts), and `present` masks the table's values with
// the same set. So the reply is printed while the new secret is not yet in that set: it goes out
// as received (--json byte for byte). Only then is it added, so whatever comes after (the warning,
// a --debug line, an error, a later write held back by a stream) shows it masked. No escape past
// the masking is needed, and none is added: a write can never leak a secret the run knew before.
import type { Context } from '../app/context.js';
import { present, type ReplyReader } from '../app/present.js';
import { readCapped } from '../core/capped-read.js';
import { UsageError } from '../core/errors.js';
import { hasControlCharacter } from '../core/output/format.js';
import type { Reply } from '../core/output/render.js';

export interface SecretHandOver {
  /** The secrets the reply carries, read from its body (absent ones are skipped). */
  secrets: (body: unknown) => readonly (string | undefined)[];
  /** Lines for stderr after the reply: what the secret opens, and what to do with it. */
  notes: (body: unknown) => readonly string[];
}

export async function presentSecretOnce(
  ctx: Context,
  reply: Reply,
  reader: ReplyReader,
  handOver: SecretHandOver,
): Promise<void> {
  const secrets = handOver
    .secrets(reply.body)
    .filter((s): s is string => typeof s === 'string' && s !== '');
  await present(ctx, reply, reader);
  for (const secret of secrets) ctx.secrets.add(secret);
  if (secrets.length === 0) return;
  const [first, ...rest] = handOver.notes(reply.body);
  if (first !== undefined) ctx.warn(first);
  for (const line of rest) ctx.err(line);
}

/** A token given on the command line: not empty, one line. */
export function checkToken(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`${flag} is empty`);
  if (hasControlCharacter(value))
    throw new UsageError(
      `${flag} contains a control character (such as a line break); a token is one word`,
    );
  return value;
}

/**
 * A key or token is a few hundred bytes at most: more on standard input is a mistake (a file,
 * /dev/zero).
 */
const MAX_STDIN_SECRET_BYTES = 16 * 1024;

/**
 * A secret read from standard input (`--with-key`, `--token-stdin`): its text trimmed, read no
 * further than a secret can be long, so a wrong pipe is refused instead of read without end.
 */
export async function secretFromStdin(stdin: NodeJS.ReadableStream, flag: string): Promise<string> {
  const tooLarge = () =>
    new UsageError(
      `${flag} read more than ${MAX_STDIN_SECRET_BYTES / 1024} KiB from standard input; it takes one key or token`,
    );
  const value = (
    await readCapped(stdin as AsyncIterable<Buffer | string>, MAX_STDIN_SECRET_BYTES, tooLarge)
  )
    .toString('utf8')
    .trim();
  if (value === '') throw new UsageError(`${flag} read nothing from standard input`);
  return value;
}

/** The warning for a secret given as a flag's value, which other users see in the process list. */
export function visibleFlagWarning(flag: string, instead: string): string {
  return `${flag} is visible to other users of this machine; prefer ${instead}`;
}
