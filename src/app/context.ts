// The factory every command gets: IO, the parsed global flags, and access to the config, the
// settings, the API client, prompts, the clock, the keyring, the browser and the reply cache.
// Commands take these from here only, so a test can run any command in-process with its own
// (services.ts). Showing a reply is present.ts's.
import { ApiClient, type Layer } from '../api/client.js';
import { directTransport, type Transport } from '../api/transport.js';
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
import { openInBrowser } from '../core/browser.js';
import { ReplyCache } from '../core/cache.js';
import { type BsCalendar, loadBsCalendar } from '../core/calendar/calendar.js';
import { readEnv } from '../core/environment.js';
import { UsageError } from '../core/errors.js';
import { canPrompt, colorEnabled, FALLBACK_COLUMNS, type IO } from '../core/io.js';
import { keyMode } from '../core/keys.js';
import { isTableFormat } from '../core/output/formats.js';
import { proseLines } from '../core/output/prose.js';
import type { OutputFormat } from '../core/output/render.js';
import { errorsAsJson } from '../core/report-error.js';
import { writeUnmasked } from '../core/secrets/masked-stream.js';
import type { Secrets } from '../core/secrets/secrets.js';
import { sleep } from '../core/sleep.js';
import type { PagedOutput } from '../core/stream/pager.js';
import type { LineText, Spinner } from '../core/stream/terminal-line.js';
import { USER_AGENT } from '../version.js';
import { type GlobalFlags, outputFormat } from './global-flags.js';
import { keyringEntryOf, readKeyringKey } from './keyring-key.js';
import { terminalPrompter } from './prompt.js';
import { namingRefusedKey } from './refused-key.js';
import type { CacheStore, Prompter, Services } from './services.js';
import { slowRequestLayer, spinner } from './spinners.js';

/** stdout on a terminal, which pages an output (pager.ts), and what writes what the masking holds back. */
export interface Paging {
  output: PagedOutput;
  flush: () => void;
}

export class Context {
  readonly format: OutputFormat;
  readonly color: boolean;
  readonly debug: boolean;
  /** When this run began, in ms since the epoch: its process's start (in a test, the test clock's). */
  readonly began: number;
  private settingsMemo?: Settings;
  private storeMemo?: ConfigStore;
  private keyringMemo?: Keyring;
  private calendarMemo?: Promise<BsCalendar | undefined>;

  constructor(
    readonly io: IO,
    readonly flags: GlobalFlags,
    /** Aborted on Ctrl-C. */
    readonly signal: AbortSignal,
    /** What io's streams mask: every secret the run comes to know is added as soon as it is known. */
    readonly secrets: Secrets,
    readonly services: Services = {},
    /** Present when stdout is a terminal. */
    readonly paging?: Paging,
  ) {
    secrets.add(flags.apiKey);
    for (const name of SECRET_VARIABLES) secrets.add(readEnv(io.env, name));
    this.format = outputFormat(flags);
    this.color = colorEnabled(io.env, io.stdoutIsTTY, flags.color === false);
    this.debug = flags.debug === true || readEnv(io.env, 'SVC_DEBUG') === '1';
    this.began = services.clock?.now() ?? performance.timeOrigin;
  }

  /** The global --timeout in milliseconds (default 30 s): the bound of each HTTP attempt. */
  get attemptTimeoutMs(): number {
    return Math.round((this.flags.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000);
  }

  /** Machine output (`--json`, ndjson): what a command says for machines is JSON too. */
  get machineOutput(): boolean {
    return this.format === 'json' || this.format === 'ndjson';
  }

  /** A failure, and what a command says with it, is one JSON line each on stderr (report-error.ts). */
  get jsonErrors(): boolean {
    return errorsAsJson(!isTableFormat(this.format), this.io.stderrIsTTY);
  }

  get canPrompt(): boolean {
    return canPrompt(this.io);
  }

  out(text: string): void {
    this.io.stdout.write(text);
  }

  /** `text` on stdout with its secrets unmasked: only for a secret the user asked to see. */
  outSecret(text: string): void {
    writeUnmasked(this.io.stdout, text);
  }

  /** One line on stderr; on a terminal, wrapped between words to its width (prose.ts). */
  err(line: string): void {
    const fitted =
      this.io.stderrIsTTY && !this.machineOutput
        ? proseLines(line, this.io.stderrColumns ?? FALLBACK_COLUMNS).join('\n')
        : line;
    this.io.stderr.write(fitted + '\n');
  }

  warn(message: string): void {
    this.err(`warning: ${message}`);
  }

  /** Milliseconds since the epoch. */
  now(): number {
    return this.services.clock?.now() ?? Date.now();
  }

  /** Waits, unless Ctrl-C (or `signal`) comes first: then InterruptedError. */
  async sleep(ms: number, signal: AbortSignal = this.signal): Promise<void> {
    await (this.services.sleep ?? sleep)(ms, signal);
  }

  /** A spinner on stderr while a command works, on a terminal alone (spinners.ts). */
  async spinner(text: LineText): Promise<Spinner> {
    return spinner(this.io, text);
  }

  /** An HTTP connection for requests that are not the service's (svc mock's admin routes). */
  async directTransport(): Promise<Transport> {
    return this.services.transport ?? directTransport;
  }

  /** The questions for a person; only when canPrompt. */
  async prompter(): Promise<Prompter> {
    return this.services.prompter ?? terminalPrompter(this.io);
  }

  /** Opens an address in the browser; rejects when none can be started. */
  async openBrowser(url: string): Promise<void> {
    await (this.services.openBrowser ?? openInBrowser)(url);
  }

  /** The reply cache of the profile in force; --debug hears why it is bypassed, if it is. */
  async replyCache(): Promise<CacheStore> {
    const { profile } = await this.settings();
    const note = this.debug ? (line: string) => this.err(line) : undefined;
    if (this.services.replyCache) return this.services.replyCache(profile, note);
    const root = await this.folder('cache');
    if (root !== undefined) return new ReplyCache(root, profile, note);
    // A cache saves requests; a run does as well without one.
    note?.(`debug: reply cache not used: ${NO_HOME}`);
    return { read: () => undefined, write: () => {}, fileFor: () => '(no cache folder)' };
  }

  /** A folder svc keeps its files in (config/paths.ts), or the home folder; undefined if none. */
  async folder(kind: 'config' | 'cache' | 'data' | 'home'): Promise<string | undefined> {
    const home = this.services.systemHome;
    if (kind === 'home') return homeFolder(this.io.env, home);
    return { config: configDir, cache: cacheDir, data: dataDir }[kind](
      this.io.env,
      process.platform,
      home,
    );
  }

  /** The config file; with no folder to keep it in (no home folder), a UsageError saying so (exit 2). */
  async config(): Promise<ConfigStore> {
    if (!this.storeMemo) {
      const dir = await this.folder('config');
      if (dir === undefined) throw new UsageError(NO_HOME);
      this.storeMemo = new ConfigStore(dir, (message) => this.warn(message));
    }
    return this.storeMemo;
  }

  /** What the config file says; with no folder for one, nothing, as when there is no file. */
  async configDoc(): Promise<ConfigDoc> {
    if ((await this.folder('config')) === undefined) return { profiles: profileMap() };
    return (await this.config()).read();
  }

  async settings(): Promise<Settings> {
    if (!this.settingsMemo) {
      const doc = await this.configDoc();
      this.settingsMemo = resolveSettings(this.flags, this.io.env, doc);
      this.secrets.add(this.settingsMemo.apiKey);
    }
    return this.settingsMemo;
  }

  /** The BS calendar when it is the one in force (config/resolve.ts); undefined for AD. */
  async calendar(): Promise<BsCalendar | undefined> {
    this.calendarMemo ??= (async () => {
      // The config file is read only when neither the flag nor the environment says.
      const asked =
        this.flags.calendar !== undefined || Boolean(readEnv(this.io.env, 'SVC_CALENDAR'));
      const doc = asked ? { profiles: {} } : await this.configDoc();
      const name = resolveCalendar(this.flags, this.io.env, doc);
      return name === 'bs' ? this.bsCalendar() : undefined;
    })();
    return this.calendarMemo;
  }

  /** The BS calendar, whatever the calendar in force: `--fy` names a fiscal year of it. */
  async bsCalendar(): Promise<BsCalendar> {
    return loadBsCalendar();
  }

  /** The OS keyring: the test's in a test; Ctrl-C ends its waits. */
  async keyring(): Promise<Keyring> {
    this.keyringMemo ??= this.services.keyring ?? osKeyring(this.io.env, this.signal);
    return this.keyringMemo;
  }

  /** The keyring entry of a profile's key (keyring-key.ts). */
  async keyringEntry(profile: string, baseUrl: string | undefined): Promise<KeyringEntry> {
    return keyringEntryOf(profile, baseUrl, this.io.env, this.services.systemHome);
  }

  /** The key of a profile kept in the keyring for its base URL; exit 3 saying why if it cannot be had. */
  async keyringKeyOf(profile: string, baseUrl: string | undefined): Promise<string> {
    const entry = await this.keyringEntry(profile, baseUrl);
    return readKeyringKey(await this.keyring(), entry, profile);
  }

  /** The API key in force (exit 3 if none); a key kept in the keyring is read from it now, and only then. */
  async apiKey(): Promise<string> {
    const settings = await this.settings();
    if (settings.apiKey === undefined && settings.keyStore === 'keyring') {
      settings.apiKey = await this.keyringKeyOf(settings.profile, settings.profileBaseUrl);
      this.secrets.add(settings.apiKey);
    }
    return requireApiKey(settings);
  }

  /** The API client for the settings in force; missing settings are errors (exit 2 or 3). */
  async client(): Promise<ApiClient> {
    const settings = await this.settings();
    const baseUrl = requireBaseUrl(settings);
    const apiKey = await this.apiKey();
    if (settings.apiKeySource === 'flag')
      this.warn(
        '--api-key is visible to other users of this machine; prefer SVC_API_KEY or `svc login`',
      );
    return this.clientFor(baseUrl, apiKey, settings);
  }

  /** A client that sends no API key (a token stands in for it): a base URL is all it needs. */
  async anonymousClient(): Promise<ApiClient> {
    return this.clientFor(requireBaseUrl(await this.settings()), undefined);
  }

  /** A client for a checked base URL and a key; `keyFrom`: the settings a refusal of the key names. */
  async clientFor(
    baseUrl: string,
    apiKey: string | undefined,
    keyFrom?: Settings,
  ): Promise<ApiClient> {
    this.secrets.add(apiKey);
    if (apiKey !== undefined && keyMode(apiKey) === 'unknown')
      this.warn(
        'the API key is not of the form svc_sk_live_…, svc_sk_test_… (or sk_live_…, sk_test_…); using it as given',
      );
    // Around every request, outermost first: a refused key named by its source (report-error.ts),
    // and on a terminal the spinner of a request slow to answer.
    const layers: Layer[] = [];
    if (keyFrom) layers.push(namingRefusedKey(keyFrom));
    if (this.io.stderrIsTTY) layers.push(slowRequestLayer(this.io));
    return new ApiClient({
      baseUrl,
      apiKey,
      userAgent: USER_AGENT,
      timeoutMs: this.attemptTimeoutMs,
      retries: this.flags.retries ?? DEFAULT_RETRIES,
      maxReplyBytes: this.flags.maxReplySize,
      env: this.io.env,
      signal: this.signal,
      debug: this.debug ? (line) => this.err(line) : undefined,
      secrets: this.secrets,
      transport: this.services.transport,
      sleep: this.services.sleep,
      random: this.services.random,
      now: () => this.now(),
      layers,
    });
  }
}

/** The variables that hold a secret, masked wherever svc writes from the start. */
const SECRET_VARIABLES = [
  'SVC_API_KEY',
  'SVC_ACCESS_TOKEN',
  'SVC_CONSENT_TOKEN',
  'SVC_WEBHOOK_SECRET',
] as const;

const DEFAULT_TIMEOUT_SECONDS = 30;
const DEFAULT_RETRIES = 2;
