// The built svc run as a user with no home folder: a uid /etc/passwd does not list and no HOME, as
// in a container started with `--user 4242`. os.homedir() throws for such a user, at the launcher
// (the code cache) as in the program. Only root can start a process as another uid: elsewhere these
// tests are skipped (CI runs them as root).
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';

import { describe, expect, it } from 'vitest';

import { NO_HOME } from '../../src/config/paths.js';
import { unwrapped } from '../support/unwrapped.js';
import { collect, type Result, STACK_LINE, SVC, useWorld } from './harness.js';

const world = useWorld();

/** A uid and gid of no user the system knows. */
const NOBODY_KNOWN = 4242;
const unlisted = spawnSync('getent', ['passwd', String(NOBODY_KNOWN)]).status === 2;

/**
 * svc as that uid, with PATH and `env` alone: no HOME, no SVC_…_DIR, no CI (so the code cache is
 * tried).
 */
function homeless(args: string[], env: Record<string, string> = {}, input = ''): Promise<Result> {
  const child = spawn(process.execPath, [SVC, ...args], {
    env: { PATH: process.env.PATH ?? '', LANG: 'C.UTF-8', ...env },
    cwd: tmpdir(),
    uid: NOBODY_KNOWN,
    gid: NOBODY_KNOWN,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(input);
  return collect(child);
}

describe.runIf(process.getuid?.() === 0 && unlisted)('svc as a uid with no home folder', () => {
  it('the uid really has no home folder: Node itself cannot find one', () => {
    const probe = spawnSync(process.execPath, ['-e', 'require("node:os").homedir()'], {
      env: { PATH: process.env.PATH },
      uid: NOBODY_KNOWN,
      gid: NOBODY_KNOWN,
      encoding: 'utf8',
    });
    expect(probe.status).not.toBe(0);
    expect(probe.stderr).toContain('ENOENT');
  });

  it('a GET with SVC_API_KEY and SVC_BASE_URL runs: exit 0, the reply on stdout, nothing on stderr', async () => {
    const result = await homeless(['reports', 'list', '--limit', '1', '--json'], {
      SVC_API_KEY: world.key().key,
      SVC_BASE_URL: world.mock.url,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect((JSON.parse(result.stdout) as { data: unknown[] }).data).toHaveLength(1);
  });

  it('svc login, which keeps the config file: exit 2, one line naming SVC_CONFIG_DIR, SVC_CACHE_DIR and SVC_DATA_DIR, no request', async () => {
    const result = await homeless(
      ['login', '--base-url', world.mock.url, '--with-key'],
      {},
      `${world.key().key}\n`,
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(`error: ${NO_HOME}\n`);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(await world.requests()).toEqual([]);
  });

  it('with the three folders set, svc login saves the key there', async () => {
    const dir = world.tempDir('svc-no-home-');
    spawnSync('chown', [`${NOBODY_KNOWN}:${NOBODY_KNOWN}`, dir]);
    const folders = {
      SVC_CONFIG_DIR: `${dir}/config`,
      SVC_CACHE_DIR: `${dir}/cache`,
      SVC_DATA_DIR: `${dir}/data`,
    };
    const result = await homeless(
      ['login', '--base-url', world.mock.url, '--with-key'],
      folders,
      `${world.key().key}\n`,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/^error:/m);
  });
});
