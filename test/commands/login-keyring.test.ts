// `svc login`, `whoami`, `logout` and `config delete` with an OS keyring, in-process: the keyring
// is the harness's MemoryKeyring (one that answers, one that fails, none), so every path runs here
// without a session bus. The real Secret Service is met in test/e2e/keyring.test.ts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  BASE_URL,
  FakeService,
  type InProcessOptions,
  KEY,
  MemoryKeyring,
  MODES,
  plain,
  scratchDir,
  svc,
  unwrapped,
} from '../support/in-process.js';

const USAGE = { plan: 'growth', quota: 10000, used: 9500, remaining: 500 };
const OTHER_KEY = 'svc_sk_test_ffeeddccbbaa99887766554433221100';

let folders = 0;
function freshDir(): string {
  return join(scratchDir(), `keyring-${++folders}`);
}

function configText(dir: string): string {
  return readFileSync(join(dir, 'config.json'), 'utf8');
}

function profiles(dir: string): Record<string, Record<string, string>> {
  return (JSON.parse(configText(dir)) as { profiles: Record<string, Record<string, string>> })
    .profiles;
}

function svcIn(dir: string, argv: string[], options: InProcessOptions = {}) {
  return svc(argv, {
    ...options,
    env: { SVC_BASE_URL: undefined, SVC_API_KEY: undefined, SVC_CONFIG_DIR: dir, ...options.env },
  });
}

const usageAccepts = (key: string) =>
  new FakeService().expect(
    'GET',
    (r) => r.path === '/v1/usage' && r.headers.authorization === `Bearer ${key}`,
    { body: USAGE },
  );

function expectNoKey(result: { stdout: string; stderr: string }, key: string): void {
  expect(result.stdout).not.toContain(key);
  expect(result.stderr).not.toContain(key);
}

async function loginWith(dir: string, keyring: MemoryKeyring, key = KEY, extra: string[] = []) {
  return svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key', ...extra], {
    stdin: key,
    service: usageAccepts(key),
    keyring,
  });
}

describe.each(MODES)('svc login with an OS keyring, as $mode', ({ tty }) => {
  it('keeps the key in the keyring under the profile name and its base URL, and config.json holds none', async () => {
    const dir = freshDir();
    const keyring = new MemoryKeyring();
    const result = await loginWith(dir, keyring);
    expect(result.code, result.stderr).toBe(0);
    expect([...keyring.entries]).toEqual([[MemoryKeyring.keyOf('default'), KEY]]);
    expect(profiles(dir)).toEqual({ default: { base_url: BASE_URL, api_key_in: 'keyring' } });
    expect(configText(dir)).not.toContain(KEY);
    expect(plain(result.stderr)).toContain(
      `Saved in profile "default" of ${join(dir, 'config.json')}, the key in the test keyring (account default ${BASE_URL})`,
    );
    expect(result.stderr).not.toMatch(/warning/);
    expectNoKey(result, KEY);

    // whoami and a request read it from there.
    const whoami = await svcIn(dir, ['whoami', '--json'], {
      tty,
      keyring,
      service: usageAccepts(KEY),
    });
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(JSON.parse(plain(whoami.stdout))).toMatchObject({
      key_source: 'keyring',
      sources: { api_key: 'profile' },
      accepted: true,
    });
    const table = await svcIn(dir, ['whoami', '--local'], { tty, keyring });
    if (tty) expect(plain(table.stdout)).toContain(`(profile "default", in the test keyring)`);
    else expect(table.stdout).toMatch(/^key_source\tkeyring$/m);
  });

  it('a keyring that fails: the key goes to config.json, and one stderr line says so and why', async () => {
    const dir = freshDir();
    const keyring = new MemoryKeyring({ failing: 'Secret Service: unlock prompt was dismissed' });
    const result = await loginWith(dir, keyring);
    expect(result.code, result.stderr).toBe(0);
    expect(profiles(dir).default).toEqual({ base_url: BASE_URL, api_key: KEY });
    const warnings = plain(result.stderr)
      .split('\n')
      .filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      'warning: no OS keyring to keep the key in (Secret Service: unlock prompt was dismissed); it is saved in the config file (mode 0600) instead',
    ]);
  });

  it('--insecure-storage asks for the file: the keyring is not even asked, and nothing is said about it', async () => {
    const dir = freshDir();
    const keyring = new MemoryKeyring();
    const result = await loginWith(dir, keyring, KEY, ['--insecure-storage']);
    expect(result.code, result.stderr).toBe(0);
    expect(keyring.calls).toEqual([]);
    expect(profiles(dir).default).toEqual({ base_url: BASE_URL, api_key: KEY });
    expect(result.stderr).not.toMatch(/warning|test keyring/);
  });
});

describe('a key from the environment or a flag never touches the keyring', () => {
  it.each([
    ['SVC_API_KEY', { SVC_API_KEY: OTHER_KEY }, []],
    ['--api-key', {}, ['--api-key', OTHER_KEY]],
  ] as const)('%s', async (_what, env, argv) => {
    const dir = freshDir();
    const keyring = new MemoryKeyring();
    expect((await loginWith(dir, keyring)).code).toBe(0);
    keyring.calls.length = 0;
    const result = await svcIn(dir, ['whoami', '--json', ...argv], {
      env,
      keyring,
      service: usageAccepts(OTHER_KEY),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ key_source: argv.length ? 'flag' : 'env' });
    expect(keyring.calls).toEqual([]);
  });
});

describe('a key already in config.json', () => {
  it('keeps working (key_source file), and the next svc login moves it into the keyring', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: { base_url: BASE_URL, api_key: KEY } } }),
      { mode: 0o600 },
    );
    const keyring = new MemoryKeyring();
    const before = await svcIn(dir, ['whoami', '--json', '--local'], { keyring });
    expect(JSON.parse(before.stdout)).toMatchObject({ key_source: 'file' });
    expect(keyring.calls).toEqual([]);

    const result = await loginWith(dir, keyring);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `The key it held in ${join(dir, 'config.json')} was moved to the test keyring`,
    );
    expect(profiles(dir).default).toEqual({ base_url: BASE_URL, api_key_in: 'keyring' });
    expect(keyring.entries.get(MemoryKeyring.keyOf('default'))).toBe(KEY);
  });
});

describe('svc logout and svc config delete with the key in the keyring', () => {
  it('logout removes it from the keyring and the marker from the file', async () => {
    const dir = freshDir();
    const keyring = new MemoryKeyring();
    expect((await loginWith(dir, keyring)).code).toBe(0);
    const result = await svcIn(dir, ['logout'], { keyring });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('✓ Removed the key of profile "default" from the test keyring\n');
    expect(keyring.entries.size).toBe(0);
    expect(profiles(dir).default).toEqual({ base_url: BASE_URL });
  });

  it('a keyring that cannot be reached: exit 1, one line saying why, nothing removed', async () => {
    const dir = freshDir();
    const keyring = new MemoryKeyring();
    expect((await loginWith(dir, keyring)).code).toBe(0);
    const before = configText(dir);
    const gone = new MemoryKeyring({
      unavailable: 'nothing answers to org.freedesktop.secrets on the session bus',
    });
    for (const argv of [['logout'], ['config', 'delete', 'default', '--force']]) {
      const result = await svcIn(dir, argv, { keyring: gone });
      expect(result.code).toBe(1);
      expect(unwrapped(result.stderr).split('\n')[0]).toMatch(
        /^error: the key of profile "default" is kept in the test keyring, which cannot be reached \(nothing answers to .*\); nothing was (removed|deleted)$/,
      );
      expect(configText(dir)).toBe(before);
    }
    // A request cannot have the key either: exit 3 naming the keyring and SVC_API_KEY.
    const request = await svcIn(dir, ['usage'], { keyring: gone });
    expect(request.code).toBe(3);
    expect(unwrapped(request.stderr)).toMatch(
      /^error: the key of profile "default" is kept in the test keyring, which cannot be read: .*\n.*SVC_API_KEY/,
    );
  });

  it('config delete removes the profile and its key from the keyring', async () => {
    const dir = freshDir();
    const keyring = new MemoryKeyring();
    expect((await loginWith(dir, keyring)).code).toBe(0);
    expect((await loginWith(dir, keyring, OTHER_KEY, ['--profile', 'staging'])).code).toBe(0);
    const result = await svcIn(dir, ['config', 'delete', 'staging'], { keyring });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Its key is gone from the test keyring');
    expect([...keyring.entries.keys()]).toEqual([MemoryKeyring.keyOf('default')]);
    expect(Object.keys(profiles(dir))).toEqual(['default']);
  });
});

describe('svc config list and get with the key in the keyring', () => {
  it('list says where each key is kept and does not read the keyring; get api_key reads it, masked', async () => {
    const dir = freshDir();
    const keyring = new MemoryKeyring();
    expect((await loginWith(dir, keyring)).code).toBe(0);
    expect(
      (await loginWith(dir, keyring, OTHER_KEY, ['--profile', 'staging', '--insecure-storage']))
        .code,
    ).toBe(0);
    keyring.calls.length = 0;

    const script = await svcIn(dir, ['config', 'list'], { keyring });
    expect(script.code, script.stderr).toBe(0);
    expect(script.stdout).toMatch(new RegExp(`^\\*\\tdefault\\t${BASE_URL}\\t\\tkeyring$`, 'm'));
    expect(script.stdout).toMatch(
      new RegExp(`^\\tstaging\\t${BASE_URL}\\tsvc_sk_test_…${OTHER_KEY.slice(-4)}\\tfile$`, 'm'),
    );
    const json = await svcIn(dir, ['config', 'list', '--json'], { keyring });
    expect(JSON.parse(json.stdout).profiles.default).toEqual({
      base_url: BASE_URL,
      api_key: null,
      api_key_in: 'keyring',
    });
    expect(keyring.calls).toEqual([]);

    const get = await svcIn(dir, ['config', 'get', 'api_key'], { keyring });
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toBe(`svc_sk_test_…${KEY.slice(-4)}\n`);
    expect(keyring.calls).toEqual([`read default ${BASE_URL}`]);
    expectNoKey(get, KEY);
  });

  it('get api_key with a keyring that cannot be read: exit 3, one line naming it and SVC_API_KEY', async () => {
    const dir = freshDir();
    expect((await loginWith(dir, new MemoryKeyring())).code).toBe(0);
    const result = await svcIn(dir, ['config', 'get', 'api_key'], {
      keyring: new MemoryKeyring({ failing: 'the collection is locked' }),
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toMatch(
      /^error: the key of profile "default" is kept in the test keyring, which cannot be read: the collection is locked\n.*SVC_API_KEY/,
    );
  });
});

describe("a key goes only where it was saved for: the keyring's entry carries the profile's base URL", () => {
  const ELSEWHERE = 'https://elsewhere.test';

  /** A config folder whose profile "default" says its key is in the keyring, for `baseUrl`. */
  function folderClaiming(baseUrl: string): string {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: { base_url: baseUrl, api_key_in: 'keyring' } } }),
      { mode: 0o600 },
    );
    return dir;
  }

  it('another config folder with a profile of the same name and another base URL reads, replaces and removes nothing of the first', async () => {
    const keyring = new MemoryKeyring();
    expect((await loginWith(freshDir(), keyring)).code).toBe(0);
    const other = folderClaiming(ELSEWHERE);

    const read = await svcIn(other, ['whoami', '--local'], { keyring });
    expect(read.code).toBe(3);
    expect(read.stdout).toBe('');
    expect(unwrapped(read.stderr).split('\n')[0]).toBe(
      `error: the test keyring holds no key of profile "default" for ${ELSEWHERE}`,
    );
    expectNoKey(read, KEY);

    const login = await svcIn(other, ['login', '--base-url', ELSEWHERE, '--with-key'], {
      stdin: OTHER_KEY,
      service: usageAccepts(OTHER_KEY),
      keyring,
    });
    expect(login.code, login.stderr).toBe(0);
    const logout = await svcIn(other, ['logout'], { keyring });
    expect(logout.code, logout.stderr).toBe(0);
    const deleted = await svcIn(
      folderClaiming(ELSEWHERE),
      ['config', 'delete', 'default', '--force'],
      { keyring },
    );
    expect(deleted.code, deleted.stderr).toBe(0);
    expect([...keyring.entries]).toEqual([[MemoryKeyring.keyOf('default'), KEY]]);
  });

  it('svc config set base_url does not move a profile whose key is in the keyring', async () => {
    const dir = freshDir();
    const keyring = new MemoryKeyring();
    expect((await loginWith(dir, keyring)).code).toBe(0);
    const result = await svcIn(dir, ['config', 'set', 'base_url', ELSEWHERE], { keyring });
    expect(result.code).toBe(2);
    expect(unwrapped(result.stderr).split('\n')[0]).toBe(
      `error: profile "default" holds a key saved for ${BASE_URL}; it is not moved to ${ELSEWHERE}`,
    );
    expect(profiles(dir).default).toEqual({ base_url: BASE_URL, api_key_in: 'keyring' });
  });

  it('a profile with its key in the keyring and no base URL: exit 2 saying so, the keyring not asked', async () => {
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: { api_key_in: 'keyring' } } }),
      { mode: 0o600 },
    );
    const keyring = new MemoryKeyring();
    const result = await svcIn(dir, ['whoami', '--local'], { keyring });
    expect(result.code).toBe(2);
    expect(unwrapped(result.stderr).split('\n')[0]).toBe(
      'error: profile "default" has no base URL, and a key in the OS keyring is kept for one',
    );
    expect(keyring.calls).toEqual([]);
  });

  it('an empty key in the keyring: exit 3 saying so, not "no API key configured"', async () => {
    const dir = freshDir();
    const keyring = new MemoryKeyring();
    expect((await loginWith(dir, keyring)).code).toBe(0);
    keyring.entries.set(MemoryKeyring.keyOf('default'), '');
    const result = await svcIn(dir, ['whoami', '--local'], { keyring });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      'error: the test keyring holds an empty key for profile "default"',
    );
  });
});

describe('a key an earlier svc kept in the keyring with no base URL', () => {
  /**
   * The platform's default config folder of a home of its own, with profile "default" in the
   * keyring.
   */
  function home(): { env: Record<string, string | undefined>; config: string } {
    const dir = freshDir();
    const config = join(dir, '.config', 'svc');
    mkdirSync(config, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(config, 'config.json'),
      JSON.stringify({ profiles: { default: { base_url: BASE_URL, api_key_in: 'keyring' } } }),
      { mode: 0o600 },
    );
    return {
      env: {
        HOME: dir,
        SVC_CONFIG_DIR: undefined,
        SVC_BASE_URL: undefined,
        SVC_API_KEY: undefined,
      },
      config,
    };
  }

  it('is used from the default config folder (SVC_CONFIG_DIR unset, or naming that folder), and kept again with the base URL', async () => {
    for (const named of [false, true]) {
      const { env, config } = home();
      const keyring = new MemoryKeyring();
      keyring.earlier.set('default', KEY);
      const result = await svc(['whoami', '--local', '--json'], {
        env: named ? { ...env, SVC_CONFIG_DIR: join(config, '.') } : env,
        keyring,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        key_source: 'keyring',
        api_key: `svc_sk_test_…${KEY.slice(-4)}`,
      });
      expect([...keyring.entries]).toEqual([[MemoryKeyring.keyOf('default'), KEY]]);
      expect(keyring.earlier.size).toBe(0);
    }
  });

  it('from a folder SVC_CONFIG_DIR names is neither read, nor replaced, nor removed', async () => {
    const keyring = new MemoryKeyring();
    keyring.earlier.set('default', KEY);
    const dir = freshDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: { base_url: BASE_URL, api_key_in: 'keyring' } } }),
      { mode: 0o600 },
    );
    const read = await svcIn(dir, ['whoami', '--local'], { keyring });
    expect(read.code).toBe(3);
    expect(read.stderr.split('\n')[0]).toBe(
      `error: the test keyring holds no key of profile "default" for ${BASE_URL}`,
    );
    expect((await svcIn(dir, ['logout'], { keyring })).code).toBe(0);
    expect((await loginWith(dir, keyring, OTHER_KEY)).code).toBe(0);
    expect(keyring.earlier.get('default')).toBe(KEY);
  });
});
