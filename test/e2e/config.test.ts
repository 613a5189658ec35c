// Configuration and credentials (contract §2): login, logout, whoami, `svc config …`, the
// precedence flag > env > profile > default, file modes, damaged files, and login at a terminal.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inTerminal, STACK_LINE, svcCommand, useWorld, type Result, type RunOptions } from './harness.js';
import { useTerminal } from './terminal.js';

const MASKED = /^svc_sk_(live|test)_(…|\.\.\.)[0-9a-f]{4}$/;
const REJECTED_KEY = `svc_sk_test_${'0'.repeat(32)}`;

const world = useWorld();

/** A config folder that does not exist yet, inside a fresh temporary folder. */
function freshConfigDir(): string {
  return join(world.tempDir('svc-e2e-config-'), 'svc');
}

/** svc with only SVC_CONFIG_DIR (and what `env` adds) configured. */
function svcIn(dir: string, args: string[], options: RunOptions = {}): Promise<Result> {
  return world.bare(args, { ...options, env: { SVC_CONFIG_DIR: dir, ...options.env } });
}

function masked(key: string): RegExp {
  const prefix = key.slice(0, 'svc_sk_test_'.length);
  return new RegExp(`${prefix}(…|\\.\\.\\.)${key.slice(-4)}`);
}

function readConfig(dir: string): { current_profile?: string; profiles: Record<string, { base_url?: string; api_key?: string }> } {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
}

function writeConfig(dir: string, doc: unknown): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'config.json'), typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2), { mode: 0o600 });
}

function expectModes(dir: string): void {
  expect((statSync(dir).mode & 0o777).toString(8)).toBe('700');
  expect((statSync(join(dir, 'config.json')).mode & 0o777).toString(8)).toBe('600');
}

function expectNoKey(result: Result, key: string): void {
  expect(result.stdout).not.toContain(key);
  expect(result.stderr).not.toContain(key);
}

async function login(dir: string, key: string, extra: string[] = []): Promise<Result> {
  const result = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key', ...extra], { input: key });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** Three keys the mock accepts whose last four characters differ, so the request log tells them apart. */
function threeKeys(): [string, string, string] {
  const picked: string[] = [];
  for (const { key } of world.mock.keys) {
    if (!picked.some((k) => k.slice(-4) === key.slice(-4))) picked.push(key);
    if (picked.length === 3) break;
  }
  expect(picked).toHaveLength(3);
  return picked as [string, string, string];
}

async function authorizations(): Promise<string[]> {
  return (await world.requests()).map((r) => r.headers.authorization ?? '');
}

interface Identity {
  profile: string;
  base_url: string | null;
  key_mode: string;
  api_key: string;
  sources: { profile: string; base_url: string; api_key: string };
}

async function whoami(dir: string, args: string[] = [], env: Record<string, string | undefined> = {}): Promise<Identity> {
  const result = await svcIn(dir, ['whoami', '--json', ...args], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Identity;
}

describe('svc login --with-key', () => {
  it('checks the key, saves the profile in a 0600 file in a 0700 folder, and shows only the masked key', async () => {
    const dir = freshConfigDir();
    const key = world.key().key;
    const result = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key'], { input: key });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(key);
    expect(result.stderr).not.toContain(key);
    expect(result.stderr).toMatch(masked(key));

    const path = await svcIn(dir, ['config', 'path']);
    expect(path.code).toBe(0);
    expect(path.stdout).toBe(`${join(dir, 'config.json')}\n`);
    const file = path.stdout.trim();
    expect(existsSync(file)).toBe(true);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect((statSync(dirname(file)).mode & 0o777).toString(8)).toBe('700');
    const doc = readConfig(dir);
    expect(doc.profiles.default).toEqual({ base_url: world.mock.url, api_key: key });

    const requests = await world.requests();
    expect(requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([`GET /v1/usage …${key.slice(-4)}`]);
  });

  it('saves into the profile named with --profile', async () => {
    const dir = freshConfigDir();
    const key = world.key(1, 'live').key;
    await login(dir, key, ['--profile', 'sagarmatha']);
    expect(readConfig(dir).profiles.sagarmatha).toEqual({ base_url: world.mock.url, api_key: key });
    expectModes(dir);
  });

  it('a rejected key exits 3 and saves nothing', async () => {
    const dir = freshConfigDir();
    const result = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key'], { input: REJECTED_KEY });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: /m);
    expectNoKey(result, REJECTED_KEY);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    expect((await world.requests()).map((r) => r.status)).toEqual([401]);
  });

  it('a rejected key leaves an existing profile unchanged', async () => {
    const dir = freshConfigDir();
    await login(dir, world.key().key);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const result = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key'], { input: REJECTED_KEY });
    expect(result.code, result.stderr).toBe(3);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('empty stdin exits 2 and sends nothing', async () => {
    const dir = freshConfigDir();
    const result = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key'], { input: '' });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith('error:')).toBe(true);
    expect(await world.requests()).toEqual([]);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('without --with-key and no terminal: exit 2, no prompt, no request (CI unset)', async () => {
    const dir = freshConfigDir();
    const result = await svcIn(dir, ['login', '--base-url', world.mock.url], { env: { CI: undefined } });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith('error:')).toBe(true);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(await world.requests()).toEqual([]);
  });

  it('without --with-key, stderr on a terminal but stdin not one: exit 2, no prompt', async () => {
    const dir = freshConfigDir();
    const result = await inTerminal(`${svcCommand} login --base-url ${world.mock.url} < /dev/null`, {
      configDir: dir,
      env: { SVC_CONFIG_DIR: dir, CI: undefined },
      timeoutMs: 8_000,
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toMatch(/error:/);
    expect(await world.requests()).toEqual([]);
  });
});

describe('svc whoami', () => {
  it('after login: profile, base URL, key mode and masked key, as a table and as JSON', async () => {
    const dir = freshConfigDir();
    const key = world.key(0, 'test').key;
    await login(dir, key);

    const table = await svcIn(dir, ['whoami']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('default');
    expect(table.stdout).toContain(world.mock.url);
    expect(table.stdout).toMatch(/\btest\b/);
    expect(table.stdout).toMatch(masked(key));
    expectNoKey(table, key);

    const json = await svcIn(dir, ['whoami', '--json']);
    expect(json.code).toBe(0);
    expectNoKey(json, key);
    const identity = JSON.parse(json.stdout) as Identity;
    expect(identity).toMatchObject({ profile: 'default', base_url: world.mock.url, key_mode: 'test' });
    expect(identity.api_key).toMatch(MASKED);
    expect(identity.api_key.endsWith(key.slice(-4))).toBe(true);
  });

  it('with settings from the environment only', async () => {
    const dir = freshConfigDir();
    const key = world.key(1, 'live').key;
    const env = { SVC_BASE_URL: world.mock.url, SVC_API_KEY: key };
    const table = await svcIn(dir, ['whoami'], { env });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(world.mock.url);
    expect(table.stdout).toMatch(/\blive\b/);
    expect(table.stdout).toMatch(masked(key));
    expectNoKey(table, key);

    const json = await svcIn(dir, ['whoami', '--json'], { env });
    expect(json.code).toBe(0);
    expectNoKey(json, key);
    const identity = JSON.parse(json.stdout) as Identity;
    expect(identity).toMatchObject({ profile: 'default', base_url: world.mock.url, key_mode: 'live' });
    expect(identity.api_key).toMatch(MASKED);
    expect(identity.sources).toMatchObject({ base_url: 'env', api_key: 'env' });
    expect(existsSync(dir)).toBe(false); // reading settings creates nothing
  });
});

describe('precedence: flag > environment > profile > default', () => {
  it('for the API key, in whoami and in what the service receives', async () => {
    const [profileKey, envKey, flagKey] = threeKeys();
    const dir = freshConfigDir();
    writeConfig(dir, { current_profile: 'default', profiles: { default: { base_url: world.mock.url, api_key: profileKey } } });

    const fromProfile = await whoami(dir);
    expect(fromProfile.sources.api_key).toBe('profile');
    expect(fromProfile.api_key.slice(-4)).toBe(profileKey.slice(-4));
    const fromEnv = await whoami(dir, [], { SVC_API_KEY: envKey });
    expect(fromEnv.sources.api_key).toBe('env');
    expect(fromEnv.api_key.slice(-4)).toBe(envKey.slice(-4));
    const fromFlag = await whoami(dir, ['--api-key', flagKey], { SVC_API_KEY: envKey });
    expect(fromFlag.sources.api_key).toBe('flag');
    expect(fromFlag.api_key.slice(-4)).toBe(flagKey.slice(-4));

    await world.reset();
    expect((await svcIn(dir, ['usage'])).code).toBe(0);
    expect((await svcIn(dir, ['usage'], { env: { SVC_API_KEY: envKey } })).code).toBe(0);
    expect((await svcIn(dir, ['usage', '--api-key', flagKey], { env: { SVC_API_KEY: envKey } })).code).toBe(0);
    expect(await authorizations()).toEqual([`…${profileKey.slice(-4)}`, `…${envKey.slice(-4)}`, `…${flagKey.slice(-4)}`]);
  });

  it('for the base URL, in whoami and in where requests go', async () => {
    const port = new URL(world.mock.url).port;
    const dead = 'http://127.0.0.1:9'; // nothing listens there
    const key = world.key().key;
    const dir = freshConfigDir();
    writeConfig(dir, { profiles: { default: { base_url: `http://127.0.0.1:${port}`, api_key: key } } });

    const fromProfile = await whoami(dir);
    expect(fromProfile).toMatchObject({ base_url: `http://127.0.0.1:${port}`, sources: { base_url: 'profile' } });
    const fromEnv = await whoami(dir, [], { SVC_BASE_URL: `http://localhost:${port}` });
    expect(fromEnv).toMatchObject({ base_url: `http://localhost:${port}`, sources: { base_url: 'env' } });
    const fromFlag = await whoami(dir, ['--base-url', 'https://flag.example.com'], { SVC_BASE_URL: `http://localhost:${port}` });
    expect(fromFlag).toMatchObject({ base_url: 'https://flag.example.com', sources: { base_url: 'flag' } });

    // The one that wins is the one used: the losers point where nothing answers.
    writeConfig(dir, { profiles: { default: { base_url: dead, api_key: key } } });
    await world.reset();
    const envWins = await svcIn(dir, ['usage', '--retries', '0'], { env: { SVC_BASE_URL: world.mock.url } });
    expect(envWins.code, envWins.stderr).toBe(0);
    const flagWins = await svcIn(dir, ['usage', '--retries', '0', '--base-url', world.mock.url], { env: { SVC_BASE_URL: dead } });
    expect(flagWins.code, flagWins.stderr).toBe(0);
    expect((await world.requests()).map((r) => r.path)).toEqual(['/v1/usage', '/v1/usage']);
  });

  it('for the profile, in whoami and in which key is sent', async () => {
    const [keyA, keyB, keyC] = threeKeys();
    const dir = freshConfigDir();
    writeConfig(dir, {
      current_profile: 'alpha',
      profiles: {
        alpha: { base_url: world.mock.url, api_key: keyA },
        beta: { base_url: world.mock.url, api_key: keyB },
        gamma: { base_url: world.mock.url, api_key: keyC },
      },
    });

    expect(await whoami(dir)).toMatchObject({ profile: 'alpha', sources: { profile: 'profile', api_key: 'profile' } });
    expect(await whoami(dir, [], { SVC_PROFILE: 'beta' })).toMatchObject({ profile: 'beta', sources: { profile: 'env' } });
    const flag = await whoami(dir, ['--profile', 'gamma'], { SVC_PROFILE: 'beta' });
    expect(flag).toMatchObject({ profile: 'gamma', sources: { profile: 'flag' } });
    expect(flag.api_key.slice(-4)).toBe(keyC.slice(-4));

    await world.reset();
    expect((await svcIn(dir, ['usage'])).code).toBe(0);
    expect((await svcIn(dir, ['usage'], { env: { SVC_PROFILE: 'beta' } })).code).toBe(0);
    expect((await svcIn(dir, ['usage', '--profile', 'gamma'], { env: { SVC_PROFILE: 'beta' } })).code).toBe(0);
    expect(await authorizations()).toEqual([`…${keyA.slice(-4)}`, `…${keyB.slice(-4)}`, `…${keyC.slice(-4)}`]);
  });

  it('with no current profile in the file, the profile is "default"', async () => {
    const key = world.key().key;
    const dir = freshConfigDir();
    writeConfig(dir, { profiles: { default: { base_url: world.mock.url, api_key: key }, other: { base_url: 'https://other.example.com' } } });
    expect(await whoami(dir)).toMatchObject({ profile: 'default', base_url: world.mock.url, sources: { profile: 'default' } });
  });
});

describe('svc config', () => {
  it('set, get, list and path on the active profile, keeping the file 0600 and the folder 0700', async () => {
    const dir = freshConfigDir();
    const key = world.key().key;
    await login(dir, key);
    expectModes(dir);

    const set = await svcIn(dir, ['config', 'set', 'base_url', `http://localhost:${new URL(world.mock.url).port}`]);
    expect(set.code, set.stderr).toBe(0);
    expectModes(dir);
    const get = await svcIn(dir, ['config', 'get', 'base_url']);
    expect(get.code).toBe(0);
    expect(get.stdout).toBe(`http://localhost:${new URL(world.mock.url).port}\n`);

    const getKey = await svcIn(dir, ['config', 'get', 'api_key']);
    expect(getKey.code).toBe(0);
    expect(getKey.stdout.trim()).toMatch(MASKED);
    expect(getKey.stdout.trim().slice(-4)).toBe(key.slice(-4));
    expectNoKey(getKey, key);

    const list = await svcIn(dir, ['config', 'list', '--json']);
    expect(list.code).toBe(0);
    expectNoKey(list, key);
    const body = JSON.parse(list.stdout) as { profiles: Record<string, { base_url: string | null; api_key: string | null }> };
    expect(body.profiles.default!.api_key).toMatch(MASKED);

    const plain = await svcIn(dir, ['config', 'list']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('default');
    expectNoKey(plain, key);

    const path = await svcIn(dir, ['config', 'path']);
    expect(path.code, path.stderr).toBe(0);
    expect(path.stdout).toBe(`${join(dir, 'config.json')}\n`);
  });

  it.each([
    ['not a URL', 'not a url'],
    ['http to a host that is not loopback', 'http://api.example.com'],
  ])('set base_url refuses %s (exit 2) and leaves the file as it was', async (_what, value) => {
    const dir = freshConfigDir();
    await login(dir, world.key().key);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const result = await svcIn(dir, ['config', 'set', 'base_url', value]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith('error:')).toBe(true);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('set with --profile creates a new profile; use switches whoami to it', async () => {
    const dir = freshConfigDir();
    const [first, second] = threeKeys();
    await login(dir, first);

    const setUrl = await svcIn(dir, ['config', 'set', 'base_url', world.mock.url, '--profile', 'staging']);
    expect(setUrl.code, setUrl.stderr).toBe(0);
    expectModes(dir);
    const setKey = await svcIn(dir, ['config', 'set', 'api_key', second, '--profile', 'staging']);
    expect(setKey.code, setKey.stderr).toBe(0);
    expect(setKey.stderr).toMatch(/warning:/);
    expectNoKey(setKey, second);
    expectModes(dir);

    const get = await svcIn(dir, ['config', 'get', 'base_url', '--profile', 'staging']);
    expect(get.stdout).toBe(`${world.mock.url}\n`);
    // The active profile did not change by setting another one.
    expect(await whoami(dir)).toMatchObject({ profile: 'default' });

    const use = await svcIn(dir, ['config', 'use', 'staging']);
    expect(use.code, use.stderr).toBe(0);
    expectModes(dir);
    const identity = await whoami(dir);
    expect(identity).toMatchObject({ profile: 'staging', base_url: world.mock.url, sources: { profile: 'profile' } });
    expect(identity.api_key.slice(-4)).toBe(second.slice(-4));

    await world.reset();
    expect((await svcIn(dir, ['usage'])).code).toBe(0);
    expect(await authorizations()).toEqual([`…${second.slice(-4)}`]);
  });

  it.each([
    ['config use', ['config', 'use', 'nope'], {}],
    ['--profile', ['whoami', '--profile', 'nope'], {}],
    ['SVC_PROFILE', ['whoami'], { SVC_PROFILE: 'nope' }],
    ['--profile on a request command', ['reports', 'list', '--profile', 'nope'], { SVC_BASE_URL: 'MOCK', SVC_API_KEY: 'KEY' }],
  ] as [string, string[], Record<string, string>][])('an unknown profile through %s exits 2', async (_what, args, env) => {
    const dir = freshConfigDir();
    await login(dir, world.key().key);
    await world.reset();
    const resolved = Object.fromEntries(
      Object.entries(env).map(([name, value]) => [name, value === 'MOCK' ? world.mock.url : value === 'KEY' ? world.key().key : value]),
    );
    const result = await svcIn(dir, args, { env: resolved });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith('error:')).toBe(true);
    expect(result.stderr).toContain('unknown profile');
    expect(await world.requests()).toEqual([]);
  });

  it.each([
    ['get', ['config', 'get', 'colour']],
    ['set', ['config', 'set', 'colour', 'blue']],
  ])('config %s of an unknown setting exits 2', async (_what, args) => {
    const dir = freshConfigDir();
    await login(dir, world.key().key);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const result = await svcIn(dir, args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith('error:')).toBe(true);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });
});

describe('svc logout', () => {
  it('removes the key of the profile; a request command then exits 3', async () => {
    const dir = freshConfigDir();
    const key = world.key().key;
    await login(dir, key);

    const result = await svcIn(dir, ['logout']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expectNoKey(result, key);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(key);
    expect(readConfig(dir).profiles.default?.api_key).toBeUndefined();
    expectModes(dir);

    await world.reset();
    const after = await svcIn(dir, ['reports', 'list']);
    expect(after.code, after.stderr).toBe(3);
    expect(after.stdout).toBe('');
    expect(after.stderr).toContain('svc login');
    expect(after.stderr).toContain('SVC_API_KEY');
    expect(await world.requests()).toEqual([]);
  });
});

describe('a damaged config file', () => {
  const COMMANDS: [string, string[]][] = [
    ['whoami', ['whoami']],
    ['config list', ['config', 'list']],
    ['config get', ['config', 'get', 'base_url']],
    ['config set', ['config', 'set', 'base_url', 'https://api.example.com']],
    ['reports list', ['reports', 'list']],
    ['logout', ['logout']],
  ];

  async function expectOneMessage(dir: string, args: string[]): Promise<void> {
    const result = await svcIn(dir, args, { env: { SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key } });
    expect(result.code, `svc ${args.join(' ')}: ${result.stderr}`).toBe(2);
    expect(result.stdout).toBe('');
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(join(dir, 'config.json'));
    expect(result.stderr).not.toMatch(STACK_LINE);
  }

  it.each(COMMANDS)('that is not JSON: svc %s exits 2 naming the file', async (_name, args) => {
    const dir = freshConfigDir();
    writeConfig(dir, '{not json');
    await expectOneMessage(dir, args);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{not json');
    expect(await world.requests()).toEqual([]);
  });

  it('whose profiles is an array: exit 2 naming the file', async () => {
    const dir = freshConfigDir();
    writeConfig(dir, { current_profile: 'default', profiles: [] });
    await expectOneMessage(dir, ['whoami']);
    await expectOneMessage(dir, ['reports', 'list']);
    expect(await world.requests()).toEqual([]);
  });

  it('login --with-key does not overwrite it', async () => {
    const dir = freshConfigDir();
    writeConfig(dir, '{not json');
    const result = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key'], { input: world.key().key });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(join(dir, 'config.json'));
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{not json');
  });
});

describe('svc login at a terminal (tmux)', () => {
  const terminal = useTerminal();

  /** Starts `svc <args>` at a terminal with only this config folder set; returns the session. */
  const start = (dir: string, args: string[]): string => terminal.start(args, { HOME: dirname(dir), SVC_CONFIG_DIR: dir });

  /** Types the key, checks it is not echoed before Enter, presses Enter. */
  async function typeKey(session: string, key: string): Promise<void> {
    const secret = key.slice('svc_sk_test_'.length);
    terminal.type(session, key);
    // Wait until the typing shows up (as a mask) or leaks; a prompt that echoes nothing times out here and passes.
    const shown = await terminal
      .waitFor(session, (t) => /[•*]{8,}/.test(t) || t.includes(secret.slice(0, 8)), 'the typed key', 3_000)
      .catch(() => terminal.screen(session));
    expect(shown).not.toContain(secret.slice(0, 8));
    terminal.press(session, 'Enter');
  }

  it('asks for the base URL then the key, masks the key, and saves the profile', async () => {
    const dir = freshConfigDir();
    const key = world.key(0, 'test').key;
    const session = start(dir, ['login']);

    const first = await terminal.waitFor(session, (t) => /base url/i.test(t), 'the base URL prompt');
    expect(first).not.toMatch(/SVC_EXIT=/);
    terminal.type(session, world.mock.url);
    terminal.press(session, 'Enter');
    await terminal.waitFor(session, (t) => /\bkey\b/i.test(t.slice(t.search(/base url/i))), 'the key prompt');
    await typeKey(session, key);

    const { code, screen: final } = await terminal.exit(session);
    expect(code, final).toBe(0);
    const secret = key.slice('svc_sk_test_'.length);
    expect(final).not.toContain(secret.slice(0, 8));
    expect(final).not.toContain(secret.slice(0, -4));
    expect(readConfig(dir).profiles.default).toEqual({ base_url: world.mock.url, api_key: key });
    expectModes(dir);

    const identity = await whoami(dir);
    expect(identity).toMatchObject({ profile: 'default', base_url: world.mock.url, key_mode: 'test' });
  });

  it('with --base-url asks only for the key', async () => {
    const dir = freshConfigDir();
    const key = world.key(1, 'test').key;
    const session = start(dir, ['login', '--base-url', world.mock.url, '--profile', 'tty']);

    const prompt = await terminal.waitFor(session, (t) => /\bkey\b/i.test(t), 'the key prompt');
    expect(prompt).not.toMatch(/base url/i);
    await typeKey(session, key);

    const { code, screen: final } = await terminal.exit(session);
    expect(code, final).toBe(0);
    expect(final).not.toContain(key.slice('svc_sk_test_'.length, -4));
    expect(readConfig(dir).profiles.tty).toEqual({ base_url: world.mock.url, api_key: key });
    expectModes(dir);
  });
});
