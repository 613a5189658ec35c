// `svc config set KEY VALUE`: one setting of the profile to write, created if needed.
import { keyMode } from '../../config/keys.js';
import { checkBaseUrl, profileOf, profileToWrite } from '../../config/resolve.js';
import type { Context } from '../../core/context.js';
import { UsageError } from '../../core/errors.js';
import { checkKey, shown } from './settings.js';

export async function setSetting(ctx: Context, key: string, value: string): Promise<void> {
  const setting = checkKey(key);
  let stored = value.trim();
  if (setting === 'base_url') stored = checkBaseUrl(stored);
  if (setting === 'api_key') {
    if (stored === '' || /\s/.test(stored)) throw new UsageError('the API key must not be empty or contain white space');
    ctx.warn('a key given as an argument is visible to other users of this machine; `svc login --with-key` reads it from stdin');
    if (keyMode(stored) === 'unknown') ctx.warn('the API key is not of the form svc_sk_live_…, svc_sk_test_… (or sk_live_…, sk_test_…); saving it as given');
  }
  const store = await ctx.config();
  const doc = store.read();
  const name = profileToWrite(ctx.flags, ctx.io.env, doc);
  await store.update((d) => {
    d.profiles[name] = { ...profileOf(d, name), [setting]: stored };
    d.current_profile ??= name;
  });
  ctx.err(`✓ Set ${setting} of profile "${name}" to ${shown(setting, stored)}`);
}
