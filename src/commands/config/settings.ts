// What the config verbs share: the names of a profile's settings, and how a value is shown.
import { PROFILE_KEYS, type ProfileKey } from '../../config/store.js';
import { UsageError } from '../../core/errors.js';
import { maskKey } from '../../service/keys.js';

export function checkKey(key: string): ProfileKey {
  if (!(PROFILE_KEYS as readonly string[]).includes(key)) {
    throw new UsageError(`unknown setting "${key}" (settings: ${PROFILE_KEYS.join(', ')})`);
  }
  return key as ProfileKey;
}

/** The value for output: the key masked. */
export function shown(key: ProfileKey, value: string | undefined): string | null {
  if (value === undefined) return null;
  return key === 'api_key' ? maskKey(value) : value;
}
