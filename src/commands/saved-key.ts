// A profile's key kept in the OS keyring, removed (svc logout, svc config delete).
import type { Context } from '../app/context.js';
import { CliError, EXIT } from '../core/errors.js';

/**
 * Removes the key of `profile` from the keyring and returns the keyring's name. A keyring that
 * cannot be reached or fails is exit 1, its message saying why and `consequence` (what was left as
 * it was): the key is never forgotten by the file while the keyring still holds it.
 */
export async function removeFromKeyring(ctx: Context, profile: string, consequence: string): Promise<string> {
  const keyring = await ctx.keyring();
  const failed = (why: string) =>
    new CliError(`the key of profile "${profile}" is kept in ${keyring.name}, which cannot be reached (${why}); ${consequence}`, EXIT.failure, [
      `Unlock ${keyring.name} (or start one) and try again.`,
    ]);
  const why = await keyring.unavailable();
  if (why !== undefined) throw failed(why);
  try {
    await keyring.remove(profile);
  } catch (error) {
    throw failed((error as Error).message);
  }
  return keyring.name;
}
