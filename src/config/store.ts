// The config file: profiles with a base URL and a key. It holds keys, so svc keeps it to itself
// (core/private-file.ts): mode 0600, replaced in one step from an exclusive temporary file, never
// written through a symbolic link, and never read from or written in a folder or file another user
// could change. A folder svc creates is 0700; a folder it finds keeps the mode its owner gave it.
import { UsageError } from '../core/errors.js';
import { PrivateFile, type PrivateFileWords } from '../core/private-file.js';

export interface Profile {
  base_url?: string;
  api_key?: string;
  /**
   * The calendar of dates shown and taken: ad or bs (`svc config set calendar bs`); SVC_CALENDAR
   * and --calendar override it.
   */
  calendar?: string;
  /**
   * The pager of output taller than the terminal (`svc config set pager "less -R"`; "" for none);
   * SVC_PAGER overrides it, and it overrides PAGER.
   */
  pager?: string;
  /**
   * "keyring": the profile's key is kept in the OS keyring (config/keyring/keyring.ts), not in this
   * file. A key in the file (`api_key`) wins over it: a file that holds its key works whatever this
   * says.
   */
  api_key_in?: 'keyring';
}

export interface ConfigDoc {
  /** The version of the file's shape, as read; written back as it came (see CONFIG_VERSION). */
  version?: number;
  current_profile?: string;
  /** A prototype-free map (see `profileMap`). */
  profiles: Record<string, Profile>;
  /**
   * Keys this svc does not know (a newer svc's, or a person's): kept, and written back as they
   * came.
   */
  other?: Record<string, unknown>;
}

/**
 * The version of the config file's shape this svc reads and writes. Version 1 is
 * `current_profile` and `profiles`, with no `version` key (a file without one is version 1). A
 * file is written back with the `version` it was read with, so a version-1 file stays as it is; a
 * later shape writes its number, and the file is migrated to it on the next write (gh and the
 * Stripe CLI migrate old configs the same way). A file of a version newer than this svc knows is
 * refused, exit 2, rather than misread or overwritten.
 */
export const CONFIG_VERSION = 1;

/**
 * One step of migration: a file of version `from` as a file of version `from + 1` (unknown keys
 * kept).
 */
export type ConfigMigration = (data: Record<string, unknown>) => Record<string, unknown>;

/** The steps from each version to the next: none yet, version 1 being the first. */
export const CONFIG_MIGRATIONS: Readonly<Record<number, ConfigMigration>> = {};

/**
 * A config file's content brought to `current`; `refuse` builds the error for a file it cannot
 * read.
 */
export function migrateConfig(
  data: Record<string, unknown>,
  refuse: (reason: string) => Error,
  current = CONFIG_VERSION,
  migrations: Readonly<Record<number, ConfigMigration>> = CONFIG_MIGRATIONS,
): Record<string, unknown> {
  const version = data.version ?? 1;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw refuse('"version" is not a whole number from 1');
  if (version > current)
    throw refuse(
      `it is of version ${version}, and this svc reads config files up to version ${current}`,
    );
  let migrated = data;
  for (let from = version; from < current; from++) {
    const step = migrations[from];
    if (!step) throw refuse(`no migration from version ${from}`);
    migrated = { ...step(migrated), version: from + 1 };
  }
  return migrated;
}

/**
 * Profiles by name, in a map with no prototype: "constructor" or "__proto__" name nothing in it.
 */
export function profileMap(entries: Iterable<[string, Profile]> = []): Record<string, Profile> {
  const map = Object.create(null) as Record<string, Profile>;
  for (const [name, profile] of entries) map[name] = profile;
  return map;
}

/**
 * Whoever may change config.json, or write in its folder, can point a saved key at a server of
 * their own: such a file or folder is refused.
 */
const WORDS: PrivateFileWords = {
  file: 'config file',
  folder: 'config folder',
  variable: 'SVC_CONFIG_DIR',
  ownedByOther: 'move it away and run `svc login`',
  changeable: (chmod) => `check the base URLs in it, then run \`${chmod}\``,
  readable: (file, mode, chmod) =>
    `other users can read the config file ${file}, which holds API keys (mode ${mode}); run \`${chmod}\` (svc also fixes it on its next change)`,
};

export const PROFILE_KEYS = ['base_url', 'api_key', 'calendar', 'pager'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

export class ConfigStore {
  readonly file: string;
  private readonly kept: PrivateFile;

  /** `warn` receives, once, the warning about a config file other users can read. */
  constructor(
    readonly dir: string,
    warn: (message: string) => void = () => {},
  ) {
    this.kept = new PrivateFile(dir, 'config.json', WORDS, warn);
    this.file = this.kept.file;
  }

  /**
   * The file's content; an empty document when there is no file yet. Reading never creates
   * anything.
   */
  read(): ConfigDoc {
    this.kept.checkFolder();
    const text = this.kept.readText();
    if (text === undefined || text.trim() === '') return { profiles: profileMap() };
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw this.corrupt('it is not valid JSON');
    }
    return this.validate(data);
  }

  /** Replaces the file in one step; a group- or world-readable file comes back as 0600. */
  write(doc: ConfigDoc): void {
    const version = doc.version ?? CONFIG_VERSION;
    const text = JSON.stringify(
      {
        ...(doc.version !== undefined || version > 1 ? { version } : {}),
        ...(doc.current_profile ? { current_profile: doc.current_profile } : {}),
        profiles: doc.profiles,
        ...doc.other,
      },
      null,
      '\t',
    );
    this.kept.write(text + '\n');
  }

  /** Read, change, write, under a lock so that two svc processes changing the file lose nothing. */
  update(change: (doc: ConfigDoc) => void): Promise<ConfigDoc> {
    return this.kept.locked(() => {
      const doc = this.read();
      change(doc);
      this.write(doc);
      return doc;
    });
  }

  private validate(read: unknown): ConfigDoc {
    if (read === null || typeof read !== 'object' || Array.isArray(read))
      throw this.corrupt('it is not a JSON object');
    const data = migrateConfig(read as Record<string, unknown>, (reason) =>
      this.unreadable(reason),
    );
    const { version, current_profile, profiles = {}, ...rest } = data;
    if (current_profile !== undefined && typeof current_profile !== 'string') {
      throw this.corrupt('"current_profile" is not a string');
    }
    if (profiles === null || typeof profiles !== 'object' || Array.isArray(profiles)) {
      throw this.corrupt('"profiles" is not an object');
    }
    for (const [name, profile] of Object.entries(profiles)) {
      if (profile === null || typeof profile !== 'object' || Array.isArray(profile)) {
        throw this.corrupt(`profile "${name}" is not an object`);
      }
      for (const key of PROFILE_KEYS) {
        const value = (profile as Record<string, unknown>)[key];
        if (value !== undefined && typeof value !== 'string')
          throw this.corrupt(`"${name}.${key}" is not a string`);
      }
      const keptIn = (profile as Record<string, unknown>).api_key_in;
      if (keptIn !== undefined && keptIn !== 'keyring')
        throw this.corrupt(`"${name}.api_key_in" is not "keyring"`);
    }
    const other = Object.create(null) as Record<string, unknown>;
    for (const [key, value] of Object.entries(rest)) other[key] = value;
    return {
      ...(version !== undefined ? { version: version as number } : {}),
      current_profile,
      profiles: profileMap(Object.entries(profiles as Record<string, Profile>)),
      ...(Object.keys(other).length ? { other } : {}),
    };
  }

  private unreadable(reason: string): UsageError {
    return new UsageError(`the config file ${this.file} cannot be read: ${reason}`, [
      'Upgrade svc to read it, or move it away and run `svc login` again.',
    ]);
  }

  private corrupt(reason: string): UsageError {
    return new UsageError(`the config file ${this.file} is damaged: ${reason}`, [
      'Fix it by hand, or move it away and run `svc login` again.',
    ]);
  }
}
