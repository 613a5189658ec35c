// Ctrl-C, `kill` (SIGTERM) and a closed terminal (SIGHUP) stop `merchants resolve` alike: the
// results already received are written, the lookups not resolved are saved to --failed-out, and
// the exit code is the one a shell gives a process ended by that signal. And a reader of stderr
// or stdout that goes away (SIGPIPE's case, which Node turns into EPIPE) never changes the exit
// code of a failure svc is reporting.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { baseEnv, STACK_LINE, SVC, useWorld } from './harness.js';

const world = useWorld();
const RESOLVE = '/v1/merchants/resolve';

/** 2,500 distinct terminals: three calls of at most 1000. */
const LOOKUPS = Array.from({ length: 2500 }, (_, i) => String(4_000_000_000_000_000n + BigInt(i)));

async function resolveCalls(): Promise<number> {
  return (await world.requests()).filter((r) => r.method === 'POST' && r.path === RESOLVE).length;
}

describe.each([
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
] as const)('%s during merchants resolve', (signal, exitCode) => {
  it(`writes the results received, saves the rest to --failed-out, and exits ${exitCode}`, async () => {
    const dir = world.tempDir('svc-signals-');
    const input = join(dir, 'lookups.txt');
    const failedOut = join(dir, 'left.txt');
    writeFileSync(input, LOOKUPS.join('\n') + '\n');
    // The first call is answered at once, the second not before the signal.
    await world.fault(
      { method: 'POST', path: RESOLVE, delay_ms: 1 },
      { method: 'POST', path: RESOLVE, delay_ms: 20_000 },
    );
    const env = {
      ...baseEnv(world.dir),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    };
    const args = [
      'merchants',
      'resolve',
      '--file',
      input,
      '--concurrency',
      '1',
      '-o',
      'ndjson',
      '--failed-out',
      failedOut,
    ];
    const child = spawn(process.execPath, [SVC, ...args], {
      env,
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, sig) => resolve({ code, signal: sig })),
    );
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      // Bounded wait until the second call is under way (the first one's results are then written).
      for (let i = 0; i < 200 && (await resolveCalls()) < 2; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(await resolveCalls()).toBe(2);
      child.kill(signal);
      expect(await closed).toEqual({ code: exitCode, signal: null });
    } finally {
      clearTimeout(killer);
    }
    const written = stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { input: string }).input);
    expect(written).toEqual(LOOKUPS.slice(0, 1000));
    expect(readFileSync(failedOut, 'utf8').trimEnd().split('\n')).toEqual(LOOKUPS.slice(1000));
    expect(stderr).toContain(
      JSON.stringify({ unresolved: 1500, lookups: 2500, failed_out: failedOut }),
    );
    // -o ndjson is machine output: the failure is one JSON line too.
    expect(stderr).toContain('\n{"error_code":"INTERRUPTED","error_message":"interrupted"}\n');
    expect(stderr).not.toMatch(STACK_LINE);
  });
});

/** Runs `once` n times, `parallel` at a time. */
async function repeat<T>(n: number, parallel: number, once: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let done = 0; done < n; done += parallel)
    results.push(
      ...(await Promise.all(Array.from({ length: Math.min(parallel, n - done) }, once))),
    );
  return results;
}

interface Gone {
  /** The reader of stderr closes after the first line, or before svc writes anything. */
  stderr?: 'after-first-line' | 'at-once';
  /** The reader of stdout closes before svc writes anything. */
  stdout?: 'at-once';
}

/** svc ARGS with its readers going away as `gone` says: its exit code, and what stderr got. */
function withReadersGone(
  args: string[],
  gone: Gone,
): Promise<{ code: number | null; stderr: string }> {
  const env = { ...baseEnv(world.dir), SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key };
  const child = spawn(process.execPath, [SVC, ...args], {
    env,
    cwd: world.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  if (gone.stdout === 'at-once') child.stdout.destroy();
  else child.stdout.resume();
  if (gone.stderr === 'at-once') child.stderr.destroy();
  else {
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      if (gone.stderr === 'after-first-line' && stderr.includes('\n')) {
        stderr = stderr.slice(0, stderr.indexOf('\n') + 1);
        child.stderr.destroy();
      }
    });
  }
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, stderr });
    });
  });
}

describe("a reader gone while svc reports an error: the exit code is the error's, every time", () => {
  const NOT_FOUND = ['reports', 'get', 'rpt_x'];

  it('svc reports get rpt_x, stderr closed after its first line: exit 5 in each of 30 runs', async () => {
    const runs = await repeat(30, 6, () =>
      withReadersGone(NOT_FOUND, { stderr: 'after-first-line' }),
    );
    expect(runs.map((r) => r.code)).toEqual(runs.map(() => 5));
    for (const r of runs) expect(r.stderr).toMatch(/^error: REPORT_NOT_FOUND: /);
  }, 60_000);

  it('svc reports get rpt_x 2>&1 | head -1: exit 5 in each of 15 runs', async () => {
    const env = {
      ...baseEnv(world.dir),
      SVC_BASE_URL: world.mock.url,
      SVC_API_KEY: world.key().key,
    };
    const script = '"$0" "$@" 2>&1 | head -1 >/dev/null; echo "${PIPESTATUS[0]}"';
    const once = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn('bash', ['-c', script, process.execPath, SVC, ...NOT_FOUND], {
          env,
          cwd: world.dir,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
        child.on('error', reject).on('close', () => resolve(out.trim()));
      });
    expect(await repeat(15, 5, once)).toEqual(Array.from({ length: 15 }, () => '5'));
  }, 60_000);

  it('svc reports get rpt_x with no reader of stderr at all: exit 5 in each of 8 runs', async () => {
    const runs = await repeat(8, 4, () => withReadersGone(NOT_FOUND, { stderr: 'at-once' }));
    expect(runs.map((r) => r.code)).toEqual(runs.map(() => 5));
  }, 60_000);

  it('svc api GET of a missing report, no reader of its body on stdout: exit 5, not 0, in each of 8 runs', async () => {
    const runs = await repeat(8, 4, () =>
      withReadersGone(['api', 'GET', '/v1/reports/rpt_x'], { stdout: 'at-once' }),
    );
    expect(runs.map((r) => r.code)).toEqual(runs.map(() => 5));
    for (const r of runs) expect(r.stderr).not.toMatch(STACK_LINE);
  }, 60_000);

  it('svc api GET of a missing report, neither stdout nor stderr read: exit 5 in each of 8 runs', async () => {
    const runs = await repeat(8, 4, () =>
      withReadersGone(['api', 'GET', '/v1/reports/rpt_x'], {
        stdout: 'at-once',
        stderr: 'at-once',
      }),
    );
    expect(runs.map((r) => r.code)).toEqual(runs.map(() => 5));
  }, 60_000);
});
