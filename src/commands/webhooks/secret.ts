import type { Context } from '../../core/context.js';
import { readEnv } from '../../core/environment.js';
import { UsageError } from '../../core/errors.js';

/** The signing secret: --secret, else SVC_WEBHOOK_SECRET; never asked for, and masked in all output. */
export function signingSecret(ctx: Context, flag: string | undefined): string {
  const secret = flag ?? readEnv(ctx.io.env, 'SVC_WEBHOOK_SECRET');
  if (secret === undefined || secret === '') {
    throw new UsageError('no signing secret: pass --secret or set SVC_WEBHOOK_SECRET', ['`svc mock` prints the secret its deliveries are signed with.']);
  }
  ctx.secrets.add(secret);
  return secret;
}
