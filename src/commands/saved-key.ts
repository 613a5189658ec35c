// A profile's key kept in the OS keyring, removed (svc logout, svc config delete).
import type { Context } from '../app/context.js';
import { CliError, EXIT, InterruptedError } from '../core/errors.js';

/**
 * Removes the key of `profile` (kept for `baseUrl`, its base URL) from the keyring and returns the
 * keyring's name. A keyring that cannot be reached or fails is exit 1, its message saying why and
 * `consequence` (what was left as it was): the key is never forgotten by the file while the
 * keyring still holds it. Only the entry of that base URL goes: a profile of the same name in
 * another config folder, saved for another base URL, keeps its key.
 */
export async function removeFromKeyring(
  ctx: Context,
  profile: string,
  baseUrl: string | undefined,
  consequence: string,
): Promise<string> {
  const entry = await ctx.config.keyringEntry(profile, baseUrl);
  const keyring = await ctx.config.keyring();
  const failed = (why: string) =>
    new CliError(
      `the key of profile "${profile}" is kept in ${keyring.name}, which cannot be reached (${why}); ${consequence}`,
      EXIT.failure,
      [`Unlock ${keyring.name} (or start one) and try again.`],
    );
  const why = await keyring.unavailable();
  if (why !== undefined) throw failed(why);
  try {
    await keyring.remove(entry);
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    throw failed((error as Error).message);
  }
  return keyring.name;
}
