// `svc config get KEY`: one setting of the active profile (the key masked, read from the OS keyring
// where it is kept there).
import type { Context } from '../../app/context.js';
import { activeProfile, keyStoreOf, profileOf } from '../../config/resolve.js';
import { UsageError } from '../../core/errors.js';
import { maskKey } from '../../service/keys.js';
import { checkKey, shown } from './settings.js';

export async function getSetting(ctx: Context, key: string): Promise<void> {
  const setting = checkKey(key);
  const store = await ctx.config.store();
  const doc = store.read();
  const { name } = activeProfile(ctx.flags, ctx.io.env, doc);
  const profile = profileOf(doc, name);
  // A key kept in the OS keyring is read from it (exit 3 when it cannot be), and shown masked too.
  const inKeyring = setting === 'api_key' && keyStoreOf(profile) === 'keyring';
  const value = inKeyring
    ? maskKey(await ctx.config.keyringKeyOf(name, profile?.base_url))
    : shown(setting, profile?.[setting]);
  if (value === null) throw new UsageError(`${setting} is not set in profile "${name}"`);
  ctx.out(ctx.format === 'json' ? JSON.stringify(value) + '\n' : value + '\n');
}
