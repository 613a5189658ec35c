// The factory every command gets: IO, the parsed global flags, and lazy access to the config,
// the API client, prompts, spinners, the clock, the browser and the reply cache. Commands take
// these from here only, so a test can run any command in-process with its own (services.ts).
// Nothing here is loaded before a command needs it.
import type { ApiClient, Layer, RequestSpec } from '../api/client.js';
import type { Transport } from '../api/transport.js';
import type { Keyring, KeyringEntry } from '../config/keyring/keyring.js';
import type { Settings } from '../config/resolve.js';
import type { ConfigDoc, ConfigStore } from '../config/store.js';
import type { BsCalendar, CalendarName } from '../core/calendar/calendar.js';
import { readEnv } from '../core/environment.js';
import { InterruptedError, MissingKeyError, UsageError } from '../core/errors.js';
import { canPrompt, colorEnabled, FALLBACK_COLUMNS, type IO } from '../core/io.js';
import { isTableFormat } from '../core/output/formats.js';
import { proseLines } from '../core/output/prose.js';
import type { ViewRecords } from '../core/output/records.js';
import type { OutputFormat, Reply } from '../core/output/render.js';
import type { View } from '../core/output/view.js';
import type { ReplyReading } from '../core/reading.js';
import { errorsAsJson } from '../core/report-error.js';
import { writeUnmasked } from '../core/secrets/masked-stream.js';
import type { Secrets } from '../core/secrets/secrets.js';
import type { PagedOutput } from '../core/stream/pager.js';
import type { LineText, Spinner } from '../core/stream/terminal-line.js';
import { USER_AGENT } from '../version.js';
import type { CacheStore, Prompter, Services } from './services.js';

export interface GlobalFlags {
  json?: boolean;
  /** --jq: the JSON output filtered by this jq expression. */
  jq?: string;
  output?: OutputFormat;
  /** --columns: the columns of a table or CSV by field name, in this order (docs/reference/output.md, "Columns"). */
  columns?: string[];
  /** False with --no-headers: no header line in a table or CSV. */
  headers?: boolean;
  /** False with --no-formula-guard: CSV cells as received, without the ' before a formula. */
  formulaGuard?: boolean;
  /** --calendar: the calendar of the dates tables show and date flags take (calendar(): with SVC_CALENDAR and the profile's). */
  calendar?: CalendarName;
  color?: boolean;
  debug?: boolean;
  /** --timeout, in seconds (commander parses it). */
  timeout?: number;
  /** --retries (commander parses it). */
  retries?: number;
  apiKey?: string;
  baseUrl?: string;
  profile?: string;
  /** --max-reply-size, in bytes (commander parses it). */
  maxReplySize?: number;
  /** false with --no-pager. */
  pager?: boolean;
}

/** stdout on a terminal, which pages an output (core/stream/pager.ts), and what writes what the masking holds back. */
export interface Paging {
  output: PagedOutput;
  flush: () => void;
}

/**
 * How a command reads a reply: its name for messages, its records, its view for people. `R`: the
 * module of the reply's schemas (src/api/replies/), loaded by `replies` only when the reply is
 * read (never for --json, whose reply is printed as received), and given to `records` and `view`.
 */
export interface ReplyReader<R = undefined> {
  /** The request, as `GET /v1/usage`. */
  what: string;
  /** Loads the reply's schemas: `() => import('../../api/replies/usage.js')`. */
  replies?: () => Promise<R>;
  /** The list a command documents, whose items are the records of ndjson and CSV; undefined: the fallback. */
  records?: (body: unknown, reading: ReplyReading, replies: R) => unknown[] | undefined;
  /** The reply is a view holding lists: its records as records.ts ViewRecords reads them (docs/reference/output.md, "Reading replies"). */
  viewRecords?: ViewRecords;
  /**
   * The documented fields of a record, in their documented order: a CSV's first columns, the
   * header of an empty list, and names --columns takes whether the reply has them or not.
   */
  fields?: readonly string[];
  /** The view for people, from what the command knows of the reply. */
  view: (body: unknown, reading: ReplyReading, replies: R) => View;
}

export class Context {
  readonly format: OutputFormat;
  readonly color: boolean;
  readonly debug: boolean;
  /**
   * When this run began, in milliseconds since the epoch: its process's start, before Node loaded
   * a line of svc (in a test, the test clock's time as the command starts).
   */
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
    private readonly services: Services = {},
    /** Present when stdout is a terminal. */
    private readonly paging?: Paging,
  ) {
    secrets.add(flags.apiKey);
    secrets.add(readEnv(io.env, 'SVC_API_KEY'));
    secrets.add(readEnv(io.env, 'SVC_ACCESS_TOKEN'));
    secrets.add(readEnv(io.env, 'SVC_CONSENT_TOKEN'));
    secrets.add(readEnv(io.env, 'SVC_WEBHOOK_SECRET'));
    this.format = outputFormat(flags);
    this.color = colorEnabled(io.env, io.stdoutIsTTY, flags.color === false);
    this.debug = flags.debug === true || readEnv(io.env, 'SVC_DEBUG') === '1';
    this.began = services.clock?.now() ?? performance.timeOrigin;
  }

  /** The global --timeout in milliseconds (default 30 s): the bound of each HTTP attempt. */
  get attemptTimeoutMs(): number {
    return Math.round((this.flags.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000);
  }

  /** Machine output (`--json`, ndjson): what a command says for machines is JSON too (errors: jsonErrors). */
  get machineOutput(): boolean {
    return this.format === 'json' || this.format === 'ndjson';
  }

  /** A failure, and what a command says along with it, is one JSON line each on stderr (report-error.ts errorsAsJson). */
  get jsonErrors(): boolean {
    return errorsAsJson(!isTableFormat(this.format), this.io.stderrIsTTY);
  }

  get canPrompt(): boolean {
    return canPrompt(this.io);
  }

  out(text: string): void {
    this.io.stdout.write(text);
  }

  /**
   * `text` on stdout as it is, the secrets it holds unmasked: only for output whose purpose is a
   * secret the user asked for (`webhooks listen --print-secret`). Everything else stays masked.
   */
  outSecret(text: string): void {
    writeUnmasked(this.io.stdout, text);
  }

  /**
   * One line on stderr: warnings, notes, progress for people; on a terminal, wrapped between words
   * to its width, no word split (prose.ts).
   */
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
    const sleep = this.services.sleep ?? (await import('../core/sleep.js')).sleep;
    await sleep(ms, signal);
  }

  /**
   * A direct HTTP connection, for requests that are not the service's and so pass through no API
   * client (svc mock's admin routes, on this machine): the test's transport in a test.
   */
  async directTransport(): Promise<Transport> {
    return this.services.transport ?? (await import('../api/transport.js')).directTransport;
  }

  /** The questions for a person; only when canPrompt. */
  async prompter(): Promise<Prompter> {
    return this.services.prompter ?? (await import('./prompt.js')).terminalPrompter(this.io);
  }

  /** Opens an address in the browser; rejects when none can be started. */
  async openBrowser(url: string): Promise<void> {
    if (this.services.openBrowser) return this.services.openBrowser(url);
    const { openInBrowser } = await import('../core/browser.js');
    await openInBrowser(url);
  }

  /** The reply cache of the profile in force; --debug hears why it is bypassed, if it is. */
  async replyCache(): Promise<CacheStore> {
    const { profile } = await this.settings();
    const note = this.debug ? (line: string) => this.err(line) : undefined;
    if (this.services.replyCache) return this.services.replyCache(profile, note);
    const [{ ReplyCache }, { NO_HOME }] = await Promise.all([
      import('../core/cache.js'),
      import('../config/paths.js'),
    ]);
    const root = await this.folder('cache');
    if (root === undefined) {
      // A cache saves requests; a run does as well without one.
      note?.(`debug: reply cache not used: ${NO_HOME}`);
      return { read: () => undefined, write: () => {}, fileFor: () => '(no cache folder)' };
    }
    return new ReplyCache(root, profile, note);
  }

  /**
   * A folder svc keeps its files in (config/paths.ts), or the user's home folder; undefined when
   * it cannot be placed: no SVC_…_DIR names it and the user has no home folder.
   */
  async folder(kind: 'config' | 'cache' | 'data' | 'home'): Promise<string | undefined> {
    const { configDir, cacheDir, dataDir, homeFolder } = await import('../config/paths.js');
    if (kind === 'home') return homeFolder(this.io.env, this.services.systemHome);
    return { config: configDir, cache: cacheDir, data: dataDir }[kind](
      this.io.env,
      process.platform,
      this.services.systemHome,
    );
  }

  /** The config file; with no folder to keep it in (no home folder), a UsageError saying so (exit 2). */
  async config(): Promise<ConfigStore> {
    if (!this.storeMemo) {
      const [{ ConfigStore }, { NO_HOME }, dir] = await Promise.all([
        import('../config/store.js'),
        import('../config/paths.js'),
        this.folder('config'),
      ]);
      if (dir === undefined) throw new UsageError(NO_HOME);
      this.storeMemo = new ConfigStore(dir, (message) => this.warn(message));
    }
    return this.storeMemo;
  }

  /** What the config file says; with no folder for one (no home folder), nothing: as when there is no file. */
  private async configDoc(): Promise<ConfigDoc> {
    if ((await this.folder('config')) === undefined)
      return { profiles: (await import('../config/store.js')).profileMap() };
    return (await this.config()).read();
  }

  async settings(): Promise<Settings> {
    if (!this.settingsMemo) {
      const { resolveSettings } = await import('../config/resolve.js');
      this.settingsMemo = resolveSettings(this.flags, this.io.env, await this.configDoc());
      this.secrets.add(this.settingsMemo.apiKey);
    }
    return this.settingsMemo;
  }

  /**
   * The BS calendar when it is the one in force (--calendar, SVC_CALENDAR, the profile's
   * `calendar`: config/resolve.ts), its table loaded now; undefined for AD, whose runs never load it.
   */
  async calendar(): Promise<BsCalendar | undefined> {
    this.calendarMemo ??= (async () => {
      const { resolveCalendar } = await import('../config/resolve.js');
      // The config file is read only when neither the flag nor the environment says.
      const asked =
        this.flags.calendar !== undefined || Boolean(readEnv(this.io.env, 'SVC_CALENDAR'));
      const doc = asked ? { profiles: {} } : await this.configDoc();
      return resolveCalendar(this.flags, this.io.env, doc) === 'bs' ? this.bsCalendar() : undefined;
    })();
    return this.calendarMemo;
  }

  /** The BS calendar, whatever the calendar in force: `--fy` names a fiscal year of it. */
  async bsCalendar(): Promise<BsCalendar> {
    return (await import('../core/calendar/calendar.js')).loadBsCalendar();
  }

  /**
   * The OS keyring (config/keyring/keyring.ts): the test's in a test, else the real one, loaded now. Only
   * a command that reads, saves or removes a profile's key kept there asks for it. Ctrl-C ends its
   * waits, and its work for this command has a deadline (KEYRING_DEADLINE_MS).
   */
  async keyring(): Promise<Keyring> {
    this.keyringMemo ??=
      this.services.keyring ??
      (await import('../config/keyring/os-keyring.js')).osKeyring(this.io.env, this.signal);
    return this.keyringMemo;
  }

  /**
   * The keyring entry of a profile's key: the one of its base URL, and no other. Only from the
   * platform's default config folder may it stand for the profile's legacy key, kept with no base
   * URL (config/keyring/keyring.ts). A profile with no base URL has none (exit 2).
   */
  async keyringEntry(profile: string, baseUrl: string | undefined): Promise<KeyringEntry> {
    const [{ checkBaseUrl }, { isDefaultConfigDir }] = await Promise.all([
      import('../config/resolve.js'),
      import('../config/paths.js'),
    ]);
    if (baseUrl === undefined) {
      throw new UsageError(
        `profile "${profile}" has no base URL, and a key in the OS keyring is kept for one`,
        [`Run \`svc login --profile ${profile} --base-url URL\`.`],
      );
    }
    return {
      profile,
      baseUrl: checkBaseUrl(baseUrl),
      legacy: isDefaultConfigDir(this.io.env, process.platform, this.services.systemHome),
    };
  }

  /**
   * The API key in force (exit 3 when there is none). A profile's key kept in the keyring is read
   * from it now, and only then: a key from --api-key or SVC_API_KEY never touches the keyring.
   */
  async apiKey(): Promise<string> {
    const { requireApiKey } = await import('../config/resolve.js');
    const settings = await this.settings();
    if (settings.apiKey === undefined && settings.keyStore === 'keyring') {
      settings.apiKey = await this.keyringKeyOf(settings.profile, settings.profileBaseUrl);
      this.secrets.add(settings.apiKey);
    }
    return requireApiKey(settings);
  }

  /** The key of a profile kept in the keyring for its base URL; exit 3 saying why when it cannot be had. */
  async keyringKeyOf(profile: string, baseUrl: string | undefined): Promise<string> {
    const entry = await this.keyringEntry(profile, baseUrl);
    const keyring = await this.keyring();
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
    const { checkKeySize } = await import('../core/keys.js');
    return checkKeySize(key, `the key of profile "${profile}" in ${keyring.name}`);
  }

  /** The API client for the settings in force; missing settings are errors (exit 2 or 3). */
  async client(): Promise<ApiClient> {
    const { requireBaseUrl } = await import('../config/resolve.js');
    const settings = await this.settings();
    const baseUrl = requireBaseUrl(settings);
    const apiKey = await this.apiKey();
    if (settings.apiKeySource === 'flag') {
      this.warn(
        '--api-key is visible to other users of this machine; prefer SVC_API_KEY or `svc login`',
      );
    }
    return this.clientFor(baseUrl, apiKey, settings);
  }

  /**
   * A client that sends no API key at all (no Authorization header), for the request a token
   * stands in for the key: it needs a base URL only, resolved as usual, and works with no key
   * configured. Every other command takes `client()`, which requires the key.
   */
  async anonymousClient(): Promise<ApiClient> {
    const { requireBaseUrl } = await import('../config/resolve.js');
    return this.clientFor(requireBaseUrl(await this.settings()), undefined);
  }

  /**
   * An API client for a checked base URL and a key (used as given, with a warning if it looks
   * odd); `undefined` for no key at all (`anonymousClient`). `keyFrom`: the settings the key was
   * resolved from, which a refusal of the key names.
   */
  async clientFor(
    baseUrl: string,
    apiKey: string | undefined,
    keyFrom?: Settings,
  ): Promise<ApiClient> {
    this.secrets.add(apiKey);
    const [{ ApiClient }, { keyMode }] = await Promise.all([
      import('../api/client.js'),
      import('../core/keys.js'),
    ]);
    if (apiKey !== undefined && keyMode(apiKey) === 'unknown') {
      this.warn(
        'the API key is not of the form svc_sk_live_…, svc_sk_test_… (or sk_live_…, sk_test_…); using it as given',
      );
    }
    // Around every request, outermost first.
    const layers: Layer[] = [];
    // A key the service refuses is named by where it came from (never shown): see report-error.ts.
    if (keyFrom) layers.push((await import('./refused-key.js')).namingRefusedKey(keyFrom));
    // On a terminal, a request slow to answer shows a spinner (unless the command shows its own).
    if (this.io.stderrIsTTY) layers.push(await this.slowRequestSpinner());
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

  /** The spinner of a request slow to answer, on stderr: one layer per client (slow-requests.ts). */
  private async slowRequestSpinner(): Promise<Layer> {
    const [{ slowRequestSpinner }, { lineClaimed }] = await Promise.all([
      import('./slow-requests.js'),
      import('../core/stream/terminal-line.js'),
    ]);
    return slowRequestSpinner({
      spin: (text) => this.drawSpinner(text),
      lineTaken: () => lineClaimed(this.io.stderr),
    });
  }

  /**
   * Sends one request (an endpoint's target, with its query or body) with the client for the
   * settings in force, and prints its reply in the chosen format (present).
   */
  async requestAndPresent<R = undefined>(
    call: RequestSpec & { what: string },
    reader: Omit<ReplyReader<R>, 'what'>,
  ): Promise<void> {
    const client = await this.client();
    await this.present(await client.request(call), { ...reader, what: call.what });
  }

  /**
   * Runs `work`, which writes one output for people to read (a reply, a chart): on a terminal,
   * when it is taller than the screen, through the pager (docs/reference/output.md, "Pager"; core/stream/pager.ts).
   * `work` stops at the signal it is given: the run's, or the person quitting the pager (the rest
   * of the output is then for no one, and the run goes on). Resolves once the pager has exited.
   */
  async paged(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const rows = this.io.rows;
    const command = this.paging && rows !== undefined ? await this.pagerCommand() : undefined;
    if (!this.paging || rows === undefined || command === undefined) return work(this.signal);
    const { pagerEnvironment } = await import('../core/stream/pager.js');
    const setting = {
      command,
      env: pagerEnvironment(this.io.env),
      rows,
      columns: this.io.columns,
      start:
        this.services.startPager ??
        (await import('../core/stream/pager-process.js')).startPagerProcess,
      flush: this.paging.flush,
      note: this.debug ? (line: string) => this.err(line) : undefined,
    };
    await this.paging.output.paged(setting, work, this.signal);
  }

  /** The pager's words (--no-pager, SVC_PAGER, the profile's `pager`, PAGER: config/resolve.ts); undefined for none. */
  private async pagerCommand(): Promise<string[] | undefined> {
    const [{ resolvePager }, { pagerWords }] = await Promise.all([
      import('../config/resolve.js'),
      import('../core/stream/pager.js'),
    ]);
    // The config file is read only when neither the flag nor SVC_PAGER says.
    const asked = this.flags.pager === false || readEnv(this.io.env, 'SVC_PAGER') !== undefined;
    const line = resolvePager(
      this.flags,
      this.io.env,
      asked ? { profiles: {} } : await this.configDoc(),
    );
    if (line === undefined) return undefined;
    const words = pagerWords(line);
    if (words === undefined && this.debug)
      this.err(`debug: the pager \`${line}\` leaves a quote open; printing directly`);
    return words;
  }

  /**
   * Prints a reply in the chosen output format: `--json` as received, whatever its shape; ndjson
   * and CSV from the records the reader names; a table from the view the reader builds. The text
   * is made and written a piece at a time, giving way to a signal (stream/paced-write.ts), through
   * the pager when it is taller than the terminal (paged).
   */
  async present<R = undefined>(reply: Reply, reader: ReplyReader<R>): Promise<void> {
    if (this.format === 'json') {
      const { jsonOutput } = await import('../core/output/json.js');
      const text = jsonOutput(reply.raw, reply.body, {
        terminal: this.io.stdoutIsTTY,
        color: this.color,
      });
      await this.paged(async () => this.out(text));
      return;
    }
    const [
      { ReplyReading },
      records,
      { machineTextForTerminal },
      { OutputSink, StdoutClosedError },
      { giveWay, writePieces },
    ] = await Promise.all([
      import('../core/reading.js'),
      import('../core/output/records.js'),
      import('../core/output/format.js'),
      import('../core/stream/sink.js'),
      import('../core/stream/paced-write.js'),
    ]);
    // Reading the reply (JSON.parse) was one long step already: a signal that came meanwhile is heard first.
    await giveWay(this.signal);
    // The reply with every number as received, where JSON.parse lost digits: records and rows show the service's own values.
    const body = (await import('../core/json/exact-json.js')).exactBody(reply.raw, reply.body);
    const reading = new ReplyReading(reader.what);
    const replies = (reader.replies ? await reader.replies() : undefined) as R;
    const format = this.format;
    const { columns, headers, formulaGuard } = this.flags;
    let pieces: Iterable<string>;
    let transform: ((text: string) => string) | undefined;
    let notes: string[] = [];
    // BS dates (docs/reference/dates.md): the tables show them, ndjson and CSV add them; --json never changes.
    const calendar = await this.calendar();
    if (format === 'ndjson' || format === 'csv') {
      const rawRecords = await import('../core/output/raw-records.js');
      if (reader.viewRecords === 'list items') {
        // One record per item of the view's lists, made from the reply's text.
        const texts = rawRecords.listItemTexts(reply.raw);
        pieces =
          format === 'csv'
            ? records.flatCsvPieces(texts, { calendar, columns, headers, formulaGuard })
            : records.jsonLinePieces(texts, calendar);
      } else {
        const list = reader.records?.(body, reading, replies) ?? records.fallbackRecords(body);
        await giveWay(this.signal);
        // Each record as the reply's text has it, numbers with every digit, where the list is the reply's own.
        if (format === 'ndjson')
          pieces = records.ndjsonPieces(
            list,
            rawRecords.recordTexts(reply.raw, body, list),
            calendar,
          );
        // Nested values in dotted columns, documented fields first (docs/reference/output.md, "CSV"); the body's numbers are as received.
        else
          pieces = records.csvPieces(list, {
            calendar,
            documented: reader.fields,
            columns,
            headers,
            formulaGuard,
          });
      }
      // Machine formats shown on a terminal still cannot move the cursor or reorder what is shown;
      // secrets are masked first, while an escape sequence that splits one is still whole.
      if (this.io.stdoutIsTTY)
        transform = (text) => machineTextForTerminal(format, this.secrets.mask(text));
    } else {
      // Each step is one pass over the reply: a signal is let in between them.
      const forPeople = await this.forPeople(body);
      await giveWay(this.signal);
      const designed = reader.view(forPeople, reading, replies);
      // --columns: the columns named, in their order; a name no table has is exit 2 (docs/reference/output.md, "Columns").
      const view = columns
        ? (await import('../core/output/pick.js')).pickColumns(designed, columns, reader.fields)
        : designed;
      await giveWay(this.signal);
      pieces = await this.tablePieces(view, calendar);
      // A terminal shows footers, notes and a list's other fields with the tables; a pipe's stdout keeps to the rows.
      if (!this.io.stdoutIsTTY) notes = (await import('../core/output/view.js')).pipeRemarks(view);
    }
    if (this.debug) for (const line of reading.debugLines()) this.err(line);
    try {
      await this.paged((signal) =>
        writePieces(pieces, new OutputSink(this.io.stdout, { transform }), signal),
      );
    } catch (error) {
      // The reader of stdout went away (`| head`): that ends the run quietly.
      if (error instanceof StdoutClosedError) return;
      throw error;
    }
    for (const note of notes) this.err(note);
  }

  /**
   * A copy of what the service sent, for people: every string (keys too) made printable, so a
   * name cannot move the cursor or recolour the terminal. Secrets are masked in the values
   * themselves (a boxed table may wrap one across lines), and first, while an escape sequence
   * that splits one is still whole.
   */
  async forPeople<T>(value: T): Promise<T> {
    const { printable, printableDeep } = await import('../core/output/format.js');
    return printableDeep(value, (text) => printable(this.secrets.mask(text)));
  }

  /** A view as a table, in pieces: boxed with colour on a terminal, tab-separated in a pipe. */
  private async tablePieces(
    view: View,
    calendar: BsCalendar | undefined,
  ): Promise<Iterable<string>> {
    const [{ tablePieces }, { createPaint }, { timeZoneOf }] = await Promise.all([
      import('../core/output/render.js'),
      import('../core/output/paint.js'),
      import('../core/output/time.js'),
    ]);
    // Times in the local zone (TZ), and how far off they are from the run's clock.
    const time = { now: this.now(), zone: timeZoneOf(this.io.env) };
    return tablePieces(view, {
      terminal: this.io.stdoutIsTTY,
      width: this.io.columns,
      paint: await createPaint(this.color),
      time,
      calendar,
      wide: this.format === 'wide',
      headers: this.flags.headers !== false,
    });
  }

  /**
   * A spinner on stderr when stderr is a terminal; otherwise nothing. It leaves stdin alone: ora's
   * `discardStdin` puts the terminal in raw mode, where Ctrl-C is a byte instead of SIGINT, and
   * (stdin never flowing) that byte is never read: the command runs on. With the terminal as it
   * is, Ctrl-C (and Ctrl-Z, Ctrl-\) reach svc and the rest of its pipeline as signals.
   */
  async spinner(text: LineText): Promise<Spinner> {
    if (!this.io.stderrIsTTY) return { update() {}, stop() {} };
    // The line is this spinner's: a slow request shows none of its own meanwhile (slow-requests.ts).
    const { claimLine } = await import('../core/stream/terminal-line.js');
    const release = claimLine(this.io.stderr);
    const spinner = await this.drawSpinner(text);
    return {
      update: (next) => spinner.update(next),
      stop: () => {
        spinner.stop();
        release();
      },
    };
  }

  /**
   * An ora spinner on stderr (a terminal), as spinner() describes: its text cut to one line of the
   * terminal, beside the frame and the space ora draws before it.
   */
  private async drawSpinner(text: LineText): Promise<Spinner> {
    const [{ importOra }, { fitToLine, spinnerStream }] = await Promise.all([
      import('../core/external.js'),
      import('../core/stream/terminal-line.js'),
    ]);
    const { default: ora } = await importOra();
    const columns = this.io.stderrColumns;
    const fit = (line: LineText) => fitToLine(line, columns, SPINNER_FRAME_COLUMNS);
    const spinner = ora({
      text: fit(text),
      stream: spinnerStream(this.io.stderr, columns),
      color: 'cyan',
      isEnabled: true,
      discardStdin: false,
    }).start();
    return {
      update: (next) => {
        spinner.text = fit(next);
      },
      stop: () => {
        spinner.stop();
      },
    };
  }
}

/** What ora draws before a spinner's text: the frame and a space. */
const SPINNER_FRAME_COLUMNS = 2;

function outputFormat(flags: GlobalFlags): OutputFormat {
  const format = chosenFormat(flags);
  // The flags that shape tables and CSV have nothing to act on in JSON.
  const named =
    format === 'json'
      ? flags.jq !== undefined
        ? '--jq'
        : flags.json
          ? '--json'
          : '-o json'
      : `-o ${format}`;
  if (flags.columns && (format === 'json' || format === 'ndjson')) {
    throw new UsageError(
      `--columns picks the columns of a table or CSV; it does not apply to ${named} (--jq picks fields from JSON)`,
    );
  }
  if (flags.headers === false && (format === 'json' || format === 'ndjson'))
    throw new UsageError(
      `--no-headers leaves out the header line of a table or CSV; it does not apply to ${named}`,
    );
  if (flags.formulaGuard === false && format !== 'csv')
    throw new UsageError(`--no-formula-guard applies to -o csv alone, not ${named}`);
  return format;
}

function chosenFormat(flags: GlobalFlags): OutputFormat {
  if (flags.json || flags.jq !== undefined) {
    if (flags.output && flags.output !== 'json') {
      throw new UsageError(
        flags.jq !== undefined
          ? `--jq filters JSON output; it conflicts with --output ${flags.output}`
          : `--json conflicts with --output ${flags.output}`,
      );
    }
    return 'json';
  }
  return flags.output ?? 'table';
}

const DEFAULT_TIMEOUT_SECONDS = 30;
const DEFAULT_RETRIES = 2;
