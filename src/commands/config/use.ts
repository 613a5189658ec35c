// `svc config use PROFILE`: make a profile the active one.
import type { Context } from '../../app/context.js';
import { profileOf, refuseReservedName, unknownProfile } from '../../config/resolve.js';

export async function useProfile(ctx: Context, profile: string): Promise<void> {
  refuseReservedName(profile);
  const store = await ctx.config.store();
  const doc = store.read();
  if (!profileOf(doc, profile)) throw unknownProfile(profile, doc);
  await store.update((d) => {
    d.current_profile = profile;
  });
  ctx.err(`✓ Profile "${profile}" is now active`);
}
