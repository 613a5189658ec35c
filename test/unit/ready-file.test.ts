// The state file of a server run with --ready-file (src/service/ready-file.ts), on real folders:
// what each step writes, what it leaves alone, and what a reader refuses (a link, a pipe, a file
// others may write, one too large or of another shape) without following or blocking.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  chmodSync,
  chownSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { afterAll, describe, expect, it } from 'vitest';

import { CliError, EXIT, UsageError } from '../../src/core/errors.js';
import {
  keepingState,
  processStart,
  readReadyFile,
  ReadyFile,
  type ServerState,
  writerRuns,
} from '../../src/service/ready-file.js';

const folder = mkdtempSync(join(tmpdir(), 'svc-ready-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let files = 0;
/** A fresh path in the test's folder, not yet written. */
const path = () => join(folder, `state-${++files}`);

/** Writes `content` as svc would be given it: the user's own file, mode 0600. */
function written(content: string | object, file = path()): string {
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  chmodSync(file, 0o600);
  return file;
}

/** What the file holds, parsed as it is on disk (not through readReadyFile). */
const onDisk = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

/** The id of a process that ran and has ended. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

/** The clock the states are dated by, and their date as written. */
const T = Date.parse('2026-05-22T10:00:00Z');
const clock = () => T;
const AT = new Date(T).toISOString();
/** This process as a state names its writer. */
const ME = { pid: process.pid, pid_start: processStart(process.pid) };

/** A secret a command must not write down, and a masker that hides it. */
const SECRET = 'svc_sk_test_aabbccddeeff00112233445566778899';
const masked = (text: string) => text.replaceAll(SECRET, '***');

describe('ReadyFile: the states a server writes', () => {
  it('start writes the starting state with this process id, mode 0600, and readReadyFile reads it back', () => {
    const file = path();
    ReadyFile.start(file, 'svc mock', clock);
    expect(onDisk(file)).toEqual({ state: 'starting', command: 'svc mock', ...ME, written_at: AT });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readReadyFile(file)).toEqual({
      kind: 'state',
      state: { state: 'starting', command: 'svc mock', ...ME, written_at: AT },
    });
  });

  it('listeningAt writes the listening state with the URL', () => {
    const file = path();
    ReadyFile.start(file, 'svc webhooks listen', clock).listeningAt('http://127.0.0.1:4242');
    const state: ServerState = {
      state: 'listening',
      command: 'svc webhooks listen',
      ...ME,
      written_at: AT,
      url: 'http://127.0.0.1:4242',
    };
    expect(onDisk(file)).toEqual(state);
    expect(readReadyFile(file)).toEqual({ kind: 'state', state });
  });

  it('failed before listening writes the exit code, the error and the hints', () => {
    const file = path();
    ReadyFile.start(file, 'svc mock', clock).failed(2, 'port 80 is in use', [
      'pick another with --port',
    ]);
    const state: ServerState = {
      state: 'failed',
      command: 'svc mock',
      ...ME,
      written_at: AT,
      exit_code: 2,
      error: 'port 80 is in use',
      hints: ['pick another with --port'],
    };
    expect(onDisk(file)).toEqual(state);
    expect(readReadyFile(file)).toEqual({ kind: 'state', state });
  });

  it('start replaces a file an earlier run left: its failed state no longer speaks for this run', () => {
    const file = written({
      state: 'failed',
      command: 'svc mock',
      pid: 1,
      exit_code: 3,
      error: 'earlier run',
      hints: [],
    });
    ReadyFile.start(file, 'svc mock', clock);
    expect(onDisk(file)).toEqual({ state: 'starting', command: 'svc mock', ...ME, written_at: AT });
  });

  it('each write replaces the file in one step and leaves no temporary file beside it', () => {
    const own = mkdtempSync(join(folder, 'steps-'));
    const file = join(own, 'state');
    const ready = ReadyFile.start(file, 'svc mock', clock);
    ready.listeningAt('http://127.0.0.1:1');
    expect(readdirSync(own)).toEqual(['state']);
  });

  it('start in a folder that does not exist: a UsageError (exit 2) naming the file, and nothing written', () => {
    const file = join(folder, 'no-such-folder', 'state');
    let thrown: unknown;
    try {
      ReadyFile.start(file, 'svc mock', clock);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).exitCode).toBe(EXIT.usage);
    expect((thrown as UsageError).exitCode).toBe(2);
    expect((thrown as Error).message).toBe(`cannot write --ready-file ${file}: no such file`);
    expect((thrown as UsageError).hints.join('\n')).toContain('mktemp -d');
    expect(existsSync(join(folder, 'no-such-folder'))).toBe(false);
  });

  it('failed once listening writes no failed state (it did start): the file is removed, as when it stops', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock', clock);
    ready.listeningAt('http://127.0.0.1:4242');
    ready.failed(9, 'lost the port', []);
    expect(existsSync(file)).toBe(false);
  });

  it('failed once listening leaves a file another run has written since', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock', clock);
    ready.listeningAt('http://127.0.0.1:4242');
    const theirs = { state: 'starting', command: 'svc mock', pid: process.pid + 1 };
    written(theirs, file);
    ready.failed(9, 'lost the port', []);
    expect(onDisk(file)).toEqual(theirs);
  });

  it("failed whose write fails (the folder went away) does not throw: the server's own error comes first", () => {
    const own = mkdtempSync(join(folder, 'gone-'));
    const ready = ReadyFile.start(join(own, 'state'), 'svc mock', clock);
    rmSync(own, { recursive: true });
    expect(() => ready.failed(2, 'bad flag', [])).not.toThrow();
  });

  // Since 4d9be42 a server that ends without listening (Ctrl-C while registering, --fault list)
  // removes its file too: only a failure to start is left for svc ready to tell.
  it("stopped before listening, the file still this server's starting state: removed", () => {
    const file = path();
    ReadyFile.start(file, 'svc mock', clock).stopped();
    expect(existsSync(file)).toBe(false);
  });

  it('stopped before listening leaves a file another run has written since (another pid)', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock', clock);
    const theirs = {
      state: 'failed',
      command: 'svc mock',
      pid: process.pid + 1,
      exit_code: 2,
      error: 'theirs',
      hints: [],
    };
    written(theirs, file);
    ready.stopped();
    expect(onDisk(file)).toEqual(theirs);
  });

  it('stopped after listening removes the file', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock', clock);
    ready.listeningAt('http://127.0.0.1:4242');
    ready.stopped();
    expect(existsSync(file)).toBe(false);
  });

  it('stopped after listening leaves a file that another run has written since (another pid)', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock', clock);
    ready.listeningAt('http://127.0.0.1:4242');
    const theirs = { state: 'starting', command: 'svc mock', pid: process.pid + 1 };
    written(theirs, file);
    ready.stopped();
    expect(onDisk(file)).toEqual(theirs);
  });

  it('stopped after listening leaves a file that is no state file now, and does not throw when it is gone', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock', clock);
    ready.listeningAt('http://127.0.0.1:4242');
    written('not json', file);
    ready.stopped();
    expect(readFileSync(file, 'utf8')).toBe('not json');
    rmSync(file);
    expect(() => ready.stopped()).not.toThrow();
  });
});

describe('keepingState', () => {
  it('with no file: runs without a ReadyFile and writes nothing', async () => {
    const seen: unknown[] = [];
    await keepingState(
      undefined,
      'svc mock',
      { shown: masked, now: clock },
      async (ready) => void seen.push(ready),
    );
    expect(seen).toEqual([undefined]);
  });

  it('the starting state is written before run begins', async () => {
    const file = path();
    let during: unknown;
    await keepingState(file, 'svc mock', { shown: masked, now: clock }, async () => {
      during = onDisk(file);
    });
    expect(during).toEqual({ state: 'starting', command: 'svc mock', ...ME, written_at: AT });
  });

  it('a CliError before listening: failed with its exit code, its text and hints masked by `shown`, then rethrown as it was', async () => {
    const file = path();
    const error = new CliError(
      `svc mock at http://127.0.0.1:9 does not know the key ${SECRET}`,
      3,
      [`Use one of its keys, not ${SECRET}.`, 'Or svc login.'],
    );
    await expect(
      keepingState(file, 'svc webhooks listen', { shown: masked, now: clock }, async () => {
        throw error;
      }),
    ).rejects.toBe(error);
    expect(onDisk(file)).toEqual({
      state: 'failed',
      command: 'svc webhooks listen',
      ...ME,
      written_at: AT,
      exit_code: 3,
      error: 'svc mock at http://127.0.0.1:9 does not know the key ***',
      hints: ['Use one of its keys, not ***.', 'Or svc login.'],
    });
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('an error that is no CliError: failed with exit code 1 and no hints', async () => {
    const file = path();
    await expect(
      keepingState(file, 'svc mock', { shown: masked, now: clock }, async () => {
        throw new Error('something broke');
      }),
    ).rejects.toThrow('something broke');
    expect(onDisk(file)).toMatchObject({
      state: 'failed',
      exit_code: 1,
      error: 'something broke',
      hints: [],
    });
  });

  it('a run that ends without listening or failing (--fault list, Ctrl-C while registering): the file is removed', async () => {
    const file = path();
    await keepingState(file, 'svc mock', { shown: masked, now: clock }, async () => {});
    expect(existsSync(file)).toBe(false);
  });

  it('a run that listened and ends: the file is removed', async () => {
    const file = path();
    await keepingState(file, 'svc mock', { shown: masked, now: clock }, async (ready) => {
      ready!.listeningAt('http://127.0.0.1:4242');
      expect(onDisk(file)).toMatchObject({ state: 'listening' });
    });
    expect(existsSync(file)).toBe(false);
  });

  it('a run that listened and then fails: not failed (it did listen), the file is removed, the error rethrown', async () => {
    const file = path();
    const error = new CliError('got 0 of 1 events within 1 s', 9);
    await expect(
      keepingState(file, 'svc webhooks listen', { shown: masked, now: clock }, async (ready) => {
        ready!.listeningAt('http://127.0.0.1:4242');
        throw error;
      }),
    ).rejects.toBe(error);
    expect(existsSync(file)).toBe(false);
  });

  it('a file that cannot be written: the UsageError of start, and run is never called', async () => {
    let ran = false;
    await expect(
      keepingState(
        join(folder, 'missing-folder', 'state'),
        'svc mock',
        { shown: masked, now: clock },
        async () => {
          ran = true;
        },
      ),
    ).rejects.toBeInstanceOf(UsageError);
    expect(ran).toBe(false);
  });
});

describe('readReadyFile', () => {
  const listening = {
    state: 'listening',
    command: 'svc mock',
    pid: 4242,
    pid_start: '1234',
    written_at: AT,
    url: 'http://127.0.0.1:4242',
  };

  it('a file that does not exist: missing', () => {
    expect(readReadyFile(join(folder, 'never-written'))).toEqual({ kind: 'missing' });
  });

  it('each state, written by hand, is read back as it is', () => {
    const failed = {
      state: 'failed',
      command: 'svc webhooks listen',
      pid: 7,
      written_at: AT,
      exit_code: 9,
      error: 'unreachable',
      hints: ['start svc mock'],
    };
    for (const state of [
      { state: 'starting', command: 'svc mock', pid: 1, written_at: AT },
      listening,
      failed,
    ]) {
      expect(readReadyFile(written(state))).toEqual({ kind: 'state', state });
    }
  });

  it('a failed state keeps only the hints that are text, and has none when hints is not a list', () => {
    const base = {
      state: 'failed',
      command: 'svc mock',
      pid: 7,
      written_at: AT,
      exit_code: 2,
      error: 'bad',
    };
    expect(readReadyFile(written({ ...base, hints: ['one', 2, null, 'two'] }))).toEqual({
      kind: 'state',
      state: { ...base, hints: ['one', 'two'] },
    });
    expect(readReadyFile(written({ ...base, hints: 'one' }))).toEqual({
      kind: 'state',
      state: { ...base, hints: [] },
    });
  });

  it("a state without a start or a date (an older svc's, or written by hand): read, dated at the epoch, as long ago", () => {
    const undated = {
      state: 'listening',
      command: 'svc mock',
      pid: 4242,
      url: 'http://127.0.0.1:4242',
    };
    expect(readReadyFile(written(undated))).toEqual({
      kind: 'state',
      state: { ...undated, written_at: '1970-01-01T00:00:00.000Z' },
    });
    expect(readReadyFile(written({ ...undated, written_at: 'yesterday' }))).toEqual({
      kind: 'state',
      state: { ...undated, written_at: '1970-01-01T00:00:00.000Z' },
    });
  });

  it('fields beyond the state are dropped', () => {
    expect(readReadyFile(written({ ...listening, extra: 'x' }))).toEqual({
      kind: 'state',
      state: listening,
    });
  });

  it('a symbolic link to a valid state file is refused, not followed', () => {
    const target = written(listening);
    const link = path();
    symlinkSync(target, link);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readReadyFile(link)).toEqual({ kind: 'refused', reason: 'it is a symbolic link' });
  });

  it('a FIFO is refused at once, without blocking on a writer that never comes', () => {
    const fifo = path();
    execFileSync('mkfifo', [fifo]);
    const started = performance.now();
    expect(readReadyFile(fifo)).toEqual({
      kind: 'refused',
      reason: `${fifo} is not a regular file`,
    });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('a folder is refused', () => {
    const own = mkdtempSync(join(folder, 'dir-'));
    expect(readReadyFile(own)).toMatchObject({ kind: 'refused' });
  });

  it.skipIf(process.getuid === undefined)(
    'a valid state file of mode 0666 is refused: other users could have written it',
    () => {
      const file = written(listening);
      chmodSync(file, 0o666);
      expect(readReadyFile(file)).toEqual({
        kind: 'refused',
        reason: `other users can write in ${file} (mode 0666)`,
      });
      chmodSync(file, 0o620);
      expect(readReadyFile(file)).toEqual({
        kind: 'refused',
        reason: `other users can write in ${file} (mode 0620)`,
      });
      chmodSync(file, 0o644);
      expect(readReadyFile(file)).toEqual({ kind: 'state', state: listening });
    },
  );

  it('a valid state padded past 8 KiB is refused; one of exactly 8 KiB is read', () => {
    const padded = (bytes: number) => {
      const text = JSON.stringify(listening);
      return (
        text.slice(0, -1) + `,"pad":"${'x'.repeat(bytes - text.length - ',"pad":""'.length)}"}`
      );
    };
    expect(Buffer.byteLength(padded(8192))).toBe(8192);
    expect(readReadyFile(written(padded(8192)))).toEqual({ kind: 'state', state: listening });
    const large = written(padded(8193));
    expect(readReadyFile(large)).toEqual({
      kind: 'refused',
      reason: `${large} is not a state file of svc mock or svc webhooks listen`,
    });
    expect(readReadyFile(written(padded(100_000)))).toMatchObject({ kind: 'refused' });
  });

  it('text that is not JSON, or JSON of another shape, is refused as no state file', () => {
    const shapes: (string | object)[] = [
      '',
      'not json',
      '{"state":"listening"',
      'null',
      '[]',
      '"listening"',
      '42',
      {},
      { ...listening, state: 'ready' },
      { ...listening, url: undefined },
      { ...listening, url: 42 },
      { ...listening, command: undefined },
      { ...listening, command: 7 },
      { ...listening, pid: undefined },
      { ...listening, pid: '4242' },
      { ...listening, pid: 0 },
      { ...listening, pid: -1 },
      { ...listening, pid: 1.5 },
      { ...listening, pid: 2 ** 53 },
      { state: 'failed', command: 'svc mock', pid: 7, error: 'no exit code', hints: [] },
      {
        state: 'failed',
        command: 'svc mock',
        pid: 7,
        exit_code: '3',
        error: 'text exit code',
        hints: [],
      },
      {
        state: 'failed',
        command: 'svc mock',
        pid: 7,
        exit_code: 3.5,
        error: 'fraction',
        hints: [],
      },
      { state: 'failed', command: 'svc mock', pid: 7, exit_code: 3, hints: [] },
    ];
    for (const shape of shapes) {
      const file = written(shape);
      expect(readReadyFile(file), JSON.stringify(shape)).toEqual({
        kind: 'refused',
        reason: `${file} is not a state file of svc mock or svc webhooks listen`,
      });
    }
  });
});

describe('processStart and writerRuns: the one process that wrote a state', () => {
  it("this process's start is a count of clock ticks, the same at each reading; an exited child has none", async () => {
    expect(ME.pid_start).toMatch(/^\d+$/);
    expect(processStart(process.pid)).toBe(ME.pid_start);
    expect(processStart(await deadPid())).toBeUndefined();
  });

  it('a process whose name holds spaces and parentheses: its start is still read from the right field', async () => {
    // The name is the program file's: a copy of sleep named so.
    const program = join(mkdtempSync(join(folder, 'name-')), 'svc (a) b) c');
    copyFileSync(execFileSync('which', ['sleep'], { encoding: 'utf8' }).trim(), program);
    chmodSync(program, 0o700);
    const child = spawn(program, ['30'], { stdio: 'ignore' });
    try {
      await delay(200);
      const start = processStart(child.pid!);
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'latin1');
      expect(stat).toContain('(svc (a) b) c)');
      expect(start).toMatch(/^\d+$/);
      // Started after this process: later, in ticks since boot.
      expect(Number(start)).toBeGreaterThanOrEqual(Number(ME.pid_start));
    } finally {
      child.kill();
    }
  });

  const state = (writer: object): ServerState => ({
    state: 'listening',
    command: 'svc mock',
    written_at: AT,
    url: 'http://127.0.0.1:4242',
    pid: 1,
    ...writer,
  });

  it('runs: the pid runs and started when the state says', () => {
    expect(writerRuns(state(ME))).toBe(true);
  });

  it('the pid runs, but another process has it (started at another time): not the writer', () => {
    expect(writerRuns(state({ ...ME, pid_start: String(Number(ME.pid_start) - 1) }))).toBe(false);
    // A state without a start (an older svc) on a system that tells one: not proved, so not taken.
    expect(writerRuns(state({ pid: process.pid }))).toBe(false);
  });

  it('the pid has exited: not running', async () => {
    expect(writerRuns(state({ pid: await deadPid() }))).toBe(false);
  });
});

describe.skipIf(process.getuid === undefined)(
  "--ready-file's folder: refused where other users may write, unless sticky",
  () => {
    /**
     * A new folder of exactly this mode (chmod: mkdir's mode is cut by the umask and takes no
     * sticky bit).
     */
    function folderOf(mode: number): string {
      const dir = mkdtempSync(join(folder, 'mode-'));
      chmodSync(dir, mode);
      return dir;
    }
    const good = () => ({
      state: 'listening',
      command: 'svc mock',
      ...ME,
      written_at: AT,
      url: 'http://127.0.0.1:4242',
    });

    for (const mode of [0o777, 0o775, 0o757]) {
      const octal = mode.toString(8).padStart(4, '0');
      it(`mode ${octal}: the reader refuses a good state in it, and start writes nothing there`, () => {
        const dir = folderOf(mode);
        const file = written(good(), join(dir, 'state'));
        expect(readReadyFile(file)).toEqual({
          kind: 'refused',
          reason: `other users can write in ${dir} (mode ${octal})`,
        });
        const fresh = join(dir, 'fresh');
        expect(() => ReadyFile.start(fresh, 'svc mock', clock)).toThrow(
          `refusing --ready-file ${fresh}: other users can write in ${dir} (mode ${octal})`,
        );
        expect(readdirSync(dir)).toEqual(['state']);
      });
    }

    it('mode 1777 (sticky, as /tmp): read and written, since only the owner of a file there may replace it', () => {
      const dir = folderOf(0o1777);
      const file = written(good(), join(dir, 'state'));
      expect(readReadyFile(file)).toEqual({ kind: 'state', state: good() });
      ReadyFile.start(join(dir, 'fresh'), 'svc mock', clock);
      expect(onDisk(join(dir, 'fresh'))).toMatchObject({ state: 'starting' });
    });

    it.runIf(process.getuid?.() === 0)(
      'a folder of another user (not root): refused, whatever its mode',
      () => {
        const dir = folderOf(0o755);
        const file = written(good(), join(dir, 'state'));
        chownSync(dir, 4242, 4242);
        expect(readReadyFile(file)).toEqual({
          kind: 'refused',
          reason: `${dir} belongs to another user`,
        });
      },
    );
  },
);

describe('ReadyFile.start: a path that holds anything but a state file is refused (exit 2), and left as it was', () => {
  /**
   * Refused with this reason, and after a keepingState run that never ran its server, the path
   * holds what it held.
   */
  async function refused(file: string, reason: string): Promise<void> {
    const before = lstatSync(file);
    const content = before.isFile() ? readFileSync(file, 'utf8') : undefined;
    let ran = false;
    const thrown = await keepingState(file, 'svc mock', { shown: masked, now: clock }, async () => {
      ran = true;
    }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as UsageError).exitCode).toBe(2);
    expect((thrown as UsageError).message).toBe(`refusing --ready-file ${file}: ${reason}`);
    expect((thrown as UsageError).hints.join(' ')).toContain('mktemp -d');
    expect(ran).toBe(false);
    const after = lstatSync(file);
    expect([after.ino, after.mode]).toEqual([before.ino, before.mode]);
    if (content !== undefined) expect(readFileSync(file, 'utf8')).toBe(content);
  }

  it('a file of the user that is no state file (a shell start-up file): refused, unchanged, not removed', async () => {
    const file = written('export PATH="$HOME/bin:$PATH"\n');
    await refused(file, `${file} is not a state file of svc mock or svc webhooks listen`);
  });

  it('JSON of another shape: refused', async () => {
    const file = written({ name: 'my-app', version: '1.0.0' });
    await refused(file, `${file} is not a state file of svc mock or svc webhooks listen`);
  });

  it('a folder: refused, and nothing written in it', async () => {
    const dir = mkdtempSync(join(folder, 'target-'));
    await refused(dir, `${dir} is not a regular file`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a FIFO: refused at once', async () => {
    const fifo = path();
    execFileSync('mkfifo', [fifo]);
    await refused(fifo, `${fifo} is not a regular file`);
  });

  it('a symbolic link, even to a state file: refused, the link and its target unchanged', async () => {
    const target = written({ state: 'starting', command: 'svc mock', pid: 1, written_at: AT });
    const link = path();
    symlinkSync(target, link);
    await refused(link, 'it is a symbolic link');
    expect(onDisk(target)).toEqual({
      state: 'starting',
      command: 'svc mock',
      pid: 1,
      written_at: AT,
    });
  });

  it.skipIf(process.getuid === undefined)(
    'a state file others may write (mode 0666): refused',
    async () => {
      const file = written({ state: 'starting', command: 'svc mock', pid: 1, written_at: AT });
      chmodSync(file, 0o666);
      await refused(file, `other users can write in ${file} (mode 0666)`);
    },
  );

  it("an earlier run's state file, of any state: replaced", () => {
    for (const earlier of [
      {
        state: 'listening',
        command: 'svc mock',
        pid: 1,
        written_at: AT,
        url: 'http://127.0.0.1:1',
      },
      { state: 'starting', command: 'svc webhooks listen', pid: 1 },
    ]) {
      const file = written(earlier);
      ReadyFile.start(file, 'svc mock', clock);
      expect(onDisk(file)).toEqual({
        state: 'starting',
        command: 'svc mock',
        ...ME,
        written_at: AT,
      });
    }
  });
});
