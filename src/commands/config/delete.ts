// `svc config delete PROFILE`: remove a profile, its base URL and its key, from the config file.
import type { Context } from '../../app/context.js';
import {
  currentProfileName,
  profileOf,
  refuseReservedName,
  unknownProfile,
} from '../../config/resolve.js';
import { UsageError } from '../../core/errors.js';
import { removeFromKeyring } from '../saved-key.js';
import { shown } from './settings.js';

export async function deleteProfile(
  ctx: Context,
  profile: string,
  options: { force?: boolean },
): Promise<void> {
  refuseReservedName(profile);
  const store = await ctx.config.store();
  const doc = store.read();
  if (!profileOf(doc, profile)) throw unknownProfile(profile, doc);
  // The active one is the file's current profile, or "default" when the file names none.
  const isActive = currentProfileName(doc) === profile;
  if (isActive && !options.force) {
    const others = Object.keys(doc.profiles).filter((name) => name !== profile);
    throw new UsageError(`profile "${profile}" is the active one; nothing was deleted`, [
      others.length
        ? `Switch first with \`svc config use ${others[0]}\`, or pass --force to delete it anyway.`
        : 'It is the only profile: pass --force to delete it anyway.',
    ]);
  }
  // A key kept in the keyring goes with the profile; a keyring that cannot be reached leaves both
  // (exit 1).
  const saved = profileOf(doc, profile);
  const keyring =
    saved?.api_key_in === 'keyring'
      ? await removeFromKeyring(ctx, profile, saved.base_url, 'nothing was deleted')
      : undefined;
  let key: string | undefined;
  let remaining: string[] = [];
  await store.update((d) => {
    key = profileOf(d, profile)?.api_key;
    delete d.profiles[profile];
    if (d.current_profile === profile) delete d.current_profile;
    remaining = Object.keys(d.profiles);
  });
  ctx.err(`✓ Deleted profile "${profile}" from ${store.file}`);
  if (key)
    ctx.err(
      `  Its key ${shown('api_key', key)} is gone from this machine; the service accepts it until it is revoked in the dashboard.`,
    );
  else if (keyring)
    ctx.err(
      `  Its key is gone from ${keyring}; the service accepts it until it is revoked in the dashboard.`,
    );
  if (!isActive) return;
  if (remaining.includes('default')) ctx.err('  "default" is now the active profile');
  else if (remaining.length)
    ctx.err(
      `  No profile is active now: choose one with \`svc config use NAME\` (profiles: ${remaining.join(', ')})`,
    );
}
