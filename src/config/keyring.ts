// The OS keyring, where `svc login` keeps a profile's key when one is at hand: the Secret Service
// on Linux and the BSDs (reached over the session D-Bus, never the kernel keyring), the Keychain on macOS,
// Credential Manager on Windows. Entries are under service "svc", account = the profile's name.
// This module is only the shape of one; os-keyring.ts is the real one, loaded when a command
// needs a profile's key from it (Context.keyring), and a test gives its own (app/services.ts).

/** The keyring's service name: on Linux `secret-tool lookup service svc account default` finds a key. */
export const KEYRING_SERVICE = 'svc';

export interface Keyring {
  /** What it is, for messages: "the Secret Service", "the macOS Keychain", "Windows Credential Manager". */
  readonly name: string;
  /** Why no keyring can be used here (one line), or undefined when one answers; asked in a bounded time. */
  unavailable(): Promise<string | undefined>;
  /** The key kept for a profile, or undefined; rejects with KeyringError when the keyring cannot be read. */
  read(profile: string): Promise<string | undefined>;
  /** Keeps the key of a profile; rejects with KeyringError. */
  write(profile: string, key: string): Promise<void>;
  /** Removes the key of a profile: whether there was one; rejects with KeyringError. */
  remove(profile: string): Promise<boolean>;
}

/** A keyring that failed or did not answer in time: its message is one line and never holds a key. */
export class KeyringError extends Error {}
