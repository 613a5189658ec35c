// The OS keyring, where `svc login` keeps a profile's key when one is at hand: the Secret Service
// on Linux and the BSDs (reached over the session D-Bus, never the kernel keyring), the Keychain on
// macOS, Credential Manager on Windows. An entry is a profile's key for one base URL: a config
// folder of someone else's (SVC_CONFIG_DIR, set by a repository's .envrc) whose profile has the
// same name and its own base URL finds no key there, and replaces or removes none, as gh keeps one
// entry a host. This module is only the shape of one; os-keyring.ts is the real one, loaded when a
// command needs a profile's key from it (Context.config.keyring), and a test gives its own
// (app/services.ts).
import { InterruptedError } from '../../core/errors.js';

/**
 * The keyring's service name: on Linux `secret-tool lookup service svc account default base_url
 * URL` finds a key.
 */
export const KEYRING_SERVICE = 'svc';

/** Whose key an entry keeps: a profile's, for the base URL it was saved with, and for no other. */
export interface KeyringEntry {
  /** The profile's name. */
  readonly profile: string;
  /** The profile's base URL, as checkBaseUrl writes it. */
  readonly baseUrl: string;
  /**
   * Whether the profile's legacy key, kept without a base URL, may stand for this entry: read (and
   * then kept again with the base URL), replaced and removed. Only from the platform's default
   * config folder, the one that key was saved from (paths.ts isDefaultConfigDir).
   */
  readonly legacy: boolean;
}

/**
 * The account of an entry in the Keychain and Credential Manager, whose entries carry no attribute
 * of svc's choosing: the profile and the base URL (neither holds a space), so a key is found only
 * for the base URL it was saved for.
 */
export const accountOf = (entry: KeyringEntry): string => `${entry.profile} ${entry.baseUrl}`;

export interface Keyring {
  /**
   * What it is, for messages: "the Secret Service", "the macOS Keychain", "Windows Credential
   * Manager".
   */
  readonly name: string;
  /**
   * Why no keyring can be used here (one line), or undefined when one answers; asked in a bounded
   * time.
   */
  unavailable(): Promise<string | undefined>;
  /**
   * How a person finds the entry with the keyring's own tools: "service svc, account default,
   * base_url https://…".
   */
  describe(entry: KeyringEntry): string;
  /**
   * The key of an entry, or undefined; rejects with KeyringError when the keyring cannot be read.
   */
  read(entry: KeyringEntry): Promise<string | undefined>;
  /** Keeps the key of an entry, replacing the one it had; rejects with KeyringError. */
  write(entry: KeyringEntry, key: string): Promise<void>;
  /** Removes the key of an entry: whether there was one; rejects with KeyringError. */
  remove(entry: KeyringEntry): Promise<boolean>;
}

/**
 * A keyring that failed or did not answer in time: its message is one line and never holds a key.
 */
export class KeyringError extends Error {}

/** How long the keyring work of one command may take in all, its calls and prompts together. */
export const KEYRING_DEADLINE_MS = 60_000;

/**
 * The time one command's keyring work has: KEYRING_DEADLINE_MS from its first call, and none once
 * the run is asked to stop (Ctrl-C, SIGTERM), which ends a wait as it ends an HTTP request.
 */
export class KeyringDeadline {
  private end?: number;

  constructor(
    /** The keyring's name, for the message past the deadline. */
    private readonly name: string,
    /** Aborted when the run is asked to stop. */
    readonly signal: AbortSignal,
    private readonly limitMs = KEYRING_DEADLINE_MS,
  ) {}

  /**
   * How long the next wait may take: `wantedMs`, or what is left. InterruptedError after a stop,
   * KeyringError past the deadline.
   */
  within(wantedMs: number): number {
    if (this.signal.aborted) throw new InterruptedError();
    this.end ??= Date.now() + this.limitMs;
    const left = this.end - Date.now();
    if (left <= 0) throw this.passed();
    return Math.min(wantedMs, left);
  }

  /** Whether the deadline has come (a wait that ended then ended because of it). */
  get over(): boolean {
    return this.end !== undefined && Date.now() >= this.end;
  }

  passed(): KeyringError {
    return new KeyringError(
      `${this.name} took more than ${this.limitMs / 1000} s in all for this command (svc waits no longer for a keyring)`,
    );
  }
}
