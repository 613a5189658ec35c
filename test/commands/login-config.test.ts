// `svc login`, `svc logout`, `svc whoami` and `svc config …` in-process, as a person at a terminal
// and as a script: the prompts, the key check, what is saved, and the precedence of every setting
// (flag > environment > profile > default). File modes stay with the e2e tests (test/e2e/config).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE_URL, FakeService, KEY, LIVE_KEY, plain, ScriptedPrompter, scratchDir, svc, type InProcessOptions } from '../support/in-process.js';

const USAGE = { plan: 'growth', quota: 10000, used: 9500, remaining: 500 };
const INVALID_KEY = { error_type: 'AUTHENTICATION_ERROR', error_code: 'INVALID_API_KEY', error_message: 'The API key is not valid.' };
const OTHER_KEY = 'svc_sk_test_ffeeddccbbaa99887766554433221100';
const THIRD_KEY = 'svc_sk_test_0123456789abcdef0123456789abcdef';
const MASKED = /^svc_sk_(live|test)_(…|\.\.\.)[0-9a-f]{4}$/;

let folders = 0;
/** A config folder of the test's own, not created yet. */
function freshDir(): string {
  return join(scratchDir(), `config-${++folders}`);
}

type Doc = { current_profile?: string; profiles: Record<string, { base_url?: string; api_key?: string }> };

function readConfig(dir: string): Doc {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Doc;
}

function writeConfig(dir: string, doc: unknown): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'config.json'), typeof doc === 'string' ? doc : JSON.stringify(doc), { mode: 0o600 });
}

/** svc with only this config folder: no key and no base URL from the environment. */
function svcIn(dir: string, argv: string[], options: InProcessOptions = {}) {
  return svc(argv, { ...options, env: { SVC_BASE_URL: undefined, SVC_API_KEY: undefined, SVC_CONFIG_DIR: dir, ...options.env } });
}

const usageAccepts = (key: string, body: unknown = USAGE) =>
  new FakeService().expect('GET', (r) => r.path === '/v1/usage' && r.headers.authorization === `Bearer ${key}`, { body });

const usageRejects = () => new FakeService().expect('GET', '/v1/usage', { status: 401, body: INVALID_KEY });

function expectNoKey(result: { stdout: string; stderr: string }, key: string): void {
  expect(result.stdout).not.toContain(key);
  expect(result.stderr).not.toContain(key);
}

async function loggedIn(dir: string, key = KEY, extra: string[] = []): Promise<void> {
  const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key', ...extra], { stdin: key, service: usageAccepts(key) });
  expect(result.code, result.stderr).toBe(0);
}

describe('svc login at a terminal', () => {
  it('asks for the base URL, then the key, checks the key with GET /v1/usage and saves the profile', async () => {
    const dir = freshDir();
    const prompter = new ScriptedPrompter([`${BASE_URL}/`, KEY]);
    const result = await svcIn(dir, ['login'], { tty: true, prompter, service: usageAccepts(KEY) });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked).toEqual(['Base URL of the service', `API key for ${BASE_URL}`]);
    expect(result.requests.map((r) => r.url.toString())).toEqual([`${BASE_URL}/v1/usage`]);
    expect(readConfig(dir)).toEqual({ current_profile: 'default', profiles: { default: { base_url: BASE_URL, api_key: KEY } } });
    expect(result.stdout).toBe('');
    const screen = plain(result.stderr);
    expect(screen).toContain(`✓ Logged in to ${BASE_URL} with a test key svc_sk_test_…${KEY.slice(-4)} (plan growth)`);
    expect(screen).toContain(`Saved in profile "default" of ${join(dir, 'config.json')}`);
    expectNoKey(result, KEY);
  });

  it('with --base-url asks only for the key', async () => {
    const dir = freshDir();
    const prompter = new ScriptedPrompter([LIVE_KEY]);
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--profile', 'tty'], { tty: true, prompter, service: usageAccepts(LIVE_KEY) });
    expect(result.code, result.stderr).toBe(0);
    expect(prompter.asked).toEqual([`API key for ${BASE_URL}`]);
    expect(readConfig(dir).profiles.tty).toEqual({ base_url: BASE_URL, api_key: LIVE_KEY });
    expect(plain(result.stderr)).toContain(`with a live key svc_sk_live_…${LIVE_KEY.slice(-4)}`);
  });

  it('refuses a base URL that would send the key in clear text (the prompt re-asks: the scripted answer is refused)', async () => {
    const dir = freshDir();
    const prompter = new ScriptedPrompter(['http://api.example.com']);
    const result = await svcIn(dir, ['login'], { tty: true, prompter });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/refused: .*api\.example\.com.*use https/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('--with-key reads the key from stdin, even at a terminal, and asks nothing', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], { tty: true, stdin: `${KEY}\n`, service: usageAccepts(KEY) });
    expect(result.code, result.stderr).toBe(0);
    expect(readConfig(dir).profiles.default).toEqual({ base_url: BASE_URL, api_key: KEY });
  });

  it('a key the service rejects: exit 3, nothing saved', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL], { tty: true, prompter: new ScriptedPrompter([OTHER_KEY]), service: usageRejects() });
    expect(result.code).toBe(3);
    // After the spinner of the check: one error line.
    expect(result.stderr).toMatch(/error: the service rejected the key \(INVALID_API_KEY\); nothing was saved\n$/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    expectNoKey(result, OTHER_KEY);
  });
});

describe('svc login as a script', () => {
  it('--with-key: checks the key it read from stdin (trimmed), saves it, prints nothing on stdout', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], { stdin: `${KEY}\n`, service: usageAccepts(KEY) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`svc_sk_test_…${KEY.slice(-4)}`);
    expect(result.stderr).not.toMatch(/\u001b\[/);
    expectNoKey(result, KEY);
    expect(readConfig(dir)).toEqual({ current_profile: 'default', profiles: { default: { base_url: BASE_URL, api_key: KEY } } });
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('takes the base URL from SVC_BASE_URL, and saves into the profile named with --profile', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--with-key', '--profile', 'sagarmatha'], { stdin: LIVE_KEY, env: { SVC_BASE_URL: BASE_URL }, service: usageAccepts(LIVE_KEY) });
    expect(result.code, result.stderr).toBe(0);
    expect(readConfig(dir)).toEqual({ current_profile: 'sagarmatha', profiles: { sagarmatha: { base_url: BASE_URL, api_key: LIVE_KEY } } });
  });

  it.each([
    ['an array', [1, 2]],
    ['an object with an odd plan', { plan: { name: 'growth' } }],
    ['an empty object', {}],
  ])('accepts the key when GET /v1/usage succeeds, whatever its shape (%s)', async (_what, body) => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], { stdin: KEY, service: usageAccepts(KEY, body) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/undefined|\[object Object\]/);
    expect(readConfig(dir).profiles.default?.api_key).toBe(KEY);
  });

  it('a rejected key exits 3 and saves nothing', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], { stdin: OTHER_KEY, service: usageRejects() });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: /m);
    expectNoKey(result, OTHER_KEY);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a rejected key leaves an existing profile unchanged', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], { stdin: OTHER_KEY, service: usageRejects() });
    expect(result.code).toBe(3);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('empty stdin exits 2 and sends nothing', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], { stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: --with-key read no key from standard input\n');
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it.each([
    ['CI set', { CI: 'true' }],
    ['CI unset', { CI: undefined }],
  ])('without --with-key and no terminal (%s): exit 2 with the hint, no prompt, no request', async (_what, env) => {
    const dir = freshDir();
    const prompter = new ScriptedPrompter([KEY]);
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL], { prompter, env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: no API key to save, and no terminal to ask for one\nPipe it in: printf %s "$SVC_KEY" | svc login --with-key\n');
    expect(prompter.asked).toEqual([]);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a terminal with CI set is a script: exit 2, no prompt', async () => {
    const dir = freshDir();
    const prompter = new ScriptedPrompter([KEY]);
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL], { tty: true, prompter, env: { CI: 'true' } });
    expect(result.code).toBe(2);
    expect(prompter.asked).toEqual([]);
  });

  it('no base URL anywhere: exit 2 naming --base-url and SVC_BASE_URL', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--with-key'], { stdin: KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: no base URL to log in to\nPass --base-url URL or set SVC_BASE_URL.\n');
  });

  it.each([
    ['http to a host that is not loopback', 'http://api.example.com', /^error: .*api\.example\.com.*use https/m],
    ['a base URL with /v1', `${BASE_URL}/v1`, /the base URL includes no \/v1: use https:\/\/svc\.test/],
    ['not a URL', 'not a url', /^error: the base URL "not a url" is not an? (valid|absolute) URL/m],
  ])('refuses %s (exit 2) before any request', async (_what, url, message) => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', url, '--with-key'], { stdin: KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('accepts http to a loopback address', async () => {
    const dir = freshDir();
    const service = new FakeService().expect('GET', (r) => r.url.toString() === 'http://127.0.0.1:8080/v1/usage', { body: USAGE });
    const result = await svcIn(dir, ['login', '--base-url', 'http://127.0.0.1:8080', '--with-key'], { stdin: KEY, service });
    expect(result.code, result.stderr).toBe(0);
  });

  it('a key with white space inside is refused (exit 2)', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], { stdin: 'svc_sk_test_abc def' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/must not contain white space/);
  });

  it('--api-key works with a warning that it is visible to other users', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--api-key', KEY], { service: usageAccepts(KEY) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^warning: --api-key is visible to other users of this machine; prefer --with-key$/m);
    expectNoKey(result, KEY);
  });

  it('a damaged config file is not overwritten (exit 2 naming it), and no request is sent', async () => {
    const dir = freshDir();
    writeConfig(dir, '{not json');
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], { stdin: KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(dir, 'config.json'));
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{not json');
  });
});

describe('svc logout', () => {
  it.each([false, true])('removes the key of the profile (tty: %s); a request command then exits 3 naming svc login and SVC_API_KEY', async (tty) => {
    const dir = freshDir();
    await loggedIn(dir);
    const result = await svcIn(dir, ['logout'], { tty });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`✓ Removed the key of profile "default" from ${join(dir, 'config.json')}\n`);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(KEY);
    expect(readConfig(dir).profiles.default).toEqual({ base_url: BASE_URL });

    const after = await svcIn(dir, ['reports', 'list'], { tty });
    expect(after.code).toBe(3);
    expect(after.stdout).toBe('');
    expect(after.stderr).toContain('svc login');
    expect(after.stderr).toContain('SVC_API_KEY');
  });

  it('with no saved key says so and exits 0', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['logout']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Profile "default" has no saved key; nothing to do.\n');
    expect(existsSync(dir)).toBe(false);
  });

  it('--profile removes the key of that profile only', async () => {
    const dir = freshDir();
    await loggedIn(dir, KEY);
    await loggedIn(dir, OTHER_KEY, ['--profile', 'staging']);
    const result = await svcIn(dir, ['logout', '--profile', 'default']);
    expect(result.code).toBe(0);
    expect(readConfig(dir).profiles).toEqual({ default: { base_url: BASE_URL }, staging: { base_url: BASE_URL, api_key: OTHER_KEY } });
  });
});

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
  expectNoKey(result, KEY);
  return JSON.parse(result.stdout) as Identity;
}

describe('svc whoami', () => {
  it('at a terminal: profile, base URL, key mode and masked key, each with where it came from', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const result = await svcIn(dir, ['whoami'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\u001b\[/);
    const screen = plain(result.stdout);
    expect(screen).toMatch(/Profile\s.*default \(profile\)/);
    expect(screen).toMatch(new RegExp(`Base URL\\s.*${BASE_URL.replace(/\./g, '\\.')} \\(profile\\)`));
    expect(screen).toMatch(/Key mode\s.*test/);
    expect(screen).toContain(`svc_sk_test_…${KEY.slice(-4)} (profile)`);
    expectNoKey(result, KEY);
  });

  it('as a script: tab-separated fields, and --json the same as an object', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const table = await svcIn(dir, ['whoami']);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(/\u001b\[|│|┌/);
    expect(table.stdout).toBe(`FIELD\tVALUE\nprofile\tdefault (profile)\nbase_url\t${BASE_URL} (profile)\nkey_mode\ttest\napi_key\tsvc_sk_test_…${KEY.slice(-4)} (profile)\n`);
    expectNoKey(table, KEY);

    const identity = await whoami(dir);
    expect(identity).toEqual({
      profile: 'default',
      base_url: BASE_URL,
      key_mode: 'test',
      api_key: `svc_sk_test_…${KEY.slice(-4)}`,
      sources: { profile: 'profile', base_url: 'profile', api_key: 'profile' },
    });
    expect(identity.api_key).toMatch(MASKED);
  });

  it('with settings from the environment only; reading them creates nothing', async () => {
    const dir = freshDir();
    const table = await svcIn(dir, ['whoami'], { tty: true, env: { SVC_BASE_URL: BASE_URL, SVC_API_KEY: LIVE_KEY } });
    expect(table.code).toBe(0);
    expect(plain(table.stdout)).toMatch(/Key mode\s.*live/);
    expect(plain(table.stdout)).toContain(`svc_sk_live_…${LIVE_KEY.slice(-4)} (env)`);
    expectNoKey(table, LIVE_KEY);
    const identity = await whoami(dir, [], { SVC_BASE_URL: BASE_URL, SVC_API_KEY: LIVE_KEY });
    expect(identity).toMatchObject({ profile: 'default', base_url: BASE_URL, key_mode: 'live', sources: { profile: 'default', base_url: 'env', api_key: 'env' } });
    expect(existsSync(dir)).toBe(false);
  });

  it('a key of another form: mode unknown, masked to its last four characters', async () => {
    const dir = freshDir();
    const identity = await whoami(dir, [], { SVC_API_KEY: 'pk_abcdefghijklmnop1234' });
    expect(identity).toMatchObject({ key_mode: 'unknown', api_key: '…1234', base_url: null });
  });

  it('no key: exit 3 naming svc login and SVC_API_KEY', async () => {
    for (const tty of [false, true]) {
      const result = await svcIn(freshDir(), ['whoami'], { tty });
      expect(result.code).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe('error: no API key configured\nRun `svc login`, or set SVC_API_KEY (or pass --api-key).\n');
    }
  });
});

describe('precedence: flag > environment > profile > default', () => {
  /** `svc usage` answered by a fake service that records where the request went and with which key. */
  async function sent(dir: string, args: string[], env: Record<string, string | undefined> = {}): Promise<string> {
    const service = new FakeService().expect('GET', '/v1/usage', { body: USAGE });
    const result = await svcIn(dir, ['usage', '--json', ...args], { env, service });
    expect(result.code, result.stderr).toBe(0);
    const [request] = result.requests;
    return `${request!.url.origin} ${request!.headers.authorization!.slice(-4)}`;
  }

  it('for the API key, in whoami and in what the service receives', async () => {
    const dir = freshDir();
    writeConfig(dir, { current_profile: 'default', profiles: { default: { base_url: BASE_URL, api_key: KEY } } });
    expect(await whoami(dir)).toMatchObject({ sources: { api_key: 'profile' }, api_key: `svc_sk_test_…${KEY.slice(-4)}` });
    expect(await whoami(dir, [], { SVC_API_KEY: OTHER_KEY })).toMatchObject({ sources: { api_key: 'env' }, api_key: `svc_sk_test_…${OTHER_KEY.slice(-4)}` });
    expect(await whoami(dir, ['--api-key', THIRD_KEY], { SVC_API_KEY: OTHER_KEY })).toMatchObject({ sources: { api_key: 'flag' }, api_key: `svc_sk_test_…${THIRD_KEY.slice(-4)}` });

    expect(await sent(dir, [])).toBe(`${BASE_URL} ${KEY.slice(-4)}`);
    expect(await sent(dir, [], { SVC_API_KEY: OTHER_KEY })).toBe(`${BASE_URL} ${OTHER_KEY.slice(-4)}`);
    expect(await sent(dir, ['--api-key', THIRD_KEY], { SVC_API_KEY: OTHER_KEY })).toBe(`${BASE_URL} ${THIRD_KEY.slice(-4)}`);
  });

  it('for the base URL, in whoami and in where requests go', async () => {
    const dir = freshDir();
    writeConfig(dir, { profiles: { default: { base_url: 'http://127.0.0.1:4010', api_key: KEY } } });
    expect(await whoami(dir)).toMatchObject({ base_url: 'http://127.0.0.1:4010', sources: { base_url: 'profile' } });
    expect(await whoami(dir, [], { SVC_BASE_URL: 'http://localhost:4010' })).toMatchObject({ base_url: 'http://localhost:4010', sources: { base_url: 'env' } });
    expect(await whoami(dir, ['--base-url', 'https://flag.example.com'], { SVC_BASE_URL: 'http://localhost:4010' })).toMatchObject({
      base_url: 'https://flag.example.com',
      sources: { base_url: 'flag' },
    });

    const tail = KEY.slice(-4);
    expect(await sent(dir, [])).toBe(`http://127.0.0.1:4010 ${tail}`);
    expect(await sent(dir, [], { SVC_BASE_URL: 'http://localhost:4010' })).toBe(`http://localhost:4010 ${tail}`);
    expect(await sent(dir, ['--base-url', 'https://flag.example.com'], { SVC_BASE_URL: 'http://localhost:4010' })).toBe(`https://flag.example.com ${tail}`);
  });

  it('for the profile, in whoami and in which key is sent', async () => {
    const dir = freshDir();
    writeConfig(dir, {
      current_profile: 'alpha',
      profiles: {
        alpha: { base_url: 'https://alpha.example.com', api_key: KEY },
        beta: { base_url: 'https://beta.example.com', api_key: OTHER_KEY },
        gamma: { base_url: 'https://gamma.example.com', api_key: THIRD_KEY },
      },
    });
    expect(await whoami(dir)).toMatchObject({ profile: 'alpha', sources: { profile: 'profile', api_key: 'profile' } });
    expect(await whoami(dir, [], { SVC_PROFILE: 'beta' })).toMatchObject({ profile: 'beta', sources: { profile: 'env' } });
    const flag = await whoami(dir, ['--profile', 'gamma'], { SVC_PROFILE: 'beta' });
    expect(flag).toMatchObject({ profile: 'gamma', sources: { profile: 'flag' } });
    expect(flag.api_key.slice(-4)).toBe(THIRD_KEY.slice(-4));

    expect(await sent(dir, [])).toBe(`https://alpha.example.com ${KEY.slice(-4)}`);
    expect(await sent(dir, [], { SVC_PROFILE: 'beta' })).toBe(`https://beta.example.com ${OTHER_KEY.slice(-4)}`);
    expect(await sent(dir, ['--profile', 'gamma'], { SVC_PROFILE: 'beta' })).toBe(`https://gamma.example.com ${THIRD_KEY.slice(-4)}`);
  });

  it('a flag or variable wins over the profile that --profile picks', async () => {
    const dir = freshDir();
    writeConfig(dir, { profiles: { default: { base_url: BASE_URL, api_key: KEY }, beta: { base_url: 'https://beta.example.com', api_key: OTHER_KEY } } });
    expect(await sent(dir, ['--profile', 'beta'], { SVC_API_KEY: THIRD_KEY })).toBe(`https://beta.example.com ${THIRD_KEY.slice(-4)}`);
  });

  it('with no current profile in the file, the profile is "default"', async () => {
    const dir = freshDir();
    writeConfig(dir, { profiles: { default: { base_url: BASE_URL, api_key: KEY }, other: { base_url: 'https://other.example.com' } } });
    expect(await whoami(dir)).toMatchObject({ profile: 'default', base_url: BASE_URL, sources: { profile: 'default' } });
  });

  it('no base URL anywhere: exit 2 naming svc login and SVC_BASE_URL, no request', async () => {
    for (const tty of [false, true]) {
      const result = await svcIn(freshDir(), ['usage'], { tty, env: { SVC_API_KEY: KEY } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('svc login');
      expect(result.stderr).toContain('SVC_BASE_URL');
    }
  });

  it.each([
    ['config use', ['config', 'use', 'nope'], {}],
    ['--profile', ['whoami', '--profile', 'nope'], {}],
    ['SVC_PROFILE', ['whoami'], { SVC_PROFILE: 'nope' }],
    ['--profile on a request command', ['reports', 'list', '--profile', 'nope'], { SVC_BASE_URL: BASE_URL, SVC_API_KEY: KEY }],
  ] as [string, string[], Record<string, string>][])('an unknown profile through %s exits 2 naming it, with no request', async (_what, args, env) => {
    const dir = freshDir();
    await loggedIn(dir);
    const result = await svcIn(dir, args, { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: unknown profile "nope" (profiles: default)\nCreate it with `svc login --profile nope`.\n');
  });
});

describe('svc config', () => {
  it('path prints the config file, which need not exist', async () => {
    const dir = freshDir();
    for (const tty of [false, true]) {
      const result = await svcIn(dir, ['config', 'path'], { tty });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${join(dir, 'config.json')}\n`);
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('set and get a base URL (without a trailing slash) on the active profile', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const set = await svcIn(dir, ['config', 'set', 'base_url', 'http://localhost:4010/']);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe('');
    expect(set.stderr).toBe('✓ Set base_url of profile "default" to http://localhost:4010\n');
    for (const tty of [false, true]) {
      const get = await svcIn(dir, ['config', 'get', 'base_url'], { tty });
      expect(get.code).toBe(0);
      expect(get.stdout).toBe('http://localhost:4010\n');
    }
    const json = await svcIn(dir, ['config', 'get', 'base_url', '--json']);
    expect(JSON.parse(json.stdout)).toBe('http://localhost:4010');
    expect(readConfig(dir).profiles.default).toEqual({ base_url: 'http://localhost:4010', api_key: KEY });
  });

  it('get api_key shows the key masked', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    for (const tty of [false, true]) {
      const get = await svcIn(dir, ['config', 'get', 'api_key'], { tty });
      expect(get.code).toBe(0);
      expect(get.stdout.trim()).toMatch(MASKED);
      expect(get.stdout.trim().slice(-4)).toBe(KEY.slice(-4));
      expectNoKey(get, KEY);
    }
  });

  it('get of a setting the profile lacks: exit 2', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['config', 'get', 'base_url']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: base_url is not set in profile "default"\n');
  });

  it('list at a terminal: a table with the active profile marked and the keys masked', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    await loggedIn(dir, OTHER_KEY, ['--profile', 'staging']);
    await svcIn(dir, ['config', 'use', 'default']);
    const result = await svcIn(dir, ['config', 'list'], { tty: true });
    expect(result.code).toBe(0);
    expectNoKey(result, KEY);
    expectNoKey(result, OTHER_KEY);
    const rows = plain(result.stdout).split('\n');
    expect(rows.find((row) => row.includes('default'))).toMatch(/\*.*default.*https:\/\/svc\.test.*svc_sk_test_…[0-9a-f]{4}/);
    expect(rows.find((row) => row.includes('staging'))).not.toContain('*');
  });

  it('list as a script: tab-separated rows; --json the profiles with keys masked; -o ndjson one profile a line', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const table = await svcIn(dir, ['config', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(/\u001b\[|│/);
    expect(table.stdout).toMatch(new RegExp(`^\\*\\tdefault\\t${BASE_URL}\\tsvc_sk_test_…${KEY.slice(-4)}$`, 'm'));
    expectNoKey(table, KEY);

    const json = await svcIn(dir, ['config', 'list', '--json']);
    expect(json.code).toBe(0);
    expectNoKey(json, KEY);
    expect(JSON.parse(json.stdout)).toEqual({ current_profile: 'default', profiles: { default: { base_url: BASE_URL, api_key: `svc_sk_test_…${KEY.slice(-4)}` } } });

    const ndjson = await svcIn(dir, ['config', 'list', '-o', 'ndjson']);
    expect(ndjson.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual([
      { name: 'default', active: true, base_url: BASE_URL, api_key: `svc_sk_test_…${KEY.slice(-4)}` },
    ]);
  });

  it('list with no profiles: a person is told how to make one, a script gets the header line alone', async () => {
    const dir = freshDir();
    const person = await svcIn(dir, ['config', 'list'], { tty: true });
    expect(person.code).toBe(0);
    expect(plain(person.stdout)).toBe(`No profiles yet. Create one with \`svc login\`. (Config file: ${join(dir, 'config.json')})\n`);
    const script = await svcIn(dir, ['config', 'list']);
    expect(script.code).toBe(0);
    expect(script.stdout).toBe(' \tPROFILE\tBASE URL\tAPI KEY\n');
  });

  it.each([
    ['not a URL', 'not a url'],
    ['http to a host that is not loopback', 'http://api.example.com'],
    ['a URL with /v1', 'https://api.example.com/v1'],
  ])('set base_url refuses %s (exit 2) and leaves the file as it was', async (_what, value) => {
    const dir = freshDir();
    await loggedIn(dir);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const result = await svcIn(dir, ['config', 'set', 'base_url', value]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.startsWith('error:')).toBe(true);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('set with --profile creates a new profile without switching to it; use switches to it', async () => {
    const dir = freshDir();
    await loggedIn(dir);

    const setUrl = await svcIn(dir, ['config', 'set', 'base_url', 'https://staging.example.com', '--profile', 'staging']);
    expect(setUrl.code, setUrl.stderr).toBe(0);
    const setKey = await svcIn(dir, ['config', 'set', 'api_key', OTHER_KEY, '--profile', 'staging']);
    expect(setKey.code, setKey.stderr).toBe(0);
    expect(setKey.stderr).toMatch(/^warning: a key given as an argument is visible to other users/m);
    expect(setKey.stderr).toContain(`✓ Set api_key of profile "staging" to svc_sk_test_…${OTHER_KEY.slice(-4)}`);
    expectNoKey(setKey, OTHER_KEY);

    const get = await svcIn(dir, ['config', 'get', 'base_url', '--profile', 'staging']);
    expect(get.stdout).toBe('https://staging.example.com\n');
    expect(await whoami(dir)).toMatchObject({ profile: 'default' });

    const use = await svcIn(dir, ['config', 'use', 'staging'], { tty: true });
    expect(use.code, use.stderr).toBe(0);
    expect(plain(use.stderr)).toBe('✓ Profile "staging" is now active\n');
    const identity = await whoami(dir);
    expect(identity).toMatchObject({ profile: 'staging', base_url: 'https://staging.example.com', sources: { profile: 'profile' } });
    expect(identity.api_key.slice(-4)).toBe(OTHER_KEY.slice(-4));
    expect(readConfig(dir).current_profile).toBe('staging');
  });

  it('set on an empty config makes the profile the current one', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['config', 'set', 'base_url', BASE_URL, '--profile', 'first']);
    expect(result.code, result.stderr).toBe(0);
    expect(readConfig(dir)).toEqual({ current_profile: 'first', profiles: { first: { base_url: BASE_URL } } });
  });

  it('set api_key of another form warns and saves it as given; one with white space is refused', async () => {
    const dir = freshDir();
    const odd = await svcIn(dir, ['config', 'set', 'api_key', 'pk_abcdefghijklmnop1234']);
    expect(odd.code).toBe(0);
    expect(odd.stderr).toMatch(/^warning: the API key is not of the form svc_sk_live_…/m);
    expect(readConfig(dir).profiles.default?.api_key).toBe('pk_abcdefghijklmnop1234');
    const spaced = await svcIn(dir, ['config', 'set', 'api_key', 'svc_sk_test_a b']);
    expect(spaced.code).toBe(2);
    expect(readConfig(dir).profiles.default?.api_key).toBe('pk_abcdefghijklmnop1234');
  });

  it.each([
    ['get', ['config', 'get', 'colour']],
    ['set', ['config', 'set', 'colour', 'blue']],
  ])('config %s of an unknown setting exits 2 and changes nothing', async (_what, args) => {
    const dir = freshDir();
    await loggedIn(dir);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const result = await svcIn(dir, args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: unknown setting "colour" (settings: base_url, api_key)\n');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it.each([['__proto__'], ['constructor']])('refuses the reserved profile name %s (exit 2)', async (name) => {
    const dir = freshDir();
    await loggedIn(dir);
    for (const args of [['config', 'use', name], ['config', 'set', 'base_url', BASE_URL, '--profile', name]]) {
      const result = await svcIn(dir, args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/is reserved and cannot name a profile/);
    }
    expect(Object.keys(readConfig(dir).profiles)).toEqual(['default']);
  });

  it('set refuses a profile name that is not letters, digits, ".", "_" or "-"', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['config', 'set', 'base_url', BASE_URL, '--profile', 'a b']);
    expect(result.code).toBe(2);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});

describe('a damaged config file', () => {
  const COMMANDS: [string, string[]][] = [
    ['whoami', ['whoami']],
    ['config list', ['config', 'list']],
    ['config get', ['config', 'get', 'base_url']],
    ['config set', ['config', 'set', 'base_url', 'https://api.example.com']],
    ['config use', ['config', 'use', 'default']],
    ['reports list', ['reports', 'list']],
    ['logout', ['logout']],
  ];

  async function expectOneMessage(dir: string, args: string[], tty: boolean): Promise<void> {
    const result = await svcIn(dir, args, { tty, env: { SVC_BASE_URL: BASE_URL, SVC_API_KEY: KEY } });
    expect(result.code, `svc ${args.join(' ')}: ${result.stderr}`).toBe(2);
    expect(result.stdout).toBe('');
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(join(dir, 'config.json'));
    expect(result.stderr).not.toMatch(/^\s+at\s/m);
  }

  it.each(COMMANDS)('that is not JSON: svc %s exits 2 naming the file, with no request', async (_name, args) => {
    const dir = freshDir();
    writeConfig(dir, '{not json');
    await expectOneMessage(dir, args, false);
    await expectOneMessage(dir, args, true);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{not json');
  });

  it('whose profiles is an array: exit 2 naming the file', async () => {
    const dir = freshDir();
    writeConfig(dir, { current_profile: 'default', profiles: [] });
    await expectOneMessage(dir, ['whoami'], false);
    await expectOneMessage(dir, ['reports', 'list'], false);
  });
});
