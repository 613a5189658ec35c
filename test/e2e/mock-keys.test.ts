// `svc mock` restarted as a person restarts it: a `svc login` saved against one start still works
// after a restart, until `svc mock --new-keys`; and mocks started at the same moment with no key
// file yet print the same keys (the others read what the first wrote). The rest of the key file
// (modes, refusals, damaged files) is tested in-process: test/commands/mock.test.ts.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { afterEach, describe, expect, it } from 'vitest';

import { freePort } from '../support/peers.js';
import { baseEnv, SVC, useWorld } from './harness.js';

const world = useWorld(); // for its temporary folders and svc runs

interface Started {
  url: string;
  keys: { key: string; mode: string; scope: string }[];
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** A real `svc mock --json` with its data folder in `dataDir`; resolves with its first line. */
async function startMock(
  dataDir: string,
  args: string[],
): Promise<{ child: ChildProcess; started: Started; stderr: () => string }> {
  const child = spawn(process.execPath, [SVC, 'mock', '--json', '--quiet', ...args], {
    env: { ...baseEnv(world.dir), SVC_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`svc mock exited ${code} before it printed a line: ${stderr}`)),
    );
  });
  return { child, started: JSON.parse(line) as Started, stderr: () => stderr };
}

/** Ctrl-C, and its exit code. */
async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  child.kill('SIGINT');
  return exited;
}

describe('svc mock restarted', () => {
  it('a login saved against one start still works after a restart, and no longer after --new-keys', async () => {
    const dataDir = join(world.tempDir('svc-e2e-data-'), 'svc');
    const configDir = join(world.tempDir('svc-e2e-config-'), 'svc');
    const port = String(await freePort());
    const client = (args: string[], input?: string) =>
      world.bare(args, { input, env: { SVC_CONFIG_DIR: configDir } });

    const first = await startMock(dataDir, ['--port', port]);
    const key = first.started.keys.find((k) => k.mode === 'test' && k.scope === 'FULL')!.key;
    const login = await client(['login', '--base-url', first.started.url, '--with-key'], key);
    expect(login.code, login.stderr).toBe(0);
    expect(await stop(first.child)).toBe(0);

    const second = await startMock(dataDir, ['--port', port]);
    expect(second.started.keys).toEqual(first.started.keys);
    const listed = await client(['reports', 'list', '--limit', '1', '--json']);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(await stop(second.child)).toBe(0);

    const third = await startMock(dataDir, ['--port', port, '--new-keys']);
    expect(third.stderr()).toContain('logins saved with the old ones no longer work');
    const refused = await client(['reports', 'list', '--limit', '1']);
    expect(refused.code).toBe(3);
    expect(await stop(third.child)).toBe(0);
  });

  it('mocks started at the same moment with no key file print the same keys', async () => {
    for (let round = 0; round < 3; round++) {
      const dataDir = join(world.tempDir('svc-e2e-data-'), 'svc');
      const mocks = await Promise.all(
        Array.from({ length: 4 }, () => startMock(dataDir, ['--port', '0'])),
      );
      const keys = mocks.map((mock) => mock.started.keys.map((k) => k.key));
      expect(new Set(keys[0]).size).toBe(8);
      for (const other of keys.slice(1)) expect(other).toEqual(keys[0]);
      for (const mock of mocks) expect(mock.stderr()).toBe('');
      expect(await Promise.all(mocks.map((mock) => stop(mock.child)))).toEqual([0, 0, 0, 0]);
    }
  });
});
