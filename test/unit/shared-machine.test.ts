// Files on a shared machine: the config folder and file, the reply cache, the temporary file of
// `merchants resolve --failed-out`, and profile names that are JavaScript's own.
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { activeProfile, profileToWrite, resolveSettings } from '../../src/config/resolve.js';
import { ConfigStore } from '../../src/config/store.js';
import { UsageError } from '../../src/core/errors.js';
import type { Lookup } from '../../src/merchants/lookup-set.js';
import { writeUnresolved } from '../../src/merchants/unresolved.js';
import { type CacheEntry, ReplyCache } from '../../src/service/cache.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-shared-unit-'));
  dirs.push(dir);
  return dir;
}

/**
 * A folder with exactly this mode (mkdir's mode is cut by the umask, and cannot set the sticky
 * bit).
 */
function folder(path: string, mode: number): string {
  mkdirSync(path, { recursive: true });
  chmodSync(path, mode);
  return path;
}

const mode = (path: string): number => statSync(path).mode & 0o7777;

/** A user who is not the one running the tests (nobody, on Linux). */
const OTHER_UID = 65534;
const canChown = process.getuid?.() === 0;

const DOC = {
  current_profile: 'default',
  profiles: {
    default: { base_url: 'https://api.example.com', api_key: 'svc_sk_test_0123456789abcdef' },
  },
};

function storeWarnings(dir: string): { store: ConfigStore; warnings: string[] } {
  const warnings: string[] = [];
  return { store: new ConfigStore(dir, (message) => warnings.push(message)), warnings };
}

describe('the config folder (item 5)', () => {
  it('is created 0700 when svc makes it, parents included, with config.json 0600', () => {
    const dir = join(temp(), 'a', 'svc');
    new ConfigStore(dir).write(DOC);
    expect(mode(dir)).toBe(0o700);
    expect(mode(dirname(dir))).toBe(0o700);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
  });

  it('keeps the mode of a folder it did not create', async () => {
    const dir = folder(join(temp(), 'shared'), 0o755);
    const store = new ConfigStore(dir);
    store.write(DOC);
    await store.update((doc) => {
      doc.current_profile = 'default';
    });
    expect(mode(dir)).toBe(0o755);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
  });
});

describe('a config file or folder open to other users (item 6)', () => {
  it('warns once about a group- or world-readable file (one others may change is refused: e2e shared-machine), naming it and the fix, and the next write makes it 0600', async () => {
    for (const open of [0o644, 0o640, 0o604]) {
      const dir = temp();
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify(DOC));
      chmodSync(file, open);
      const { store, warnings } = storeWarnings(dir);
      expect(store.read().profiles.default?.base_url).toBe('https://api.example.com');
      store.read();
      expect(warnings, open.toString(8)).toHaveLength(1);
      expect(warnings[0]).toContain(file);
      expect(warnings[0]).toContain(`chmod 600 ${file}`);
      expect(warnings[0]).toContain(`mode 0${open.toString(8)}`);
      await store.update(() => {});
      expect(mode(file)).toBe(0o600);
    }
  });

  it('says nothing about a 0600 file', () => {
    const dir = temp();
    writeFileSync(join(dir, 'config.json'), JSON.stringify(DOC), { mode: 0o600 });
    const { store, warnings } = storeWarnings(dir);
    store.read();
    expect(warnings).toEqual([]);
  });

  it('refuses a folder every user can write in, sticky or not, for reading and writing, and leaves it as it was', async () => {
    for (const open of [0o777, 0o1777, 0o703]) {
      const dir = folder(join(temp(), 'cfg'), open);
      writeFileSync(join(dir, 'config.json'), JSON.stringify(DOC), { mode: 0o600 });
      const store = new ConfigStore(dir);
      expect(() => store.read()).toThrow(UsageError);
      expect(() => store.read()).toThrow(
        `refusing the config folder ${dir}: every user can write in it (mode ${open.toString(8).padStart(4, '0')})`,
      );
      expect(() => store.write(DOC)).toThrow(UsageError);
      await expect(store.update(() => {})).rejects.toThrow(/every user can write in it/);
      expect(mode(dir)).toBe(open);
      expect(readdirSync(dir)).toEqual(['config.json']);
    }
  });
});

describe('the reply cache on a shared machine (item 7)', () => {
  const url = 'http://127.0.0.1:1/v1/data/cbank/cpi/latest';
  const forged: CacheEntry = {
    url,
    fetched_at: new Date().toISOString(),
    as_of: null,
    raw: '{"forged":true}',
  };

  /** Plants an entry as another user would, by writing the file where svc looks. */
  function plant(cache: ReplyCache): string {
    const file = cache.fileFor(url);
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify(forged), { mode: 0o600 });
    return file;
  }

  function cacheWithNotes(root: string): { cache: ReplyCache; notes: string[] } {
    const notes: string[] = [];
    return { cache: new ReplyCache(root, 'default', (line) => notes.push(line)), notes };
  }

  it("uses an entry in a cache of the user's own", () => {
    const { cache, notes } = cacheWithNotes(temp());
    plant(cache);
    expect(cache.read(url)?.raw).toBe('{"forged":true}');
    expect(notes).toEqual([]);
  });

  it('bypasses a cache folder other users can write in (sticky or not), with a note, and writes nothing there', () => {
    for (const open of [0o777, 0o1777, 0o775]) {
      const root = folder(join(temp(), 'cache'), open);
      const { cache, notes } = cacheWithNotes(root);
      const file = plant(cache);
      expect(cache.read(url), open.toString(8)).toBeUndefined();
      expect(notes).toEqual([
        `debug: reply cache not used: other users can write in ${root} (mode ${open.toString(8).padStart(4, '0')})`,
      ]);
      rmSync(join(root, 'replies'), { recursive: true });
      cache.write({ ...forged, raw: '{"mine":true}' });
      expect(existsSync(file)).toBe(false);
      expect(notes).toHaveLength(1);
    }
  });

  it('bypasses a folder below it that other users can write in, or that is a link', () => {
    const root = temp();
    const { cache, notes } = cacheWithNotes(root);
    plant(cache);
    chmodSync(join(root, 'replies'), 0o777);
    expect(cache.read(url)).toBeUndefined();
    expect(notes[0]).toMatch(/other users can write in .*replies \(mode 0777\)/);

    const linked = temp();
    const elsewhere = temp();
    mkdirSync(join(elsewhere, 'default'), { mode: 0o700 });
    symlinkSync(elsewhere, join(linked, 'replies'));
    const second = cacheWithNotes(linked);
    writeFileSync(second.cache.fileFor(url), JSON.stringify(forged), { mode: 0o600 });
    expect(second.cache.read(url)).toBeUndefined();
    expect(second.notes[0]).toMatch(/replies is a symbolic link/);
  });

  it('does not use an entry file other users can write, or a link', () => {
    const { cache, notes } = cacheWithNotes(temp());
    const file = plant(cache);
    chmodSync(file, 0o666);
    expect(cache.read(url)).toBeUndefined();
    expect(notes[0]).toMatch(/other users can write in .*\.json \(mode 0666\)/);

    const second = cacheWithNotes(temp());
    const target = join(temp(), 'entry.json');
    writeFileSync(target, JSON.stringify(forged), { mode: 0o600 });
    mkdirSync(dirname(second.cache.fileFor(url)), { recursive: true, mode: 0o700 });
    symlinkSync(target, second.cache.fileFor(url));
    expect(second.cache.read(url)).toBeUndefined();
  });

  it.runIf(canChown)('bypasses a cache folder, or an entry, that belongs to another user', () => {
    const root = temp();
    const { cache, notes } = cacheWithNotes(root);
    const file = plant(cache);
    chownSync(file, OTHER_UID, OTHER_UID);
    expect(cache.read(url)).toBeUndefined();
    expect(notes[0]).toContain(`${file} belongs to another user`);

    chownSync(file, 0, 0);
    chownSync(root, OTHER_UID, OTHER_UID);
    const again = cacheWithNotes(root);
    expect(again.cache.read(url)).toBeUndefined();
    expect(again.notes[0]).toBe(`debug: reply cache not used: ${root} belongs to another user`);
  });
});

describe('temporary files and links (item 8)', () => {
  const lookups: Lookup[] = [
    { type: 'name', value: 'Bhatbhateni' },
    { type: 'terminal', value: '1234567890123456' },
  ];

  it('--failed-out: a link planted at the temporary name is not written through; the list is 0600', async () => {
    const dir = temp();
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'precious\n');
    const out = join(dir, 'left.txt');
    // A temporary name built from the pid, as an attacker would guess it, points at the victim.
    symlinkSync(victim, join(dir, `.left.txt.${process.pid}.tmp`));
    const written = await writeUnresolved(out, lookups, true);
    expect(written).toEqual({ path: out, count: 2 });
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(out, 'utf8')).toBe('Bhatbhateni\n1234567890123456\n');
    expect(mode(out)).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual([`.left.txt.${process.pid}.tmp`, 'left.txt', 'victim']);
  });

  it('--failed-out that is a link to a file replaces the link and leaves the file alone', async () => {
    const dir = temp();
    const victim = join(dir, 'victim');
    writeFileSync(victim, 'precious\n');
    const out = join(dir, 'left.txt');
    symlinkSync(victim, out);
    await writeUnresolved(out, lookups, true);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(out).isFile()).toBe(true);
  });

  it('a symlinked config.json is refused, for reading and writing, and its target is left alone', async () => {
    const dir = temp();
    const target = join(temp(), 'elsewhere.json');
    writeFileSync(target, JSON.stringify(DOC), { mode: 0o600 });
    symlinkSync(target, join(dir, 'config.json'));
    const store = new ConfigStore(dir);
    const message = `the config file ${join(dir, 'config.json')} is a symbolic link`;
    expect(() => store.read()).toThrow(message);
    expect(() => store.write({ profiles: {} })).toThrow(message);
    await expect(store.update(() => {})).rejects.toThrow(message);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual(DOC);
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true);
  });

  it('the config file is written from an exclusive temporary file that leaves nothing behind', () => {
    const dir = temp();
    const store = new ConfigStore(dir);
    store.write(DOC);
    store.write({ ...DOC, current_profile: 'work' });
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(store.read().current_profile).toBe('work');
  });
});

describe('profile names JavaScript gives a meaning (item 9)', () => {
  const reserved = ['__proto__', 'constructor', 'prototype'];

  it('are refused as the profile to write or to use', () => {
    for (const name of reserved) {
      expect(() => profileToWrite({ profile: name }, {}, { profiles: {} })).toThrow(
        `"${name}" is reserved and cannot name a profile`,
      );
      expect(() => profileToWrite({}, { SVC_PROFILE: name }, { profiles: {} })).toThrow(UsageError);
      expect(() => activeProfile({ profile: name }, {}, { profiles: {} })).toThrow(/is reserved/);
    }
  });

  it('find nothing in a document, whatever kind of object holds its profiles', () => {
    for (const name of ['toString', 'hasOwnProperty', 'valueOf']) {
      expect(resolveSettings({}, {}, { current_profile: name, profiles: {} })).toMatchObject({
        profile: name,
        baseUrl: undefined,
        apiKey: undefined,
      });
      expect(() => activeProfile({ profile: name }, {}, { profiles: {} })).toThrow(
        /unknown profile/,
      );
    }
  });

  it('the store keeps profiles in a prototype-free map, and saves what it is given', () => {
    const dir = temp();
    writeFileSync(
      join(dir, 'config.json'),
      '{"profiles":{"__proto__":{"base_url":"https://x.example.com"},"work":{}}}',
      { mode: 0o600 },
    );
    const store = new ConfigStore(dir);
    const doc = store.read();
    expect(Object.getPrototypeOf(doc.profiles)).toBeNull();
    expect(Object.keys(doc.profiles)).toEqual(['__proto__', 'work']);
    expect(new ConfigStore(temp()).read().profiles.constructor).toBeUndefined();
    store.write(doc);
    expect(
      Object.keys(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles),
    ).toEqual(['__proto__', 'work']);
  });
});
