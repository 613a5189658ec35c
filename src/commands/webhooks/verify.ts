import type { Context } from '../../app/context.js';
import { CliError, EXIT, UsageError } from '../../core/errors.js';
import { whyUnreadable } from '../../core/fs-errors.js';
import { openInput } from '../../core/input-file.js';
import { shownText } from '../../core/output/format.js';
import { MAX_DELIVERY_BYTES } from '../../webhooks/events.js';
import { MAX_SHOWN_CHARS } from '../../webhooks/shown.js';
import { checkSignatureHeader, type Verdict, verifySignature } from '../../webhooks/signature.js';
import { signingSecret } from './secret.js';

interface VerifyFlags {
  secret?: string;
  header?: string;
  body?: string;
}

export async function verifyDelivery(ctx: Context, options: VerifyFlags): Promise<void> {
  if (options.header === undefined || options.header.trim() === '') {
    throw new UsageError(
      'missing --header: the X-Svc-Signature header of the delivery ("t=…,v1=…")',
    );
  }
  // Taken once the command line is known good: a usage error is then the only line on stderr.
  const secret = signingSecret(ctx, options.secret);
  const now = Math.floor(ctx.now() / 1000);
  // A malformed or stale header needs no body: it is refused before a byte of the body is read.
  const header = checkSignatureHeader({ header: options.header, now });
  const verdict = header.valid
    ? verifySignature({
        secret,
        header: options.header,
        body: await readBody(ctx, options.body ?? '-'),
        now,
      })
    : header;
  report(ctx, verdict);
}

function report(ctx: Context, verdict: Verdict): void {
  if (verdict.valid) {
    if (ctx.machineOutput)
      ctx.out(
        JSON.stringify({
          valid: true,
          timestamp: verdict.timestamp,
          age_seconds: verdict.ageSeconds,
        }) + '\n',
      );
    else
      ctx.out(
        `valid: signed ${new Date(verdict.timestamp * 1000).toISOString().replace('.000Z', 'Z')}, ${verdict.ageSeconds} s ago\n`,
      );
    return;
  }
  // The reason may quote the header, which came with the delivery.
  const reason = shownText(verdict.reason, ctx.secrets, MAX_SHOWN_CHARS);
  if (ctx.machineOutput) ctx.out(JSON.stringify({ valid: false, reason }) + '\n');
  throw new CliError(`invalid delivery: ${reason}`, EXIT.invalid);
}

/**
 * The body byte for byte (one changed byte, a newline added by `echo` say, breaks the signature),
 * read as `enrich` reads its --file: from a file or stdin, refused past MAX_DELIVERY_BYTES, the
 * most a delivery may be, before it fills the memory (a device or a pipe may have no end).
 */
async function readBody(ctx: Context, source: string): Promise<Buffer> {
  if (source === '-' && ctx.io.stdinIsTTY)
    throw new UsageError('no body: pass --body FILE, or pipe the body in with --body -');
  const input = await openInput(source, ctx.io.stdin, '--body');
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer | string>) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > MAX_DELIVERY_BYTES) {
        throw new UsageError(
          `--body ${source === '-' ? 'stdin' : source} is larger than ${MAX_DELIVERY_BYTES / 1024 / 1024} MiB, the most a delivery may be`,
        );
      }
      chunks.push(bytes);
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new UsageError(`cannot read --body ${source}: ${whyUnreadable(error)}`);
  } finally {
    // A file refused part-way is closed at once; stdin is not ours to close.
    if (source !== '-') (input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  }
  return Buffer.concat(chunks, size);
}
