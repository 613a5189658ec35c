// The Keychain (macOS) and Credential Manager (Windows) through @napi-rs/keyring (keyring-rs):
// prebuilt binaries in its npm packages, nothing to compile. Only os-keyring.ts loads this module,
// and only on those two: Linux and the BSDs reach the Secret Service in TypeScript. Each call to
// the binding is bounded.
import { importKeyring } from '../core/external.js';
import { KEYRING_SERVICE, KeyringError, type Keyring } from './keyring.js';

/** How long one keyring call may take: enough for a person to answer an unlock prompt. */
const CALL_TIMEOUT_MS = 30_000;

type Binding = typeof import('@napi-rs/keyring');
type Entry = InstanceType<Binding['AsyncEntry']>;

/** The Keychain (macOS) or Credential Manager (Windows) through the binding, called `name`; no keyring elsewhere. */
export function bindingKeyring(platform: NodeJS.Platform, name: string): Keyring {
  let verdict: Promise<string | undefined> | undefined;
  let binding: Binding | undefined;

  const unavailable = (): Promise<string | undefined> => (verdict ??= probe());

  async function probe(): Promise<string | undefined> {
    if (platform !== 'darwin' && platform !== 'win32') return `no keyring svc knows on ${platform}`;
    try {
      binding = await importKeyring();
    } catch (error) {
      return `the keyring binding cannot be loaded (${oneLine(error)})`;
    }
    return undefined;
  }

  async function entry(profile: string): Promise<Entry> {
    const reason = await unavailable();
    if (reason !== undefined || !binding) throw new KeyringError(reason ?? `${name} cannot be used`);
    try {
      return new binding.AsyncEntry(KEYRING_SERVICE, profile);
    } catch (error) {
      throw new KeyringError(`${name} cannot be opened: ${oneLine(error)}`);
    }
  }

  /** One call, bounded: a keyring that does not answer is a KeyringError, never a hang. */
  async function call<T>(what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abort.abort();
        reject(new KeyringError(`no answer within ${CALL_TIMEOUT_MS / 1000} s while ${what}`));
      }, CALL_TIMEOUT_MS);
    });
    try {
      return await Promise.race([run(abort.signal), late]);
    } catch (error) {
      if (error instanceof KeyringError) throw error;
      throw new KeyringError(oneLine(error));
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    name,
    unavailable,
    async read(profile) {
      const kept = await entry(profile);
      return (await call('reading the key', (signal) => kept.getPassword(signal))) ?? undefined;
    },
    async write(profile, key) {
      const kept = await entry(profile);
      await call('saving the key', (signal) => kept.setPassword(key, signal));
    },
    async remove(profile) {
      const kept = await entry(profile);
      return call('removing the key', (signal) => kept.deleteCredential(signal));
    },
  };
}

/** An error of the binding as one line of text ("Platform failure: DBus error: …"): it never holds the key. */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^Couldn't access platform storage: /, '');
}
