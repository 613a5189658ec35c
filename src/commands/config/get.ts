// `svc config get KEY`: one setting of the active profile (the key masked).
import { activeProfile, profileOf } from '../../config/resolve.js';
import type { Context } from '../../app/context.js';
import { UsageError } from '../../core/errors.js';
import { checkKey, shown } from './settings.js';

export async function getSetting(ctx: Context, key: string): Promise<void> {
  const setting = checkKey(key);
  const store = await ctx.config();
  const doc = store.read();
  const { name } = activeProfile(ctx.flags, ctx.io.env, doc);
  const value = shown(setting, profileOf(doc, name)?.[setting]);
  if (value === null) throw new UsageError(`${setting} is not set in profile "${name}"`);
  ctx.out(ctx.format === 'json' ? JSON.stringify(value) + '\n' : value + '\n');
}
