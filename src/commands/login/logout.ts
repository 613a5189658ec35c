// `svc logout`: remove the saved key of the active profile.
import { activeProfile, profileOf } from '../../config/resolve.js';
import type { Context } from '../../core/context.js';

export async function logout(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const doc = store.read();
  const { name } = activeProfile(ctx.flags, ctx.io.env, doc);
  if (!profileOf(doc, name)?.api_key) {
    ctx.err(`Profile "${name}" has no saved key; nothing to do.`);
    return;
  }
  await store.update((d) => {
    delete d.profiles[name]!.api_key;
  });
  ctx.err(`✓ Removed the key of profile "${name}" from ${store.file}`);
}
