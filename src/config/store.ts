// The config file: profiles with a base URL and a key. Written through `conf` (atomic write and
// rename) with our own modes: file 0600, folder 0700, no `-nodejs` suffix.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../core/errors.js';

export interface Profile {
  base_url?: string;
  api_key?: string;
}

export interface ConfigDoc {
  current_profile?: string;
  profiles: Record<string, Profile>;
}

const LOCK_WAIT_MS = 5_000;
const LOCK_STALE_MS = 10_000;

function lockAge(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

export const PROFILE_KEYS = ['base_url', 'api_key'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

export class ConfigStore {
  readonly file: string;

  constructor(readonly dir: string) {
    this.file = join(dir, 'config.json');
  }

  /** The file's content; an empty document when there is no file yet. Reading never creates anything. */
  read(): ConfigDoc {
    if (!existsSync(this.file)) return { profiles: {} };
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read the config file ${this.file}: ${(error as Error).message}`);
    }
    if (text.trim() === '') return { profiles: {} };
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw this.corrupt('it is not valid JSON');
    }
    return this.validate(data);
  }

  async write(doc: ConfigDoc): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    chmodSync(this.dir, 0o700);
    const { default: Conf } = await import('conf');
    try {
      const conf = new Conf<Record<string, unknown>>({
        cwd: this.dir,
        configName: 'config',
        projectSuffix: '',
        configFileMode: 0o600,
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: true,
      });
      conf.store = { ...(doc.current_profile ? { current_profile: doc.current_profile } : {}), profiles: doc.profiles };
    } catch (error) {
      throw new UsageError(`cannot write the config file ${this.file}: ${(error as Error).message}`);
    }
    chmodSync(this.file, 0o600);
  }

  /** Read, change, write, under a lock so that two svc processes changing the file lose nothing. */
  async update(change: (doc: ConfigDoc) => void): Promise<ConfigDoc> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const release = await this.lock();
    try {
      const doc = this.read();
      change(doc);
      await this.write(doc);
      return doc;
    } finally {
      release();
    }
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
    return { current_profile, profiles: profiles as Record<string, Profile> };
  }

  private corrupt(reason: string): UsageError {
    return new UsageError(`the config file ${this.file} is damaged: ${reason}`, [
      'Fix it by hand, or move it away and run `svc login` again.',
    ]);
  }
}
