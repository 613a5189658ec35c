// stdout on a full disk (`svc … > /dev/full`): one line on stderr, exit 1, no stack trace, on the
// launcher's short paths (--version, --help, a TAB's __complete) and in the program alike.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { baseEnv, ROOT, SVC, useWorld } from './harness.js';

const world = useWorld();

/**
 * svc with its stdout on /dev/full, where every write fails with ENOSPC: its stderr and exit code.
 */
async function intoFullDisk(
  args: string[],
  env: Record<string, string> = baseEnv(world.dir),
): Promise<{ stderr: string; code: number | null }> {
  const full = openSync('/dev/full', 'w');
  try {
    const child = spawn(process.execPath, [SVC, ...args], {
      env,
      cwd: ROOT,
      stdio: ['ignore', full, 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((resolve, reject) =>
      child.on('error', reject).on('close', resolve),
    );
    clearTimeout(killer);
    return { stderr, code };
  } finally {
    closeSync(full);
  }
}

describe('stdout on a full disk', () => {
  it.each([
    [['--version']],
    [['--help']],
    [['help']],
    [['reports', '--help']],
    [['completion', 'bash']],
    [['config', 'path']],
  ])('svc %j: one line, exit 1', async (args) => {
    const r = await intoFullDisk(args);
    expect(r.stderr).toBe('error: cannot write output: no space left on device\n');
    expect(r.code).toBe(1);
  });

  it('a completion asked for on a TAB: one line, exit 1', async () => {
    const env = baseEnv(world.tempDir('svc-full-'));
    mkdirSync(env.SVC_CONFIG_DIR!, { recursive: true });
    writeFileSync(
      join(env.SVC_CONFIG_DIR!, 'config.json'),
      JSON.stringify({ current_profile: 'default', profiles: { default: {} } }),
    );
    const r = await intoFullDisk(['__complete', 'profiles'], env);
    expect(r.stderr).toBe('error: cannot write output: no space left on device\n');
    expect(r.code).toBe(1);
  });

  it('a reply from the service: one line, exit 1', async () => {
    const r = await intoFullDisk(['reports', 'list', '--json'], {
      ...baseEnv(world.dir),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    });
    expect(r.stderr).toBe('error: cannot write output: no space left on device\n');
    expect(r.code).toBe(1);
  });
});
