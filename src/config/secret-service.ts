// The Secret Service (org.freedesktop.Secret: GNOME Keyring, KWallet, KeePassXC) as svc's keyring on
// Linux and the BSDs, spoken to over the session bus by core/dbus.ts: no native code to load, and a
// timer on every call. An entry has the attributes service=svc and account=<profile>, so
// `secret-tool lookup service svc account default` finds it, and the label "svc: <profile>". The
// secret travels with the "plain" algorithm, which the specification allows: the socket is the
// user's own, and no one else can listen on it. Each operation opens its connection and its
// session, and closes both.
import { BusConnection, BusError, BusUnanswered, NO_OWNER, Variant, bodyOf, pingBusName, type Message, type Value } from '../core/dbus.js';
import { readEnv, type Env } from '../core/environment.js';
import { printable } from '../core/output/format.js';
import { KEYRING_SERVICE, KeyringError, type Keyring } from './keyring.js';

/** How long the session bus may take to say whether a Secret Service is there (starting one included). */
export const PROBE_TIMEOUT_MS = 2_000;
/** How long one call to the Secret Service may take, once it has answered. */
const CALL_TIMEOUT_MS = 10_000;
/** How long a prompt (unlocking the keyring) may take: enough for a person to type a password. */
const PROMPT_TIMEOUT_MS = 30_000;

const SECRETS = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';
const DEFAULT_COLLECTION = '/org/freedesktop/secrets/aliases/default';
const NO_PROMPT = '/';
const NAME = 'the Secret Service';
const LOCKED_HINT = 'unlock it (log in to the desktop, or open Passwords and Keys / the keyring app) and try again';

/** The Secret Service on the session bus of `env` (DBUS_SESSION_BUS_ADDRESS). */
export function secretService(env: Env): Keyring {
  const address = readEnv(env, 'DBUS_SESSION_BUS_ADDRESS');
  let verdict: Promise<string | undefined> | undefined;

  async function probe(): Promise<string | undefined> {
    if (!address) return 'no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set), so no Secret Service';
    try {
      await pingBusName(address, SECRETS, SERVICE_PATH, PROBE_TIMEOUT_MS);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** Runs `work` with a connection and an open session, both closed after it; every failure a KeyringError. */
  async function withSession<T>(work: (secrets: Secrets) => Promise<T>): Promise<T> {
    if (!address) throw new KeyringError('no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set), so no Secret Service');
    let bus: BusConnection | undefined;
    try {
      bus = await BusConnection.open(address, PROBE_TIMEOUT_MS);
      const [, session] = await call(bus, SERVICE_PATH, 'Service', 'OpenSession', 'sv', ['plain', new Variant('s', '')], 'vo', PROBE_TIMEOUT_MS);
      const secrets = new Secrets(bus, session as string);
      try {
        return await work(secrets);
      } finally {
        await call(bus, session as string, 'Session', 'Close', '', [], '', CALL_TIMEOUT_MS).catch(() => {});
      }
    } catch (error) {
      throw asKeyringError(error);
    } finally {
      bus?.close();
    }
  }

  return {
    name: NAME,
    unavailable: () => (verdict ??= probe()),
    read: (profile) =>
      withSession(async (secrets) => {
        const item = await secrets.find(profile, 'reading the key');
        return item === undefined ? undefined : secrets.secretOf(item);
      }),
    write: (profile, key) => withSession((secrets) => secrets.store(profile, key)),
    remove: (profile) => withSession((secrets) => secrets.removeAll(profile)),
  };
}

/** One method call of org.freedesktop.Secret.<iface>, its reply's body checked against `replies`. */
async function call(bus: BusConnection, path: string, iface: string, member: string, signature: string, body: Value[], replies: string, timeoutMs = CALL_TIMEOUT_MS): Promise<Value[]> {
  const reply = await bus.call({ destination: SECRETS, path, interface: `org.freedesktop.Secret.${iface}`, member, signature, body }, timeoutMs);
  if (reply.signature !== replies) throw new KeyringError(`the Secret Service answered ${member} with "${printable(reply.signature)}", not "${replies}"`);
  return bodyOf(reply);
}

/**
 * The attributes svc's keyring binding wrote on Linux before (keyring-rs names the account
 * `username`): such a key is still read, a login replaces it, and a logout removes it.
 */
const bindingAttributesOf = (profile: string) =>
  new Map<Value, Value>([
    ['service', KEYRING_SERVICE],
    ['username', profile],
  ]);

const attributesOf = (profile: string) =>
  new Map<Value, Value>([
    ['service', KEYRING_SERVICE],
    ['account', profile],
  ]);

class Secrets {
  constructor(
    private readonly bus: BusConnection,
    private readonly session: string,
  ) {}

  /** The items whose attributes are `attributes`: those unlocked, and those locked. */
  private async search(attributes: Map<Value, Value>): Promise<[string[], string[]]> {
    return (await call(this.bus, SERVICE_PATH, 'Service', 'SearchItems', 'a{ss}', [attributes], 'aoao')) as [string[], string[]];
  }

  /** The item of a profile (svc's own first, else the binding's of before), unlocked (a prompt if it must be); undefined when there is none. */
  async find(profile: string, what: string): Promise<string | undefined> {
    for (const attributes of [attributesOf(profile), bindingAttributesOf(profile)]) {
      const [unlocked, locked] = await this.search(attributes);
      if (unlocked.length > 0) return unlocked[0];
      if (locked.length > 0) return (await this.unlock(locked, what))[0];
    }
    return undefined;
  }

  /** Every item of a profile, svc's own and the binding's of before, unlocked (a prompt if it must be). */
  private async all(profile: string, what: string): Promise<string[]> {
    const found = new Set<string>();
    const locked = new Set<string>();
    for (const attributes of [attributesOf(profile), bindingAttributesOf(profile)]) {
      const [open, closed] = await this.search(attributes);
      for (const item of open) found.add(item);
      for (const item of closed) locked.add(item);
    }
    if (locked.size > 0) for (const item of await this.unlock([...locked], what)) found.add(item);
    return [...found];
  }

  /** Unlocks objects (items, collections): those unlocked; KeyringError when the prompt is dismissed. */
  private async unlock(objects: string[], what: string): Promise<string[]> {
    const [unlocked, prompt] = (await call(this.bus, SERVICE_PATH, 'Service', 'Unlock', 'ao', [objects], 'aoo')) as [string[], string];
    if (prompt === NO_PROMPT) return unlocked;
    const result = await this.prompt(prompt, what);
    const paths = result?.value;
    if (!Array.isArray(paths) || paths.length === 0) throw lockedError();
    return paths as string[];
  }

  /** Shows a prompt and waits for it, bounded: its result, or KeyringError when it was dismissed. */
  private async prompt(prompt: string, what: string): Promise<Variant | undefined> {
    await this.bus.addMatch(`type='signal',interface='org.freedesktop.Secret.Prompt',member='Completed',path='${prompt}'`, CALL_TIMEOUT_MS);
    const completed = this.bus.signal((message: Message) => message.path === prompt && message.member === 'Completed', PROMPT_TIMEOUT_MS, `${what} (an unlock prompt)`);
    // Whatever happens to the call, the wait is settled (or timed out) on its own.
    completed.catch(() => {});
    await call(this.bus, prompt, 'Prompt', 'Prompt', 's', [''], '');
    const signal = await completed;
    if (signal.signature !== 'bv') throw new KeyringError(`the Secret Service's prompt completed with "${printable(signal.signature)}", not "bv"`);
    const [dismissed, result] = bodyOf(signal) as [boolean, Variant];
    if (dismissed) throw lockedError();
    return result;
  }

  /** The key an item keeps (UTF-8). */
  async secretOf(item: string): Promise<string> {
    const [secret] = (await call(this.bus, item, 'Item', 'GetSecret', 'o', [this.session], '(oayays)')) as [[string, Buffer, Buffer, string]];
    const value = secret[2];
    const key = value.toString('utf8');
    value.fill(0);
    return key;
  }

  /** Keeps `key` for a profile in the default collection, replacing the one it had. */
  async store(profile: string, key: string): Promise<void> {
    const properties = new Map<Value, Value>([
      ['org.freedesktop.Secret.Item.Label', new Variant('s', `svc: ${profile}`)],
      ['org.freedesktop.Secret.Item.Attributes', new Variant('a{ss}', attributesOf(profile))],
    ]);
    const value = Buffer.from(key, 'utf8');
    const create = () => call(this.bus, DEFAULT_COLLECTION, 'Collection', 'CreateItem', 'a{sv}(oayays)b', [properties, [this.session, Buffer.alloc(0), value, 'text/plain'], true], 'oo');
    try {
      let reply: Value[];
      try {
        reply = await create();
      } catch (error) {
        if (!(error instanceof BusError) || error.dbusName !== 'org.freedesktop.Secret.Error.IsLocked') throw error;
        await this.unlock([DEFAULT_COLLECTION], 'saving the key');
        reply = await create();
      }
      const prompt = reply[1] as string;
      if (prompt !== NO_PROMPT) await this.prompt(prompt, 'saving the key');
    } catch (error) {
      if (error instanceof BusError && /NoSuchObject|UnknownObject|UnknownMethod/.test(error.dbusName)) {
        throw new KeyringError(
          `the Secret Service has no default keyring (collection) to keep the key in (${error.dbusName}); create one and make it the default (Passwords and Keys, or your keyring app)`,
        );
      }
      // The service's own text is left out: it answered a call that held the key.
      if (error instanceof BusError) throw new KeyringError(`the Secret Service did not keep the key (${printable(error.dbusName)})`);
      throw error;
    } finally {
      value.fill(0);
    }
    // The binding's entry of before, if any, goes: this one replaces it. Where that fails it is
    // left, unused (svc's own entry is read first).
    try {
      const [before] = await this.search(bindingAttributesOf(profile));
      for (const item of before) await this.delete(item, 'saving the key');
    } catch {
      // Kept is kept.
    }
  }

  /** Removes every item of a profile: whether there was one. */
  async removeAll(profile: string): Promise<boolean> {
    const items = await this.all(profile, 'removing the key');
    for (const item of items) await this.delete(item, 'removing the key');
    return items.length > 0;
  }

  private async delete(item: string, what: string): Promise<void> {
    const [prompt] = (await call(this.bus, item, 'Item', 'Delete', '', [], 'o')) as [string];
    if (prompt !== NO_PROMPT) await this.prompt(prompt, what);
  }
}

function lockedError(): KeyringError {
  return new KeyringError(`the keyring is locked and its unlock prompt was dismissed: ${LOCKED_HINT}`);
}

/** Any failure as a KeyringError of one line: the bus's or the service's, never the key (no call's text holds it). */
function asKeyringError(error: unknown): KeyringError {
  if (error instanceof KeyringError) return error;
  if (error instanceof BusError) {
    if (NO_OWNER.test(error.dbusName)) return new KeyringError(`nothing answers to ${SECRETS} on the session bus (${error.dbusName})`);
    if (error.dbusName === 'org.freedesktop.Secret.Error.IsLocked') return new KeyringError(`the keyring is locked: ${LOCKED_HINT}`);
    const text = printable(error.message).replace(/\s+/g, ' ').trim().slice(0, 200);
    return new KeyringError(`the Secret Service failed (${printable(error.dbusName)}${text ? `: ${text}` : ''})`);
  }
  if (error instanceof BusUnanswered) return new KeyringError(printable(error.message).replace(/from the session bus within/, `from ${SECRETS} on the session bus within`));
  return new KeyringError(`the Secret Service cannot be used (${printable(error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')})`);
}
