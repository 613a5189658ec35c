import type { Context } from '../../app/context.js';
import { UsageError } from '../../core/errors.js';
import { readEnv } from '../../service/environment.js';

/**
 * The signing secret: --secret, else SVC_WEBHOOK_SECRET; never asked for, and masked in all output.
 */
export function signingSecret(ctx: Context, flag: string | undefined): string {
  const given = givenSigningSecret(ctx, flag);
  if (given === undefined)
    throw noSigningSecret(['`svc mock` prints the secret its deliveries are signed with.']);
  return given.secret;
}

/**
 * The secret the user gave, and where: --secret, else SVC_WEBHOOK_SECRET (an empty one is none).
 * Masked from now on; given as a flag, it is also in `ps` and the shell's history, as --api-key is.
 */
export function givenSigningSecret(
  ctx: Context,
  flag: string | undefined,
): { secret: string; source: '--secret' | 'SVC_WEBHOOK_SECRET' } | undefined {
  const [secret, source] =
    flag !== undefined
      ? [flag, '--secret' as const]
      : [readEnv(ctx.io.env, 'SVC_WEBHOOK_SECRET'), 'SVC_WEBHOOK_SECRET' as const];
  if (secret === undefined || secret === '') return undefined;
  ctx.secrets.add(secret);
  if (source === '--secret')
    ctx.warn('--secret is visible to other users of this machine; prefer SVC_WEBHOOK_SECRET');
  return { secret, source };
}

export function noSigningSecret(hints: string[]): UsageError {
  return new UsageError('no signing secret: pass --secret or set SVC_WEBHOOK_SECRET', hints);
}

/** Where the service's own signing secret comes from, for a listener that needs one. */
export const SERVICE_SECRET_HINT =
  'The service signs deliveries with the signing secret of the webhook endpoint they go to, given where that endpoint was registered with it: pass it with SVC_WEBHOOK_SECRET (or --secret).';
