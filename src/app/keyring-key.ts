// A profile's key kept in the OS keyring: the entry it is kept under, and reading it with the
// reasons a read fails said as a person can act on them (exit 3).
import type { Keyring, KeyringEntry } from '../config/keyring/keyring.js';
import { isDefaultConfigDir, type SystemHome } from '../config/paths.js';
import { checkBaseUrl } from '../config/resolve.js';
import { InterruptedError, UsageError } from '../core/errors.js';
import type { Env } from '../core/variables.js';
import { MissingKeyError } from '../service/errors.js';
import { checkKeySize } from '../service/keys.js';

/**
 * The keyring entry of a profile's key: the one of its base URL, and no other. Only from the
 * platform's default config folder may it stand for the profile's legacy key, kept with no base
 * URL (config/keyring/keyring.ts). A profile with no base URL has none (exit 2).
 */
export function keyringEntryOf(
  profile: string,
  baseUrl: string | undefined,
  env: Env,
  systemHome: SystemHome | undefined,
): KeyringEntry {
  if (baseUrl === undefined) {
    throw new UsageError(
      `profile "${profile}" has no base URL, and a key in the OS keyring is kept for one`,
      [`Run \`svc login --profile ${profile} --base-url URL\`.`],
    );
  }
  return {
    profile,
    baseUrl: checkBaseUrl(baseUrl),
    legacy: isDefaultConfigDir(env, process.platform, systemHome),
  };
}

/**
 * The key of a profile kept in the keyring under `entry`; exit 3 saying why when it cannot be had.
 */
export async function readKeyringKey(
  keyring: Keyring,
  entry: KeyringEntry,
  profile: string,
): Promise<string> {
  const hints = [
    `Unlock ${keyring.name} (or start one), or set SVC_API_KEY; \`svc login --profile ${profile}\` saves the key again.`,
  ];
  let key: string | undefined;
  try {
    key = await keyring.read(entry);
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    throw new MissingKeyError(
      `the key of profile "${profile}" is kept in ${keyring.name}, which cannot be read: ${(error as Error).message}`,
      hints,
    );
  }
  if (key === undefined)
    throw new MissingKeyError(
      `${keyring.name} holds no key of profile "${profile}" for ${entry.baseUrl}`,
      hints,
    );
  if (key === '')
    throw new MissingKeyError(`${keyring.name} holds an empty key for profile "${profile}"`, [
      `Run \`svc login --profile ${profile}\` to save its key again, or set SVC_API_KEY.`,
    ]);
  return checkKeySize(key, `the key of profile "${profile}" in ${keyring.name}`);
}
