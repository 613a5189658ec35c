// `svc ready FILE` in-process, as a person at a terminal and as a script, on state files written by
// hand and by the servers that keep them (`svc webhooks listen`, `svc mock` with --ready-file).
//
// The harness's waits take no time and move its clock on instead, so `result.waits` is how long
// svc ready waited. With `realWaits` the clock stands still: only a change of the file ends the
// wait, which is how the "appeared after the first read, believed at once" path is shown.
//
// svc ready takes a state for its run's only when its writer still runs (that pid, started when
// the state says) or when it was written since svc ready began (commands/ready/wait.ts). In-process
// svc ready begins at the harness's clock, NOW: a state dated NOW is new, one dated before is an
// earlier run's. A state whose writer runs names this test's process (RUNS); a writer that has
// exited, the pid of an exited child (DEAD); a pid given to another process since, this test's pid
// with another start.
//
// Every server run in-process has this test's pid, which still runs after the server failed: a
// failed state the listener wrote is given a dead pid before `svc ready` reads it, as it would
// have once a real server process exited.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { processStart, type ServerState } from '../../src/service/ready-file.js';
import {
  FakeService,
  type InProcessOptions,
  type InProcessResult,
  KEY,
  MODES,
  NOW,
  STACK,
  svc,
  unwrapped,
} from '../support/in-process.js';

const folder = mkdtempSync(join(tmpdir(), 'svc-ready-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
/** A fresh path in the test's folder, not yet written. */
const path = () => join(folder, `state-${++files}`);

/** Writes a state as a server would: the user's own file, mode 0600. */
function written(content: object | string, file = path()): string {
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content) + '\n');
  chmodSync(file, 0o600);
  return file;
}

const onDisk = (file: string): ServerState => JSON.parse(readFileSync(file, 'utf8')) as ServerState;

/** The id of a process that ran and has exited. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

let DEAD: number;
beforeAll(async () => {
  DEAD = await exitedPid();
});

/** This test's process, as a state names a writer that still runs. */
const RUNS = { pid: process.pid, pid_start: processStart(process.pid) };
/** Written as svc ready began (new), and a minute before (an earlier run's). */
const NEW = new Date(NOW).toISOString();
const OLD = new Date(NOW - 60_000).toISOString();

const total = (waits: number[]) => waits.reduce((sum, ms) => sum + ms, 0);
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `file` (real time) until `test` holds for what it says, up to `ms`. */
async function fileSays(
  file: string,
  test: (state: ServerState | undefined) => boolean,
  ms = 8000,
): Promise<ServerState | undefined> {
  const deadline = Date.now() + ms;
  for (;;) {
    let state: ServerState | undefined;
    try {
      state = onDisk(file);
    } catch {
      state = undefined; // not written yet, or gone
    }
    if (test(state)) return state;
    if (Date.now() > deadline)
      throw new Error(`${file} never got to the state awaited; last: ${JSON.stringify(state)}`);
    await delay(10);
  }
}

/** svc on a wide terminal: each stderr line is matched whole, not as the terminal wraps it. */
const run = (argv: string[], options: InProcessOptions = {}): Promise<InProcessResult> =>
  svc(argv, { columns: 400, ...options });
const ready = (file: string, args: string[] = [], options: InProcessOptions = {}) =>
  run(['ready', file, ...args], options);

const HINTS = ['Use one of the keys its banner lists.', 'Or run `svc login`.'];

describe.each(MODES)('svc ready, for $mode: each state of the file', ({ tty }) => {
  it('listening, its writer running, written before svc ready began (the server started first): the URL alone on stdout, nothing on stderr, exit 0, without waiting', async () => {
    const file = written({
      state: 'listening',
      command: 'svc mock',
      ...RUNS,
      written_at: OLD,
      url: 'http://127.0.0.1:4321',
    });
    const result = await ready(file, [], { tty });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('http://127.0.0.1:4321\n');
    expect(result.stderr).toBe('');
    expect(result.waits).toEqual([]);
  });

  it('listening with --json: the state, as pretty JSON', async () => {
    const state = {
      state: 'listening',
      command: 'svc webhooks listen',
      ...RUNS,
      written_at: NEW,
      url: 'http://127.0.0.1:4321',
    };
    const result = await ready(written(state), ['--json'], { tty });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(JSON.stringify(state, null, 2) + '\n');
    expect(JSON.parse(result.stdout)).toEqual(state);
    expect(result.stderr).toBe('');
  });

  it("failed with exit code 3, written as svc ready began (its pid gone): exit 3 at once, the server's error and hints on stderr, stdout empty", async () => {
    const file = written({
      state: 'failed',
      command: 'svc webhooks listen',
      pid: DEAD,
      written_at: NEW,
      exit_code: 3,
      error: 'svc mock at http://127.0.0.1:9 does not know the key in force',
      hints: HINTS,
    });
    const result = await ready(file, [], { tty });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      `error: svc webhooks listen (pid ${DEAD}) could not start: svc mock at http://127.0.0.1:9 does not know the key in force\n${HINTS.join('\n')}\n`,
    );
    expect(result.waits).toEqual([]);
  });

  for (const exitCode of [0, 256, 999, -3]) {
    it(`failed with exit_code ${exitCode}: exit 1, not the file's code`, async () => {
      const file = written({
        state: 'failed',
        command: 'svc mock',
        pid: DEAD,
        written_at: NEW,
        exit_code: exitCode,
        error: 'it broke',
        hints: [],
      });
      const result = await ready(file, [], { tty });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`error: svc mock (pid ${DEAD}) could not start: it broke\n`);
    });
  }

  it('starting, new, its writer gone: exit 1 at once, it stopped without saying why', async () => {
    const file = written({
      state: 'starting',
      command: 'svc webhooks listen',
      pid: DEAD,
      written_at: NEW,
    });
    const result = await ready(file, [], { tty });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      `error: svc webhooks listen (pid ${DEAD}) stopped before it listened, without saying why\nIt was killed, or crashed: its stderr may say more.\n`,
    );
    expect(result.waits).toEqual([]);
  });

  it('listening, new, its writer gone: exit 1, it no longer runs', async () => {
    const file = written({
      state: 'listening',
      command: 'svc mock',
      pid: DEAD,
      written_at: NEW,
      url: 'http://127.0.0.1:4321',
    });
    const result = await ready(file, [], { tty });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      `error: svc mock (pid ${DEAD}) listened at http://127.0.0.1:4321, but no longer runs\nIt was killed: its stderr may say more.\n`,
    );
  });

  it('no file with --wait 1: exit 9 after 1 s, naming the file as not written', async () => {
    const file = path();
    const result = await ready(file, ['--wait', '1'], { tty });
    expect(result.code, result.stderr).toBe(9);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      `error: nothing listened within 1 s: ${file} was not written\nWas the server started with --ready-file ${file}? Raise the bound with --wait SECONDS.\n`,
    );
    expect(total(result.waits)).toBeGreaterThanOrEqual(1000);
    expect(total(result.waits)).toBeLessThan(1100);
    expect(result.waits.every((ms) => ms === 50)).toBe(true);
  });

  it('starting, its writer running, and --wait 1: exit 9, still starting', async () => {
    const file = written({ state: 'starting', command: 'svc mock', ...RUNS, written_at: OLD });
    const result = await ready(file, ['--wait', '1'], { tty });
    expect(result.code, result.stderr).toBe(9);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: nothing listened within 1 s: svc mock (pid ${process.pid}) is still starting\nRaise the bound with --wait SECONDS.\n`,
    );
    expect(total(result.waits)).toBe(1000);
  });

  it('no --wait: the bound is 30 s', async () => {
    const result = await ready(path(), [], { tty });
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toMatch(/^error: nothing listened within 30 s: /);
    expect(total(result.waits)).toBe(30_000);
  });
});

/** svc ready's error at its bound for a file that holds only an earlier run's state. */
const earlierRun = (file: string, seconds: number, what: string) =>
  `error: nothing listened within ${seconds} s: ${file} holds only a state written before svc ready began (${what})\n` +
  "An earlier run's state is never taken for this run's: start svc ready along with the server, and give each run a new file (mktemp -d).\n";

describe.each(MODES)(
  "svc ready, for $mode: an earlier run's state is never taken for this run's",
  ({ tty }) => {
    it('listening, its writer gone: not "no longer runs" (exit 1), but waited past: exit 9 at the bound, stdout empty', async () => {
      const file = written({
        state: 'listening',
        command: 'svc mock',
        pid: DEAD,
        written_at: OLD,
        url: 'http://127.0.0.1:4321',
      });
      const result = await ready(file, ['--wait', '2'], { tty });
      expect(result.code, result.stderr).toBe(9);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toBe(
        earlierRun(
          file,
          2,
          `svc mock (pid ${DEAD}) listened at http://127.0.0.1:4321, but no longer runs`,
        ),
      );
      expect(total(result.waits)).toBe(2000);
    });

    it('listening, its pid given since to another process that runs (another start): its URL is never printed', async () => {
      const reused = { pid: process.pid, pid_start: String(Number(RUNS.pid_start) + 1) };
      const file = written({
        state: 'listening',
        command: 'svc mock',
        ...reused,
        written_at: OLD,
        url: 'http://127.0.0.1:4321',
      });
      const result = await ready(file, ['--wait', '2'], { tty });
      expect(result.code, result.stderr).toBe(9);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toBe(
        earlierRun(
          file,
          2,
          `svc mock (pid ${process.pid}) listened at http://127.0.0.1:4321, but no longer runs`,
        ),
      );
    });

    it('listening as an older svc wrote it (no start, no date), its pid running: not taken', async () => {
      const file = written({
        state: 'listening',
        command: 'svc mock',
        pid: process.pid,
        url: 'http://127.0.0.1:4321',
      });
      const result = await ready(file, ['--wait', '1'], { tty });
      expect(result.code, result.stderr).toBe(9);
      expect(result.stdout).toBe('');
    });

    it("failed, its writer gone: not the earlier run's exit code (2) but exit 9 at the bound, its error named", async () => {
      const file = written({
        state: 'failed',
        command: 'svc mock',
        pid: DEAD,
        written_at: OLD,
        exit_code: 2,
        error: 'port 4321 is in use',
        hints: [],
      });
      const result = await ready(file, ['--wait', '3'], { tty });
      expect(result.code, result.stderr).toBe(9);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toBe(
        earlierRun(file, 3, `svc mock (pid ${DEAD}) could not start: port 4321 is in use`),
      );
      expect(total(result.waits)).toBe(3000);
    });

    it('failed, its pid still running: not taken either', async () => {
      const file = written({
        state: 'failed',
        command: 'svc mock',
        ...RUNS,
        written_at: OLD,
        exit_code: 3,
        error: 'no key',
        hints: [],
      });
      const result = await ready(file, ['--wait', '1'], { tty });
      expect(result.code, result.stderr).toBe(9);
      expect(unwrapped(result.stderr)).toBe(
        earlierRun(file, 1, `svc mock (pid ${process.pid}) could not start: no key`),
      );
    });

    it('starting, its writer gone: waited past, exit 9 at the bound', async () => {
      const file = written({
        state: 'starting',
        command: 'svc webhooks listen',
        pid: DEAD,
        written_at: OLD,
      });
      const result = await ready(file, ['--wait', '1'], { tty });
      expect(result.code, result.stderr).toBe(9);
      expect(unwrapped(result.stderr)).toBe(
        earlierRun(
          file,
          1,
          `svc webhooks listen (pid ${DEAD}) stopped before it listened, without saying why`,
        ),
      );
    });
  },
);

describe.each(MODES)('svc ready, for $mode: files it refuses (exit 2)', ({ tty }) => {
  const listening = () => ({
    state: 'listening',
    command: 'svc mock',
    ...RUNS,
    written_at: NEW,
    url: 'http://127.0.0.1:4321',
  });

  it('a symbolic link to a listening state: refused, not followed', async () => {
    const link = path();
    symlinkSync(written(listening()), link);
    const result = await ready(link, [], { tty });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`error: cannot read ${link}: it is a symbolic link\n`);
  });

  it('a listening state others may write (mode 0666): refused', async () => {
    const file = written(listening());
    chmodSync(file, 0o666);
    const result = await ready(file, [], { tty });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      `error: cannot read ${file}: other users can write in ${file} (mode 0666)\n`,
    );
  });

  it('a listening state in a folder others may write (mode 0777, not sticky): refused, one line', async () => {
    const dir = mkdtempSync(join(folder, 'open-'));
    chmodSync(dir, 0o777);
    const file = written(listening(), join(dir, 'state'));
    const result = await ready(file, [], { tty });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      `error: cannot read ${file}: other users can write in ${dir} (mode 0777)\n`,
    );
  });

  it('a listening state in a sticky folder every user may write (1777, as /tmp): read', async () => {
    const dir = mkdtempSync(join(folder, 'sticky-'));
    chmodSync(dir, 0o1777);
    const result = await ready(written(listening(), join(dir, 'state')), [], { tty });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('http://127.0.0.1:4321\n');
  });

  it('garbage: refused at once, as no state file', async () => {
    const file = written('{"state":"listening","url":"http://127.0.0.1:4321"}');
    const result = await ready(file, [], { tty });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr)).toBe(
      `error: cannot read ${file}: ${file} is not a state file of svc mock or svc webhooks listen\n`,
    );
    expect(result.waits).toEqual([]);
  });

  for (const wait of ['0', 'x', '-1', '1.5', '86401']) {
    it(`--wait ${wait}: exit 2 before the file is read (a listening one is not printed)`, async () => {
      const result = await ready(written(listening()), ['--wait', wait], { tty });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toBe(
        `error: --wait takes a whole number from 1 to 86400, not "${wait}"`,
      );
      expect(result.stderr).not.toMatch(STACK);
      expect(result.waits).toEqual([]);
    });
  }
});

describe('svc ready, for a script: a failure with --json', () => {
  it("is one JSON line on stderr with the server's error, exit as the server's", async () => {
    const file = written({
      state: 'failed',
      command: 'svc mock',
      pid: DEAD,
      written_at: NEW,
      exit_code: 3,
      error: 'no key',
      hints: HINTS,
    });
    const result = await ready(file, ['--json']);
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stderr)).toEqual({
      error_code: 'AUTH',
      error_message: `svc mock (pid ${DEAD}) could not start: no key`,
      suggested_action: HINTS.join(' '),
    });
  });
});

describe("svc ready: a state written while it waits is this run's, believed at once", () => {
  /**
   * svc ready on `file` with a clock that stands still; `then` changes the file; what it printed
   * within 5 s.
   */
  async function whileWaiting(file: string, then: () => void): Promise<InProcessResult> {
    const stop = new AbortController();
    // The clock does not move with real waits: only the change of the file can end this wait.
    const waiting = ready(file, ['--wait', '5'], { realWaits: true, signal: stop.signal });
    try {
      await delay(200);
      then();
      const result = await Promise.race([waiting, delay(5000).then(() => undefined)]);
      expect(result, 'svc ready still waiting 5 s after the file changed').toBeDefined();
      return result!;
    } finally {
      stop.abort();
      await waiting.catch(() => {});
    }
  }

  it('svc ready before the server: the file is written while it waits (undated, as by hand): reported', async () => {
    const file = path();
    const result = await whileWaiting(file, () =>
      written(
        {
          state: 'failed',
          command: 'svc mock',
          pid: DEAD,
          exit_code: 3,
          error: 'no key',
          hints: [],
        },
        file,
      ),
    );
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toBe(`error: svc mock (pid ${DEAD}) could not start: no key\n`);
  });

  it('a starting server whose file is then removed (it ended without listening): exit 1 at once, not the whole --wait', async () => {
    const file = written({
      state: 'starting',
      command: 'svc webhooks listen',
      ...RUNS,
      written_at: NEW,
    });
    const result = await whileWaiting(file, () => rmSync(file));
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `error: svc webhooks listen (pid ${process.pid}) stopped before it could be used\nIts stderr says why.\n`,
    );
  });

  // DEAD is known once the tests run: each state is made then.
  for (const [what, earlier] of [
    [
      'failed, its pid gone',
      () => ({
        state: 'failed',
        command: 'svc mock',
        pid: DEAD,
        written_at: OLD,
        exit_code: 2,
        error: 'the earlier run',
        hints: [],
      }),
    ],
    [
      'listening, its pid gone',
      () => ({
        state: 'listening',
        command: 'svc mock',
        pid: DEAD,
        written_at: OLD,
        url: 'http://127.0.0.1:1',
      }),
    ],
    [
      'listening, its pid reused',
      () => ({
        state: 'listening',
        command: 'svc mock',
        pid: process.pid,
        pid_start: '1',
        written_at: OLD,
        url: 'http://127.0.0.1:1',
      }),
    ],
  ] as const) {
    it(`an earlier run's state (${what}), replaced by this run's listening: the new URL`, async () => {
      const file = written(earlier());
      const result = await whileWaiting(file, () =>
        written(
          {
            state: 'listening',
            command: 'svc mock',
            ...RUNS,
            written_at: NEW,
            url: 'http://127.0.0.1:4321',
          },
          file,
        ),
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('http://127.0.0.1:4321\n');
    });
  }
});

// A failed state is what the server writes just before it exits; its pid may still run for a
// moment, or (reused) for ever, or (svc run in-process by a longer-lived program) not end at all.
describe('svc ready: a new failed state whose pid still runs', () => {
  it('is reported with its own exit code and error, not as still starting (exit 9)', async () => {
    const file = written({
      state: 'failed',
      command: 'svc mock',
      ...RUNS,
      written_at: NEW,
      exit_code: 3,
      error: 'no key',
      hints: [],
    });
    const result = await ready(file, ['--wait', '5']);
    expect(result.stderr).not.toContain('still starting');
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toBe(`error: svc mock (pid ${process.pid}) could not start: no key\n`);
  });
});

const BASE = 'http://127.0.0.1:9';
const ENDPOINTS = '/_mock/webhooks/endpoints';
const UNKNOWN_KEY = { error_code: 'INVALID_API_KEY', error_message: 'Unknown API key' };
const MARK = { 'X-Svc-Mock': '1' };
const listenArgs = (file: string) => [
  'webhooks',
  'listen',
  '--port',
  '0',
  '--exit-after',
  '1',
  '--wait',
  '1',
  '--ready-file',
  file,
];
/** Loopback, so listen registers; no secret, so it must agree one with svc mock. */
const loopback = { SVC_BASE_URL: BASE, SVC_WEBHOOK_SECRET: undefined };

/**
 * Gives the failed state a dead pid, as the listener's own exit would (in-process its pid is this
 * test's).
 */
function asIfExited(file: string): void {
  written({ ...onDisk(file), pid: DEAD }, file);
}

describe.each(MODES)('svc webhooks listen --ready-file, for $mode', ({ tty }) => {
  it('a 401 "Unknown API key" without X-Svc-Mock (not svc mock): exit 2 naming --secret and SVC_WEBHOOK_SECRET, the key not blamed; F failed with 2', async () => {
    const file = path();
    const service = new FakeService().expect('POST', ENDPOINTS, { status: 401, body: UNKNOWN_KEY });
    const result = await run(listenArgs(file), { tty, service, env: loopback });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    const lines = unwrapped(result.stderr).trimEnd().split('\n');
    expect(lines[0]).toBe('error: no signing secret: pass --secret or set SVC_WEBHOOK_SECRET');
    expect(lines[1]).toBe(
      `${BASE} is not svc mock, the only service that agrees a signing secret with a listener.`,
    );
    expect(result.stderr).toContain('SVC_WEBHOOK_SECRET (or --secret)');
    expect(result.stderr).not.toContain('Unknown API key');
    expect(result.stderr).not.toMatch(
      /INVALID_API_KEY|does not know the key|key in force|api key/i,
    );
    expect(result.requests).toHaveLength(1);
    expect(result.requests[0]!.url.origin).toBe(BASE);
    expect(result.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

    const state = onDisk(file);
    expect(state).toMatchObject({
      state: 'failed',
      command: 'svc webhooks listen',
      pid: process.pid,
      exit_code: 2,
      error: 'no signing secret: pass --secret or set SVC_WEBHOOK_SECRET',
    });
    expect(state.state === 'failed' && state.hints).toEqual(lines.slice(1));
  });

  it('the same 401 with X-Svc-Mock: 1 (svc mock refusing the key): exit 3; F failed with 3; svc ready F then exits 3 with the same error', async () => {
    const file = path();
    const service = new FakeService().expect('POST', ENDPOINTS, {
      status: 401,
      body: UNKNOWN_KEY,
      headers: MARK,
    });
    const result = await run(listenArgs(file), { tty, service, env: loopback });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stdout).toBe('');
    const lines = unwrapped(result.stderr).trimEnd().split('\n');
    expect(lines[0]).toBe(`error: svc mock at ${BASE} does not know the key in force`);
    expect(result.stderr).not.toContain('no signing secret');

    const state = onDisk(file);
    expect(state).toMatchObject({
      state: 'failed',
      command: 'svc webhooks listen',
      exit_code: 3,
      error: `svc mock at ${BASE} does not know the key in force`,
    });
    expect(state.state === 'failed' && state.hints).toEqual(lines.slice(1));

    // In-process the listener's pid is this test's, still running: give the state the pid of an
    // exited process. It was written at the harness's NOW, when svc ready begins: new, so believed
    // at once.
    asIfExited(file);
    const waited = await ready(file, [], { tty });
    expect(waited.code, waited.stderr).toBe(3);
    expect(waited.stdout).toBe('');
    expect(unwrapped(waited.stderr)).toBe(
      `error: svc webhooks listen (pid ${DEAD}) could not start: svc mock at ${BASE} does not know the key in force\n${lines.slice(1).join('\n')}\n`,
    );
    expect(waited.waits).toEqual([]);
  });

  it('svc mock unreachable (ECONNREFUSED): exit 9; F failed with 9', async () => {
    const file = path();
    const service = new FakeService().expect('POST', ENDPOINTS, () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    });
    const result = await run(listenArgs(file), { tty, service, env: loopback });
    expect(result.code, result.stderr).toBe(9);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr).split('\n')[0]).toBe(
      `error: cannot reach svc mock at ${BASE} to agree a signing secret: ECONNREFUSED`,
    );
    expect(onDisk(file)).toMatchObject({
      state: 'failed',
      exit_code: 9,
      error: `cannot reach svc mock at ${BASE} to agree a signing secret: ECONNREFUSED`,
    });
  });

  it('registered with svc mock: F says listening at the receiver while it waits; after --wait (exit 9) it unregisters and F is removed', async () => {
    const file = path();
    let registeredUrl: unknown;
    const service = new FakeService()
      .expect('POST', ENDPOINTS, (request) => {
        registeredUrl = (request.json as { url?: unknown }).url;
        return {
          status: 201,
          headers: MARK,
          body: { id: 'we_0123456789abcdef', url: registeredUrl, secret: 'whsec_0123456789abcdef' },
        };
      })
      .expect('DELETE', `${ENDPOINTS}/we_0123456789abcdef`, {
        status: 200,
        headers: MARK,
        body: { id: 'we_0123456789abcdef', url: 'x', deleted: true },
      });
    const listening = run(listenArgs(file), { tty, service, env: loopback, realWaits: true });
    const state = await fileSays(file, (s) => s?.state === 'listening');
    expect(state).toMatchObject({
      state: 'listening',
      command: 'svc webhooks listen',
      pid: process.pid,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    const url = (state as { url: string }).url;
    expect(registeredUrl).toBe(`${url}/`);
    // It is the receiver's address: an unsigned delivery there is answered (and refused).
    const answer = await fetch(`${url}/hooks`, { method: 'POST', body: '{}' });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    // And svc ready, meanwhile, prints that address.
    const waited = await ready(file, [], { tty });
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toBe(`${url}\n`);

    const result = await listening;
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).toContain(`Listening for webhook deliveries on ${url}`);
    expect(result.stderr).toContain(`Registered with svc mock at ${BASE} as we_0123456789abcdef`);
    expect(result.stderr).toMatch(/^error: got 0 of 1 event within 1 s$/m);
    expect(result.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${ENDPOINTS}`,
      `DELETE ${ENDPOINTS}/we_0123456789abcdef`,
    ]);
    expect(existsSync(file)).toBe(false);
  });

  it('with SVC_WEBHOOK_SECRET and the non-mock 401: a plain listener, no word of svc mock; F listening, then removed', async () => {
    const file = path();
    const service = new FakeService().expect('POST', ENDPOINTS, { status: 401, body: UNKNOWN_KEY });
    const listening = run(listenArgs(file), {
      tty,
      service,
      env: { SVC_BASE_URL: BASE, SVC_WEBHOOK_SECRET: 'whsec_plain_listener_secret' },
      realWaits: true,
    });
    const state = await fileSays(file, (s) => s?.state === 'listening');
    expect(state).toMatchObject({
      state: 'listening',
      command: 'svc webhooks listen',
      pid: process.pid,
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    const result = await listening;
    expect(result.code, result.stderr).toBe(9);
    expect(result.stderr).not.toMatch(/svc mock|warning/);
    expect(result.stderr).not.toContain('Unknown API key');
    expect(result.stderr).toContain(
      `Listening for webhook deliveries on ${(state as { url: string }).url}`,
    );
    expect(existsSync(file)).toBe(false);
  });

  it('a --ready-file holding a file of another kind: exit 2 before anything is sent; the file left as it was', async () => {
    const file = written('[core]\n\teditor = vim\n');
    const result = await run(listenArgs(file), { tty, env: loopback });
    expect(result.code, result.stderr).toBe(2);
    expect(result.requests).toEqual([]);
    expect(unwrapped(result.stderr).split('\n')[0]).toBe(
      `error: refusing --ready-file ${file}: ${file} is not a state file of svc mock or svc webhooks listen`,
    );
    expect(readFileSync(file, 'utf8')).toBe('[core]\n\teditor = vim\n');
  });

  it('a bad flag: F failed with 2 before anything is sent', async () => {
    const file = path();
    const result = await run(
      ['webhooks', 'listen', '--port', '70000', '--exit-after', '1', '--ready-file', file],
      { tty, env: loopback },
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.requests).toEqual([]);
    expect(onDisk(file)).toMatchObject({
      state: 'failed',
      exit_code: 2,
      error: '--port takes a whole number from 0 to 65535, not "70000"',
    });
  });
});

describe.each(MODES)('svc mock --ready-file, for $mode', ({ tty }) => {
  it("F says listening at the mock's address while it runs; svc ready prints it; removed once stopped", async () => {
    const file = path();
    const stop = new AbortController();
    const serving = run(['mock', '--port', '0', '--quiet', '--ready-file', file], {
      tty,
      signal: stop.signal,
    });
    try {
      const state = await fileSays(file, (s) => s?.state === 'listening');
      expect(state).toMatchObject({
        state: 'listening',
        command: 'svc mock',
        pid: process.pid,
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      });
      const url = (state as { url: string }).url;
      const waited = await ready(file, [], { tty });
      expect(waited.code, waited.stderr).toBe(0);
      expect(waited.stdout).toBe(`${url}\n`);
      // It is the mock: it answers a key it does not know with 401.
      expect(
        (
          await fetch(`${url}/v1/usage`, {
            headers: { Authorization: 'Bearer svc_sk_test_not_a_key_of_the_mock' },
          })
        ).status,
      ).toBe(401);
    } finally {
      stop.abort();
    }
    const result = await serving;
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('--fault list, which ends without serving: exit 0, and F (written as starting) is removed', async () => {
    const file = path();
    let whilePrinting: unknown;
    const result = await run(['mock', '--fault', 'list', '--ready-file', file], {
      tty,
      onStdout: () => (whilePrinting ??= onDisk(file)),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toBe('');
    expect(whilePrinting).toEqual({
      state: 'starting',
      command: 'svc mock',
      ...RUNS,
      written_at: NEW,
    });
    expect(existsSync(file)).toBe(false);
  });

  it('a --ready-file in a folder that does not exist: exit 2 before it serves, naming the file', async () => {
    const file = join(folder, 'no-such-folder', 'state');
    const result = await run(['mock', '--port', '0', '--quiet', '--ready-file', file], { tty });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(unwrapped(result.stderr).split('\n')[0]).toBe(
      `error: cannot write --ready-file ${file}: no such file`,
    );
    expect(result.stderr).not.toMatch(STACK);
  });

  /** A path that holds something other than a state file, and how the refusal names it. */
  const notStateFiles: [string, () => { file: string; reason: string }][] = [
    [
      'a file of the user of another kind (a shell start-up file)',
      () => {
        const file = written('export PATH="$HOME/bin:$PATH"\n');
        return { file, reason: `${file} is not a state file of svc mock or svc webhooks listen` };
      },
    ],
    [
      'JSON of another shape',
      () => {
        const file = written({ name: 'my-app', version: '1.0.0' });
        return { file, reason: `${file} is not a state file of svc mock or svc webhooks listen` };
      },
    ],
    [
      'a folder',
      () => {
        const file = mkdtempSync(join(folder, 'target-'));
        return { file, reason: `${file} is not a regular file` };
      },
    ],
    [
      'a symbolic link to a state file',
      () => {
        const file = path();
        symlinkSync(
          written({ state: 'starting', command: 'svc mock', pid: DEAD, written_at: OLD }),
          file,
        );
        return { file, reason: 'it is a symbolic link' };
      },
    ],
    [
      'a state file in a folder others may write (0777)',
      () => {
        const dir = mkdtempSync(join(folder, 'open-'));
        chmodSync(dir, 0o777);
        return {
          file: written(
            { state: 'starting', command: 'svc mock', pid: DEAD, written_at: OLD },
            join(dir, 'state'),
          ),
          reason: `other users can write in ${dir} (mode 0777)`,
        };
      },
    ],
  ];

  for (const [what, made] of notStateFiles) {
    it(`a --ready-file that is ${what}: exit 2 in one error line before it serves; the path is left as it was, during and after`, async () => {
      const { file, reason } = made();
      const before = lstatSync(file);
      const content = before.isFile() ? readFileSync(file, 'utf8') : undefined;
      const result = await run(['mock', '--port', '0', '--quiet', '--ready-file', file], { tty });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      const lines = unwrapped(result.stderr).trimEnd().split('\n');
      expect(lines[0]).toBe(`error: refusing --ready-file ${file}: ${reason}`);
      expect(lines.filter((line) => line.startsWith('error:'))).toHaveLength(1);
      expect(result.stderr).toContain('mktemp -d');
      expect(result.stderr).not.toMatch(STACK);
      const after = lstatSync(file);
      expect([after.ino, after.mode, after.size]).toEqual([before.ino, before.mode, before.size]);
      if (content !== undefined) expect(readFileSync(file, 'utf8')).toBe(content);
    });
  }

  it('a port held busy: exit 2, and F failed with 2 naming the port', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const file = path();
      const result = await run(['mock', '--port', String(port), '--quiet', '--ready-file', file], {
        tty,
      });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr).split('\n')[0]).toBe(
        `error: port ${port} is in use; pick another with --port, or --port 0 for a free one`,
      );
      expect(onDisk(file)).toMatchObject({
        state: 'failed',
        command: 'svc mock',
        exit_code: 2,
        error: `port ${port} is in use; pick another with --port, or --port 0 for a free one`,
      });
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });
});
