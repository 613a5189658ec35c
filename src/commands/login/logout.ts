// `svc logout`: remove the saved key of the active profile, from wherever it is kept (the OS
// keyring, the config file).
import type { Context } from '../../app/context.js';
import { activeProfile, profileOf } from '../../config/resolve.js';
import type { ConfigDoc } from '../../config/store.js';
import { UsageError } from '../../core/errors.js';
import { readEnv } from '../../service/environment.js';
import { removeFromKeyring } from '../saved-key.js';

export async function logout(ctx: Context): Promise<void> {
  const store = await ctx.config.store();
  const doc = store.read();
  const named = ctx.flags.profile ?? readEnv(ctx.io.env, 'SVC_PROFILE');
  if (named !== undefined && !profileOf(doc, named)) throw noProfileToLogOutOf(named, doc);
  const { name } = activeProfile(ctx.flags, ctx.io.env, doc);
  const profile = profileOf(doc, name);
  const inFile = profile?.api_key !== undefined;
  const inKeyring = profile?.api_key_in === 'keyring';
  if (!inFile && !inKeyring) {
    ctx.err(`Profile "${name}" has no saved key; nothing to do.`);
    return;
  }
  // The keyring first: a keyring that cannot be reached leaves everything as it was (exit 1).
  const keyring = inKeyring
    ? await removeFromKeyring(ctx, name, profile.base_url, 'nothing was removed')
    : undefined;
  await store.update((d) => {
    const kept = profileOf(d, name);
    if (!kept) return;
    delete kept.api_key;
    delete kept.api_key_in;
  });
  const places = [...(keyring ? [keyring] : []), ...(inFile ? [store.file] : [])];
  ctx.err(`✓ Removed the key of profile "${name}" from ${places.join(' and ')}`);
}

/**
 * A profile that does not exist has no key to remove. gh refuses to log out of a host it holds no
 * login for; here that is a mistake on the command line (exit 2), answered with the profiles there
 * are, not with `svc login`, which would make one.
 */
function noProfileToLogOutOf(name: string, doc: ConfigDoc): UsageError {
  const known = Object.keys(doc.profiles);
  return new UsageError(
    `unknown profile "${name}": nothing to log out of ` +
      (known.length ? `(profiles: ${known.join(', ')})` : '(no profiles are configured)'),
  );
}
