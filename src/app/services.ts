// Everything a command does to the world besides its streams: the network, the clock, waits,
// questions, the browser, the reply cache, the keyring and the pager. main() is given the real
// ones (or none: the Context then uses its defaults); a test gives its own, so a command runs
// in-process with no network, no real time and no terminal.
import type { Transport } from '../api/transport.js';
import type { Keyring } from '../config/keyring/keyring.js';
import type { StartPager } from '../core/stream/pager.js';
import type { CacheEntry } from '../service/cache.js';

export interface Clock {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
}

export interface Choice {
  value: string;
  /** What the list shows; the value when absent. */
  name?: string;
  /** What is shown once chosen. */
  short?: string;
  description?: string;
}

/** Questions for a person at a terminal; callers check Context.canPrompt first. */
export interface Prompter {
  text(
    message: string,
    options?: { default?: string; validate?: (value: string) => true | string },
  ): Promise<string>;
  secret(message: string, validate?: (value: string) => true | string): Promise<string>;
  /** Several of the choices, at least one. */
  checkbox(message: string, choices: readonly Choice[]): Promise<string[]>;
  /** One of the choices the source offers for what has been typed so far. */
  search(message: string, source: (term: string | undefined) => Choice[]): Promise<string>;
  confirm(message: string, defaultAnswer: boolean): Promise<boolean>;
}

/** Reply bodies kept on disk for a profile, by URL. */
export interface CacheStore {
  read(url: string): CacheEntry | undefined;
  write(entry: CacheEntry): void;
  /** Where an entry is kept, for --debug. */
  fileFor(url: string): string;
}

export interface Services {
  /** How requests are sent; absent: directly, or through the proxy the environment names. */
  transport?: Transport;
  clock?: Clock;
  /** Waits `ms`, or rejects with InterruptedError once `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The questions, asked on the IO's stdin and stderr. */
  prompter?: Prompter;
  /** Opens an address in the user's browser; rejects when no browser can be started. */
  openBrowser?: (url: string) => Promise<void>;
  /** The reply cache of a profile; `note` hears once why the cache is bypassed. */
  replyCache?: (profile: string, note?: (line: string) => void) => CacheStore;
  /** Random numbers in [0, 1), for the jitter of retries. */
  random?: () => number;
  /**
   * The OS keyring, where profiles' keys are kept when it answers; absent: the real one, made on
   * first use.
   */
  keyring?: Keyring;
  /**
   * The home folder as the system knows it, when HOME is unset (os.homedir: it throws for a uid the
   * system has no entry for).
   */
  systemHome?: () => string;
  /** Starts the pager; absent: as a process of its own, on the terminal. */
  startPager?: StartPager;
}
