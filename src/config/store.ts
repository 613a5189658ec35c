// The config file: profiles with a base URL and a key. It holds keys, so svc keeps it to itself:
// mode 0600, replaced in one step from an exclusive temporary file, never written through a
// symbolic link, and never read from or written in a folder or file another user could change. A
// folder svc creates is 0700; a folder it finds keeps the mode its owner gave it.
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';

export interface Profile {
  base_url?: string;
  api_key?: string;
}

export interface ConfigDoc {
  current_profile?: string;
  /** A prototype-free map (see `profileMap`). */
  profiles: Record<string, Profile>;
}

/** Profiles by name, in a map with no prototype: "constructor" or "__proto__" name nothing in it. */
export function profileMap(entries: Iterable<[string, Profile]> = []): Record<string, Profile> {
  const map = Object.create(null) as Record<string, Profile>;
  for (const [name, profile] of entries) map[name] = profile;
  return map;
}

const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 10_000;

/** Modes and owners mean nothing on Windows: the checks on them are for POSIX systems. */
const POSIX = process.platform !== 'win32';

/** node:crypto takes ~4 ms to load: completion reads this file and must not pay it. */
const crypto = () => process.getBuiltinModule('node:crypto');

function lockAge(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function octal(mode: number): string {
  return (mode & 0o7777).toString(8).padStart(4, '0');
}

function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

export const PROFILE_KEYS = ['base_url', 'api_key'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

export class ConfigStore {
  readonly file: string;
  private warnedAboutMode = false;

  /** `warn` receives, once, the warning about a config file other users can read. */
  constructor(
    readonly dir: string,
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.file = join(dir, 'config.json');
  }

  /** The file's content; an empty document when there is no file yet. Reading never creates anything. */
  read(): ConfigDoc {
    this.checkFolder();
    const text = this.readText();
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
    this.checkFolder();
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.refuseLink();
    const text = JSON.stringify({ ...(doc.current_profile ? { current_profile: doc.current_profile } : {}), profiles: doc.profiles }, null, '\t');
    const temporary = join(this.dir, `.config.json.${process.pid}.${crypto().randomBytes(6).toString('hex')}.tmp`);
    let created = false;
    try {
      // 'wx': a file or link planted at the temporary name makes this fail instead of being written through.
      const fd = openSync(temporary, 'wx', 0o600);
      created = true;
      try {
        writeFileSync(fd, text + '\n');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(temporary, this.file);
    } catch (error) {
      if (created) rmSync(temporary, { force: true });
      throw new UsageError(`cannot write the config file ${this.file}: ${(error as Error).message}`);
    }
  }

  /** Read, change, write, under a lock so that two svc processes changing the file lose nothing. */
  async update(change: (doc: ConfigDoc) => void): Promise<ConfigDoc> {
    this.checkFolder();
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const release = await this.lock();
    try {
      const doc = this.read();
      change(doc);
      this.write(doc);
      return doc;
    } finally {
      release();
    }
  }

  /** The text of the file, undefined when there is none; opened without following a link. */
  private readText(): string | undefined {
    let fd: number;
    try {
      // O_NONBLOCK: a FIFO planted as config.json is reported, not waited on.
      fd = openSync(this.file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP' || code === 'EMLINK') throw this.linked();
      throw new UsageError(`cannot read the config file ${this.file}: ${(error as Error).message}`);
    }
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) throw new UsageError(`the config file ${this.file} is not a regular file`);
      this.checkFile(info);
      this.warnIfShared(info.mode);
      return readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Whoever may write in the folder can replace config.json, and so point a saved key at a server of
   * their own: a folder another user owns, or one their group or everyone may write in (even with
   * the sticky bit, as /tmp), is refused, as the reply cache refuses one.
   */
  private checkFolder(): void {
    if (!POSIX) return;
    let info: Stats;
    try {
      info = statSync(this.dir); // the user may point SVC_CONFIG_DIR through a link of their own
    } catch {
      return; // not there yet: svc creates it 0700 (or fails to, and says so)
    }
    const own = `set SVC_CONFIG_DIR to a folder of your own (mode 0700)`;
    if (info.mode & 0o002) throw new UsageError(`refusing the config folder ${this.dir}: every user can write in it (mode ${octal(info.mode)}); ${own}`);
    if (info.uid !== process.getuid?.()) throw new UsageError(`refusing the config folder ${this.dir}: it belongs to another user (uid ${info.uid}); ${own}`);
    if (info.mode & 0o020) {
      throw new UsageError(`refusing the config folder ${this.dir}: its group can write in it (mode ${octal(info.mode)}); run \`chmod 700 ${shellWord(this.dir)}\`, or ${own}`);
    }
  }

  /** A file another user owns or may change could name any base URL for the key it holds. */
  private checkFile(info: Stats): void {
    if (!POSIX) return;
    if (info.uid !== process.getuid?.()) {
      throw new UsageError(`refusing the config file ${this.file}: it belongs to another user (uid ${info.uid}); move it away and run \`svc login\``);
    }
    if (info.mode & 0o022) {
      throw new UsageError(
        `refusing the config file ${this.file}: other users can change it (mode ${octal(info.mode)}); check the base URLs in it, then run \`chmod 600 ${shellWord(this.file)}\``,
      );
    }
  }

  private warnIfShared(mode: number): void {
    if (!POSIX || (mode & 0o044) === 0 || this.warnedAboutMode) return;
    this.warnedAboutMode = true;
    this.warn(
      `other users can read the config file ${this.file}, which holds API keys (mode ${octal(mode)}); run \`chmod 600 ${shellWord(this.file)}\` (svc also fixes it on its next change)`,
    );
  }

  /** rename() would replace a link, not write through it; still, a link means someone else chose where keys go. */
  private refuseLink(): void {
    let isLink = false;
    try {
      isLink = lstatSync(this.file).isSymbolicLink();
    } catch {
      return; // no file yet
    }
    if (isLink) throw this.linked();
  }

  private linked(): UsageError {
    return new UsageError(
      `the config file ${this.file} is a symbolic link; svc keeps keys only in a file of its own: replace the link with a copy of its target`,
    );
  }

  private async lock(): Promise<() => void> {
    const path = `${this.file}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        closeSync(openSync(path, 'wx', 0o600));
        return () => rmSync(path, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new UsageError(`cannot lock the config file ${this.file}: ${(error as Error).message}`);
        }
      }
      // A lock left by a process that died is stale after a while.
      if (lockAge(path) > LOCK_STALE_MS) rmSync(path, { force: true });
      else if (Date.now() > deadline) {
        throw new UsageError(`the config file ${this.file} is locked by another svc (${path}); try again`);
      } else await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 20));
    }
  }

  private validate(data: unknown): ConfigDoc {
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw this.corrupt('it is not a JSON object');
    const { current_profile, profiles = {} } = data as Record<string, unknown>;
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
        if (value !== undefined && typeof value !== 'string') throw this.corrupt(`"${name}.${key}" is not a string`);
      }
    }
    return { current_profile, profiles: profileMap(Object.entries(profiles as Record<string, Profile>)) };
  }

  private corrupt(reason: string): UsageError {
    return new UsageError(`the config file ${this.file} is damaged: ${reason}`, [
      'Fix it by hand, or move it away and run `svc login` again.',
    ]);
  }
}
