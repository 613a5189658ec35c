// The state file of a server run with --ready-file (src/core/ready-file.ts), on real folders: what
// each step writes, what it leaves alone, and what a reader refuses (a link, a pipe, a file others
// may write, one too large or of another shape) without following or blocking.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError, EXIT, UsageError } from '../../src/core/errors.js';
import { isRunning, keepingState, ReadyFile, readReadyFile, type ServerState } from '../../src/core/ready-file.js';

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

/** A secret a command must not write down, and a masker that hides it. */
const SECRET = 'svc_sk_test_aabbccddeeff00112233445566778899';
const masked = (text: string) => text.replaceAll(SECRET, '***');

describe('ReadyFile: the states a server writes', () => {
  it('start writes the starting state with this process id, mode 0600, and readReadyFile reads it back', () => {
    const file = path();
    ReadyFile.start(file, 'svc mock');
    expect(onDisk(file)).toEqual({ state: 'starting', command: 'svc mock', pid: process.pid });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readReadyFile(file)).toEqual({ kind: 'state', state: { state: 'starting', command: 'svc mock', pid: process.pid } });
  });

  it('listeningAt writes the listening state with the URL', () => {
    const file = path();
    ReadyFile.start(file, 'svc webhooks listen').listeningAt('http://127.0.0.1:4242');
    const state: ServerState = { state: 'listening', command: 'svc webhooks listen', pid: process.pid, url: 'http://127.0.0.1:4242' };
    expect(onDisk(file)).toEqual(state);
    expect(readReadyFile(file)).toEqual({ kind: 'state', state });
  });

  it('failed before listening writes the exit code, the error and the hints', () => {
    const file = path();
    ReadyFile.start(file, 'svc mock').failed(2, 'port 80 is in use', ['pick another with --port']);
    const state: ServerState = { state: 'failed', command: 'svc mock', pid: process.pid, exit_code: 2, error: 'port 80 is in use', hints: ['pick another with --port'] };
    expect(onDisk(file)).toEqual(state);
    expect(readReadyFile(file)).toEqual({ kind: 'state', state });
  });

  it('start replaces a file an earlier run left: its failed state no longer speaks for this run', () => {
    const file = written({ state: 'failed', command: 'svc mock', pid: 1, exit_code: 3, error: 'earlier run', hints: [] });
    ReadyFile.start(file, 'svc mock');
    expect(onDisk(file)).toEqual({ state: 'starting', command: 'svc mock', pid: process.pid });
  });

  it('each write replaces the file in one step and leaves no temporary file beside it', () => {
    const own = mkdtempSync(join(folder, 'steps-'));
    const file = join(own, 'state');
    const ready = ReadyFile.start(file, 'svc mock');
    ready.listeningAt('http://127.0.0.1:1');
    expect(readdirSync(own)).toEqual(['state']);
  });

  it('start in a folder that does not exist: a UsageError (exit 2) naming the file, and nothing written', () => {
    const file = join(folder, 'no-such-folder', 'state');
    let thrown: unknown;
    try {
      ReadyFile.start(file, 'svc mock');
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
    const ready = ReadyFile.start(file, 'svc mock');
    ready.listeningAt('http://127.0.0.1:4242');
    ready.failed(9, 'lost the port', []);
    expect(existsSync(file)).toBe(false);
  });

  it('failed once listening leaves a file another run has written since', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock');
    ready.listeningAt('http://127.0.0.1:4242');
    const theirs = { state: 'starting', command: 'svc mock', pid: process.pid + 1 };
    written(theirs, file);
    ready.failed(9, 'lost the port', []);
    expect(onDisk(file)).toEqual(theirs);
  });

  it("failed whose write fails (the folder went away) does not throw: the server's own error comes first", () => {
    const own = mkdtempSync(join(folder, 'gone-'));
    const ready = ReadyFile.start(join(own, 'state'), 'svc mock');
    rmSync(own, { recursive: true });
    expect(() => ready.failed(2, 'bad flag', [])).not.toThrow();
  });

  // Since 4d9be42 a server that ends without listening (Ctrl-C while registering, --fault list)
  // removes its file too: only a failure to start is left for svc ready to tell.
  it("stopped before listening, the file still this server's starting state: removed", () => {
    const file = path();
    ReadyFile.start(file, 'svc mock').stopped();
    expect(existsSync(file)).toBe(false);
  });

  it('stopped before listening leaves a file another run has written since (another pid)', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock');
    const theirs = { state: 'failed', command: 'svc mock', pid: process.pid + 1, exit_code: 2, error: 'theirs', hints: [] };
    written(theirs, file);
    ready.stopped();
    expect(onDisk(file)).toEqual(theirs);
  });

  it('stopped after listening removes the file', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock');
    ready.listeningAt('http://127.0.0.1:4242');
    ready.stopped();
    expect(existsSync(file)).toBe(false);
  });

  it('stopped after listening leaves a file that another run has written since (another pid)', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock');
    ready.listeningAt('http://127.0.0.1:4242');
    const theirs = { state: 'starting', command: 'svc mock', pid: process.pid + 1 };
    written(theirs, file);
    ready.stopped();
    expect(onDisk(file)).toEqual(theirs);
  });

  it('stopped after listening leaves a file that is no state file now, and does not throw when it is gone', () => {
    const file = path();
    const ready = ReadyFile.start(file, 'svc mock');
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
    await keepingState(undefined, 'svc mock', masked, async (ready) => void seen.push(ready));
    expect(seen).toEqual([undefined]);
  });

  it('the starting state is written before run begins', async () => {
    const file = path();
    let during: unknown;
    await keepingState(file, 'svc mock', masked, async () => {
      during = onDisk(file);
    });
    expect(during).toEqual({ state: 'starting', command: 'svc mock', pid: process.pid });
  });

  it('a CliError before listening: failed with its exit code, its text and hints masked by `shown`, then rethrown as it was', async () => {
    const file = path();
    const error = new CliError(`svc mock at http://127.0.0.1:9 does not know the key ${SECRET}`, 3, [`Use one of its keys, not ${SECRET}.`, 'Or svc login.']);
    await expect(
      keepingState(file, 'svc webhooks listen', masked, async () => {
        throw error;
      }),
    ).rejects.toBe(error);
    expect(onDisk(file)).toEqual({
      state: 'failed',
      command: 'svc webhooks listen',
      pid: process.pid,
      exit_code: 3,
      error: 'svc mock at http://127.0.0.1:9 does not know the key ***',
      hints: ['Use one of its keys, not ***.', 'Or svc login.'],
    });
    expect(readFileSync(file, 'utf8')).not.toContain(SECRET);
  });

  it('an error that is no CliError: failed with exit code 1 and no hints', async () => {
    const file = path();
    await expect(
      keepingState(file, 'svc mock', masked, async () => {
        throw new Error('something broke');
      }),
    ).rejects.toThrow('something broke');
    expect(onDisk(file)).toMatchObject({ state: 'failed', exit_code: 1, error: 'something broke', hints: [] });
  });

  it('a run that ends without listening or failing (--fault list, Ctrl-C while registering): the file is removed', async () => {
    const file = path();
    await keepingState(file, 'svc mock', masked, async () => {});
    expect(existsSync(file)).toBe(false);
  });

  it('a run that listened and ends: the file is removed', async () => {
    const file = path();
    await keepingState(file, 'svc mock', masked, async (ready) => {
      ready!.listeningAt('http://127.0.0.1:4242');
      expect(onDisk(file)).toMatchObject({ state: 'listening' });
    });
    expect(existsSync(file)).toBe(false);
  });

  it('a run that listened and then fails: not failed (it did listen), the file is removed, the error rethrown', async () => {
    const file = path();
    const error = new CliError('got 0 of 1 events within 1 s', 9);
    await expect(
      keepingState(file, 'svc webhooks listen', masked, async (ready) => {
        ready!.listeningAt('http://127.0.0.1:4242');
        throw error;
      }),
    ).rejects.toBe(error);
    expect(existsSync(file)).toBe(false);
  });

  it('a file that cannot be written: the UsageError of start, and run is never called', async () => {
    let ran = false;
    await expect(
      keepingState(join(folder, 'missing-folder', 'state'), 'svc mock', masked, async () => {
        ran = true;
      }),
    ).rejects.toBeInstanceOf(UsageError);
    expect(ran).toBe(false);
  });
});

describe('readReadyFile', () => {
  const listening = { state: 'listening', command: 'svc mock', pid: 4242, url: 'http://127.0.0.1:4242' };

  it('a file that does not exist: missing', () => {
    expect(readReadyFile(join(folder, 'never-written'))).toEqual({ kind: 'missing' });
  });

  it('each state, written by hand, is read back as it is', () => {
    const failed = { state: 'failed', command: 'svc webhooks listen', pid: 7, exit_code: 9, error: 'unreachable', hints: ['start svc mock'] };
    for (const state of [{ state: 'starting', command: 'svc mock', pid: 1 }, listening, failed]) {
      expect(readReadyFile(written(state))).toEqual({ kind: 'state', state });
    }
  });

  it('a failed state keeps only the hints that are text, and has none when hints is not a list', () => {
    const base = { state: 'failed', command: 'svc mock', pid: 7, exit_code: 2, error: 'bad' };
    expect(readReadyFile(written({ ...base, hints: ['one', 2, null, 'two'] }))).toEqual({ kind: 'state', state: { ...base, hints: ['one', 'two'] } });
    expect(readReadyFile(written({ ...base, hints: 'one' }))).toEqual({ kind: 'state', state: { ...base, hints: [] } });
  });

  it('fields beyond the state are dropped', () => {
    expect(readReadyFile(written({ ...listening, extra: 'x' }))).toEqual({ kind: 'state', state: listening });
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
    expect(readReadyFile(fifo)).toEqual({ kind: 'refused', reason: `${fifo} is not a regular file` });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('a folder is refused', () => {
    const own = mkdtempSync(join(folder, 'dir-'));
    expect(readReadyFile(own)).toMatchObject({ kind: 'refused' });
  });

  it.skipIf(process.getuid === undefined)('a valid state file of mode 0666 is refused: other users could have written it', () => {
    const file = written(listening);
    chmodSync(file, 0o666);
    expect(readReadyFile(file)).toEqual({ kind: 'refused', reason: `other users can write in ${file} (mode 0666)` });
    chmodSync(file, 0o620);
    expect(readReadyFile(file)).toEqual({ kind: 'refused', reason: `other users can write in ${file} (mode 0620)` });
    chmodSync(file, 0o644);
    expect(readReadyFile(file)).toEqual({ kind: 'state', state: listening });
  });

  it('a valid state padded past 8 KiB is refused; one of exactly 8 KiB is read', () => {
    const padded = (bytes: number) => {
      const text = JSON.stringify(listening);
      return text.slice(0, -1) + `,"pad":"${'x'.repeat(bytes - text.length - ',"pad":""'.length)}"}`;
    };
    expect(Buffer.byteLength(padded(8192))).toBe(8192);
    expect(readReadyFile(written(padded(8192)))).toEqual({ kind: 'state', state: listening });
    const large = written(padded(8193));
    expect(readReadyFile(large)).toEqual({ kind: 'refused', reason: `${large} is not a state file of svc mock or svc webhooks listen` });
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
      { state: 'failed', command: 'svc mock', pid: 7, exit_code: '3', error: 'text exit code', hints: [] },
      { state: 'failed', command: 'svc mock', pid: 7, exit_code: 3.5, error: 'fraction', hints: [] },
      { state: 'failed', command: 'svc mock', pid: 7, exit_code: 3, hints: [] },
    ];
    for (const shape of shapes) {
      const file = written(shape);
      expect(readReadyFile(file), JSON.stringify(shape)).toEqual({ kind: 'refused', reason: `${file} is not a state file of svc mock or svc webhooks listen` });
    }
  });
});

describe('isRunning', () => {
  it('this process runs', () => {
    expect(isRunning(process.pid)).toBe(true);
  });

  it('a child that has exited does not', async () => {
    const pid = await deadPid();
    expect(isRunning(pid)).toBe(false);
  });
});
