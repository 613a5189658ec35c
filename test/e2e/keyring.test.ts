// The OS keyring as a real process meets it (docs/reference/configuration.md, "The keyring"): a
// real Secret Service (GNOME Keyring on a session D-Bus of the test's own), and none, a locked one,
// one killed, and a bus that never answers. Each needs dbus-daemon, dbus-send, gnome-keyring-daemon
// and secret-tool (Debian: dbus, gnome-keyring, libsecret-tools). Where one is missing the tests
// are skipped with a note; with SVC_TEST_REQUIRE_KEYRING=1 (as .ci/run sets, after installing them)
// a missing one fails the run, as SVC_TEST_REQUIRE_SHELLS does for the completion tests' shells.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { fakeSecretService } from '../support/fake-bus.js';
import { unwrapped } from '../support/unwrapped.js';
import {
  type Desktop,
  INSTALL_KEYRING_TOOLS,
  MISSING_KEYRING_TOOLS,
  REQUIRE_KEYRING,
  secretTool,
  startDesktop,
} from './desktop.js';
import { baseEnv, collect, type Result, run, SVC, useWorld } from './harness.js';
import { traceRun } from './trace.js';

const world = useWorld();

const MISSING = MISSING_KEYRING_TOOLS;
if (MISSING.length > 0) {
  if (REQUIRE_KEYRING) {
    it('the keyring tools are installed (SVC_TEST_REQUIRE_KEYRING is set)', () => {
      throw new Error(
        `${MISSING.join(', ')} not installed, and SVC_TEST_REQUIRE_KEYRING=${process.env.SVC_TEST_REQUIRE_KEYRING} requires them (${INSTALL_KEYRING_TOOLS})`,
      );
    });
  } else {
    const note = `${MISSING.join(', ')} not installed here: the keyring tests are skipped`;
    console.warn(`note: ${note} (set SVC_TEST_REQUIRE_KEYRING=1 to fail instead)`);
    it.skip(note, () => {});
  }
}
const describeWithKeyring = MISSING.length === 0 ? describe : describe.skip;

/** What a test started, stopped after it by process id. */
const started: ChildProcess[] = [];
const servers: Server[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** A desktop of the test's own (./desktop.ts), stopped after the test. */
function desktop(keyring: 'unlocked' | 'locked' | 'empty' | 'none' = 'unlocked'): Promise<Desktop> {
  return startDesktop(world.tempDir('svc-keyring-'), started, keyring);
}

/**
 * What `secret-tool lookup service svc account PROFILE base_url URL` finds on that bus ('' for
 * nothing).
 */
function lookup(at: Desktop, profile = 'default', baseUrl = world.mock.url): string {
  return secretTool(at, ['lookup', 'service', 'svc', 'account', profile, 'base_url', baseUrl])
    .stdout;
}

/**
 * Every item with these attributes (and any others), as `secret-tool search --all` shows it: its
 * secret and attributes.
 */
function itemsWith(
  at: Desktop,
  ...attributes: string[]
): { secret: string; attributes: Record<string, string> }[] {
  // secret-tool writes the attributes on stderr, the rest on stdout: one stream keeps them in
  // order.
  const search = spawnSync(
    'sh',
    ['-c', 'secret-tool search --all "$@" 2>&1', 'sh', ...attributes],
    { env: { PATH: process.env.PATH ?? '', ...at.env }, encoding: 'utf8', timeout: 10_000 },
  );
  return search.stdout
    .split(/^\[\/\d+\]$/m)
    .slice(1)
    .map((text) => ({
      secret: /^secret = (.*)$/m.exec(text)?.[1] ?? '',
      attributes: Object.fromEntries(
        [...text.matchAll(/^attribute\.(\w+) = (.*)$/gm)].map((match) => [match[1]!, match[2]!]),
      ),
    }));
}

/**
 * The items a search for a profile finds, unlocked and locked, asked over D-Bus (no prompt, unlike
 * secret-tool).
 */
function itemsOf(at: Desktop, profile = 'default'): { unlocked: number; locked: number } {
  const reply = spawnSync(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--dest=org.freedesktop.secrets',
      '/org/freedesktop/secrets',
      'org.freedesktop.Secret.Service.SearchItems',
      `dict:string:string:service,svc,account,${profile}`,
    ],
    { env: { PATH: process.env.PATH ?? '', ...at.env }, encoding: 'utf8', timeout: 10_000 },
  ).stdout;
  const [unlocked = '', locked = ''] = reply.split(/\n\s*array \[/).slice(1);
  const count = (text: string) => (text.match(/object path "/g) ?? []).length;
  return { unlocked: count(unlocked), locked: count(locked) };
}

/** Locks the login keyring, as a person's session does at a screen lock or a timeout. */
function lockKeyring(at: Desktop): void {
  // (secret-tool lock --collection=… waits for good on this gnome-keyring: D-Bus's own Lock does
  // not.)
  const locked = spawnSync(
    'dbus-send',
    [
      '--session',
      '--print-reply',
      '--dest=org.freedesktop.secrets',
      '/org/freedesktop/secrets',
      'org.freedesktop.Secret.Service.Lock',
      'array:objpath:/org/freedesktop/secrets/collection/login',
    ],
    { env: { PATH: process.env.PATH ?? '', ...at.env }, encoding: 'utf8', timeout: 10_000 },
  );
  expect(locked.status, locked.stderr).toBe(0);
}

function svcOn(
  at: Desktop,
  args: string[],
  options: { input?: string; env?: Record<string, string | undefined> } = {},
): Promise<Result> {
  return run(args, {
    configDir: at.home,
    input: options.input,
    env: { ...at.env, ...options.env },
  });
}

function configOf(at: Desktop): { profiles: Record<string, Record<string, string>> } {
  return JSON.parse(readFileSync(join(at.home, 'config', 'config.json'), 'utf8')) as {
    profiles: Record<string, Record<string, string>>;
  };
}

/**
 * A config folder whose profile "default" says its key is in the keyring, for `baseUrl`: `home` is
 * its default one, else one SVC_CONFIG_DIR names.
 */
function configFolder(
  at: Desktop,
  where: 'home' | 'named',
  baseUrl: string,
): { env: Record<string, string | undefined> } {
  const dir =
    where === 'home' ? join(at.home, '.config', 'svc') : world.tempDir('svc-other-config-');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({ profiles: { default: { base_url: baseUrl, api_key_in: 'keyring' } } }),
    { mode: 0o600 },
  );
  return { env: { SVC_CONFIG_DIR: where === 'home' ? undefined : dir } };
}

function login(
  at: Desktop,
  key: string,
  extra: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<Result> {
  return svcOn(at, ['login', '--base-url', world.mock.url, '--with-key', ...extra], {
    input: key,
    env,
  });
}

async function whoami(
  at: Desktop,
  env: Record<string, string | undefined> = {},
): Promise<{ key_source: string; accepted: boolean }> {
  const result = await svcOn(at, ['whoami', '--json'], { env });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { key_source: string; accepted: boolean };
}

describeWithKeyring('with a Secret Service on the session bus', () => {
  it('svc login keeps the key there (service svc, account = the profile, base_url = its base URL), config.json holds none; whoami and requests use it; logout removes it', async () => {
    const at = await desktop();
    const key = world.key().key;
    const result = await login(at, key);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `the key in the Secret Service (service svc, account default, base_url ${world.mock.url})`,
    );
    expect(result.stderr).not.toMatch(/warning/);
    expect(itemsWith(at, 'service', 'svc')).toEqual([
      { secret: key, attributes: { service: 'svc', account: 'default', base_url: world.mock.url } },
    ]);
    expect(configOf(at).profiles.default).toEqual({
      base_url: world.mock.url,
      api_key_in: 'keyring',
    });
    expect(readFileSync(join(at.home, 'config', 'config.json'), 'utf8')).not.toContain(key);

    expect(await whoami(at)).toMatchObject({ key_source: 'keyring', accepted: true });
    const usage = await svcOn(at, ['usage', '--json']);
    expect(usage.code, usage.stderr).toBe(0);

    const logout = await svcOn(at, ['logout']);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toBe('✓ Removed the key of profile "default" from the Secret Service\n');
    expect(lookup(at)).toBe('');
    expect(configOf(at).profiles.default).toEqual({ base_url: world.mock.url });
  });

  it('svc login again replaces the key (one entry, labelled "svc: <profile>"), each profile its own account', async () => {
    const at = await desktop();
    const [first, second] = [world.key().key, world.key(1).key];
    const other = first;
    expect((await login(at, first)).code).toBe(0);
    expect((await login(at, second)).code).toBe(0);
    expect((await login(at, other, ['--profile', 'staging'])).code).toBe(0);
    expect(lookup(at)).toBe(second);
    expect(lookup(at, 'staging')).toBe(other);
    expect(itemsOf(at)).toEqual({ unlocked: 1, locked: 0 });
    const search = secretTool(at, ['search', '--all', 'service', 'svc', 'account', 'default']);
    expect(search.stdout + search.stderr).toMatch(/^label = svc: default$/m);
    const identity = await svcOn(at, ['whoami', '--json', '--local']);
    expect(identity.code, identity.stderr).toBe(0);
    expect(JSON.parse(identity.stdout)).toMatchObject({
      key_source: 'keyring',
      api_key: `${second.slice(0, 12)}…${second.slice(-4)}`,
    });
    const logout = await svcOn(at, ['logout']);
    expect(logout.code, logout.stderr).toBe(0);
    expect(itemsOf(at)).toEqual({ unlocked: 0, locked: 0 });
    expect(lookup(at, 'staging')).toBe(other);
  });

  it('reading the key loads no native code: the keyring binding is for macOS and Windows', async () => {
    const at = await desktop();
    expect((await login(at, world.key().key)).code).toBe(0);
    const traced = await traceRun(
      ['whoami', '--local', '--json'],
      { ...baseEnv(at.home), ...at.env, SVC_CONFIG_DIR: join(at.home, 'config') },
      at.home,
    );
    expect(traced.status, traced.stderr).toBe(0);
    expect(JSON.parse(traced.stdout)).toMatchObject({ key_source: 'keyring' });
    expect(traced.packages.filter((name) => name.startsWith('@napi-rs'))).toEqual([]);
    expect(
      traced.files.filter(
        (file) =>
          file.includes('@napi-rs') || file.endsWith('.node') || file === 'dist/external.cjs',
      ),
    ).toEqual([]);
  });

  it('a keyring locked after login: whoami is exit 3 saying it is locked and how to unlock it; nothing is lost, logout removes nothing (exit 1)', async () => {
    const at = await desktop();
    const key = world.key().key;
    expect((await login(at, key)).code).toBe(0);
    const before = readFileSync(join(at.home, 'config', 'config.json'), 'utf8');
    lockKeyring(at);
    expect(itemsOf(at)).toEqual({ unlocked: 0, locked: 1 });
    const started = Date.now();
    const result = await svcOn(at, ['whoami']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toMatch(
      /^error: the key of profile "default" is kept in the Secret Service, which cannot be read: the keyring is locked and its unlock prompt was dismissed: unlock it .*\n/,
    );
    expect(result.stderr).not.toContain(key);
    expect(Date.now() - started).toBeLessThan(5_000);
    const logout = await svcOn(at, ['logout']);
    expect(logout.code).toBe(1);
    expect(unwrapped(logout.stderr)).toMatch(/locked.*nothing was removed/);
    expect(itemsOf(at)).toEqual({ unlocked: 0, locked: 1 });
    expect(readFileSync(join(at.home, 'config', 'config.json'), 'utf8')).toBe(before);
  });

  it('a bus that never answers after login: whoami gives up within its bound (exit 3), no hang', async () => {
    const at = await desktop();
    expect((await login(at, world.key().key)).code).toBe(0);
    const hung = await hungBus(at);
    const started = Date.now();
    const result = await svcOn(at, ['whoami', '--local'], {
      env: { DBUS_SESSION_BUS_ADDRESS: hung },
    });
    expect(result.code).toBe(3);
    expect(unwrapped(result.stderr)).toMatch(
      /^error: the key of profile "default" is kept in the Secret Service, which cannot be read: no answer from org\.freedesktop\.secrets on the session bus within 2 s\n/,
    );
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it("a key an earlier svc kept with no base URL (account=, or the binding's username=) is used from the default config folder, and its first use keeps it with the base URL", async () => {
    for (const attribute of ['account', 'username']) {
      const at = await desktop();
      const key = world.key().key;
      expect(
        secretTool(at, ['store', '--label=svc', 'service', 'svc', attribute, 'default'], key)
          .status,
      ).toBe(0);
      const home = configFolder(at, 'home', world.mock.url);
      expect(await whoami(at, home.env)).toMatchObject({ key_source: 'keyring', accepted: true });
      expect(itemsWith(at, 'service', 'svc')).toEqual([
        {
          secret: key,
          attributes: { service: 'svc', account: 'default', base_url: world.mock.url },
        },
      ]);
    }
  });

  it('svc login and logout in the default config folder replace and remove the earlier items of the profile too', async () => {
    const at = await desktop();
    const store = () => {
      for (const attribute of ['account', 'username'])
        expect(
          secretTool(
            at,
            ['store', '--label=svc', 'service', 'svc', attribute, 'default'],
            world.key(1).key,
          ).status,
        ).toBe(0);
    };
    store();
    const home = configFolder(at, 'home', world.mock.url);
    const key = world.key().key;
    expect((await login(at, key, [], home.env)).code).toBe(0);
    expect(itemsWith(at, 'service', 'svc')).toEqual([
      { secret: key, attributes: { service: 'svc', account: 'default', base_url: world.mock.url } },
    ]);
    store();
    const logout = await svcOn(at, ['logout'], { env: home.env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(itemsWith(at, 'service', 'svc')).toEqual([]);
  });

  it('from a config folder SVC_CONFIG_DIR names, a key kept with no base URL is neither read, nor replaced, nor removed', async () => {
    const at = await desktop();
    const key = world.key().key;
    expect(
      secretTool(at, ['store', '--label=svc', 'service', 'svc', 'account', 'default'], key).status,
    ).toBe(0);
    const earlier = { secret: key, attributes: { service: 'svc', account: 'default' } };
    const named = configFolder(at, 'named', world.mock.url);
    const read = await svcOn(at, ['whoami'], { env: named.env });
    expect(read.code).toBe(3);
    expect(read.stdout).toBe('');
    expect(unwrapped(read.stderr).split('\n')[0]).toBe(
      `error: the Secret Service holds no key of profile "default" for ${world.mock.url}`,
    );
    expect((await svcOn(at, ['logout'], { env: named.env })).code).toBe(0);
    expect(itemsWith(at, 'service', 'svc')).toEqual([earlier]);
    const other = world.key(1).key;
    expect((await login(at, other, [], named.env)).code).toBe(0);
    const items = itemsWith(at, 'service', 'svc');
    expect(items).toHaveLength(2);
    expect(items).toContainEqual(earlier);
    expect(items).toContainEqual({
      secret: other,
      attributes: { service: 'svc', account: 'default', base_url: world.mock.url },
    });
  });

  it("a second config folder with a profile of the same name and another base URL can neither read, nor replace, nor remove the first one's key", async () => {
    const at = await desktop();
    const key = world.key().key;
    const home = configFolder(at, 'home', world.mock.url);
    expect((await login(at, key, [], home.env)).code).toBe(0);
    const server = await listener();
    const attacker = configFolder(at, 'named', server.url);

    const request = await svcOn(at, ['usage'], { env: attacker.env });
    expect(request.code).toBe(3);
    expect(request.stdout).toBe('');
    expect(unwrapped(request.stderr).split('\n')[0]).toBe(
      `error: the Secret Service holds no key of profile "default" for ${server.url}`,
    );
    expect(server.authorizations).toEqual([]);

    const theirs = 'svc_sk_test_0123456789abcdef0123456789abcdef';
    const replaced = await svcOn(at, ['login', '--base-url', server.url, '--with-key'], {
      input: theirs,
      env: attacker.env,
    });
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(lookup(at)).toBe(key);
    expect(lookup(at, 'default', server.url)).toBe(theirs);
    const logout = await svcOn(at, ['logout'], { env: attacker.env });
    expect(logout.code, logout.stderr).toBe(0);
    expect(lookup(at, 'default', server.url)).toBe('');
    const deleted = await svcOn(at, ['config', 'delete', 'default', '--force'], {
      env: configFolder(at, 'named', server.url).env,
    });
    expect(deleted.code, deleted.stderr).toBe(0);

    expect(server.authorizations).toEqual([`Bearer ${theirs}`]);
    expect(itemsWith(at, 'service', 'svc')).toEqual([
      { secret: key, attributes: { service: 'svc', account: 'default', base_url: world.mock.url } },
    ]);
    expect(await whoami(at, home.env)).toMatchObject({ key_source: 'keyring', accepted: true });
  });

  it('an empty key in the keyring: exit 3 saying so, not "no API key configured"', async () => {
    const at = await desktop();
    expect((await login(at, world.key().key)).code).toBe(0);
    expect(secretTool(at, ['clear', 'service', 'svc', 'account', 'default']).status).toBe(0);
    expect(
      secretTool(
        at,
        [
          'store',
          '--label=svc: default',
          'service',
          'svc',
          'account',
          'default',
          'base_url',
          world.mock.url,
        ],
        '',
      ).status,
    ).toBe(0);
    const result = await svcOn(at, ['whoami']);
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(
      'error: the Secret Service holds an empty key for profile "default"',
    );
  });

  it('a key already in config.json keeps working, and the next svc login moves it into the keyring', async () => {
    const at = await desktop();
    const key = world.key().key;
    const insecure = await login(at, key, ['--insecure-storage']);
    expect(insecure.code, insecure.stderr).toBe(0);
    expect(insecure.stderr).not.toMatch(/warning/);
    expect(configOf(at).profiles.default!.api_key).toBe(key);
    expect(lookup(at)).toBe('');
    expect(await whoami(at)).toMatchObject({ key_source: 'file', accepted: true });

    const again = await login(at, key);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /The key it held in .*config\.json was moved to the Secret Service/,
    );
    expect(lookup(at)).toBe(key);
    expect(configOf(at).profiles.default).toEqual({
      base_url: world.mock.url,
      api_key_in: 'keyring',
    });
    expect(await whoami(at)).toMatchObject({ key_source: 'keyring', accepted: true });
  });

  it('a key from SVC_API_KEY never touches the keyring: a bus that never answers costs nothing', async () => {
    const at = await desktop();
    expect((await login(at, world.key().key)).code).toBe(0);
    const hung = await hungBus(at);
    const started = Date.now();
    const identity = await whoami(at, {
      DBUS_SESSION_BUS_ADDRESS: hung,
      SVC_API_KEY: world.key(1).key,
    });
    expect(identity).toMatchObject({ key_source: 'env', accepted: true });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('the keyring killed after login: whoami fails in one line naming it (exit 3), logout leaves everything as it was (exit 1)', async () => {
    const at = await desktop();
    expect((await login(at, world.key().key)).code).toBe(0);
    at.keyring!.kill('SIGKILL');
    await new Promise((resolve) => at.keyring!.once('exit', resolve));
    const whoamiResult = await svcOn(at, ['whoami']);
    expect(whoamiResult.code).toBe(3);
    expect(whoamiResult.stdout).toBe('');
    expect(unwrapped(whoamiResult.stderr)).toMatch(
      /^error: the key of profile "default" is kept in the Secret Service, which cannot be read: nothing answers to org\.freedesktop\.secrets .*\n.*SVC_API_KEY.*\n$/,
    );
    const before = readFileSync(join(at.home, 'config', 'config.json'), 'utf8');
    const logout = await svcOn(at, ['logout']);
    expect(logout.code).toBe(1);
    expect(unwrapped(logout.stderr)).toMatch(
      /^error: the key of profile "default" is kept in the Secret Service, which cannot be reached \(.*\); nothing was removed\n/,
    );
    expect(readFileSync(join(at.home, 'config', 'config.json'), 'utf8')).toBe(before);
  });
});

/**
 * A service of someone else's on this machine: it accepts any key, and keeps the Authorization
 * headers it was sent.
 */
async function listener(): Promise<{ url: string; authorizations: string[] }> {
  const authorizations: string[] = [];
  const server = createHttpServer((request, response) => {
    if (request.headers.authorization) authorizations.push(request.headers.authorization);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"plan":"theirs"}');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, authorizations };
}

/** A socket that takes connections and never says a word: a hung session bus. */
async function hungBus(at: Desktop): Promise<string> {
  const path = join(at.home, 'hung-bus');
  const server = createServer((socket) => socket.on('data', () => {}));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return `unix:path=${path}`;
}

/** The one stderr line of a login that had no keyring: saved in the file, and why. */
const FELL_BACK =
  /^warning: no OS keyring to keep the key in \((.*)\); it is saved in the config file \(mode 0600\) instead$/m;

describeWithKeyring(
  'without a usable keyring the key goes to config.json, and svc login says so in one line',
  () => {
    it.each([
      [
        'no session bus at all (DBUS_SESSION_BUS_ADDRESS unset)',
        'none',
        { DBUS_SESSION_BUS_ADDRESS: undefined },
        /DBUS_SESSION_BUS_ADDRESS is not set/,
      ],
      [
        'a session bus with no Secret Service on it',
        'none',
        {},
        /nothing answers to org\.freedesktop\.secrets/,
      ],
      [
        'a locked keyring (no one to answer its unlock prompt)',
        'locked',
        {},
        /unlock prompt was dismissed/,
      ],
      [
        'a Secret Service with no keyring at all (no default collection)',
        'empty',
        {},
        /the Secret Service has no default keyring \(collection\) to keep the key in/,
      ],
    ] as const)('%s', async (_what, keyring, env, why) => {
      const at = await desktop(keyring);
      const key = world.key().key;
      const result = await login(at, key, [], env);
      expect(result.code, result.stderr).toBe(0);
      const line = FELL_BACK.exec(result.stderr);
      expect(line, result.stderr).not.toBeNull();
      expect(line![1]).toMatch(why);
      expect(configOf(at).profiles.default!.api_key).toBe(key);
      expect(await whoami(at, env)).toMatchObject({ key_source: 'file', accepted: true });
    });

    it('a session bus that never answers: svc login gives up on it within its bound and saves to the file', async () => {
      const at = await desktop('none');
      const hung = await hungBus(at);
      const started = Date.now();
      const result = await login(at, world.key().key, [], { DBUS_SESSION_BUS_ADDRESS: hung });
      expect(result.code, result.stderr).toBe(0);
      expect(FELL_BACK.exec(result.stderr)?.[1]).toBe(
        'no answer from org.freedesktop.secrets on the session bus within 2 s',
      );
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(configOf(at).profiles.default!.api_key).toBe(world.key().key);
    });
  },
);

describe('Ctrl-C while svc waits on the keyring', () => {
  it('an unlock prompt that never completes: SIGINT ends svc at once with exit 130, not after the 5 s a stopping command is given', async () => {
    const calls: string[] = [];
    const address = await fakeSecretService({
      items: { unlocked: [], locked: ['/org/freedesktop/secrets/collection/login/1'] },
      unlockPrompts: true,
      calls,
    });
    const home = world.tempDir('svc-keyring-');
    mkdirSync(join(home, 'config'), { mode: 0o700 });
    writeFileSync(
      join(home, 'config', 'config.json'),
      JSON.stringify({
        profiles: { default: { base_url: world.mock.url, api_key_in: 'keyring' } },
      }),
      { mode: 0o600 },
    );
    const child = spawn(process.execPath, [SVC, 'whoami', '--local'], {
      env: { ...baseEnv(home), DBUS_SESSION_BUS_ADDRESS: address },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end();
    const result = collect(child);
    for (
      let tries = 0;
      tries < 200 && !calls.some((call) => call.startsWith('Secret.Prompt.Prompt'));
      tries++
    )
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(calls.some((call) => call.startsWith('Secret.Prompt.Prompt'))).toBe(true);
    const signalled = Date.now();
    child.kill('SIGINT');
    const { code, stdout, stderr } = await result;
    expect(code).toBe(130);
    expect(stdout).toBe('');
    expect(stderr).toBe('error: interrupted\n');
    // An upper bound only, and a generous one: well under the keyring's own 5 s wait.
    expect(Date.now() - signalled).toBeLessThan(3_000);
  });
});
