// `svc config set KEY VALUE`: one setting of the profile to write, created if needed.
import type { Context } from '../../app/context.js';
import { checkBaseUrl, keyStoreOf, profileOf, profileToWrite } from '../../config/resolve.js';
import type { Profile } from '../../config/store.js';
import { calendarNamed, CALENDARS } from '../../core/calendar/calendar.js';
import { UsageError } from '../../core/errors.js';
import { pagerWords } from '../../core/stream/pager.js';
import { shownUrl } from '../../core/urls.js';
import { checkKeySize, keyMode } from '../../service/keys.js';
import { checkKey, shown } from './settings.js';

export async function setSetting(ctx: Context, key: string, value: string): Promise<void> {
  const setting = checkKey(key);
  let stored = value.trim();
  if (setting === 'base_url') stored = checkBaseUrl(stored);
  if (setting === 'calendar' && calendarNamed(stored) === undefined)
    throw new UsageError(
      `calendar takes ${CALENDARS.join(' or ')} (svc help calendar), not "${value}"`,
    );
  if (setting === 'pager' && stored !== '' && pagerWords(stored) === undefined)
    throw new UsageError(
      `pager takes a command line, as "less -R" ("" for none); a quote is left open in ${value}`,
    );
  if (setting === 'api_key') {
    if (stored === '' || /\s/.test(stored))
      throw new UsageError('the API key must not be empty or contain white space');
    checkKeySize(stored, 'the API key');
    ctx.warn(
      'a key given as an argument is visible to other users of this machine; `svc login --with-key` reads it from stdin',
    );
    if (keyMode(stored) === 'unknown')
      ctx.warn(
        'the API key is not of the form svc_sk_live_…, svc_sk_test_… (or sk_live_…, sk_test_…); saving it as given',
      );
  }
  const store = await ctx.config.store();
  const doc = store.read();
  const name = profileToWrite(ctx.flags, ctx.io.env, doc);
  if (setting === 'base_url') refuseMovingKey(name, profileOf(doc, name), stored);
  await store.update((d) => {
    d.profiles[name] = { ...profileOf(d, name), [setting]: stored };
    d.current_profile ??= name;
  });
  ctx.err(`✓ Set ${setting} of profile "${name}" to ${shown(setting, stored)}`);
}

/**
 * A profile's key goes only to the base URL it was saved with: pointing the profile elsewhere would
 * send it there (a key in the keyring is kept for that base URL and would be lost). The key is
 * kept, and the base URL left as it was.
 */
function refuseMovingKey(name: string, profile: Profile | undefined, baseUrl: string): void {
  if (keyStoreOf(profile) === undefined || profile?.base_url === undefined) return;
  let saved: string;
  try {
    saved = checkBaseUrl(profile.base_url);
  } catch {
    saved = profile.base_url;
  }
  if (saved === baseUrl) return;
  throw new UsageError(
    `profile "${name}" holds a key saved for ${shownUrl(profile.base_url)}; it is not moved to ${baseUrl}`,
    [
      `Run \`svc login --profile ${name} --base-url ${baseUrl}\` to save that service's key, or \`svc logout --profile ${name}\` first.`,
    ],
  );
}
