import { readFile } from 'node:fs/promises';
import { buffer } from 'node:stream/consumers';
import type { Context } from '../../core/context.js';
import { CliError, EXIT, UsageError } from '../../core/errors.js';
import { verifySignature } from '../../webhooks/signature.js';
import { signingSecret } from './secret.js';
import { whyUnreadable } from '../../core/fs-errors.js';

interface VerifyFlags {
  secret?: string;
  header?: string;
  body?: string;
}

export async function verifyDelivery(ctx: Context, options: VerifyFlags): Promise<void> {
  const secret = signingSecret(ctx, options.secret);
  if (options.header === undefined || options.header.trim() === '') {
    throw new UsageError('missing --header: the X-Svc-Signature header of the delivery ("t=…,v1=…")');
  }
  const body = await readBody(ctx, options.body ?? '-');
  const verdict = verifySignature({ secret, header: options.header, body, now: Math.floor(ctx.now() / 1000) });
  if (verdict.valid) {
    if (ctx.machineOutput) ctx.out(JSON.stringify({ valid: true, timestamp: verdict.timestamp, age_seconds: verdict.ageSeconds }) + '\n');
    else ctx.out(`valid: signed ${new Date(verdict.timestamp * 1000).toISOString().replace('.000Z', 'Z')}, ${verdict.ageSeconds} s ago\n`);
    return;
  }
  if (ctx.machineOutput) ctx.out(JSON.stringify({ valid: false, reason: verdict.reason }) + '\n');
  throw new CliError(`invalid delivery: ${verdict.reason}`, EXIT.invalid);
}

/** The body byte for byte: one changed byte (a newline added by `echo`, say) breaks the signature. */
async function readBody(ctx: Context, source: string): Promise<Buffer> {
  if (source === '-') {
    if (ctx.io.stdinIsTTY) throw new UsageError('no body: pass --body FILE, or pipe the body in with --body -');
    return buffer(ctx.io.stdin);
  }
  try {
    return await readFile(source);
  } catch (error) {
    throw new UsageError(`cannot read --body ${source}: ${whyUnreadable(error)}`);
  }
}
