// The Secret Service (org.freedesktop.Secret: GNOME Keyring, KWallet, KeePassXC) as svc's keyring
// on Linux and the BSDs, spoken to over the session bus by config/keyring/dbus.ts: no native code
// to load, and a timer on every call. An entry has the attributes service=svc, account=<profile>
// and base_url=<the profile's base URL>, so `secret-tool lookup service svc account default
// base_url https://…` finds it, and the label "svc: <profile>". The secret travels with the "plain"
// algorithm, which the specification allows: the socket is the user's own, and no one else can
// listen on it. Each operation opens its connection and its session, and closes both.
import { InterruptedError } from '../../core/errors.js';
import { printable } from '../../core/output/format.js';
import { type Env } from '../../core/variables.js';
import { readEnv } from '../../service/environment.js';
import {
  bodyOf,
  BusConnection,
  BusError,
  BusUnanswered,
  type Message,
  NO_OWNER,
  pingBusName,
  type Value,
  Variant,
} from './dbus.js';
import {
  type Keyring,
  KEYRING_DEADLINE_MS,
  KEYRING_SERVICE,
  KeyringDeadline,
  type KeyringEntry,
  KeyringError,
} from './keyring.js';

/**
 * How long the session bus may take to say whether a Secret Service is there (starting one
 * included).
 */
export const PROBE_TIMEOUT_MS = 2_000;
/** How long one call to the Secret Service may take, once it has answered. */
const CALL_TIMEOUT_MS = 10_000;
/** How long a prompt (unlocking the keyring) may take: enough for a person to type a password. */
const PROMPT_TIMEOUT_MS = 30_000;
/**
 * The items of one search svc acts on, at most: a profile has one entry a base URL, and at most
 * two legacy ones without one. More are not svc's doing, and are left alone.
 */
const MAX_ITEMS = 16;

const SECRETS = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';
const DEFAULT_COLLECTION = '/org/freedesktop/secrets/aliases/default';
const NO_PROMPT = '/';
const NAME = 'the Secret Service';
const LOCKED_HINT =
  'unlock it (log in to the desktop, or open Passwords and Keys / the keyring app) and try again';

/**
 * The Secret Service on the session bus of `env` (DBUS_SESSION_BUS_ADDRESS): `signal` stops its
 * waits, and its work has `deadlineMs` in all (KeyringDeadline).
 */
export function secretService(
  env: Env,
  signal: AbortSignal = new AbortController().signal,
  deadlineMs = KEYRING_DEADLINE_MS,
): Keyring {
  const address = readEnv(env, 'DBUS_SESSION_BUS_ADDRESS');
  const deadline = new KeyringDeadline(NAME, signal, deadlineMs);
  let verdict: Promise<string | undefined> | undefined;

  async function probe(): Promise<string | undefined> {
    if (!address)
      return 'no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set), so no Secret Service';
    try {
      await pingBusName(address, SECRETS, SERVICE_PATH, deadline.within(PROBE_TIMEOUT_MS), {
        signal,
      });
      return undefined;
    } catch (error) {
      if (error instanceof InterruptedError) throw error;
      return asKeyringError(error, deadline).message;
    }
  }

  /**
   * Runs `work` with a connection and an open session, both closed after it; every failure a
   * KeyringError (or InterruptedError).
   */
  async function withSession<T>(work: (secrets: Secrets) => Promise<T>): Promise<T> {
    if (!address)
      throw new KeyringError(
        'no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set), so no Secret Service',
      );
    let bus: BusConnection | undefined;
    try {
      bus = await BusConnection.open(address, deadline.within(PROBE_TIMEOUT_MS), { signal });
      const secrets = new Secrets(bus, deadline);
      const [, session] = await secrets.call(
        SERVICE_PATH,
        'Service',
        'OpenSession',
        'sv',
        ['plain', new Variant('s', '')],
        'vo',
        PROBE_TIMEOUT_MS,
      );
      secrets.session = session as string;
      try {
        return await work(secrets);
      } finally {
        await secrets.call(secrets.session, 'Session', 'Close', '', [], '').catch(() => {});
      }
    } catch (error) {
      throw asKeyringError(error, deadline);
    } finally {
      bus?.close();
    }
  }

  return {
    name: NAME,
    unavailable: () => (verdict ??= probe()),
    describe: (entry) =>
      `service ${KEYRING_SERVICE}, account ${entry.profile}, base_url ${entry.baseUrl}`,
    read: (entry) => withSession((secrets) => secrets.read(entry)),
    write: (entry, key) => withSession((secrets) => secrets.store(entry, key)),
    remove: (entry) => withSession((secrets) => secrets.removeAll(entry)),
  };
}

/** The attributes of an entry: a key is found only by the base URL it was saved for. */
const attributesOf = (entry: KeyringEntry) =>
  new Map<Value, Value>([
    ['service', KEYRING_SERVICE],
    ['account', entry.profile],
    ['base_url', entry.baseUrl],
  ]);

/**
 * A profile's legacy items, with no base URL: account=<profile>, or the keyring binding's
 * username=<profile> (keyring-rs names the account so). A search by these finds the entries of
 * every base URL too; those without a base_url attribute are the legacy ones.
 */
const legacyAttributesOf = (profile: string) => [
  new Map<Value, Value>([
    ['service', KEYRING_SERVICE],
    ['account', profile],
  ]),
  new Map<Value, Value>([
    ['service', KEYRING_SERVICE],
    ['username', profile],
  ]),
];

/**
 * One session with the Secret Service: every wait bounded by the call's own time and the command's
 * deadline.
 */
class Secrets {
  session = NO_PROMPT;
  /**
   * The connection that owns org.freedesktop.secrets: the one sender whose prompts' signals count.
   */
  private owner?: string;

  constructor(
    private readonly bus: BusConnection,
    private readonly deadline: KeyringDeadline,
  ) {}

  /**
   * One method call of org.freedesktop.Secret.<iface>, its reply's body checked against `replies`.
   */
  async call(
    path: string,
    iface: string,
    member: string,
    signature: string,
    body: Value[],
    replies: string,
    timeoutMs = CALL_TIMEOUT_MS,
  ): Promise<Value[]> {
    const reply = await this.bus.call(
      {
        destination: SECRETS,
        path,
        interface: `org.freedesktop.Secret.${iface}`,
        member,
        signature,
        body,
      },
      this.deadline.within(timeoutMs),
    );
    if (reply.signature !== replies)
      throw new KeyringError(
        `the Secret Service answered ${member} with "${printable(reply.signature)}", not "${replies}"`,
      );
    return bodyOf(reply);
  }

  /** The items whose attributes include `attributes`: those unlocked, and those locked. */
  private async search(attributes: Map<Value, Value>): Promise<[string[], string[]]> {
    return (await this.call(
      SERVICE_PATH,
      'Service',
      'SearchItems',
      'a{ss}',
      [attributes],
      'aoao',
    )) as [string[], string[]];
  }

  /**
   * The key of an entry: its own item's, else (where the entry allows it) a legacy one's, kept
   * again with the base URL.
   */
  async read(entry: KeyringEntry): Promise<string | undefined> {
    const [unlocked, locked] = await this.search(attributesOf(entry));
    const item =
      unlocked[0] ??
      (locked.length > 0
        ? (await this.unlock(locked.slice(0, 1), 'reading the key'))[0]
        : undefined);
    if (item !== undefined) return this.secretOf(item);
    if (!entry.legacy) return undefined;
    const [earlier] = await this.legacyItems(entry.profile, 'reading the key');
    if (earlier === undefined) return undefined;
    const key = await this.secretOf(earlier);
    // Its first use keeps it with the base URL, and the legacy item goes. Where that fails, the
    // legacy item stays, and is read again next time.
    await this.store(entry, key).catch((error: unknown) => {
      if (error instanceof InterruptedError) throw error;
    });
    return key;
  }

  /**
   * The legacy items of a profile, kept without a base URL, svc's own before the binding's,
   * unlocked (one prompt if it must be); at most MAX_ITEMS are looked at.
   */
  private async legacyItems(profile: string, what: string): Promise<string[]> {
    const found: string[] = [];
    const locked: string[] = [];
    for (const attributes of legacyAttributesOf(profile)) {
      const [open, closed] = await this.search(attributes);
      found.push(...open);
      locked.push(...closed);
    }
    const candidates = [...new Set(found)].slice(0, MAX_ITEMS);
    const closed = [...new Set(locked)].slice(0, MAX_ITEMS - candidates.length);
    if (closed.length > 0) candidates.push(...(await this.unlock(closed, what)));
    const earlier: string[] = [];
    for (const item of candidates)
      if (!(await this.attributesOfItem(item)).has('base_url')) earlier.push(item);
    return earlier;
  }

  /** An item's attributes (a Properties.Get of the item: it must be unlocked). */
  private async attributesOfItem(item: string): Promise<Map<Value, Value>> {
    const reply = await this.bus.call(
      {
        destination: SECRETS,
        path: item,
        interface: 'org.freedesktop.DBus.Properties',
        member: 'Get',
        signature: 'ss',
        body: ['org.freedesktop.Secret.Item', 'Attributes'],
      },
      this.deadline.within(CALL_TIMEOUT_MS),
    );
    const [value] = reply.signature === 'v' ? bodyOf(reply) : [];
    if (
      !(value instanceof Variant) ||
      value.signature !== 'a{ss}' ||
      !(value.value instanceof Map)
    ) {
      throw new KeyringError(
        `the Secret Service gave the attributes of an item as "${printable(reply.signature)}", not a{ss}`,
      );
    }
    return value.value;
  }

  /**
   * Unlocks objects (items, collections): those unlocked; KeyringError when the prompt is
   * dismissed.
   */
  private async unlock(objects: string[], what: string): Promise<string[]> {
    const [unlocked, prompt] = (await this.call(
      SERVICE_PATH,
      'Service',
      'Unlock',
      'ao',
      [objects],
      'aoo',
    )) as [string[], string];
    if (prompt === NO_PROMPT) return unlocked;
    const result = await this.prompt(prompt, what);
    const paths = result?.value;
    if (!Array.isArray(paths) || paths.length === 0) throw lockedError();
    return paths as string[];
  }

  /**
   * Shows a prompt and waits for it, bounded: its result, or KeyringError when it was dismissed.
   * Its Completed signal counts only from the owner of org.freedesktop.secrets and for this
   * prompt: any other connection on the bus may send a signal of that name.
   */
  private async prompt(prompt: string, what: string): Promise<Variant | undefined> {
    this.owner ??= await this.bus.nameOwner(SECRETS, this.deadline.within(CALL_TIMEOUT_MS));
    const owner = this.owner;
    const rule = `type='signal',sender='${owner}',interface='org.freedesktop.Secret.Prompt',member='Completed',path='${prompt}'`;
    await this.bus.addMatch(rule, this.deadline.within(CALL_TIMEOUT_MS));
    const completed = this.bus.signal(
      (message: Message) =>
        message.sender === owner &&
        message.path === prompt &&
        message.interface === 'org.freedesktop.Secret.Prompt' &&
        message.member === 'Completed',
      this.deadline.within(PROMPT_TIMEOUT_MS),
      `${what} (an unlock prompt)`,
    );
    // Whatever happens to the call, the wait is settled (or timed out) on its own.
    completed.catch(() => {});
    await this.call(prompt, 'Prompt', 'Prompt', 's', [''], '');
    const signal = await completed;
    if (signal.signature !== 'bv')
      throw new KeyringError(
        `the Secret Service's prompt completed with "${printable(signal.signature)}", not "bv"`,
      );
    const [dismissed, result] = bodyOf(signal) as [boolean, Variant];
    if (dismissed) throw lockedError();
    return result;
  }

  /** The key an item keeps (UTF-8). */
  private async secretOf(item: string): Promise<string> {
    const [secret] = (await this.call(
      item,
      'Item',
      'GetSecret',
      'o',
      [this.session],
      '(oayays)',
    )) as [[string, Buffer, Buffer, string]];
    const value = secret[2];
    const key = value.toString('utf8');
    value.fill(0);
    return key;
  }

  /**
   * Keeps `key` for an entry in the default collection, replacing the item of the same attributes
   * (the same base URL).
   */
  async store(entry: KeyringEntry, key: string): Promise<void> {
    const properties = new Map<Value, Value>([
      ['org.freedesktop.Secret.Item.Label', new Variant('s', `svc: ${entry.profile}`)],
      ['org.freedesktop.Secret.Item.Attributes', new Variant('a{ss}', attributesOf(entry))],
    ]);
    const value = Buffer.from(key, 'utf8');
    const create = () =>
      this.call(
        DEFAULT_COLLECTION,
        'Collection',
        'CreateItem',
        'a{sv}(oayays)b',
        [properties, [this.session, Buffer.alloc(0), value, 'text/plain'], true],
        'oo',
      );
    try {
      let reply: Value[];
      try {
        reply = await create();
      } catch (error) {
        if (
          !(error instanceof BusError) ||
          error.dbusName !== 'org.freedesktop.Secret.Error.IsLocked'
        )
          throw error;
        await this.unlock([DEFAULT_COLLECTION], 'saving the key');
        reply = await create();
      }
      const prompt = reply[1] as string;
      if (prompt !== NO_PROMPT) await this.prompt(prompt, 'saving the key');
    } catch (error) {
      if (
        error instanceof BusError &&
        /NoSuchObject|UnknownObject|UnknownMethod/.test(error.dbusName)
      ) {
        throw new KeyringError(
          `the Secret Service has no default keyring (collection) to keep the key in (${error.dbusName}); create one and make it the default (Passwords and Keys, or your keyring app)`,
        );
      }
      // The service's own text is left out: it answered a call that held the key.
      if (error instanceof BusError)
        throw new KeyringError(
          `the Secret Service did not keep the key (${printable(error.dbusName)})`,
        );
      throw error;
    } finally {
      value.fill(0);
    }
    if (!entry.legacy) return;
    // The profile's legacy items, without a base URL, go: this one replaces them. Where that
    // fails they are left, unused (the entry's own is read first).
    try {
      for (const item of await this.legacyItems(entry.profile, 'saving the key'))
        await this.delete(item, 'saving the key');
    } catch (error) {
      if (error instanceof InterruptedError) throw error;
    }
  }

  /**
   * Removes the items of an entry (and, where it allows, its profile's legacy ones): whether there
   * was one.
   */
  async removeAll(entry: KeyringEntry): Promise<boolean> {
    const [unlocked, locked] = await this.search(attributesOf(entry));
    const items = unlocked.slice(0, MAX_ITEMS);
    const closed = locked.slice(0, MAX_ITEMS - items.length);
    if (closed.length > 0) items.push(...(await this.unlock(closed, 'removing the key')));
    if (entry.legacy) items.push(...(await this.legacyItems(entry.profile, 'removing the key')));
    for (const item of items) await this.delete(item, 'removing the key');
    return items.length > 0;
  }

  private async delete(item: string, what: string): Promise<void> {
    const [prompt] = (await this.call(item, 'Item', 'Delete', '', [], 'o')) as [string];
    if (prompt !== NO_PROMPT) await this.prompt(prompt, what);
  }
}

function lockedError(): KeyringError {
  return new KeyringError(
    `the keyring is locked and its unlock prompt was dismissed: ${LOCKED_HINT}`,
  );
}

/**
 * Any failure as a KeyringError of one line: the bus's or the service's, never the key (no call's
 * text holds it); a stop stays an InterruptedError, and a wait cut by the deadline says so.
 */
function asKeyringError(error: unknown, deadline: KeyringDeadline): Error {
  if (error instanceof KeyringError || error instanceof InterruptedError) return error;
  if (error instanceof BusError) {
    if (NO_OWNER.test(error.dbusName))
      return new KeyringError(
        `nothing answers to ${SECRETS} on the session bus (${error.dbusName})`,
      );
    if (error.dbusName === 'org.freedesktop.Secret.Error.IsLocked')
      return new KeyringError(`the keyring is locked: ${LOCKED_HINT}`);
    const text = printable(error.message).replace(/\s+/g, ' ').trim().slice(0, 200);
    return new KeyringError(
      `the Secret Service failed (${printable(error.dbusName)}${text ? `: ${text}` : ''})`,
    );
  }
  if (error instanceof BusUnanswered) {
    if (deadline.over) return deadline.passed();
    return new KeyringError(
      printable(error.message).replace(
        /from the session bus within/,
        `from ${SECRETS} on the session bus within`,
      ),
    );
  }
  return new KeyringError(
    `the Secret Service cannot be used (${printable(error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ')})`,
  );
}
