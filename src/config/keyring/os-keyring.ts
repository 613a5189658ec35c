// The OS keyring of this platform. On Linux and the BSDs, the Secret Service over the session
// D-Bus, spoken to in TypeScript (secret-service.ts): no native code is loaded there, nor the
// packages kept apart (dist/external.cjs). On macOS and Windows, the Keychain and Credential
// Manager through @napi-rs/keyring (binding-keyring.ts), loaded at the first use.
import type { Env } from '../../core/variables.js';
import { bindingKeyring } from './binding-keyring.js';
import { accountOf, type Keyring, KEYRING_SERVICE, KeyringDeadline } from './keyring.js';
import { secretService } from './secret-service.js';

/** Where a session D-Bus, and on it the Secret Service, is how a keyring is reached. */
const SESSION_BUS_PLATFORMS: readonly NodeJS.Platform[] = ['linux', 'freebsd', 'openbsd'];

/**
 * The keyring of one command: `signal` (the run's stop) ends its waits, and its work has
 * KEYRING_DEADLINE_MS in all.
 */
export function osKeyring(
  env: Env,
  signal: AbortSignal,
  platform: NodeJS.Platform = process.platform,
): Keyring {
  if (SESSION_BUS_PLATFORMS.includes(platform)) return secretService(env, signal);
  const name =
    platform === 'darwin'
      ? 'the macOS Keychain'
      : platform === 'win32'
        ? 'Windows Credential Manager'
        : `no keyring on ${platform}`;
  const deadline = new KeyringDeadline(name, signal);
  let loaded: Promise<Omit<Keyring, 'name' | 'describe'>> | undefined;
  const binding = () =>
    (loaded ??= Promise.resolve().then(() => bindingKeyring(platform, name, deadline)));
  return {
    name,
    unavailable: async () => (await binding()).unavailable(),
    describe: (entry) => `service ${KEYRING_SERVICE}, account "${accountOf(entry)}"`,
    read: async (entry) => (await binding()).read(entry),
    write: async (entry, key) => (await binding()).write(entry, key),
    remove: async (entry) => (await binding()).remove(entry),
  };
}
