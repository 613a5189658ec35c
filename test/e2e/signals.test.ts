// Ctrl-C, `kill` (SIGTERM) and a closed terminal (SIGHUP) stop `merchants resolve` alike: the
// results already received are written, the lookups not resolved are saved to --failed-out, and
// the exit code is the one a shell gives a process ended by that signal.
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
    await world.fault({ method: 'POST', path: RESOLVE, delay_ms: 1 }, { method: 'POST', path: RESOLVE, delay_ms: 20_000 });
    const env = { ...baseEnv(world.dir), SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key };
    const args = ['merchants', 'resolve', '--file', input, '--concurrency', '1', '-o', 'ndjson', '--failed-out', failedOut];
    const child = spawn(process.execPath, [SVC, ...args], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, sig) => resolve({ code, signal: sig })));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      // Bounded wait until the second call is under way (the first one's results are then written).
      for (let i = 0; i < 200 && (await resolveCalls()) < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await resolveCalls()).toBe(2);
      child.kill(signal);
      expect(await closed).toEqual({ code: exitCode, signal: null });
    } finally {
      clearTimeout(killer);
    }
    const written = stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { input: string }).input);
    expect(written).toEqual(LOOKUPS.slice(0, 1000));
    expect(readFileSync(failedOut, 'utf8').trimEnd().split('\n')).toEqual(LOOKUPS.slice(1000));
    expect(stderr).toContain(JSON.stringify({ unresolved: 1500, lookups: 2500, failed_out: failedOut }));
    expect(stderr).toMatch(/^error: interrupted$/m);
    expect(stderr).not.toMatch(STACK_LINE);
  });
});
