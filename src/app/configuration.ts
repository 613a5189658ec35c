// What a command is configured with (Context.config): the folders svc keeps its files in, the
// config file, the settings in force (flag > environment > profile > default: config/resolve.ts),
// the calendar, the API key wherever it is kept (the OS keyring too) and the clients made with it.
// The files, the settings and the key are read when first asked for, and once.
import { ApiClient, type Layer } from '../api/client.js';
import type { Keyring, KeyringEntry } from '../config/keyring/keyring.js';
import { osKeyring } from '../config/keyring/os-keyring.js';
import { cacheDir, configDir, dataDir, homeFolder, NO_HOME } from '../config/paths.js';
import {
  requireApiKey,
  requireBaseUrl,
  resolveCalendar,
  resolveSettings,
  type Settings,
} from '../config/resolve.js';
import { type ConfigDoc, ConfigStore, profileMap } from '../config/store.js';
import { type BsCalendar, loadBsCalendar } from '../core/calendar/calendar.js';
import { UsageError } from '../core/errors.js';
import type { IO } from '../core/io.js';
import type { Secrets } from '../core/secrets/secrets.js';
import { ReplyCache } from '../service/cache.js';
import { readEnv } from '../service/environment.js';
import { keyMode } from '../service/keys.js';
import { USER_AGENT } from '../version.js';
import type { GlobalFlags } from './global-flags.js';
import { keyringEntryOf, readKeyringKey } from './keyring-key.js';
import { namingRefusedKey } from './refused-key.js';
import type { CacheStore, Services } from './services.js';
import { slowRequestLayer } from './spinners.js';

/** What the configuration takes of the command's context (context.ts), which gives itself. */
export interface Run {
  readonly io: IO;
  readonly flags: GlobalFlags;
  readonly signal: AbortSignal;
  readonly secrets: Secrets;
  readonly services: Services;
  readonly debug: boolean;
  /** The bound of each HTTP attempt, in milliseconds. */
  readonly attemptTimeoutMs: number;
  err(line: string): void;
  warn(message: string): void;
  now(): number;
}

export class Configuration {
  private storeMemo?: ConfigStore;
  private settingsMemo?: Settings;
  private calendarMemo?: Promise<BsCalendar | undefined>;
  private keyringMemo?: Keyring;

  constructor(private readonly run: Run) {}

  /** A folder svc keeps its files in (config/paths.ts), or the home folder; undefined if none. */
  async folder(kind: 'config' | 'cache' | 'data' | 'home'): Promise<string | undefined> {
    const { env } = this.run.io;
    const home = this.run.services.systemHome;
    if (kind === 'home') return homeFolder(env, home);
    return { config: configDir, cache: cacheDir, data: dataDir }[kind](env, process.platform, home);
  }

  /** The config file; with no folder to keep it in (no home folder), a UsageError (exit 2). */
  async store(): Promise<ConfigStore> {
    if (!this.storeMemo) {
      const dir = await this.folder('config');
      if (dir === undefined) throw new UsageError(NO_HOME);
      this.storeMemo = new ConfigStore(dir, (message) => this.run.warn(message));
    }
    return this.storeMemo;
  }

  /** What the config file says; with no folder for one, nothing, as when there is no file. */
  async doc(): Promise<ConfigDoc> {
    if ((await this.folder('config')) === undefined) return { profiles: profileMap() };
    return (await this.store()).read();
  }

  async settings(): Promise<Settings> {
    if (!this.settingsMemo) {
      const doc = await this.doc();
      this.settingsMemo = resolveSettings(this.run.flags, this.run.io.env, doc);
      this.run.secrets.add(this.settingsMemo.apiKey);
    }
    return this.settingsMemo;
  }

  /** The BS calendar when it is the one in force (config/resolve.ts); undefined for AD. */
  async calendar(): Promise<BsCalendar | undefined> {
    const { flags, io } = this.run;
    this.calendarMemo ??= (async () => {
      // The config file is read only when neither the flag nor the environment says.
      const asked = flags.calendar !== undefined || Boolean(readEnv(io.env, 'SVC_CALENDAR'));
      const doc = asked ? { profiles: {} } : await this.doc();
      const name = resolveCalendar(flags, io.env, doc);
      return name === 'bs' ? loadBsCalendar() : undefined;
    })();
    return this.calendarMemo;
  }

  /** The reply cache of the profile in force; --debug hears why it is bypassed, if it is. */
  async replyCache(): Promise<CacheStore> {
    const { profile } = await this.settings();
    const note = this.run.debug ? (line: string) => this.run.err(line) : undefined;
    if (this.run.services.replyCache) return this.run.services.replyCache(profile, note);
    const root = await this.folder('cache');
    if (root !== undefined) return new ReplyCache(root, profile, note);
    // A cache saves requests; a run does as well without one.
    note?.(`debug: reply cache not used: ${NO_HOME}`);
    return { read: () => undefined, write: () => {}, fileFor: () => '(no cache folder)' };
  }

  /** The OS keyring: the test's in a test; Ctrl-C ends its waits. */
  async keyring(): Promise<Keyring> {
    this.keyringMemo ??= this.run.services.keyring ?? osKeyring(this.run.io.env, this.run.signal);
    return this.keyringMemo;
  }

  /** The keyring entry of a profile's key (keyring-key.ts). */
  async keyringEntry(profile: string, baseUrl: string | undefined): Promise<KeyringEntry> {
    return keyringEntryOf(profile, baseUrl, this.run.io.env, this.run.services.systemHome);
  }

  /** The key of a profile kept in the keyring for its base URL; exit 3 saying why if unreadable. */
  async keyringKeyOf(profile: string, baseUrl: string | undefined): Promise<string> {
    const entry = await this.keyringEntry(profile, baseUrl);
    return readKeyringKey(await this.keyring(), entry, profile);
  }

  /** The API key in force (exit 3 if none); a key kept in the keyring is read now, and only now. */
  async apiKey(): Promise<string> {
    const settings = await this.settings();
    if (settings.apiKey === undefined && settings.keyStore === 'keyring') {
      settings.apiKey = await this.keyringKeyOf(settings.profile, settings.profileBaseUrl);
      this.run.secrets.add(settings.apiKey);
    }
    return requireApiKey(settings);
  }

  /** The API client for the settings in force; missing settings are errors (exit 2 or 3). */
  async client(): Promise<ApiClient> {
    const settings = await this.settings();
    const baseUrl = requireBaseUrl(settings);
    const apiKey = await this.apiKey();
    if (settings.apiKeySource === 'flag')
      this.run.warn(
        '--api-key is visible to other users of this machine; prefer SVC_API_KEY or `svc login`',
      );
    return this.clientFor(baseUrl, apiKey, settings);
  }

  /** A client that sends no API key (a token stands in for it): a base URL is all it needs. */
  async anonymousClient(): Promise<ApiClient> {
    return this.clientFor(requireBaseUrl(await this.settings()), undefined);
  }

  /** A client for a checked base URL and a key; `keyFrom`: the settings naming a refused key. */
  async clientFor(
    baseUrl: string,
    apiKey: string | undefined,
    keyFrom?: Settings,
  ): Promise<ApiClient> {
    const { io, flags, secrets, services } = this.run;
    secrets.add(apiKey);
    if (apiKey !== undefined && keyMode(apiKey) === 'unknown')
      this.run.warn(
        'the API key is not of the form svc_sk_live_…, svc_sk_test_… (or sk_live_…, sk_test_…); using it as given',
      );
    // Around every request, outermost first: a refused key named by its source (report-error.ts),
    // and on a terminal the spinner of a request slow to answer.
    const layers: Layer[] = [];
    if (keyFrom) layers.push(namingRefusedKey(keyFrom));
    if (io.stderrIsTTY) layers.push(slowRequestLayer(io));
    return new ApiClient({
      baseUrl,
      apiKey,
      userAgent: USER_AGENT,
      timeoutMs: this.run.attemptTimeoutMs,
      retries: flags.retries ?? DEFAULT_RETRIES,
      maxReplyBytes: flags.maxReplySize,
      env: io.env,
      signal: this.run.signal,
      debug: this.run.debug ? (line) => this.run.err(line) : undefined,
      secrets,
      transport: services.transport,
      sleep: services.sleep,
      random: services.random,
      now: () => this.run.now(),
      layers,
    });
  }
}

const DEFAULT_RETRIES = 2;
