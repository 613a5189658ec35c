// The signing secret svc's listeners bring to svc mock when the user gives none: made once and
// kept in the user's data folder (webhook-secret), as stripe listen keeps one per device, so that
// `svc webhooks listen --print-secret` can tell it before a listener runs (a job gives it to its
// own app, which `--forward-to` then reaches, and the app verifies what the mock signed). It is
// kept as the config file is (core/private-file.ts): no other user can read it, and svc mock
// tells it to no caller (its endpoint list withholds secrets).
import { randomBytes } from 'node:crypto';

import type { Context } from '../../app/context.js';
import { NO_HOME } from '../../config/paths.js';
import { CliError, UsageError } from '../../core/errors.js';
import {
  FileNotWrittenError,
  PrivateFile,
  type PrivateFileWords,
} from '../../core/private-file.js';

export const SECRET_FILE = 'webhook-secret';

const WORDS: PrivateFileWords = {
  file: 'webhook secret file',
  folder: 'data folder',
  variable: 'SVC_DATA_DIR',
  ownedByOther: 'move it away, and svc makes a new secret',
  changeable: (chmod) => `run \`${chmod}\`, or remove it for a new secret`,
  readable: (file, mode, chmod) =>
    `other users can read the webhook signing secret in ${file} (mode ${mode}); run \`${chmod}\``,
};

/**
 * A secret as svc makes one, and as the mock takes one brought along: 8 to 1024 characters, no
 * white space.
 */
const SECRET_FORM = /^\S{8,1024}$/;

/**
 * The kept secret, made and kept when there is none (or the file holds no secret). When it cannot
 * be kept (no home folder, a folder svc cannot write in): with `required`, a UsageError saying
 * why; else undefined, the warning said on stderr. A folder or file another user could change is
 * refused either way (exit 2).
 */
export async function keptListenerSecret(
  ctx: Context,
  required: boolean,
): Promise<string | undefined> {
  const dir = await ctx.config.folder('data');
  if (dir === undefined) return cannotKeep(ctx, required, NO_HOME);
  const file = new PrivateFile(dir, SECRET_FILE, WORDS, (message) => ctx.warn(message));
  file.checkFolder();
  const kept = readSecret(file.readText());
  if (kept) return known(ctx, kept);
  try {
    // Under the lock, read again: two listeners started at once keep one secret.
    return known(
      ctx,
      await file.locked(() => {
        const text = file.readText();
        const again = readSecret(text);
        if (again) return again;
        if (text !== undefined)
          ctx.warn(
            `the webhook secret file ${file.file} holds no secret; made a new one in its place`,
          );
        const made = `whsec_${randomBytes(32).toString('hex')}`;
        file.write(`${made}\n`);
        return made;
      }),
    );
  } catch (error) {
    // The disk's answer (a folder not writable, a full disk), not a refusal.
    const cause =
      error instanceof FileNotWrittenError
        ? error.cause
        : error instanceof CliError
          ? undefined
          : (error as NodeJS.ErrnoException);
    if (typeof cause?.code !== 'string') throw error;
    return cannotKeep(
      ctx,
      required,
      `cannot write ${file.file} (${cause.code}): set SVC_DATA_DIR to a folder of your own`,
    );
  }
}

function readSecret(text: string | undefined): string | undefined {
  const secret = text?.trim();
  return secret !== undefined && SECRET_FORM.test(secret) ? secret : undefined;
}

/** The secret, masked in everything svc writes from now on. */
function known(ctx: Context, secret: string): string {
  ctx.secrets.add(secret);
  return secret;
}

function cannotKeep(ctx: Context, required: boolean, reason: string): undefined {
  if (required)
    throw new UsageError(`svc keeps no webhook signing secret: ${reason}`, [
      'Or give the secret yourself: SVC_WEBHOOK_SECRET (svc mock then signs with it).',
    ]);
  ctx.warn(`svc keeps no webhook signing secret (${reason}); svc mock makes one for this listener`);
  return undefined;
}
