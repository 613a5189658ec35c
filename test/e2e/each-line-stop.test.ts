// Ctrl-C while `merchants resolve --each-line` writes its records, every lookup resolved and paid
// for: the built svc, against svc mock, its stdout a pipe read slowly. The records of the lines
// resolved are still written for the grace period a stopping svc has (5 s), or at once cut short
// by a second Ctrl-C; whatever was not written is kept in a file of svc's data folder, named on
// stderr, from which the same command with --resume writes every record without calling the
// service. And Ctrl-C while calls are in flight: the results of those done are kept the same way.
import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';

import { describe, expect, it } from 'vitest';

import { baseEnv, STACK_LINE, SVC, useWorld } from './harness.js';

const world = useWorld();
const RESOLVE = '/v1/merchants/resolve';

/** 100,000 lines: 20,000 distinct terminals, each on five lines spread over the file. */
const LINES = Array.from({ length: 100_000 }, (_, i) =>
  String(4_000_000_000_000_000n + BigInt((i * 7919) % 20_000)),
);
/** 2,500 distinct terminals on 2,500 lines: three calls. */
const FEW = Array.from({ length: 2500 }, (_, i) => String(4_100_000_000_000_000n + BigInt(i)));

interface Stopped {
  code: number | null;
  stdout: string;
  stderr: string;
  /** From the (first) signal to svc's end. */
  ms: number;
}

/**
 * Runs svc with its stdout read `slowly` (a pipe's worth, then a pause of 200 ms) or at once, sends
 * SIGINT when `when` holds (and a second one `againAfterMs` later), and reads what is left in the
 * pipe once svc ended.
 */
async function interrupted(
  args: string[],
  options: { slowly: boolean; when: (stdout: string) => Promise<boolean>; againAfterMs?: number },
): Promise<Stopped> {
  const env = { ...baseEnv(world.dir), SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key };
  const child = spawn(process.execPath, [SVC, ...args], {
    env,
    cwd: world.dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let slowly = options.slowly;
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    if (!slowly) return;
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), 200);
  });
  const read = finished(child.stdout);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    for (let i = 0; i < 600 && !(await options.when(stdout)); i++)
      await new Promise((r) => setTimeout(r, 50));
    const signalled = Date.now();
    child.kill('SIGINT');
    if (options.againAfterMs !== undefined)
      setTimeout(() => child.kill('SIGINT'), options.againAfterMs);
    const code = await exited;
    const ms = Date.now() - signalled;
    // What svc wrote into the pipe before it ended is still there to read.
    slowly = false;
    child.stdout.resume();
    await read;
    return { code, stdout, stderr, ms };
  } finally {
    clearTimeout(killer);
  }
}

/** svc to its end, stdout read at once. */
async function svcRun(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return world.svc(args, { timeoutMs: 60_000 });
}

async function resolveCalls(): Promise<number> {
  return (await world.requests()).filter((r) => r.method === 'POST' && r.path === RESOLVE).length;
}

/**
 * The `line` of each whole record on stdout (NDJSON), in order; a record cut at the end is left
 * out.
 */
function linesWritten(stdout: string): number[] {
  return stdout
    .split('\n')
    .slice(0, -1)
    .map((line) => (JSON.parse(line) as { line: number }).line);
}

const stopLine = (stderr: string) => {
  const line = stderr.split('\n').find((l) => l.startsWith('{"calls_resolved"'));
  expect(line, stderr).toBeDefined();
  return JSON.parse(line!) as {
    calls_resolved: number;
    calls: number;
    all_written: boolean;
    written_through_line: number;
    kept: string | null;
  };
};

/**
 * The kept file is svc's own, in its data folder; the same command with --resume writes every
 * record, and no call is made for them.
 */
async function expectResumable(
  kept: string,
  args: string[],
  expected: string,
  calls: number,
): Promise<void> {
  expect(kept.startsWith(join(world.dir, 'data', 'merchants') + '/')).toBe(true);
  expect(statSync(kept).mode & 0o777).toBe(0o600);
  await world.reset();
  const again = await svcRun([...args, '--resume', kept]);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout === expected, 'the resumed output is the whole output').toBe(true);
  expect(await resolveCalls()).toBe(calls);
  expect(existsSync(kept)).toBe(false);
}

describe('Ctrl-C while merchants resolve --each-line writes its records', () => {
  it('100,000 lines into a slow pipe: svc ends within its grace period; the records of lines 1 to N are on stdout, every result kept, and --resume writes them all without a call', async () => {
    const input = join(world.tempDir('svc-each-line-'), 'lookups.txt');
    writeFileSync(input, LINES.join('\n') + '\n');
    const args = ['merchants', 'resolve', '--file', input, '--each-line', '-o', 'ndjson'];
    const whole = await svcRun(args);
    expect(whole.code, whole.stderr).toBe(0);
    await world.reset();
    // The records come once every call is done: the first one on stdout means all are resolved.
    const run = await interrupted(args, {
      slowly: true,
      when: async (stdout) => stdout.length > 0,
    });
    expect(run.code, run.stderr).toBe(130);
    expect(run.ms).toBeGreaterThan(4_000);
    expect(run.ms).toBeLessThan(8_000);
    expect(await resolveCalls()).toBe(20);
    const stop = stopLine(run.stderr);
    expect(stop).toMatchObject({ calls_resolved: 20, calls: 20, all_written: false });
    // Every line up to the one named has its record, whole; the pipe was too slow for the rest.
    const written = linesWritten(run.stdout);
    expect(stop.written_through_line).toBeGreaterThan(0);
    expect(stop.written_through_line).toBeLessThan(100_000);
    expect(written.slice(0, stop.written_through_line)).toEqual(
      Array.from({ length: stop.written_through_line }, (_, i) => i + 1),
    );
    expect(run.stderr).not.toMatch(STACK_LINE);
    await expectResumable(stop.kept!, args, whole.stdout, 0);
  }, 120_000);

  it('a second Ctrl-C ends svc at once, still saying up to which line the records were written and where the results are kept', async () => {
    const input = join(world.tempDir('svc-each-line-'), 'lookups.txt');
    writeFileSync(input, LINES.join('\n') + '\n');
    const args = ['merchants', 'resolve', '--file', input, '--each-line', '-o', 'ndjson'];
    const run = await interrupted(args, {
      slowly: true,
      when: async (stdout) => stdout.length > 0,
      againAfterMs: 300,
    });
    expect(run.code, run.stderr).toBe(130);
    expect(run.ms).toBeLessThan(2_000);
    const stop = stopLine(run.stderr);
    expect(stop).toMatchObject({ calls_resolved: 20, calls: 20, all_written: false });
    const written = linesWritten(run.stdout);
    expect(written.slice(0, stop.written_through_line)).toEqual(
      Array.from({ length: stop.written_through_line }, (_, i) => i + 1),
    );
    expect(existsSync(stop.kept!)).toBe(true);
  }, 60_000);

  it('Ctrl-C while calls are in flight: the records of the lines resolved, n of m calls said, their results kept; --resume sends only the rest', async () => {
    const input = join(world.tempDir('svc-each-line-'), 'few.txt');
    writeFileSync(input, FEW.join('\n') + '\n');
    const args = [
      'merchants',
      'resolve',
      '--file',
      input,
      '--each-line',
      '--concurrency',
      '1',
      '-o',
      'ndjson',
      '--failed-out',
      join(world.tempDir('svc-each-line-'), 'left.txt'),
    ];
    const whole = await svcRun(args);
    expect(whole.code, whole.stderr).toBe(0);
    await world.reset();
    // The first call is answered at once, the second not before the signal.
    await world.fault(
      { method: 'POST', path: RESOLVE, delay_ms: 1 },
      { method: 'POST', path: RESOLVE, delay_ms: 20_000 },
    );
    const run = await interrupted(args, {
      slowly: false,
      when: async () => (await resolveCalls()) >= 2,
    });
    expect(run.code, run.stderr).toBe(130);
    expect(linesWritten(run.stdout)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    const stop = stopLine(run.stderr);
    expect(stop).toMatchObject({
      calls_resolved: 1,
      calls: 3,
      all_written: true,
      written_through_line: 2500,
    });
    await expectResumable(stop.kept!, args, whole.stdout, 2);
  }, 60_000);
});
