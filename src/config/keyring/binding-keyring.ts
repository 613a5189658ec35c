// The Keychain (macOS) and Credential Manager (Windows) through @napi-rs/keyring (keyring-rs):
// prebuilt binaries in its npm packages, nothing to compile. Only os-keyring.ts loads this module,
// and only on those two: Linux and the BSDs reach the Secret Service in TypeScript. Each call to
// the binding is bounded, by its own time and the command's deadline.
// An entry's account holds its base URL (keyring.ts accountOf); a legacy entry (account
// "<profile>", no base URL) is used only where the KeyringEntry allows it, and then kept again
// with it.
import { InterruptedError } from '../../core/errors.js';
import { importKeyring } from '../../core/external.js';
import {
  accountOf,
  type Keyring,
  KEYRING_SERVICE,
  type KeyringDeadline,
  KeyringError,
} from './keyring.js';

/** How long one keyring call may take: enough for a person to answer an unlock prompt. */
const CALL_TIMEOUT_MS = 30_000;

type Binding = typeof import('@napi-rs/keyring');
type Entry = InstanceType<Binding['AsyncEntry']>;

/**
 * The Keychain (macOS) or Credential Manager (Windows) through the binding, called `name`; no
 * keyring elsewhere. os-keyring.ts names and describes it.
 */
export function bindingKeyring(
  platform: NodeJS.Platform,
  name: string,
  deadline: KeyringDeadline,
): Omit<Keyring, 'name' | 'describe'> {
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

  async function entry(account: string): Promise<Entry> {
    const reason = await unavailable();
    if (reason !== undefined || !binding)
      throw new KeyringError(reason ?? `${name} cannot be used`);
    try {
      return new binding.AsyncEntry(KEYRING_SERVICE, account);
    } catch (error) {
      throw new KeyringError(`${name} cannot be opened: ${oneLine(error)}`);
    }
  }

  /**
   * One call, bounded: a keyring that does not answer is a KeyringError, never a hang; a stop of
   * the run ends it at once.
   */
  async function call<T>(what: string, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const timeoutMs = deadline.within(CALL_TIMEOUT_MS);
    const abort = new AbortController();
    let fail: (error: Error) => void = () => {};
    const late = new Promise<never>((_, reject) => (fail = reject));
    const end = (error: Error) => {
      abort.abort();
      fail(error);
    };
    const timer = setTimeout(
      () =>
        end(
          deadline.over
            ? deadline.passed()
            : new KeyringError(`no answer within ${timeoutMs / 1000} s while ${what}`),
        ),
      timeoutMs,
    );
    const stop = () => end(new InterruptedError());
    deadline.signal.addEventListener('abort', stop, { once: true });
    try {
      return await Promise.race([run(abort.signal), late]);
    } catch (error) {
      if (error instanceof KeyringError || error instanceof InterruptedError) throw error;
      throw new KeyringError(oneLine(error));
    } finally {
      clearTimeout(timer);
      deadline.signal.removeEventListener('abort', stop);
    }
  }

  const read = async (account: string) =>
    (await call('reading the key', async (signal) => (await entry(account)).getPassword(signal))) ??
    undefined;
  const write = (account: string, key: string) =>
    call('saving the key', async (signal) => (await entry(account)).setPassword(key, signal));
  const remove = (account: string) =>
    call('removing the key', async (signal) => (await entry(account)).deleteCredential(signal));

  return {
    unavailable,
    async read(kept) {
      const key = await read(accountOf(kept));
      if (key !== undefined || !kept.legacy) return key;
      // A legacy entry: its first use keeps it with the base URL, and it goes. Where that fails it
      // stays, and is read again next time.
      const earlier = await read(kept.profile);
      if (earlier === undefined) return undefined;
      await write(accountOf(kept), earlier)
        .then(() => remove(kept.profile))
        .catch((error: unknown) => {
          if (error instanceof InterruptedError) throw error;
        });
      return earlier;
    },
    async write(kept, key) {
      await write(accountOf(kept), key);
      if (kept.legacy) await remove(kept.profile);
    },
    async remove(kept) {
      const removed = await remove(accountOf(kept));
      return (kept.legacy && (await remove(kept.profile))) || removed;
    },
  };
}

/**
 * An error of the binding as one line of text ("Platform failure: DBus error: …"): it never holds
 * the key.
 */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^Couldn't access platform storage: /, '');
}
