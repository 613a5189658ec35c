// The factory every command gets: IO, the parsed global flags, what the run is configured with
// (config file, settings, calendar, keyring, reply cache: configuration.ts), the API client,
// prompts, the clock and the browser. Commands take these from here only, so a test can run any
// command in-process with its own (services.ts). Showing a reply is present.ts's.
import type { ApiClient } from '../api/client.js';
import { directTransport, type Transport } from '../api/transport.js';
import { openInBrowser } from '../core/browser.js';
import { canPrompt, colorEnabled, FALLBACK_COLUMNS, type IO } from '../core/io.js';
import { isTableFormat } from '../core/output/formats.js';
import { proseLines } from '../core/output/prose.js';
import type { OutputFormat } from '../core/output/render.js';
import { timeZoneOf } from '../core/output/time.js';
import { writeUnmasked } from '../core/secrets/masked-stream.js';
import type { Secrets } from '../core/secrets/secrets.js';
import { sleep } from '../core/sleep.js';
import type { PagedOutput } from '../core/stream/pager.js';
import type { LineText, Spinner } from '../core/stream/terminal-line.js';
import { isOwnVariable, readEnv } from '../service/environment.js';
import { errorsAsJson } from '../service/report-error.js';
import { Configuration } from './configuration.js';
import { type GlobalFlags, outputFormat } from './global-flags.js';
import { terminalPrompter } from './prompt.js';
import type { Prompter, Services } from './services.js';
import { spinner } from './spinners.js';

/**
 * stdout on a terminal, which pages an output (pager.ts), and what writes what the masking holds
 * back.
 */
export interface Paging {
  output: PagedOutput;
  flush: () => void;
}

export class Context {
  readonly format: OutputFormat;
  readonly color: boolean;
  readonly debug: boolean;
  /** The global --timeout in milliseconds (default 30 s): the bound of each HTTP attempt. */
  readonly attemptTimeoutMs: number;
  /** When this run began, in ms since the epoch: its process's start (in a test, its clock's). */
  readonly began: number;
  /** The config file, the settings in force, the keyring and the clients (configuration.ts). */
  readonly config: Configuration;

  constructor(
    readonly io: IO,
    readonly flags: GlobalFlags,
    /** Aborted on Ctrl-C. */
    readonly signal: AbortSignal,
    /** What io's streams mask: every secret the run comes to know is added once it is known. */
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
    this.attemptTimeoutMs = Math.round((flags.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000);
    // process.uptime(), not performance.timeOrigin: the global `performance` loads perf_hooks.
    this.began = services.clock?.now() ?? Date.now() - process.uptime() * 1000;
    this.config = new Configuration(this);
  }

  /** Machine output (`--json`, ndjson): what a command says for machines is JSON too. */
  get machineOutput(): boolean {
    return this.format === 'json' || this.format === 'ndjson';
  }

  /** A failure, and what a command says with it, are JSON lines on stderr (report-error.ts). */
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

  /**
   * The zone times are shown in: the one TZ names, or undefined for the system's. A TZ this
   * process was started with is the system's zone already, which the Date's own clock reads
   * without loading Intl's locale data (the in-process tests give a TZ of their own).
   */
  timeZone(): string | undefined {
    const tz = readEnv(this.io.env, 'TZ');
    return tz === readEnv(process.env, 'TZ') ? undefined : timeZoneOf(this.io.env);
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
  directTransport(): Transport {
    return this.services.transport ?? directTransport;
  }

  /** The questions for a person; only when canPrompt. */
  prompter(): Prompter {
    return this.services.prompter ?? terminalPrompter(this.io);
  }

  /** Opens an address in the browser; rejects when none can be started. */
  async openBrowser(url: string): Promise<void> {
    if (this.services.openBrowser) return this.services.openBrowser(url);
    await openInBrowser(url, isOwnVariable);
  }

  /** The API client for the settings in force; missing settings are errors (exit 2 or 3). */
  async client(): Promise<ApiClient> {
    return this.config.client();
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
