// `svc login`, `svc logout`, `svc whoami` and `svc config …` in-process, as a person at a terminal
// and as a script: the prompts, the key check, what is saved, and the precedence of every setting
// (flag > environment > profile > default). File modes stay with the e2e tests (test/e2e/config).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PROFILE_KEYS } from '../../src/config/store.js';
import { allCommands, describeProgram } from '../../src/core/completion/spec.js';
import { processIO } from '../../src/core/io.js';
import { buildProgram } from '../../src/main.js';
import {
  BASE_URL,
  expectFailure,
  FakeService,
  type InProcessOptions,
  KEY,
  LIVE_KEY,
  MODES,
  plain,
  scratchDir,
  ScriptedPrompter,
  svc,
  unwrapped,
} from '../support/in-process.js';
import { jsonLines } from '../support/json-lines.js';

const USAGE = { plan: 'growth', quota: 10000, used: 9500, remaining: 500 };
const INVALID_KEY = {
  error_type: 'AUTHENTICATION_ERROR',
  error_code: 'INVALID_API_KEY',
  error_message: 'The API key is not valid.',
};
const OTHER_KEY = 'svc_sk_test_ffeeddccbbaa99887766554433221100';
const THIRD_KEY = 'svc_sk_test_0123456789abcdef0123456789abcdef';
const MASKED = /^svc_sk_(live|test)_(…|\.\.\.)[0-9a-f]{4}$/;

let folders = 0;
/** A config folder of the test's own, not created yet. */
function freshDir(): string {
  return join(scratchDir(), `config-${++folders}`);
}

type Doc = {
  current_profile?: string;
  profiles: Record<string, { base_url?: string; api_key?: string }>;
};

function readConfig(dir: string): Doc {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as Doc;
}

function writeConfig(dir: string, doc: unknown): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'config.json'), typeof doc === 'string' ? doc : JSON.stringify(doc), {
    mode: 0o600,
  });
}

/** svc with only this config folder: no key and no base URL from the environment. */
function svcIn(dir: string, argv: string[], options: InProcessOptions = {}) {
  return svc(argv, {
    ...options,
    env: { SVC_BASE_URL: undefined, SVC_API_KEY: undefined, SVC_CONFIG_DIR: dir, ...options.env },
  });
}

const usageAccepts = (key: string, body: unknown = USAGE) =>
  new FakeService().expect(
    'GET',
    (r) => r.path === '/v1/usage' && r.headers.authorization === `Bearer ${key}`,
    { body },
  );

const usageRejects = () =>
  new FakeService().expect('GET', '/v1/usage', { status: 401, body: INVALID_KEY });

function expectNoKey(result: { stdout: string; stderr: string }, key: string): void {
  expect(result.stdout).not.toContain(key);
  expect(result.stderr).not.toContain(key);
}

async function loggedIn(dir: string, key = KEY, extra: string[] = []): Promise<void> {
  const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key', ...extra], {
    stdin: key,
    service: usageAccepts(key),
  });
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
    expect(readConfig(dir)).toEqual({
      current_profile: 'default',
      profiles: { default: { base_url: BASE_URL, api_key: KEY } },
    });
    expect(result.stdout).toBe('');
    const screen = plain(result.stderr);
    expect(screen).toContain(
      `✓ Logged in to ${BASE_URL} with a test key svc_sk_test_…${KEY.slice(-4)} (plan growth)`,
    );
    expect(screen).toContain(`Saved in profile "default" of ${join(dir, 'config.json')}`);
    expectNoKey(result, KEY);
  });

  it('with --base-url asks only for the key', async () => {
    const dir = freshDir();
    const prompter = new ScriptedPrompter([LIVE_KEY]);
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--profile', 'tty'], {
      tty: true,
      prompter,
      service: usageAccepts(LIVE_KEY),
    });
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
    expect(unwrapped(result.stderr)).toMatch(/refused: .*api\.example\.com.*use https/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('--with-key reads the key from stdin, even at a terminal, and asks nothing', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
      tty: true,
      stdin: `${KEY}\n`,
      service: usageAccepts(KEY),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readConfig(dir).profiles.default).toEqual({ base_url: BASE_URL, api_key: KEY });
  });

  it('a key the service rejects: exit 3, nothing saved', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL], {
      tty: true,
      prompter: new ScriptedPrompter([OTHER_KEY]),
      service: usageRejects(),
    });
    expect(result.code).toBe(3);
    // After the spinner of the check: one error line.
    expect(result.stderr).toMatch(
      /error: the service rejected the key \(INVALID_API_KEY\); nothing was saved\n$/,
    );
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
    expectNoKey(result, OTHER_KEY);
  });
});

describe('svc login as a script', () => {
  it('--with-key: checks the key it read from stdin (trimmed), saves it, prints nothing on stdout', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: `${KEY}\n`,
      service: usageAccepts(KEY),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`svc_sk_test_…${KEY.slice(-4)}`);
    expect(result.stderr).not.toMatch(/\u001b\[/);
    expectNoKey(result, KEY);
    expect(readConfig(dir)).toEqual({
      current_profile: 'default',
      profiles: { default: { base_url: BASE_URL, api_key: KEY } },
    });
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('takes the base URL from SVC_BASE_URL, and saves into the profile named with --profile', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--with-key', '--profile', 'sagarmatha'], {
      stdin: LIVE_KEY,
      env: { SVC_BASE_URL: BASE_URL },
      service: usageAccepts(LIVE_KEY),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(readConfig(dir)).toEqual({
      current_profile: 'sagarmatha',
      profiles: { sagarmatha: { base_url: BASE_URL, api_key: LIVE_KEY } },
    });
  });

  it.each([
    ['an array', [1, 2]],
    ['an object with an odd plan', { plan: { name: 'growth' } }],
    ['an empty object', {}],
  ])(
    'accepts the key when GET /v1/usage succeeds, whatever its shape (%s)',
    async (_what, body) => {
      const dir = freshDir();
      const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
        stdin: KEY,
        service: usageAccepts(KEY, body),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/undefined|\[object Object\]/);
      expect(readConfig(dir).profiles.default?.api_key).toBe(KEY);
    },
  );

  it('a rejected key exits 3 and saves nothing', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: OTHER_KEY,
      service: usageRejects(),
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: /m);
    expectNoKey(result, OTHER_KEY);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a used-up quota (429 QUOTA_EXCEEDED, nested envelope) is asked once: exit 7, the message shown, nothing saved', async () => {
    const dir = freshDir();
    const quota = {
      error: {
        type: 'rate_limit_error',
        code: 'quota_exceeded',
        message: 'The monthly quota is used up.',
      },
    };
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: KEY,
      service: new FakeService().expect('GET', '/v1/usage', { status: 429, body: quota }),
    });
    expect(result.code).toBe(7);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      'error: QUOTA_EXCEEDED: The monthly quota is used up.',
    );
    expect(result.requests).toHaveLength(1);
    expect(result.waits).toEqual([]);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('a rejected key leaves an existing profile unchanged', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: OTHER_KEY,
      service: usageRejects(),
    });
    expect(result.code).toBe(3);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('a pipe of more than a key (a file, /dev/zero) is refused past 16 KiB, not read without end', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: KEY + '\n' + 'x'.repeat(100_000),
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      'error: --with-key read more than 16 KiB from standard input; it takes one key or token\n',
    );
    expect(result.requests).toEqual([]);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('empty stdin exits 2 and sends nothing', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], { stdin: '' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: --with-key read nothing from standard input\n');
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it.each([
    ['CI set', { CI: 'true' }],
    ['CI unset', { CI: undefined }],
  ])(
    'without --with-key and no terminal (%s): exit 2 with the hint, no prompt, no request',
    async (_what, env) => {
      const dir = freshDir();
      const prompter = new ScriptedPrompter([KEY]);
      const result = await svcIn(dir, ['login', '--base-url', BASE_URL], { prompter, env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      // (Why svc cannot ask is worded by report-error.ts: no terminal, or CI set.)
      expect(result.stderr).toMatch(
        /^error: no API key to save, and svc cannot ask for one: .+\nPipe it in: printf %s "\$SVC_API_KEY" \| svc login --with-key\n$/,
      );
      expect(prompter.asked).toEqual([]);
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
    },
  );

  it('a terminal with CI set is a script: exit 2, no prompt', async () => {
    const dir = freshDir();
    const prompter = new ScriptedPrompter([KEY]);
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL], {
      tty: true,
      prompter,
      env: { CI: 'true' },
    });
    expect(result.code).toBe(2);
    expect(prompter.asked).toEqual([]);
  });

  it('no base URL anywhere: exit 2 naming --base-url and SVC_BASE_URL', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--with-key'], { stdin: KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: no base URL to log in to\nPass --base-url URL or set SVC_BASE_URL.\n',
    );
  });

  it.each([
    [
      'http to a host that is not loopback',
      'http://api.example.com',
      /^error: .*api\.example\.com.*use https/m,
    ],
    [
      'a base URL with /v1',
      `${BASE_URL}/v1`,
      /^error: the base URL .*\/v1: use https:\/\/svc\.test$/m,
    ],
    ['not a URL', 'not a url', /^error: the base URL "not a url" is not an? (valid|absolute) URL/m],
  ])('refuses %s (exit 2) before any request', async (_what, url, message) => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', url, '--with-key'], { stdin: KEY });
    expect(result.code).toBe(2);
    expect(unwrapped(result.stderr)).toMatch(message);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('accepts http to a loopback address', async () => {
    const dir = freshDir();
    const service = new FakeService().expect(
      'GET',
      (r) => r.url.toString() === 'http://127.0.0.1:8080/v1/usage',
      { body: USAGE },
    );
    const result = await svcIn(
      dir,
      ['login', '--base-url', 'http://127.0.0.1:8080', '--with-key'],
      { stdin: KEY, service },
    );
    expect(result.code, result.stderr).toBe(0);
  });

  it('a key with white space inside is refused (exit 2)', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: 'svc_sk_test_abc def',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/must not contain white space/);
  });

  it('--api-key works with a warning that it is visible to other users', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--api-key', KEY], {
      service: usageAccepts(KEY),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^warning: --api-key is visible to other users of this machine; prefer --with-key$/m,
    );
    expectNoKey(result, KEY);
  });

  it('a damaged config file is not overwritten (exit 2 naming it), and no request is sent', async () => {
    const dir = freshDir();
    writeConfig(dir, '{not json');
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: KEY,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(dir, 'config.json'));
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{not json');
  });
});

describe('svc logout', () => {
  it.each([false, true])(
    'removes the key of the profile (tty: %s); a request command then exits 3 naming svc login and SVC_API_KEY',
    async (tty) => {
      const dir = freshDir();
      await loggedIn(dir);
      const result = await svcIn(dir, ['logout'], { tty, columns: 240 });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `✓ Removed the key of profile "default" from ${join(dir, 'config.json')}\n`,
      );
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).not.toContain(KEY);
      expect(readConfig(dir).profiles.default).toEqual({ base_url: BASE_URL });

      const after = await svcIn(dir, ['reports', 'list'], { tty });
      expect(after.code).toBe(3);
      expect(after.stdout).toBe('');
      expect(after.stderr).toContain('svc login');
      expect(after.stderr).toContain('SVC_API_KEY');
    },
  );

  it('with no saved key says so and exits 0', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['logout']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Profile "default" has no saved key; nothing to do.\n');
    expect(existsSync(dir)).toBe(false);
  });

  it.each([false, true])(
    'a profile that does not exist: exit 2, naming the profiles there are, without advising svc login (tty: %s)',
    async (tty) => {
      const dir = freshDir();
      await loggedIn(dir, KEY);
      await loggedIn(dir, OTHER_KEY, ['--profile', 'staging']);
      const before = readFileSync(join(dir, 'config.json'), 'utf8');
      for (const how of [{ argv: ['--profile', 'nosuch'] }, { env: { SVC_PROFILE: 'nosuch' } }]) {
        const result = await svcIn(dir, ['logout', ...(how.argv ?? [])], { tty, env: how.env });
        expect(result.code).toBe(2);
        expect(result.stdout).toBe('');
        expect(unwrapped(result.stderr)).toBe(
          'error: unknown profile "nosuch": nothing to log out of (profiles: default, staging)\n',
        );
      }
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
      const none = await svcIn(freshDir(), ['logout', '--profile', 'nosuch'], { tty });
      expect(none.code).toBe(2);
      expect(unwrapped(none.stderr)).toBe(
        'error: unknown profile "nosuch": nothing to log out of (no profiles are configured)\n',
      );
    },
  );

  it('--profile removes the key of that profile only', async () => {
    const dir = freshDir();
    await loggedIn(dir, KEY);
    await loggedIn(dir, OTHER_KEY, ['--profile', 'staging']);
    const result = await svcIn(dir, ['logout', '--profile', 'default']);
    expect(result.code).toBe(0);
    expect(readConfig(dir).profiles).toEqual({
      default: { base_url: BASE_URL },
      staging: { base_url: BASE_URL, api_key: OTHER_KEY },
    });
  });
});

interface Identity {
  profile: string;
  base_url: string | null;
  key_mode: string;
  api_key: string;
  sources: { profile: string; base_url: string; api_key: string };
  key_source: string;
  accepted: boolean | null;
  plan: string | null;
}

/** `svc whoami --json --local`: the settings in force, without asking the service. */
async function whoami(
  dir: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<Identity> {
  const result = await svcIn(dir, ['whoami', '--json', '--local', ...args], { env });
  expect(result.code, result.stderr).toBe(0);
  expectNoKey(result, KEY);
  return JSON.parse(result.stdout) as Identity;
}

describe('svc whoami', () => {
  it('at a terminal: profile, base URL, key mode and masked key with where each came from, and the key checked with the service', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const result = await svcIn(dir, ['whoami'], { tty: true, service: usageAccepts(KEY) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.requests.map((r) => r.path)).toEqual(['/v1/usage']);
    expect(result.stdout).toMatch(/\u001b\[/);
    const screen = plain(result.stdout);
    expect(screen).toMatch(/Profile\s+default \(config file\)\n/);
    expect(screen).toMatch(
      new RegExp(`Base URL\\s+${BASE_URL.replace(/\./g, '\\.')} \\(profile "default"\\)\n`),
    );
    expect(screen).toMatch(/Key mode\s+test\n/);
    expect(screen).toMatch(
      new RegExp(
        `API key\\s+svc_sk_test_…${KEY.slice(-4)} \\(profile "default", in the config file\\)\n`,
      ),
    );
    expect(screen).toMatch(/Service\s+Key accepted by the service \(plan growth\)\n/);
    expectNoKey(result, KEY);
  });

  it('as a script: one clean value a line, where each came from in a field of its own; --json the same as an object', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const table = await svcIn(dir, ['whoami'], { service: usageAccepts(KEY) });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr).toBe('');
    expect(table.stdout).toBe(
      [
        'FIELD\tVALUE',
        'profile\tdefault',
        'profile_source\tprofile',
        `base_url\t${BASE_URL}`,
        'base_url_source\tprofile',
        'key_mode\ttest',
        `api_key\tsvc_sk_test_…${KEY.slice(-4)}`,
        'api_key_source\tprofile',
        'key_source\tfile',
        'accepted\ttrue',
        'plan\tgrowth',
        '',
      ].join('\n'),
    );
    expectNoKey(table, KEY);

    const json = await svcIn(dir, ['whoami', '--json'], { service: usageAccepts(KEY) });
    expect(json.code, json.stderr).toBe(0);
    const identity = JSON.parse(json.stdout) as Identity;
    expect(identity).toEqual({
      profile: 'default',
      base_url: BASE_URL,
      key_mode: 'test',
      api_key: `svc_sk_test_…${KEY.slice(-4)}`,
      sources: { profile: 'profile', base_url: 'profile', api_key: 'profile' },
      key_source: 'file',
      accepted: true,
      plan: 'growth',
    });
    expect(identity.api_key).toMatch(MASKED);
    expectNoKey(json, KEY);
  });

  it('accepts the key on any success of GET /v1/usage, whatever its shape', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    for (const tty of [false, true]) {
      const result = await svcIn(dir, ['whoami'], { tty, service: usageAccepts(KEY, [1, 2]) });
      expect(result.code, result.stderr).toBe(0);
      expect(plain(result.stdout)).toMatch(
        tty ? /Service\s+Key accepted by the service\n/ : /^accepted\ttrue\nplan\t\n$/m,
      );
      expect(result.stdout).not.toMatch(/undefined|null|\[object Object\]/);
    }
  });

  it.each([false, true])(
    'a key the service refuses: the identity with "Key refused", then the error naming the profile, exit 3 (tty: %s)',
    async (tty) => {
      const dir = freshDir();
      await loggedIn(dir);
      const result = await svcIn(dir, ['whoami'], { tty, service: usageRejects() });
      expect(result.code).toBe(3);
      expect(plain(result.stdout)).toMatch(
        tty ? /Service\s+Key refused: INVALID_API_KEY\n/ : /^accepted\tfalse\nplan\t\n$/m,
      );
      // (At a terminal the spinner of the check comes first.)
      expect(plain(result.stderr)).toMatch(/error: INVALID_API_KEY: The API key is not valid\.$/m);
      expect(plain(unwrapped(result.stderr))).toContain(
        'The service refused the key of profile "default". Run `svc login --profile default` to save a new one.',
      );
      expectNoKey(result, KEY);

      const json = await svcIn(dir, ['whoami', '--json'], { tty, service: usageRejects() });
      expect(json.code).toBe(3);
      expect(JSON.parse(plain(json.stdout))).toMatchObject({
        profile: 'default',
        accepted: false,
        plan: null,
      });
      // The envelope on a script's stderr; a person's reads the error line.
      if (tty)
        expect(plain(json.stderr)).toMatch(/error: INVALID_API_KEY: The API key is not valid\.$/m);
      else
        expect(JSON.parse(json.stderr.slice(json.stderr.indexOf('{"')))).toMatchObject({
          error_code: 'INVALID_API_KEY',
        });
      expectNoKey(json, KEY);
    },
  );

  it('a failure that says nothing of the key (the service is down) is the error, with no verdict', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const service = new FakeService().expect('GET', '/v1/usage', {
      status: 500,
      body: { error_type: 'API_ERROR', error_code: 'API_ERROR', error_message: 'Boom.' },
    });
    const result = await svcIn(dir, ['whoami', '--retries', '0'], { service });
    expect(result.code).toBe(8);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: API_ERROR: Boom\./);
  });

  it.each([false, true])(
    '--local shows the settings without asking the service (tty: %s)',
    async (tty) => {
      const dir = freshDir();
      await loggedIn(dir);
      // The fake service expects no request: one sent would fail the test.
      const result = await svcIn(dir, ['whoami', '--local'], { tty });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      if (tty) {
        expect(plain(result.stdout)).toContain(
          `svc_sk_test_…${KEY.slice(-4)} (profile "default", in the config file)`,
        );
        expect(plain(result.stdout)).not.toMatch(/Service|accepted|refused/);
      } else {
        expect(result.stdout).toMatch(/^accepted\t\nplan\t\n$/m);
      }
      expect((await whoami(dir)).accepted).toBeNull();
    },
  );

  it('with settings from the environment only; reading them creates nothing', async () => {
    const dir = freshDir();
    const env = { SVC_BASE_URL: BASE_URL, SVC_API_KEY: LIVE_KEY };
    const table = await svcIn(dir, ['whoami'], { tty: true, env, service: usageAccepts(LIVE_KEY) });
    expect(table.code, table.stderr).toBe(0);
    const screen = plain(table.stdout);
    expect(screen).toMatch(/Profile\s+default \(default\)\n/);
    expect(screen).toMatch(/Base URL\s+https:\/\/svc\.test \(SVC_BASE_URL\)\n/);
    expect(screen).toMatch(/Key mode\s+live/);
    expect(screen).toContain(`svc_sk_live_…${LIVE_KEY.slice(-4)} (SVC_API_KEY)`);
    expectNoKey(table, LIVE_KEY);
    const script = await svcIn(dir, ['whoami', '--local'], { env });
    expect(script.stdout).toMatch(
      /^profile_source\tdefault\n(.*\n)*base_url_source\tenv\n(.*\n)*api_key_source\tenv\n/m,
    );
    const identity = await whoami(dir, [], env);
    expect(identity).toMatchObject({
      profile: 'default',
      base_url: BASE_URL,
      key_mode: 'live',
      sources: { profile: 'default', base_url: 'env', api_key: 'env' },
    });
    expect(existsSync(dir)).toBe(false);
  });

  it('flags are named as the source at a terminal, and as "flag" in a pipe', async () => {
    const dir = freshDir();
    writeConfig(dir, {
      profiles: {
        default: { base_url: BASE_URL, api_key: KEY },
        beta: { base_url: BASE_URL, api_key: OTHER_KEY },
      },
    });
    const args = [
      'whoami',
      '--local',
      '--profile',
      'beta',
      '--base-url',
      'https://flag.example.com',
      '--api-key',
      THIRD_KEY,
    ];
    const person = plain((await svcIn(dir, args, { tty: true })).stdout);
    expect(person).toMatch(/Profile\s+beta \(--profile\)\n/);
    expect(person).toMatch(/Base URL\s+https:\/\/flag\.example\.com \(--base-url\)\n/);
    expect(person).toContain(`svc_sk_test_…${THIRD_KEY.slice(-4)} (--api-key)`);
    const script = (await svcIn(dir, args)).stdout;
    expect(script).toMatch(
      /^profile\tbeta\nprofile_source\tflag\nbase_url\thttps:\/\/flag\.example\.com\nbase_url_source\tflag\n/m,
    );
    expect(script).toMatch(/^api_key_source\tflag$/m);
  });

  it('a key of another form: mode unknown, masked to its last four characters', async () => {
    const dir = freshDir();
    const identity = await whoami(dir, [], { SVC_API_KEY: 'pk_abcdefghijklmnop1234' });
    expect(identity).toMatchObject({ key_mode: 'unknown', api_key: '…1234', base_url: null });
  });

  it.each([false, true])(
    'no base URL to ask: the settings, then exit 2 naming SVC_BASE_URL and --local, no request (tty: %s)',
    async (tty) => {
      const result = await svcIn(freshDir(), ['whoami'], { tty, env: { SVC_API_KEY: KEY } });
      expect(result.code).toBe(2);
      expect(plain(result.stdout)).toMatch(
        tty ? /Base URL\s+not set/ : /^base_url\t\nbase_url_source\tnone$/m,
      );
      expect(unwrapped(result.stderr)).toBe(
        'error: cannot check the key: no base URL configured\nRun `svc login`, or set SVC_BASE_URL (or pass --base-url); `svc whoami --local` shows the settings without asking the service.\n',
      );
    },
  );

  it('no key: exit 3 naming svc login and SVC_API_KEY', async () => {
    for (const tty of [false, true]) {
      for (const local of [[], ['--local']]) {
        const result = await svcIn(freshDir(), ['whoami', ...local], { tty });
        expect(result.code).toBe(3);
        expect(result.stdout).toBe('');
        expect(result.stderr).toBe(
          'error: no API key configured\nRun `svc login`, or set SVC_API_KEY (or pass --api-key).\n',
        );
      }
    }
  });
});

describe('a refused key is named by where it came from (never shown)', () => {
  /** `svc reports list` answered 401 INVALID_API_KEY. */
  async function refused(
    dir: string,
    args: string[],
    env: Record<string, string | undefined>,
    tty = false,
  ) {
    const result = await svcIn(dir, ['reports', 'list', ...args], {
      tty,
      env,
      service: new FakeService().expect('GET', (r) => r.path.startsWith('/v1/reports'), {
        status: 401,
        body: INVALID_KEY,
      }),
    });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    for (const key of [KEY, OTHER_KEY, THIRD_KEY]) expectNoKey(result, key);
    return unwrapped(plain(result.stderr));
  }

  it.each([false, true])(
    'the key of a profile: run svc login for that profile (tty: %s)',
    async (tty) => {
      const dir = freshDir();
      writeConfig(dir, {
        current_profile: 'default',
        profiles: {
          default: { base_url: BASE_URL, api_key: KEY },
          staging: { base_url: BASE_URL, api_key: OTHER_KEY },
        },
      });
      expect(await refused(dir, [], {}, tty)).toBe(
        'error: INVALID_API_KEY: The API key is not valid.\nThe service refused the key of profile "default". Run `svc login --profile default` to save a new one.\n',
      );
      expect(await refused(dir, ['--profile', 'staging'], {}, tty)).toContain(
        'the key of profile "staging". Run `svc login --profile staging`',
      );
    },
  );

  it('SVC_API_KEY, which wins over the profile', async () => {
    const dir = freshDir();
    writeConfig(dir, { profiles: { default: { base_url: BASE_URL, api_key: KEY } } });
    expect(await refused(dir, [], { SVC_API_KEY: OTHER_KEY })).toContain(
      'The service refused the key in SVC_API_KEY. Set it to a valid key, or unset it and run `svc login`.',
    );
  });

  it('--api-key', async () => {
    const dir = freshDir();
    writeConfig(dir, { profiles: { default: { base_url: BASE_URL, api_key: KEY } } });
    const stderr = await refused(dir, ['--api-key', THIRD_KEY], { SVC_API_KEY: OTHER_KEY });
    expect(stderr).toContain(
      'The service refused the key given with --api-key. Pass a valid one, or run `svc login` to save one.',
    );
    expect(stderr).not.toContain('key in SVC_API_KEY');
  });

  it("the service's own advice is still shown, before ours", async () => {
    const dir = freshDir();
    const body = {
      ...INVALID_KEY,
      suggested_action: 'Check your API key in the Authorization header.',
    };
    const service = new FakeService().expect('GET', '/v1/usage', { status: 401, body });
    const result = await svcIn(dir, ['usage'], {
      env: { SVC_BASE_URL: BASE_URL, SVC_API_KEY: KEY },
      service,
    });
    expect(unwrapped(result.stderr)).toBe(
      'error: INVALID_API_KEY: The API key is not valid.\nCheck your API key in the Authorization header.\nThe service refused the key in SVC_API_KEY. Set it to a valid key, or unset it and run `svc login`.\n',
    );
  });

  it('with --json: the error envelope alone on stderr, as before', async () => {
    const dir = freshDir();
    const service = new FakeService().expect('GET', '/v1/usage', {
      status: 401,
      body: INVALID_KEY,
    });
    const result = await svcIn(dir, ['usage', '--json'], {
      env: { SVC_BASE_URL: BASE_URL, SVC_API_KEY: KEY },
      service,
    });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stderr)).toEqual(INVALID_KEY);
  });

  it('a refused access token is not blamed on the key', async () => {
    const dir = freshDir();
    const body = {
      error_type: 'AUTHENTICATION_ERROR',
      error_code: 'INVALID_ACCESS_TOKEN',
      error_message: 'Wrong token.',
    };
    const service = new FakeService().expect('GET', '/v1/grants/grt_0123456789abcdef/data', {
      status: 401,
      body,
    });
    const result = await svcIn(
      dir,
      ['grants', 'data', 'grt_0123456789abcdef', '--access-token', 'atk_0123456789abcdef0123'],
      { env: { SVC_BASE_URL: BASE_URL, SVC_API_KEY: KEY }, service },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).not.toContain('refused the key');
  });
});

describe('precedence: flag > environment > profile > default', () => {
  /**
   * `svc usage` answered by a fake service that records where the request went and with which key.
   */
  async function sent(
    dir: string,
    args: string[],
    env: Record<string, string | undefined> = {},
  ): Promise<string> {
    const service = new FakeService().expect('GET', '/v1/usage', { body: USAGE });
    const result = await svcIn(dir, ['usage', '--json', ...args], { env, service });
    expect(result.code, result.stderr).toBe(0);
    const [request] = result.requests;
    return `${request!.url.origin} ${request!.headers.authorization!.slice(-4)}`;
  }

  it('for the API key, in whoami and in what the service receives', async () => {
    const dir = freshDir();
    writeConfig(dir, {
      current_profile: 'default',
      profiles: { default: { base_url: BASE_URL, api_key: KEY } },
    });
    expect(await whoami(dir)).toMatchObject({
      sources: { api_key: 'profile' },
      api_key: `svc_sk_test_…${KEY.slice(-4)}`,
    });
    expect(await whoami(dir, [], { SVC_API_KEY: OTHER_KEY })).toMatchObject({
      sources: { api_key: 'env' },
      api_key: `svc_sk_test_…${OTHER_KEY.slice(-4)}`,
    });
    expect(await whoami(dir, ['--api-key', THIRD_KEY], { SVC_API_KEY: OTHER_KEY })).toMatchObject({
      sources: { api_key: 'flag' },
      api_key: `svc_sk_test_…${THIRD_KEY.slice(-4)}`,
    });

    expect(await sent(dir, [])).toBe(`${BASE_URL} ${KEY.slice(-4)}`);
    expect(await sent(dir, [], { SVC_API_KEY: OTHER_KEY })).toBe(
      `${BASE_URL} ${OTHER_KEY.slice(-4)}`,
    );
    expect(await sent(dir, ['--api-key', THIRD_KEY], { SVC_API_KEY: OTHER_KEY })).toBe(
      `${BASE_URL} ${THIRD_KEY.slice(-4)}`,
    );
  });

  it('for the base URL, in whoami and in where requests go', async () => {
    const dir = freshDir();
    writeConfig(dir, {
      profiles: { default: { base_url: 'http://127.0.0.1:4010', api_key: KEY } },
    });
    expect(await whoami(dir)).toMatchObject({
      base_url: 'http://127.0.0.1:4010',
      sources: { base_url: 'profile' },
    });
    expect(
      await whoami(dir, [], { SVC_BASE_URL: 'http://localhost:4010', SVC_API_KEY: KEY }),
    ).toMatchObject({ base_url: 'http://localhost:4010', sources: { base_url: 'env' } });
    expect(
      await whoami(dir, ['--base-url', 'https://flag.example.com'], {
        SVC_BASE_URL: 'http://localhost:4010',
        SVC_API_KEY: KEY,
      }),
    ).toMatchObject({
      base_url: 'https://flag.example.com',
      sources: { base_url: 'flag' },
    });

    const tail = KEY.slice(-4);
    expect(await sent(dir, [])).toBe(`http://127.0.0.1:4010 ${tail}`);
    // Another base URL takes its key from the flag or the environment (see "a profile's key is
    // bound").
    expect(
      await sent(dir, [], { SVC_BASE_URL: 'http://localhost:4010', SVC_API_KEY: OTHER_KEY }),
    ).toBe(`http://localhost:4010 ${OTHER_KEY.slice(-4)}`);
    expect(
      await sent(dir, ['--base-url', 'https://flag.example.com', '--api-key', THIRD_KEY], {
        SVC_BASE_URL: 'http://localhost:4010',
      }),
    ).toBe(`https://flag.example.com ${THIRD_KEY.slice(-4)}`);
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
    expect(await whoami(dir)).toMatchObject({
      profile: 'alpha',
      sources: { profile: 'profile', api_key: 'profile' },
    });
    expect(await whoami(dir, [], { SVC_PROFILE: 'beta' })).toMatchObject({
      profile: 'beta',
      sources: { profile: 'env' },
    });
    const flag = await whoami(dir, ['--profile', 'gamma'], { SVC_PROFILE: 'beta' });
    expect(flag).toMatchObject({ profile: 'gamma', sources: { profile: 'flag' } });
    expect(flag.api_key.slice(-4)).toBe(THIRD_KEY.slice(-4));

    expect(await sent(dir, [])).toBe(`https://alpha.example.com ${KEY.slice(-4)}`);
    expect(await sent(dir, [], { SVC_PROFILE: 'beta' })).toBe(
      `https://beta.example.com ${OTHER_KEY.slice(-4)}`,
    );
    expect(await sent(dir, ['--profile', 'gamma'], { SVC_PROFILE: 'beta' })).toBe(
      `https://gamma.example.com ${THIRD_KEY.slice(-4)}`,
    );
  });

  it('a flag or variable wins over the profile that --profile picks', async () => {
    const dir = freshDir();
    writeConfig(dir, {
      profiles: {
        default: { base_url: BASE_URL, api_key: KEY },
        beta: { base_url: 'https://beta.example.com', api_key: OTHER_KEY },
      },
    });
    expect(await sent(dir, ['--profile', 'beta'], { SVC_API_KEY: THIRD_KEY })).toBe(
      `https://beta.example.com ${THIRD_KEY.slice(-4)}`,
    );
  });

  it('with no current profile in the file, the profile is "default"', async () => {
    const dir = freshDir();
    writeConfig(dir, {
      profiles: {
        default: { base_url: BASE_URL, api_key: KEY },
        other: { base_url: 'https://other.example.com' },
      },
    });
    expect(await whoami(dir)).toMatchObject({
      profile: 'default',
      base_url: BASE_URL,
      sources: { profile: 'default' },
    });
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
    [
      '--profile on a request command',
      ['reports', 'list', '--profile', 'nope'],
      { SVC_BASE_URL: BASE_URL, SVC_API_KEY: KEY },
    ],
  ] as [string, string[], Record<string, string>][])(
    'an unknown profile through %s exits 2 naming it, with no request',
    async (_what, args, env) => {
      const dir = freshDir();
      await loggedIn(dir);
      const result = await svcIn(dir, args, { env });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        'error: unknown profile "nope" (profiles: default)\nCreate it with `svc login --profile nope`.\n',
      );
    },
  );
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
    expect(readConfig(dir).profiles.default).toEqual({ base_url: 'http://localhost:4010' });
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
    expect(rows.find((row) => row.includes('default'))).toMatch(
      /\*.*default.*https:\/\/svc\.test.*svc_sk_test_…[0-9a-f]{4}/,
    );
    expect(rows.find((row) => row.includes('staging'))).not.toContain('*');
  });

  it('list as a script: tab-separated rows; --json the profiles with keys masked; -o ndjson one profile a line', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const table = await svcIn(dir, ['config', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toMatch(/\u001b\[|│/);
    expect(table.stdout).toMatch(
      new RegExp(`^\\*\\tdefault\\t${BASE_URL}\\tsvc_sk_test_…${KEY.slice(-4)}\\tfile$`, 'm'),
    );
    expectNoKey(table, KEY);

    const json = await svcIn(dir, ['config', 'list', '--json']);
    expect(json.code).toBe(0);
    expectNoKey(json, KEY);
    expect(JSON.parse(json.stdout)).toEqual({
      current_profile: 'default',
      profiles: {
        default: {
          base_url: BASE_URL,
          api_key: `svc_sk_test_…${KEY.slice(-4)}`,
          api_key_in: 'file',
        },
      },
    });

    const ndjson = await svcIn(dir, ['config', 'list', '-o', 'ndjson']);
    expect(jsonLines(ndjson.stdout)).toEqual([
      {
        name: 'default',
        active: true,
        base_url: BASE_URL,
        api_key: `svc_sk_test_…${KEY.slice(-4)}`,
        api_key_in: 'file',
      },
    ]);
  });

  it('list with no profiles: a person is told how to make one, a script gets the header line alone', async () => {
    const dir = freshDir();
    const person = await svcIn(dir, ['config', 'list'], { tty: true });
    expect(person.code).toBe(0);
    // (A long path may wrap on a narrow terminal.)
    expect(plain(person.stdout).replace(/\s+/g, ' ').trim()).toBe(
      `No profiles yet. Create one with \`svc login\`. (Config file: ${join(dir, 'config.json')})`,
    );
    const script = await svcIn(dir, ['config', 'list']);
    expect(script.code).toBe(0);
    expect(script.stdout).toBe(' \tPROFILE\tBASE URL\tAPI KEY\tKEY KEPT IN\n');
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

    const setUrl = await svcIn(dir, [
      'config',
      'set',
      'base_url',
      'https://staging.example.com',
      '--profile',
      'staging',
    ]);
    expect(setUrl.code, setUrl.stderr).toBe(0);
    const setKey = await svcIn(dir, [
      'config',
      'set',
      'api_key',
      OTHER_KEY,
      '--profile',
      'staging',
    ]);
    expect(setKey.code, setKey.stderr).toBe(0);
    expect(setKey.stderr).toMatch(
      /^warning: a key given as an argument is visible to other users/m,
    );
    expect(setKey.stderr).toContain(
      `✓ Set api_key of profile "staging" to svc_sk_test_…${OTHER_KEY.slice(-4)}`,
    );
    expectNoKey(setKey, OTHER_KEY);

    const get = await svcIn(dir, ['config', 'get', 'base_url', '--profile', 'staging']);
    expect(get.stdout).toBe('https://staging.example.com\n');
    expect(await whoami(dir)).toMatchObject({ profile: 'default' });

    const use = await svcIn(dir, ['config', 'use', 'staging'], { tty: true });
    expect(use.code, use.stderr).toBe(0);
    expect(plain(use.stderr)).toBe('✓ Profile "staging" is now active\n');
    const identity = await whoami(dir);
    expect(identity).toMatchObject({
      profile: 'staging',
      base_url: 'https://staging.example.com',
      sources: { profile: 'profile' },
    });
    expect(identity.api_key.slice(-4)).toBe(OTHER_KEY.slice(-4));
    expect(readConfig(dir).current_profile).toBe('staging');
  });

  it('set on an empty config makes the profile the current one', async () => {
    const dir = freshDir();
    const result = await svcIn(dir, ['config', 'set', 'base_url', BASE_URL, '--profile', 'first']);
    expect(result.code, result.stderr).toBe(0);
    expect(readConfig(dir)).toEqual({
      current_profile: 'first',
      profiles: { first: { base_url: BASE_URL } },
    });
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
    expect(result.stderr).toBe(
      'error: unknown setting "colour" (settings: base_url, api_key, calendar, pager)\n',
    );
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it.each([['__proto__'], ['constructor']])(
    'refuses the reserved profile name %s (exit 2)',
    async (name) => {
      const dir = freshDir();
      await loggedIn(dir);
      for (const args of [
        ['config', 'use', name],
        ['config', 'set', 'base_url', BASE_URL, '--profile', name],
      ]) {
        const result = await svcIn(dir, args);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toMatch(/is reserved and cannot name a profile/);
      }
      expect(Object.keys(readConfig(dir).profiles)).toEqual(['default']);
    },
  );

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
    const result = await svcIn(dir, args, {
      tty,
      env: { SVC_BASE_URL: BASE_URL, SVC_API_KEY: KEY },
    });
    expect(result.code, `svc ${args.join(' ')}: ${result.stderr}`).toBe(2);
    expect(result.stdout).toBe('');
    const errors = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(join(dir, 'config.json'));
    expect(result.stderr).not.toMatch(/^\s+at\s/m);
  }

  it.each(COMMANDS)(
    'that is not JSON: svc %s exits 2 naming the file, with no request',
    async (_name, args) => {
      const dir = freshDir();
      writeConfig(dir, '{not json');
      await expectOneMessage(dir, args, false);
      await expectOneMessage(dir, args, true);
      expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{not json');
    },
  );

  it('whose profiles is an array: exit 2 naming the file', async () => {
    const dir = freshDir();
    writeConfig(dir, { current_profile: 'default', profiles: [] });
    await expectOneMessage(dir, ['whoami'], false);
    await expectOneMessage(dir, ['reports', 'list'], false);
  });
});

describe('svc login and the active profile', () => {
  it('the first profile saved becomes the active one, and says so when it is not "default"', async () => {
    const dir = freshDir();
    const result = await svcIn(
      dir,
      ['login', '--profile', 'p1', '--base-url', BASE_URL, '--with-key'],
      { stdin: KEY, service: usageAccepts(KEY) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      `warning: no OS keyring to keep the key in (no keyring in this test); it is saved in the config file (mode 0600) instead\n` +
        `✓ Logged in to ${BASE_URL} with a test key svc_sk_test_…${KEY.slice(-4)} (plan growth)\n  Saved in profile "p1" of ${join(dir, 'config.json')}\n  "p1" is now the active profile\n`,
    );
    expect(readConfig(dir).current_profile).toBe('p1');

    // The first login of all, to "default": nothing to say about profiles.
    const first = await svcIn(freshDir(), ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: KEY,
      service: usageAccepts(KEY),
    });
    expect(first.stderr).not.toMatch(/active/);
  });

  it.each([false, true])(
    'logging in to another profile leaves the active one, and says how to switch (tty: %s)',
    async (tty) => {
      const dir = freshDir();
      await loggedIn(dir);
      const options = tty
        ? { tty, prompter: new ScriptedPrompter([OTHER_KEY]) }
        : { stdin: OTHER_KEY };
      const args = [
        'login',
        '--profile',
        'p2',
        '--base-url',
        BASE_URL,
        ...(tty ? [] : ['--with-key']),
      ];
      const result = await svcIn(dir, args, {
        ...options,
        columns: 240,
        service: usageAccepts(OTHER_KEY),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(plain(result.stderr)).toContain(
        `  Saved in profile "p2" of ${join(dir, 'config.json')}\n  The active profile is still "default": pass --profile p2 to use this one, or switch with \`svc config use p2\`\n`,
      );
      expect(readConfig(dir)).toEqual({
        current_profile: 'default',
        profiles: {
          default: { base_url: BASE_URL, api_key: KEY },
          p2: { base_url: BASE_URL, api_key: OTHER_KEY },
        },
      });
      expect(await whoami(dir)).toMatchObject({ profile: 'default' });
      // Not a first login: no word on where keys come from.
      expect(result.stderr).not.toContain('dashboard');
    },
  );

  it('--use makes it the active one and says which it replaces', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const result = await svcIn(
      dir,
      ['login', '--profile', 'p2', '--use', '--base-url', BASE_URL, '--with-key'],
      { stdin: OTHER_KEY, service: usageAccepts(OTHER_KEY) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^ {2}"p2" is now the active profile \(it was "default"\)\n$/m);
    expect(readConfig(dir).current_profile).toBe('p2');
    expect((await whoami(dir)).api_key.slice(-4)).toBe(OTHER_KEY.slice(-4));
  });

  it('logging in again to the active profile says nothing of profiles', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const result = await svcIn(dir, ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: OTHER_KEY,
      service: usageAccepts(OTHER_KEY),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/active/);
    expect(readConfig(dir).profiles.default?.api_key).toBe(OTHER_KEY);
  });

  it('a file that names no current profile but has "default": "default" stays the one in force', async () => {
    const dir = freshDir();
    writeConfig(dir, { profiles: { default: { base_url: BASE_URL, api_key: KEY } } });
    const result = await svcIn(
      dir,
      ['login', '--profile', 'p2', '--base-url', BASE_URL, '--with-key'],
      { stdin: OTHER_KEY, service: usageAccepts(OTHER_KEY) },
    );
    expect(result.stderr).toContain('The active profile is still "default"');
    expect(readConfig(dir).current_profile).toBeUndefined();
    expect(await whoami(dir)).toMatchObject({ profile: 'default' });
  });
});

describe('the first svc login at a terminal', () => {
  it('says where keys are made and what the base URL is, and suggests no base URL', async () => {
    const dir = freshDir();
    const prompter = new ScriptedPrompter([BASE_URL, KEY]);
    const result = await svcIn(dir, ['login'], {
      tty: true,
      columns: 240,
      prompter,
      service: usageAccepts(KEY),
    });
    expect(result.code, result.stderr).toBe(0);
    const screen = plain(result.stderr);
    expect(
      screen.startsWith(
        "API keys are created in the service's dashboard, which shows each one once, when it is made.\n" +
          'Give the address of the service without /v1: https, or http to this machine only.\n',
      ),
    ).toBe(true);
    // No default is offered: the documentation names no production address, and the mock's is no
    // default.
    expect(screen).not.toContain('127.0.0.1');
  });

  it('with --base-url: only where keys are made', async () => {
    const result = await svcIn(freshDir(), ['login', '--base-url', BASE_URL], {
      tty: true,
      prompter: new ScriptedPrompter([KEY]),
      service: usageAccepts(KEY),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(plain(result.stderr)).toContain('dashboard');
    expect(plain(result.stderr)).not.toContain('Give the address');
  });

  it('a script is told nothing of the kind', async () => {
    const result = await svcIn(freshDir(), ['login', '--base-url', BASE_URL, '--with-key'], {
      stdin: KEY,
      service: usageAccepts(KEY),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('dashboard');
  });
});

describe('svc config delete', () => {
  async function twoProfiles(dir: string): Promise<void> {
    await loggedIn(dir);
    await loggedIn(dir, OTHER_KEY, ['--profile', 'staging']);
  }

  it.each([false, true])(
    'deletes a profile that is not the active one, its key with it (tty: %s)',
    async (tty) => {
      const dir = freshDir();
      await twoProfiles(dir);
      const result = await svcIn(dir, ['config', 'delete', 'staging'], { tty, columns: 240 });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('');
      expect(plain(result.stderr)).toBe(
        `✓ Deleted profile "staging" from ${join(dir, 'config.json')}\n` +
          `  Its key svc_sk_test_…${OTHER_KEY.slice(-4)} is gone from this machine; the service accepts it until it is revoked in the dashboard.\n`,
      );
      expectNoKey(result, OTHER_KEY);
      expect(readConfig(dir)).toEqual({
        current_profile: 'default',
        profiles: { default: { base_url: BASE_URL, api_key: KEY } },
      });
    },
  );

  it('refuses the active profile (exit 2, nothing changed) and names how to proceed', async () => {
    const dir = freshDir();
    await twoProfiles(dir);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const result = await svcIn(dir, ['config', 'delete', 'default']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: profile "default" is the active one; nothing was deleted\nSwitch first with `svc config use staging`, or pass --force to delete it anyway.\n',
    );
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('--force deletes the active profile; then none is active', async () => {
    const dir = freshDir();
    await twoProfiles(dir);
    const result = await svcIn(dir, ['config', 'delete', 'default', '--force']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '  No profile is active now: choose one with `svc config use NAME` (profiles: staging)\n',
    );
    expect(readConfig(dir)).toEqual({
      profiles: { staging: { base_url: BASE_URL, api_key: OTHER_KEY } },
    });
    const after = await svcIn(dir, ['reports', 'list']);
    expect(after.code).toBe(2);
  });

  it('--force on the active one when "default" remains: "default" is in force again', async () => {
    const dir = freshDir();
    await twoProfiles(dir);
    await svcIn(dir, ['config', 'use', 'staging']);
    const result = await svcIn(dir, ['config', 'delete', 'staging', '--force']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('  "default" is now the active profile\n');
    expect(await whoami(dir)).toMatchObject({
      profile: 'default',
      sources: { profile: 'default' },
    });
  });

  it('the only profile needs --force, and the message says so', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const result = await svcIn(dir, ['config', 'delete', 'default']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('It is the only profile: pass --force to delete it anyway.');
  });

  it('an unknown or reserved profile: exit 2, nothing changed', async () => {
    const dir = freshDir();
    await loggedIn(dir);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    const unknown = await svcIn(dir, ['config', 'delete', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'error: unknown profile "nope" (profiles: default)\nCreate it with `svc login --profile nope`.\n',
    );
    const reserved = await svcIn(dir, ['config', 'delete', '__proto__', '--force']);
    expect(reserved.code).toBe(2);
    expect(reserved.stderr).toMatch(/is reserved/);
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(before);
  });
});

describe('completion of the config verbs', () => {
  const spec = describeProgram(
    buildProgram({ action: () => async () => {} }, { ...processIO(), env: {} }),
  );
  const command = (...path: string[]) =>
    allCommands(spec.root).find((c) => c.path.join(' ') === path.join(' '))!;

  it('config set and get complete the settings of a profile', () => {
    for (const verb of ['set', 'get']) {
      expect(command('config', verb).args[0]!.value).toEqual({
        kind: 'choices',
        choices: PROFILE_KEYS.map((value) => ({ value })),
      });
    }
    expect(command('config', 'set').args[1]!.value).toEqual({ kind: 'text' });
  });

  it('config delete and config use complete the profile names of the config file', () => {
    for (const verb of ['delete', 'use'])
      expect(command('config', verb).args[0]!.value).toEqual({
        kind: 'dynamic',
        source: 'profiles',
      });
    expect(command('config', 'delete').flags.map((f) => f.long)).toContain('--force');
  });
});

describe("a profile's key is bound to the base URL it was saved with", () => {
  const SAVED = 'https://api.example.com';
  const ELSEWHERE = 'http://127.0.0.1:8799';
  const saved = () => {
    const dir = freshDir();
    writeConfig(dir, {
      current_profile: 'default',
      profiles: { default: { base_url: SAVED, api_key: LIVE_KEY } },
    });
    return dir;
  };

  for (const { mode, tty } of MODES) {
    it(`a base URL from SVC_BASE_URL that differs: the profile's key is not sent, exit 3 naming --api-key and SVC_API_KEY (${mode})`, async () => {
      const result = await svcIn(saved(), ['reports', 'list'], {
        tty,
        env: { SVC_BASE_URL: ELSEWHERE },
      });
      expectFailure(
        result,
        3,
        `error: the key of profile "default" was saved for ${SAVED}; it is not sent to ${ELSEWHERE} (from SVC_BASE_URL)`,
      );
      expect(result.stderr).toContain('--api-key or SVC_API_KEY');
      expect(result.stderr).toContain('unset SVC_BASE_URL');
      expect(result.requests).toEqual([]);
      expectNoKey(result, LIVE_KEY);
    });

    it(`a base URL from --base-url that differs: the same, naming --base-url (${mode})`, async () => {
      const result = await svcIn(saved(), ['usage', '--base-url', 'https://other.example.com'], {
        tty,
      });
      expectFailure(
        result,
        3,
        `error: the key of profile "default" was saved for ${SAVED}; it is not sent to https://other.example.com (from --base-url)`,
      );
      expect(result.requests).toEqual([]);
    });
  }

  it('the same base URL written another way (a trailing slash, upper-case host, the default port) keeps the key', async () => {
    for (const same of [`${SAVED}/`, 'https://API.example.com', 'https://api.example.com:443']) {
      const service = new FakeService().expect(
        'GET',
        (r) => r.url.origin === SAVED && r.headers.authorization === `Bearer ${LIVE_KEY}`,
        { body: USAGE },
      );
      const result = await svcIn(saved(), ['usage', '--json'], {
        env: { SVC_BASE_URL: same },
        service,
      });
      expect(result.code, result.stderr).toBe(0);
    }
  });

  it('a key from --api-key or SVC_API_KEY goes to the base URL in force', async () => {
    for (const [args, env] of [
      [['--api-key', KEY], {}],
      [[], { SVC_API_KEY: KEY }],
    ] as const) {
      const service = new FakeService().expect(
        'GET',
        (r) => r.url.origin === ELSEWHERE && r.headers.authorization === `Bearer ${KEY}`,
        { body: USAGE },
      );
      const result = await svcIn(saved(), ['usage', '--json', ...args], {
        env: { SVC_BASE_URL: ELSEWHERE, ...env },
        service,
      });
      expect(result.code, result.stderr).toBe(0);
    }
  });

  it('a key saved with no base URL is not sent to one from the environment', async () => {
    const dir = freshDir();
    writeConfig(dir, { profiles: { default: { api_key: LIVE_KEY } } });
    const result = await svcIn(dir, ['usage'], { env: { SVC_BASE_URL: ELSEWHERE } });
    expectFailure(
      result,
      3,
      `error: the key of profile "default" was saved with no base URL; it is not sent to ${ELSEWHERE} (from SVC_BASE_URL)`,
    );
    expect(result.requests).toEqual([]);
  });

  it("whoami says the same rather than show another base URL beside the profile's key", async () => {
    const result = await svcIn(saved(), ['whoami', '--local'], {
      env: { SVC_BASE_URL: ELSEWHERE },
    });
    expectFailure(result, 3, /^error: the key of profile "default" was saved for /);
  });

  it('config set base_url does not move a saved key to another service: exit 2, the profile unchanged', async () => {
    const dir = saved();
    const result = await svcIn(dir, ['config', 'set', 'base_url', ELSEWHERE]);
    expectFailure(
      result,
      2,
      `error: profile "default" holds a key saved for ${SAVED}; it is not moved to ${ELSEWHERE}`,
    );
    expect(readConfig(dir).profiles.default).toEqual({ base_url: SAVED, api_key: LIVE_KEY });
    const same = await svcIn(dir, ['config', 'set', 'base_url', `${SAVED}/`]);
    expect(same.code, same.stderr).toBe(0);
  });

  it('a base URL with a password is refused without showing it', async () => {
    for (const url of [
      'https://user:hunter2secret@api.example.com',
      'http://user:hunter2secret@example.com',
    ]) {
      const result = await svcIn(freshDir(), ['usage'], {
        env: { SVC_BASE_URL: url, SVC_API_KEY: KEY },
      });
      expect(result.code).toBe(2);
      expect(result.stderr).not.toContain('hunter2secret');
      expect(result.stderr).toContain('***@');
      expect(result.requests).toEqual([]);
    }
  });
});
