// Configuration and credentials (docs/reference/configuration.md) as a real process: login against
// the mock, the modes of the config file and its folder, and login at a real terminal. Everything
// else of login, logout, whoami and `svc config …` (prompts, rejected keys, precedence flag > env >
// profile > default, damaged files) is tested in-process: test/commands/login-config.test.ts.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { inTerminal, type Result, type RunOptions, svcCommand, useWorld } from './harness.js';
import { useTerminal } from './terminal.js';

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

function readConfig(dir: string): {
  current_profile?: string;
  profiles: Record<string, { base_url?: string; api_key?: string }>;
} {
  return JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
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
  const result = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key', ...extra], {
    input: key,
  });
  expect(result.code, result.stderr).toBe(0);
  return result;
}

/** Two keys the mock accepts whose last four characters differ. */
function twoKeys(): [string, string] {
  const picked: string[] = [];
  for (const { key } of world.mock.keys) {
    if (!picked.some((k) => k.slice(-4) === key.slice(-4))) picked.push(key);
    if (picked.length === 2) break;
  }
  expect(picked).toHaveLength(2);
  return picked as [string, string];
}

interface Identity {
  profile: string;
  base_url: string | null;
  key_mode: string;
  api_key: string;
  sources: { profile: string; base_url: string; api_key: string };
}

async function whoami(
  dir: string,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<Identity> {
  const result = await svcIn(dir, ['whoami', '--json', ...args], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Identity;
}

describe('svc login --with-key', () => {
  it('checks the key, saves the profile in a 0600 file in a 0700 folder, and shows only the masked key', async () => {
    const dir = freshConfigDir();
    const key = world.key().key;
    const result = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key'], {
      input: key,
    });
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
    expect(requests.map((r) => `${r.method} ${r.path} ${r.headers.authorization}`)).toEqual([
      `GET /v1/usage Bearer svc_sk_test_…${key.slice(-4)}`,
    ]);
  });

  it('without --with-key, stderr on a terminal but stdin not one: exit 2, no prompt', async () => {
    const dir = freshConfigDir();
    const result = await inTerminal(
      `${svcCommand} login --base-url ${world.mock.url} < /dev/null`,
      {
        configDir: dir,
        env: { SVC_CONFIG_DIR: dir, CI: undefined },
        timeoutMs: 8_000,
      },
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toMatch(/error:/);
    expect(await world.requests()).toEqual([]);
  });
});

describe('the config file on disk', () => {
  it('stays 0600 in a 0700 folder through login --profile, config set, config use and logout', async () => {
    const dir = freshConfigDir();
    const [first, second] = twoKeys();
    await login(dir, first, ['--profile', 'sagarmatha']);
    expectModes(dir);
    for (const args of [
      ['config', 'set', 'base_url', `${world.mock.url}/`],
      ['config', 'set', 'base_url', world.mock.url, '--profile', 'staging'],
      ['config', 'set', 'api_key', second, '--profile', 'staging'],
      ['config', 'use', 'staging'],
      ['logout'],
    ]) {
      const result = await svcIn(dir, args);
      expect(result.code, `svc ${args.join(' ')}: ${result.stderr}`).toBe(0);
      expectNoKey(result, second);
      expectModes(dir);
    }
    expect(readConfig(dir)).toEqual({
      current_profile: 'staging',
      profiles: {
        sagarmatha: { base_url: world.mock.url, api_key: first },
        staging: { base_url: world.mock.url },
      },
    });
  });
});

describe('svc login at a terminal (tmux)', () => {
  const terminal = useTerminal();

  /** Starts `svc <args>` at a terminal with only this config folder set; returns the session. */
  const start = (dir: string, args: string[]): string =>
    terminal.start(args, { HOME: dirname(dir), SVC_CONFIG_DIR: dir });

  /** Types the key, checks it is not echoed before Enter, presses Enter. */
  async function typeKey(session: string, key: string): Promise<void> {
    const secret = key.slice('svc_sk_test_'.length);
    terminal.type(session, key);
    // Wait until the typing shows up (as a mask) or leaks; a prompt that echoes nothing times out
    // here and passes.
    const shown = await terminal
      .waitFor(
        session,
        (t) => /[•*]{8,}/.test(t) || t.includes(secret.slice(0, 8)),
        'the typed key',
        3_000,
      )
      .catch(() => terminal.screen(session));
    expect(shown).not.toContain(secret.slice(0, 8));
    terminal.press(session, 'Enter');
  }

  it('asks for the base URL then the key, masks the key, and saves the profile', async () => {
    const dir = freshConfigDir();
    const key = world.key(0, 'test').key;
    const session = start(dir, ['login']);

    const first = await terminal.waitFor(
      session,
      (t) => /base url/i.test(t),
      'the base URL prompt',
    );
    expect(first).not.toMatch(/SVC_EXIT=/);
    terminal.type(session, world.mock.url);
    terminal.press(session, 'Enter');
    await terminal.waitFor(
      session,
      (t) => /\bkey\b/i.test(t.slice(t.search(/base url/i))),
      'the key prompt',
    );
    await typeKey(session, key);

    const { code, screen: final } = await terminal.exit(session);
    expect(code, final).toBe(0);
    const secret = key.slice('svc_sk_test_'.length);
    expect(final).not.toContain(secret.slice(0, 8));
    expect(final).not.toContain(secret.slice(0, -4));
    expect(readConfig(dir).profiles.default).toEqual({ base_url: world.mock.url, api_key: key });
    expectModes(dir);

    const identity = await whoami(dir);
    expect(identity).toMatchObject({
      profile: 'default',
      base_url: world.mock.url,
      key_mode: 'test',
    });
  });

  it("offers the service's documented address as the base URL: Enter takes it, and the key question names it", async () => {
    const dir = freshConfigDir();
    const session = start(dir, ['login']);
    const question = await terminal.waitFor(
      session,
      (t) => /base url/i.test(t),
      'the base URL prompt',
    );
    expect(question).toMatch(/Base URL of the service \(https:\/\/api\.swippee\.com\)/);
    terminal.press(session, 'Enter');
    await terminal.waitFor(
      session,
      (t) => t.includes('API key for https://api.swippee.com'),
      'the key prompt naming the address',
    );
    // Stopped at the key: nothing is sent, nothing saved.
    terminal.press(session, 'C-c');
    const { code } = await terminal.exit(session);
    expect(code).toBe(130);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
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
