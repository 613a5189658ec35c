// `svc mock`'s demo keys are kept per user in svc's data folder: the same keys
// at every start, so a saved login survives a restart; `--new-keys` replaces them. The key file is
// kept as the config file is: 0600 in a 0700 folder, never through a link, refused where another
// user could change it. In-process, as a person and as a script; a real restart with a saved
// login, and mocks started at once, are in test/e2e/mock-keys.test.ts.
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { expectRefused } from '../support/errors.js';
import {
  type InProcessOptions,
  type InProcessResult,
  MODES,
  plain,
  STACK,
  svc,
  unwrapped,
} from '../support/in-process.js';

interface Started {
  url: string;
  keys: {
    key: string;
    organization_id: string;
    organization_name: string;
    mode: string;
    scope: string;
  }[];
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A new folder holding the data folder `svc` (not there yet: svc makes it). */
function dataDir(): string {
  const parent = mkdtempSync(join(tmpdir(), 'svc-mock-keys-'));
  dirs.push(parent);
  return join(parent, 'svc');
}

const keyFile = (dir: string) => join(dir, 'mock-keys.json');
const mode = (path: string) => statSync(path).mode & 0o7777;
const FULL_KEY = /svc_sk_(?:live|test)_[0-9a-f]{32}/g;

/**
 * `svc mock --port 0 ARGS` with its data folder in `dir`, stopped (Ctrl-C) once it has written its
 * first output, after `whileRunning` is done with it. A run that ends by itself (a refusal) is
 * returned as it ended.
 */
async function mock(
  dir: string,
  args: string[] = [],
  options: InProcessOptions & { whileRunning?: (stdout: string) => Promise<void> } = {},
): Promise<InProcessResult> {
  const stop = new AbortController();
  let stdout = '';
  let shown!: () => void;
  const started = new Promise<void>((resolve) => (shown = resolve));
  const run = svc(['mock', '--port', '0', '--quiet', ...args], {
    ...options,
    env: { SVC_DATA_DIR: dir, ...options.env },
    signal: stop.signal,
    onStdout: (text) => {
      stdout += text;
      shown();
    },
  });
  const ended = await Promise.race([started.then(() => false), run.then(() => true)]);
  if (!ended) {
    try {
      await options.whileRunning?.(stdout);
    } finally {
      stop.abort();
    }
  }
  return run;
}

/** The URL and keys of a `--json` start. */
const startedOf = (result: InProcessResult): Started =>
  JSON.parse(result.stdout.split('\n')[0]!) as Started;
const keysOf = (result: InProcessResult): string[] => startedOf(result).keys.map((k) => k.key);
const usageStatus = async (url: string, key: string) =>
  (await fetch(`${url}/v1/usage`, { headers: { Authorization: `Bearer ${key}` } })).status;

describe.each(MODES)("svc mock's demo keys, for $mode", ({ tty }) => {
  it('are the same at every start, kept 0600 in a folder svc makes 0700, and the banner says where', async () => {
    const dir = dataDir();
    const first = await mock(dir, [], { tty });
    const second = await mock(dir, [], { tty });
    expect([first.code, second.code]).toEqual([0, 0]);
    // The eight keys, and the test key again in the line to copy.
    const shown = (result: InProcessResult) => [...new Set(plain(result.stdout).match(FULL_KEY))];
    expect(shown(first)).toHaveLength(8);
    expect(shown(second)).toEqual(shown(first));
    expect(plain(first.stdout)).toContain(
      `Demo keys (kept in ${keyFile(dir)};\n--new-keys makes new ones; the mock itself keeps only their SHA-256 hashes):\n`,
    );
    expect(plain(first.stdout)).not.toContain('made for this run');
    // Nothing said on stderr but the stop: a file that is there and whole is simply read.
    expect(second.stderr).toBe('svc mock stopped\n');
    expect(mode(dir)).toBe(0o700);
    expect(mode(keyFile(dir))).toBe(0o600);
    const kept = JSON.parse(readFileSync(keyFile(dir), 'utf8')) as { keys: Started['keys'] };
    expect(kept.keys.map((k) => k.key)).toEqual(shown(first));
  });

  it('a saved key still opens the mock after a restart', async () => {
    const dir = dataDir();
    const first = await mock(dir, ['--json'], { tty });
    const key = startedOf(first).keys.find((k) => k.mode === 'test' && k.scope === 'FULL')!.key;
    let status = 0;
    const second = await mock(dir, ['--json'], {
      tty,
      whileRunning: async (stdout) =>
        void (status = await usageStatus(JSON.parse(stdout).url, key)),
    });
    expect(second.code).toBe(0);
    expect(status).toBe(200);
    expect(keysOf(second)).toEqual(keysOf(first));
  });

  it('--new-keys makes new ones, keeps them in place of the old, and says that the old ones no longer work (401)', async () => {
    const dir = dataDir();
    const old = keysOf(await mock(dir, ['--json'], { tty }));
    let statuses: number[] = [];
    const rotated = await mock(dir, ['--json', '--new-keys'], {
      tty,
      whileRunning: async (stdout) => {
        const started = JSON.parse(stdout.split('\n')[0]!) as Started;
        statuses = [
          await usageStatus(started.url, old[2]!),
          await usageStatus(started.url, started.keys[2]!.key),
        ];
      },
    });
    expect(rotated.code).toBe(0);
    expect(statuses).toEqual([401, 200]);
    const fresh = keysOf(rotated);
    expect(fresh).toHaveLength(8);
    for (const key of fresh) expect(old).not.toContain(key);
    expect(rotated.stderr.replace(/\n(?!$)/g, ' ')).toContain(
      `New demo keys in ${keyFile(dir)}: logins saved with the old ones no longer work against svc mock`,
    );
    expect(mode(keyFile(dir))).toBe(0o600);
    // And they are the ones kept from now on.
    expect(keysOf(await mock(dir, ['--json'], { tty }))).toEqual(fresh);
  });

  it('a damaged key file is replaced by new keys, said in one line on stderr, with no stack trace', async () => {
    for (const damaged of ['{"keys": [', '[1, 2]', '{"keys": "svc_sk_test_0"}', '']) {
      const dir = dataDir();
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(keyFile(dir), damaged, { mode: 0o600 });
      const result = await mock(dir, ['--json'], { tty, columns: 400 });
      expect(result.code, damaged).toBe(0);
      const warnings = result.stderr.split('\n').filter((line) => line.startsWith('warning:'));
      expect(warnings, damaged).toEqual([
        expect.stringMatching(
          new RegExp(
            `^warning: the mock key file ${keyFile(dir)} is damaged \\(.+\\); made new demo keys in its place$`,
          ),
        ),
      ]);
      expect(result.stderr).not.toMatch(STACK);
      expect(keysOf(result)).toHaveLength(8);
      expect(mode(keyFile(dir))).toBe(0o600);
      // Mended: the next start reads it without a word.
      const next = await mock(dir, ['--json'], { tty });
      expect(next.stderr).toBe('svc mock stopped\n');
      expect(keysOf(next)).toEqual(keysOf(result));
    }
  });

  it('keeps the keys of a file that no longer matches the organisations, makes the missing ones and drops the others, in one line', async () => {
    const dir = dataDir();
    const first = startedOf(await mock(dir, ['--json'], { tty }));
    // One organisation's live FULL key lost, and a key of an organisation the mock does not have.
    const [lost, ...rest] = first.keys;
    const gone = {
      ...rest[0]!,
      organization_id: 'org_0000000000000000',
      organization_name: 'Gone Ltd',
    };
    writeFileSync(keyFile(dir), JSON.stringify({ keys: [...rest, gone] }));
    const mended = await mock(dir, ['--json'], { tty, columns: 400 });
    expect(mended.code).toBe(0);
    expect(mended.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      `warning: the mock key file ${keyFile(dir)} did not match the mock's organisations: made 1 new demo key for what it lacked; left out 1 of organisations the mock no longer has; the other keys are kept`,
    ]);
    const keys = startedOf(mended).keys;
    expect(keys.slice(1)).toEqual(rest);
    expect(keys[0]).toMatchObject({
      organization_id: lost!.organization_id,
      mode: lost!.mode,
      scope: lost!.scope,
    });
    expect(keys[0]!.key).not.toBe(lost!.key);
    expect(readFileSync(keyFile(dir), 'utf8')).not.toContain('Gone Ltd');
  });
});

describe('a key file or data folder another user could change is refused (exit 2), as the config file is', () => {
  /**
   * One error line naming the path and nothing else, exit 2, no server started, nothing changed.
   */
  function expectRefusedAlone(result: InProcessResult, text: string): void {
    expectRefused(result, new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    expect(unwrapped(result.stderr).split('\n').filter(Boolean)).toEqual([
      expect.stringContaining(text),
    ]);
  }

  it('a data folder its group or everyone can write in', async () => {
    for (const open of [0o770, 0o775, 0o777, 0o1777]) {
      const dir = dataDir();
      mkdirSync(dir);
      chmodSync(dir, open);
      const result = await mock(dir, [], { columns: 400 });
      expectRefusedAlone(result, `refusing the data folder ${dir}: `);
      expect(result.stderr).toContain('SVC_DATA_DIR');
      expect(existsSync(keyFile(dir)), open.toString(8)).toBe(false);
      expect(mode(dir)).toBe(open);
    }
  });

  it('a key file its group or everyone can write: the file is left as it was, until --new-keys replaces it (the fix it names)', async () => {
    for (const open of [0o620, 0o602, 0o666]) {
      const dir = dataDir();
      await mock(dir);
      chmodSync(keyFile(dir), open);
      const before = readFileSync(keyFile(dir), 'utf8');
      const refused = await mock(dir, [], { columns: 400 });
      expectRefusedAlone(
        refused,
        `refusing the mock key file ${keyFile(dir)}: other users can change it (mode 0${open.toString(8)})`,
      );
      expect(refused.stderr).toContain('`svc mock --new-keys` to replace it');
      expect(readFileSync(keyFile(dir), 'utf8')).toBe(before);
      expect((await mock(dir, ['--new-keys'])).code).toBe(0);
      expect(mode(keyFile(dir))).toBe(0o600);
      expect(readFileSync(keyFile(dir), 'utf8')).not.toBe(before);
    }
  });

  it('a key file that is a symbolic link, with and without --new-keys: the link and its target left alone', async () => {
    const dir = dataDir();
    mkdirSync(dir, { mode: 0o700 });
    const target = join(dir, 'elsewhere.json');
    writeFileSync(target, '{"keys": []}', { mode: 0o600 });
    symlinkSync(target, keyFile(dir));
    for (const args of [[], ['--new-keys']]) {
      expectRefusedAlone(
        await mock(dir, args, { columns: 400 }),
        `the mock key file ${keyFile(dir)} is a symbolic link`,
      );
      expect(lstatSync(keyFile(dir)).isSymbolicLink()).toBe(true);
      expect(readlinkSync(keyFile(dir))).toBe(target);
      expect(readFileSync(target, 'utf8')).toBe('{"keys": []}');
    }
  });

  it.runIf(process.getuid?.() === 0)(
    'a key file or folder that belongs to another user',
    async () => {
      const dir = dataDir();
      await mock(dir);
      chownSync(keyFile(dir), 65534, 65534);
      expectRefusedAlone(
        await mock(dir, [], { columns: 400 }),
        `refusing the mock key file ${keyFile(dir)}: it belongs to another user (uid 65534)`,
      );
      chownSync(keyFile(dir), 0, 0);
      chownSync(dir, 65534, 65534);
      expectRefusedAlone(
        await mock(dir, [], { columns: 400 }),
        `refusing the data folder ${dir}: it belongs to another user (uid 65534)`,
      );
    },
  );

  it('warns once about a key file others can read, and goes on', async () => {
    const dir = dataDir();
    await mock(dir);
    chmodSync(keyFile(dir), 0o644);
    const result = await mock(dir, [], { columns: 400 });
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      `warning: other users can read svc mock's demo keys in ${keyFile(dir)} (mode 0644); run \`chmod 600 ${keyFile(dir)}\``,
    ]);
  });
});

describe('where svc mock keeps its keys', () => {
  it('is $XDG_DATA_HOME/svc, else ~/.local/share/svc, shown under ~ in the banner', async () => {
    const home = dataDir();
    mkdirSync(home, { mode: 0o700 });
    const result = await svc(['mock', '--port', '0', '--quiet'], {
      env: { HOME: home, SVC_DATA_DIR: undefined, XDG_DATA_HOME: undefined },
      signal: AbortSignal.timeout(1_000),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Demo keys (kept in ~/.local/share/svc/mock-keys.json;\n');
    expect(mode(join(home, '.local', 'share', 'svc', 'mock-keys.json'))).toBe(0o600);
    const xdg = join(home, 'xdg');
    await svc(['mock', '--port', '0', '--quiet'], {
      env: { HOME: home, SVC_DATA_DIR: undefined, XDG_DATA_HOME: xdg },
      signal: AbortSignal.timeout(1_000),
    });
    expect(existsSync(join(xdg, 'svc', 'mock-keys.json'))).toBe(true);
  });

  it('--help names the flag, the file and SVC_DATA_DIR', async () => {
    const help = await svc(['mock', '--help']);
    expect(help.stdout).toMatch(/^ {2}--new-keys +replace the demo keys kept in the data folder/m);
    expect(help.stdout).toContain('$ svc mock --new-keys');
    expect(help.stdout).toContain('mock-keys.json in SVC_DATA_DIR');
  });
});
