// The OS keyring of this platform. On Linux and the BSDs, the Secret Service over the session
// D-Bus, spoken to in TypeScript (secret-service.ts): no native code is loaded there, nor the
// packages kept apart (dist/external.cjs). On macOS and Windows, the Keychain and Credential
// Manager through @napi-rs/keyring (binding-keyring.ts), loaded at the first use.
import type { Env } from '../core/environment.js';
import type { Keyring } from './keyring.js';
import { secretService } from './secret-service.js';

/** Where a session D-Bus, and on it the Secret Service, is how a keyring is reached. */
const SESSION_BUS_PLATFORMS: readonly NodeJS.Platform[] = ['linux', 'freebsd', 'openbsd'];

export function osKeyring(env: Env, platform: NodeJS.Platform = process.platform): Keyring {
  if (SESSION_BUS_PLATFORMS.includes(platform)) return secretService(env);
  const name = platform === 'darwin' ? 'the macOS Keychain' : platform === 'win32' ? 'Windows Credential Manager' : `no keyring on ${platform}`;
  let loaded: Promise<Keyring> | undefined;
  const binding = () => (loaded ??= import('./binding-keyring.js').then((module) => module.bindingKeyring(platform, name)));
  return {
    name,
    unavailable: async () => (await binding()).unavailable(),
    read: async (profile) => (await binding()).read(profile),
    write: async (profile, key) => (await binding()).write(profile, key),
    remove: async (profile) => (await binding()).remove(profile),
  };
}
