// The config file's version: a file without one is version 1 (every file written so far), a newer
// version than this svc knows is refused with exit 2, migrations run step by step, and keys this
// svc does not know are kept.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { CONFIG_VERSION, ConfigStore, migrateConfig } from '../../src/config/store.js';
import { UsageError } from '../../src/core/errors.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function storeWith(content: unknown): ConfigStore {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-version-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(content), { mode: 0o600 });
  return new ConfigStore(dir);
}
const written = (store: ConfigStore) =>
  JSON.parse(readFileSync(store.file, 'utf8')) as Record<string, unknown>;
const refuse = (reason: string) => new UsageError(reason);

describe('the config file version', () => {
  it('reads a file without a version as version 1, and writes it back as it came', async () => {
    expect(CONFIG_VERSION).toBe(1);
    const store = storeWith({
      current_profile: 'default',
      profiles: { default: { base_url: 'http://localhost:4010' } },
    });
    await store.update((doc) => (doc.profiles.default!.api_key = 'k'));
    expect(written(store)).toEqual({
      current_profile: 'default',
      profiles: { default: { base_url: 'http://localhost:4010', api_key: 'k' } },
    });
  });

  it('keeps keys it does not know, at the top and in a profile, and a version it was given', async () => {
    const store = storeWith({
      version: 1,
      editor: 'vim',
      profiles: { a: { base_url: 'http://x', color: 'blue' } },
      telemetry: { off: true },
    });
    await store.update((doc) => (doc.current_profile = 'a'));
    expect(written(store)).toEqual({
      version: 1,
      current_profile: 'a',
      editor: 'vim',
      profiles: { a: { base_url: 'http://x', color: 'blue' } },
      telemetry: { off: true },
    });
  });

  it('refuses a file of a newer version, exit 2, naming the version', () => {
    const store = storeWith({ version: 7, profiles: {} });
    expect(() => store.read()).toThrow(UsageError);
    expect(() => store.read()).toThrow(
      `the config file ${store.file} cannot be read: it is of version 7, and this svc reads config files up to version 1`,
    );
    try {
      store.read();
    } catch (error) {
      expect((error as UsageError).exitCode).toBe(2);
    }
    expect(() => storeWith({ version: 'two', profiles: {} }).read()).toThrow(
      '"version" is not a whole number from 1',
    );
  });

  it('migrates an old file step by step to the current version, keeping what it does not know', () => {
    const migrations = {
      1: (data: Record<string, unknown>) => ({
        ...data,
        profiles: data.profiles,
        default_profile: data.current_profile,
        current_profile: undefined,
      }),
      2: (data: Record<string, unknown>) => ({ ...data, upgraded: true }),
    };
    const old = { current_profile: 'work', profiles: { work: {} }, editor: 'vim' };
    expect(migrateConfig(old, refuse, 3, migrations)).toEqual({
      version: 3,
      default_profile: 'work',
      current_profile: undefined,
      profiles: { work: {} },
      editor: 'vim',
      upgraded: true,
    });
    expect(migrateConfig({ version: 2, profiles: {} }, refuse, 3, migrations)).toEqual({
      version: 3,
      profiles: {},
      upgraded: true,
    });
    expect(migrateConfig({ version: 3, profiles: {} }, refuse, 3, migrations)).toEqual({
      version: 3,
      profiles: {},
    });
    expect(() => migrateConfig({}, refuse, 2, {})).toThrow('no migration from version 1');
  });

  it('a migrated file is written at its new version on the next write', async () => {
    const store = storeWith({ profiles: {} });
    const doc = store.read();
    doc.version = 2;
    store.write(doc);
    expect(written(store)).toEqual({ version: 2, profiles: {} });
  });
});
