// Files on a shared machine, as another user of the machine would try
// them: a shared config folder, a readable config file, a forged cache entry, links planted where
// svc writes, and profile names that are JavaScript's own.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import merchantsJson from '../../src/mock/fixtures/merchants.json' with { type: 'json' };
import { ReplyCache } from '../../src/service/cache.js';
import { unwrapped } from '../support/unwrapped.js';
import { baseEnv, collect, type Result, STACK_LINE, SVC, useWorld } from './harness.js';

const world = useWorld();
const TERMINAL = (merchantsJson as { merchants: { terminals: string[] }[] }).merchants[0]!
  .terminals[0]!;

/**
 * A folder with exactly this mode (mkdir cannot set the sticky bit, and its mode is cut by the
 * umask).
 */
function folder(mode: number, name = 'shared'): string {
  const dir = join(world.tempDir('svc-shared-'), name);
  mkdirSync(dir);
  chmodSync(dir, mode);
  return dir;
}

const mode = (path: string): number => statSync(path).mode & 0o7777;

/** svc with only this config folder, and what `env` adds. */
function svcIn(
  dir: string,
  args: string[],
  options: { env?: Record<string, string>; input?: string } = {},
): Promise<Result> {
  return world.bare(args, { ...options, env: { SVC_CONFIG_DIR: dir, ...options.env } });
}

function loggedIn(dir: string, fileMode = 0o600): string {
  const file = join(dir, 'config.json');
  writeFileSync(
    file,
    JSON.stringify({
      current_profile: 'default',
      profiles: { default: { base_url: world.mock.url, api_key: world.key().key } },
    }),
  );
  chmodSync(file, fileMode);
  return file;
}

function expectOneError(result: Result, code: number, text: string): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe('');
  expect(
    unwrapped(result.stderr)
      .split('\n')
      .filter((line) => line.startsWith('error:')),
  ).toEqual([expect.stringContaining(text)]);
  expect(result.stderr).not.toMatch(STACK_LINE);
}

describe('a config folder svc did not create (item 5)', () => {
  it('keeps its mode; config.json inside it is 0600', async () => {
    const dir = folder(0o755);
    const result = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key'], {
      input: world.key().key,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(mode(dir)).toBe(0o755);
    expect(mode(join(dir, 'config.json'))).toBe(0o600);
  });
});

describe('a config file or folder open to other users (item 6)', () => {
  it('a folder every user can write in, like /tmp (1777), is refused with exit 2 and left as it was', async () => {
    for (const open of [0o1777, 0o777]) {
      const dir = folder(open);
      const login = await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key'], {
        input: world.key().key,
      });
      expectOneError(
        login,
        2,
        `refusing the config folder ${dir}: every user can write in it (mode ${open.toString(8).padStart(4, '0')}); set SVC_CONFIG_DIR`,
      );
      expect(mode(dir)).toBe(open);
      expect(readdirSync(dir)).toEqual([]);

      loggedIn(dir);
      expectOneError(await svcIn(dir, ['usage']), 2, 'refusing the config folder');
    }
    expect(await world.requests()).toEqual([]);
  });

  it('a readable config.json is named in one warning with the fix', async () => {
    const dir = folder(0o700);
    const file = loggedIn(dir, 0o644);
    const result = await svcIn(dir, ['usage']);
    expect(result.code, result.stderr).toBe(0);
    const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toEqual([
      `warning: other users can read the config file ${file}, which holds API keys (mode 0644); run \`chmod 600 ${file}\` (svc also fixes it on its next change)`,
    ]);
  });

  it('the next change of the file makes it 0600 again', async () => {
    const dir = folder(0o700);
    const file = loggedIn(dir, 0o644);
    const result = await svcIn(dir, ['config', 'set', 'base_url', world.mock.url]);
    expect(result.code, result.stderr).toBe(0);
    expect(mode(file)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
  });
});

describe('a config folder or file another user could change is refused, as the reply cache refuses one', () => {
  const asRoot = process.getuid?.() === 0;
  const NOBODY = 65534;

  it('a folder its group can write in (0770): exit 2 with the fix, nothing sent, nothing written', async () => {
    const dir = folder(0o770);
    const file = loggedIn(dir);
    const before = readFileSync(file, 'utf8');
    expectOneError(
      await svcIn(dir, ['usage']),
      2,
      `refusing the config folder ${dir}: its group can write in it (mode 0770); run \`chmod 700 ${dir}\``,
    );
    expectOneError(
      await svcIn(dir, ['login', '--base-url', world.mock.url, '--with-key'], {
        input: world.key().key,
      }),
      2,
      'its group can write in it',
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(await world.requests()).toEqual([]);
  });

  it('a config file others can change (0660, 0666): exit 2, the file left as it was', async () => {
    for (const open of [0o660, 0o666, 0o602]) {
      const dir = folder(0o700);
      const file = loggedIn(dir, open);
      expectOneError(
        await svcIn(dir, ['usage']),
        2,
        `refusing the config file ${file}: other users can change it (mode ${open.toString(8).padStart(4, '0')})`,
      );
      expect(mode(file)).toBe(open);
    }
    expect(await world.requests()).toEqual([]);
  });

  it.runIf(asRoot)(
    'a folder or a file that belongs to another user: exit 2, nothing sent',
    async () => {
      const dir = folder(0o700);
      const file = loggedIn(dir);
      chownSync(file, NOBODY, NOBODY);
      expectOneError(
        await svcIn(dir, ['usage']),
        2,
        `refusing the config file ${file}: it belongs to another user (uid ${NOBODY})`,
      );
      chownSync(file, 0, 0);
      chownSync(dir, NOBODY, NOBODY);
      expectOneError(
        await svcIn(dir, ['usage']),
        2,
        `refusing the config folder ${dir}: it belongs to another user (uid ${NOBODY})`,
      );
      expect(await world.requests()).toEqual([]);
    },
  );
});

describe('a forged reply in a shared cache folder (item 7)', () => {
  const path = '/v1/data/cbank/trade/latest';
  const FORGED = 'FORGED-BY-ANOTHER-USER';

  /**
   * Plants a fresh cache entry for `svc data latest trade`, as another user could in a folder open
   * to them.
   */
  function plant(root: string): void {
    const url = `${world.mock.url}${path}`;
    const dir = join(root, 'replies', 'default');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const raw = JSON.stringify({
      data: [{ key: FORGED, label: FORGED, value: 1 }],
      meta: { attribution: FORGED },
    });
    const entry = { url, fetched_at: new Date().toISOString(), as_of: null, raw };
    writeFileSync(new ReplyCache(root, 'default').fileFor(url), JSON.stringify(entry), {
      mode: 0o600,
    });
  }

  const dataRequests = async () => (await world.requests()).filter((r) => r.path === path);

  it("is served from a cache folder of the user's own (the control)", async () => {
    const root = folder(0o700, 'cache');
    plant(root);
    const result = await world.svc(['data', 'latest', 'trade'], { env: { SVC_CACHE_DIR: root } });
    expect(result.stdout).toContain(FORGED);
    expect(await dataRequests()).toHaveLength(0);
  });

  it('is not served from a folder every user can write in: the request is sent, and --debug says why', async () => {
    for (const open of [0o1777, 0o777]) {
      await world.reset();
      const root = folder(open, 'cache');
      plant(root);
      const result = await world.svc(['data', 'latest', 'trade', '--debug'], {
        env: { SVC_CACHE_DIR: root },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toContain(FORGED);
      expect(await dataRequests()).toHaveLength(1);
      expect(result.stderr).toContain(
        `debug: reply cache not used: other users can write in ${root} (mode ${open.toString(8).padStart(4, '0')})`,
      );
    }
  });
});

describe('links planted where svc writes (item 8)', () => {
  it("--failed-out: a link at the temporary file's name is not written through", async () => {
    const cwd = world.tempDir('svc-shared-run-');
    const victim = join(cwd, 'victim');
    writeFileSync(victim, 'precious\n');
    await world.fault({ method: 'POST', path: '/v1/merchants/resolve', status: 503, times: 1 });
    // The shell plants a link at the temporary file's name as it was under its own pid, then
    // becomes svc with that same pid.
    const script = 'ln -s victim ".left.txt.$$.tmp"; exec "$0" "$@"';
    const env = {
      ...baseEnv(world.dir),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    };
    const child = spawn(
      'sh',
      [
        '-c',
        script,
        process.execPath,
        SVC,
        'merchants',
        'resolve',
        TERMINAL,
        '--retries',
        '0',
        '--failed-out',
        'left.txt',
      ],
      { env, cwd },
    );
    child.stdin.end();
    const result = await collect(child);
    expect(result.code, result.stderr).toBe(8);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(join(cwd, 'left.txt'), 'utf8')).toBe(`${TERMINAL}\n`);
    expect(mode(join(cwd, 'left.txt'))).toBe(0o600);
  });

  it('a config.json that is a symbolic link is refused, not rewritten', async () => {
    const dir = folder(0o700);
    const target = join(world.tempDir('svc-shared-'), 'elsewhere.json');
    const before = JSON.stringify({
      profiles: { default: { base_url: 'https://api.example.com' } },
    });
    writeFileSync(target, before, { mode: 0o600 });
    symlinkSync(target, join(dir, 'config.json'));
    for (const args of [
      ['config', 'set', 'base_url', world.mock.url],
      ['login', '--base-url', world.mock.url, '--with-key'],
      ['whoami'],
    ]) {
      const result = await svcIn(dir, args, { input: world.key().key });
      expectOneError(result, 2, `the config file ${join(dir, 'config.json')} is a symbolic link`);
    }
    expect(readFileSync(target, 'utf8')).toBe(before);
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true);
    expect(await world.requests()).toEqual([]);
  });
});

describe('profile names JavaScript gives a meaning (item 9)', () => {
  it.each(['__proto__', 'constructor', 'prototype'])(
    '"%s" is refused with exit 2, before any request, and nothing is saved',
    async (name) => {
      const dir = join(world.tempDir('svc-shared-'), 'svc');
      const login = await svcIn(
        dir,
        ['login', '--profile', name, '--base-url', world.mock.url, '--with-key'],
        { input: world.key().key },
      );
      expectOneError(login, 2, `"${name}" is reserved and cannot name a profile`);
      expectOneError(
        await svcIn(dir, ['config', 'set', 'base_url', world.mock.url, '--profile', name]),
        2,
        'is reserved',
      );
      expectOneError(await svcIn(dir, ['config', 'use', name]), 2, 'is reserved');
      expectOneError(
        await svcIn(dir, ['whoami'], { env: { SVC_PROFILE: name, SVC_API_KEY: world.key().key } }),
        2,
        'is reserved',
      );
      expect(existsSync(join(dir, 'config.json'))).toBe(false);
      expect(await world.requests()).toEqual([]);
    },
  );
});
