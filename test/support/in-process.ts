// Runs svc in this process, as gh's iostreams.Test() does: `main()` with a test IO (a person at a
// terminal, or a script), and a fake service at the transport seam that answers the requests a
// test expects, in order, and fails the test on any request it did not expect or that never came.
// The clock is fixed and waits take no time, so no test waits on real time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';

import { afterAll, expect } from 'vitest';

import type { Transport, WireRequest } from '../../src/api/transport.js';
import type { CacheStore, Choice, Prompter, Services } from '../../src/app/services.js';
import {
  accountOf,
  type Keyring,
  type KeyringEntry,
  KeyringError,
} from '../../src/config/keyring/keyring.js';
import { FALLBACK_COLUMNS, type IO, knownWidth } from '../../src/core/io.js';
import { ReplyHeaders } from '../../src/core/reply-headers.js';
import type { PagerProcess } from '../../src/core/stream/pager.js';
import { main } from '../../src/main.js';
import type { CacheEntry } from '../../src/service/cache.js';
import { unwrapped } from './unwrapped.js';

export { unwrapped };

export const BASE_URL = 'https://svc.test';
export const KEY = 'svc_sk_test_00112233445566778899aabbccddeeff';
export const LIVE_KEY = 'svc_sk_live_00112233445566778899aabbccddeeff';
/** The fixed time of every in-process run: 2026-05-22 10:00 UTC. */
export const NOW = Date.parse('2026-05-22T10:00:00Z');

/** Each command runs both ways: as a person at a terminal and as a script. */
export const MODES = [
  { mode: 'a person', tty: true },
  { mode: 'a script', tty: false },
] as const;

/** What a script's output never holds: colour, box drawing, a stack trace. */
export const ANSI = /\u001b\[/;
export const BOX = /[─│┌┐└┘├┤┬┴┼]/;
export const STACK = /^\s+at\s/m;
/** An Idempotency-Key as svc makes it. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A request as the fake service saw it. */
export interface SeenRequest {
  method: string;
  /** Path and query, as `/v1/reports?limit=5`. */
  path: string;
  url: URL;
  headers: Record<string, string>;
  /** The body as text; undefined when there was none. */
  body?: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  /**
   * The body's bytes as sent (a multipart upload of a JPEG is not UTF-8); undefined when there was
   * none.
   */
  bytes?: Buffer;
}

export interface FakeReply {
  status?: number;
  /** Sent as JSON, unless `raw` is given. */
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

export interface Expected {
  method: string;
  /** The path and query the request must have, exactly; or a test of the request. */
  path: string | ((request: SeenRequest) => boolean);
  /**
   * A function may answer later (a Promise): a test can hold replies to see which requests run at
   * once.
   */
  reply: FakeReply | ((request: SeenRequest) => FakeReply | Promise<FakeReply>);
}

/** The service of a test: expected requests in order, each answered once. */
export class FakeService {
  readonly seen: SeenRequest[] = [];
  readonly problems: string[] = [];
  private readonly queue: Expected[];

  constructor(expected: Expected[] = []) {
    this.queue = [...expected];
  }

  expect(method: string, path: Expected['path'], reply: Expected['reply']): this {
    this.queue.push({ method, path, reply });
    return this;
  }

  readonly transport: Transport = async (request: WireRequest) => {
    const seen = seenOf(request);
    this.seen.push(seen);
    const next = this.queue[0];
    const matches =
      next &&
      next.method === seen.method &&
      (typeof next.path === 'string' ? next.path === seen.path : next.path(seen));
    if (!next || !matches) {
      this.problems.push(
        `unexpected request ${seen.method} ${seen.path}` +
          (next
            ? ` (expected ${next.method} ${typeof next.path === 'string' ? next.path : '(a matching request)'})`
            : ''),
      );
      // A refused connection: the command fails as it would against no service.
      throw Object.assign(new Error('connect ECONNREFUSED (fake service)'), {
        code: 'ECONNREFUSED',
      });
    }
    this.queue.shift();
    const reply = typeof next.reply === 'function' ? await next.reply(seen) : next.reply;
    const raw = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    const headers = new ReplyHeaders(
      Object.entries({ 'content-type': 'application/json', ...reply.headers }),
    );
    return { status: reply.status ?? 200, headers, raw };
  };

  /** Problems of the run: unexpected requests, and the expected ones that never came. */
  verify(): string[] {
    return [
      ...this.problems,
      ...this.queue.map(
        (e) =>
          `expected request never sent: ${e.method} ${typeof e.path === 'string' ? e.path : '(a matching request)'}`,
      ),
    ];
  }
}

function seenOf(request: WireRequest): SeenRequest {
  const body = request.body ? Buffer.from(request.body).toString('utf8') : undefined;
  let json: unknown;
  try {
    json = body === undefined ? undefined : JSON.parse(body);
  } catch {
    json = undefined;
  }
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const bytes = request.body ? Buffer.from(request.body) : undefined;
  return {
    method: request.method,
    path: request.url.pathname + request.url.search,
    url: request.url,
    headers,
    body,
    json,
    bytes,
  };
}

/** A prompter that gives scripted answers, in order, and records the questions. */
export class ScriptedPrompter implements Prompter {
  readonly asked: string[] = [];

  constructor(private readonly answers: unknown[]) {}

  private next<T>(message: string): Promise<T> {
    this.asked.push(message);
    if (this.answers.length === 0)
      return Promise.reject(new Error(`no scripted answer for the question "${message}"`));
    return Promise.resolve(this.answers.shift() as T);
  }

  text(
    message: string,
    options?: { validate?: (value: string) => true | string },
  ): Promise<string> {
    return this.next<string>(message).then((answer) => {
      const verdict = options?.validate?.(answer) ?? true;
      if (verdict !== true)
        throw new Error(`the scripted answer "${answer}" to "${message}" was refused: ${verdict}`);
      return answer;
    });
  }
  secret(message: string): Promise<string> {
    return this.next(message);
  }
  checkbox(message: string, _choices: readonly Choice[]): Promise<string[]> {
    return this.next(message);
  }
  search(message: string, source: (term: string | undefined) => Choice[]): Promise<string> {
    return this.next<string>(message).then((answer) => {
      if (!source(answer).some((choice) => choice.value === answer))
        throw new Error(`"${answer}" is not offered for "${message}"`);
      return answer;
    });
  }
  confirm(message: string): Promise<boolean> {
    return this.next(message);
  }
}

/** A reply cache in memory. */
export class MemoryCache implements CacheStore {
  readonly entries = new Map<string, CacheEntry>();
  read(url: string): CacheEntry | undefined {
    return this.entries.get(url);
  }
  write(entry: CacheEntry): void {
    this.entries.set(entry.url, entry);
  }
  fileFor(url: string): string {
    return `memory:${url}`;
  }
}

/**
 * A keyring in memory, its keys kept by profile and base URL (`entries`, by keyOf) as svc's
 * keyrings keep them; `earlier` holds keys an earlier svc kept by profile alone, which an entry
 * that allows it (KeyringEntry.legacy) reads, moving them to its own, replaces and removes.
 * `unavailable`: why there is none (a headless server: svc keeps keys in the file); `failing`: it
 * answers, but every read, write and removal fails (a locked keyring).
 */
export class MemoryKeyring implements Keyring {
  readonly name = 'the test keyring';
  readonly entries = new Map<string, string>();
  readonly earlier = new Map<string, string>();
  /**
   * Every call, as `read default https://api.example.com`: a test can tell the keyring was not
   * touched at all.
   */
  readonly calls: string[] = [];

  constructor(private readonly state: { unavailable?: string; failing?: string } = {}) {}

  /** Where `entries` keeps the key of a profile for a base URL. */
  static keyOf(profile: string, baseUrl = BASE_URL): string {
    return accountOf({ profile, baseUrl, legacy: false });
  }

  unavailable(): Promise<string | undefined> {
    this.calls.push('unavailable');
    return Promise.resolve(this.state.unavailable);
  }
  describe(entry: KeyringEntry): string {
    return `account ${accountOf(entry)}`;
  }
  private check(call: string, entry: KeyringEntry): void {
    this.calls.push(`${call} ${accountOf(entry)}`);
    if (this.state.unavailable !== undefined) throw new KeyringError(this.state.unavailable);
    if (this.state.failing !== undefined) throw new KeyringError(this.state.failing);
  }
  read(entry: KeyringEntry): Promise<string | undefined> {
    return Promise.resolve().then(() => {
      this.check('read', entry);
      const key = this.entries.get(accountOf(entry));
      const earlier = entry.legacy ? this.earlier.get(entry.profile) : undefined;
      if (key !== undefined || earlier === undefined) return key;
      this.entries.set(accountOf(entry), earlier);
      this.earlier.delete(entry.profile);
      return earlier;
    });
  }
  write(entry: KeyringEntry, key: string): Promise<void> {
    return Promise.resolve().then(() => {
      this.check('write', entry);
      this.entries.set(accountOf(entry), key);
      if (entry.legacy) this.earlier.delete(entry.profile);
    });
  }
  remove(entry: KeyringEntry): Promise<boolean> {
    return Promise.resolve().then(() => {
      this.check('remove', entry);
      const removed = this.entries.delete(accountOf(entry));
      return (entry.legacy && this.earlier.delete(entry.profile)) || removed;
    });
  }
}

/**
 * A pager that records what it is given. `quitAfter`: it exits (0, as `q` in less) once it has
 * read that many characters, and reads no more, as a pipe whose reader is gone; `exitAtOnce`: it
 * exits with that code at its first read; `cannotStart`: starting it fails with that error code.
 */
export class FakePager {
  /** Each start: the command's words and its environment. */
  readonly started: { command: readonly string[]; env: Record<string, string | undefined> }[] = [];
  /** What it read. */
  text = '';
  /** Its input has ended: svc gave it the whole output. */
  ended = false;
  private input?: Writable;

  constructor(
    private readonly behaviour: {
      quitAfter?: number;
      exitAtOnce?: number;
      cannotStart?: string;
    } = {},
  ) {}

  /** About what svc wrote to its input, read or not (bytes held in the pipe counted once more). */
  get offered(): number {
    return this.text.length + (this.input?.writableLength ?? 0);
  }

  readonly start = (
    command: readonly string[],
    env: Record<string, string | undefined>,
  ): Promise<PagerProcess> => {
    this.started.push({ command, env });
    if (this.behaviour.cannotStart)
      return Promise.reject(
        Object.assign(new Error(`spawn ${command[0]} ${this.behaviour.cannotStart}`), {
          code: this.behaviour.cannotStart,
        }),
      );
    let exit: (code: number | null) => void = () => {};
    const exited = new Promise<number | null>((resolve) => (exit = resolve));
    let gone = false;
    const { quitAfter, exitAtOnce } = this.behaviour;
    const input = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        if (gone) return;
        if (exitAtOnce !== undefined) {
          gone = true;
          exit(exitAtOnce);
          return;
        }
        this.text += chunk.toString('utf8');
        if (quitAfter !== undefined && this.text.length >= quitAfter) {
          gone = true;
          exit(0);
          return;
        }
        done();
      },
      final: (done) => {
        this.ended = true;
        gone = true;
        exit(0);
        done();
      },
    });
    this.input = input;
    return Promise.resolve({ input, exited, stop: () => exit(null) });
  };
}

/** What a test without a keyring of its own gets: none, as on a headless server or in CI. */
export const NO_KEYRING_HERE = 'no keyring in this test';

export interface InProcessOptions {
  /** The OS keyring; default: none (keys go to the config file, as on a headless server). */
  keyring?: Keyring;
  /** stdin, stdout and stderr are a terminal (and CI is unset): a person. Default: a script. */
  tty?: boolean;
  /**
   * stdout alone is not a terminal when false (with tty: a person writing to a file, `svc … >
   * out.csv`). Default: as tty.
   */
  stdoutTTY?: boolean;
  /**
   * stderr alone is not a terminal when false (with tty: a person keeping errors in a file, `svc …
   * 2> err.log`). Default: as tty.
   */
  stderrTTY?: boolean;
  /** The service; default: one that expects no request at all. */
  service?: FakeService;
  /** Variables added to (or, when undefined, removed from) the default environment. */
  env?: Record<string, string | undefined>;
  stdin?: string;
  /**
   * Width the terminal tells (stdout's and stderr's alike); 0 for one that tells none. Default 80.
   */
  columns?: number;
  /**
   * Height the terminal on stdout tells; default none, and so no pager (a pager needs a height).
   */
  rows?: number;
  /** The pager svc starts (with `rows`); default: a real one, which no test should reach. */
  pager?: FakePager;
  prompter?: Prompter;
  /**
   * The reply cache; default: an empty one in memory for this run. `disk`: svc's own, in
   * SVC_CACHE_DIR.
   */
  cache?: MemoryCache | 'disk';
  /** Addresses the command asked the browser to open. */
  opened?: string[];
  now?: number;
  /** Aborted before or during the run: Ctrl-C. */
  signal?: AbortSignal;
  /**
   * Called with each piece of text written to stdout, as it is written: a test can press Ctrl-C
   * (abort `signal`) mid-output.
   */
  onStdout?: (text: string) => void;
  /**
   * Called with each piece of text written to stderr, as it is written: a test can read the address
   * a listener says it listens on.
   */
  onStderr?: (text: string) => void;
  /**
   * Real waits, for a command whose wait races a real event (a listener's time limit against a
   * delivery): an instant wait would always win. Default: waits take no time.
   */
  realWaits?: boolean;
  /**
   * The home folder as the system knows it, asked for when HOME is unset; default: the real one
   * (os.homedir).
   */
  systemHome?: () => string;
}

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The requests the fake service saw. */
  requests: SeenRequest[];
  /** Every wait the command asked for, in milliseconds. */
  waits: number[];
}

let scratch: string | undefined;
afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * A private folder for the config, cache and data (svc mock's keys) of the runs of this test file.
 */
export function scratchDir(): string {
  scratch ??= mkdtempSync(join(tmpdir(), 'svc-inprocess-'));
  return scratch;
}

/**
 * Runs `svc ...argv` in-process. Throws (failing the test) when the fake service saw an
 * unexpected request or missed an expected one.
 */
export async function svc(
  argv: string[],
  options: InProcessOptions = {},
): Promise<InProcessResult> {
  const stdout = sink(options.onStdout);
  const stderr = sink(options.onStderr);
  const tty = options.tty === true;
  const env: Record<string, string | undefined> = {
    SVC_BASE_URL: BASE_URL,
    SVC_API_KEY: KEY,
    SVC_CONFIG_DIR: join(scratchDir(), 'config'),
    SVC_CACHE_DIR: join(scratchDir(), 'cache'),
    SVC_DATA_DIR: join(scratchDir(), 'data'),
    HOME: scratchDir(),
    // Times in tables are shown in this zone: the same on every machine (a test may set another).
    TZ: 'UTC',
    ...(tty ? { TERM: 'xterm-256color' } : { CI: 'true' }),
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const io: IO = {
    ...testIO(stdout, stderr, env, options.stdin, tty, options.columns),
    stdoutIsTTY: options.stdoutTTY ?? tty,
    stderrIsTTY: options.stderrTTY ?? tty,
    rows: (options.stdoutTTY ?? tty) ? options.rows : undefined,
  };
  const service = options.service ?? new FakeService();
  const waits: number[] = [];
  let now = options.now ?? NOW;
  const services: Services = {
    transport: service.transport,
    clock: { now: () => now },
    // A wait takes no time: the clock moves on instead.
    sleep: options.realWaits
      ? undefined
      : async (ms, signal) => {
          if (signal.aborted)
            throw new (await import('../../src/core/errors.js')).InterruptedError();
          waits.push(ms);
          now += ms;
        },
    random: () => 0.5,
    prompter: options.prompter ?? new ScriptedPrompter([]),
    openBrowser: async (url) => {
      if (!options.opened) throw new Error('no browser in this test');
      options.opened.push(url);
    },
    replyCache: replyCacheOf(options.cache),
    keyring: options.keyring ?? new MemoryKeyring({ unavailable: NO_KEYRING_HERE }),
    systemHome: options.systemHome,
    startPager: options.pager?.start,
  };
  const code = await main(argv, io, options.signal ?? new AbortController().signal, services);
  const problems = service.verify();
  if (problems.length > 0)
    throw new Error(`svc ${argv.join(' ')}: ${problems.join('; ')}\nstderr: ${stderr.text()}`);
  return { code, stdout: stdout.text(), stderr: stderr.text(), requests: service.seen, waits };
}

function replyCacheOf(cache: InProcessOptions['cache']): Services['replyCache'] {
  if (cache === 'disk') return undefined;
  // A run of its own: no test is served a reply another test left behind.
  const store = cache ?? new MemoryCache();
  return () => store;
}

/**
 * The IO of a run: the sinks for output, stdin from a string, and terminal or not on all three;
 * widths as processIO reads them.
 */
function testIO(
  stdout: Sink,
  stderr: Sink,
  env: IO['env'],
  stdin: string | undefined,
  tty: boolean,
  columns = 80,
): IO {
  return {
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from(stdin === undefined ? [] : [Buffer.from(stdin)]),
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: tty,
    env,
    columns: knownWidth(columns) ?? FALLBACK_COLUMNS,
    stderrColumns: tty ? knownWidth(columns) : undefined,
  };
}

interface Sink {
  stream: Writable;
  text: () => string;
}

function sink(onWrite?: (text: string) => void): Sink {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const piece = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      text += piece;
      onWrite?.(piece);
      done();
    },
  });
  return { stream, text: () => text };
}

/** Text without colour codes. */
export function plain(text: string): string {
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/**
 * Runs `svc ...argv` in-process as a script against a real service on this machine (a foreign
 * server in a test): the real transport, clock and waits, only the process left out. `env` is the
 * whole environment; `stdoutTTY`: stdout alone is a terminal (a person reading a table).
 */
export async function svcAgainst(
  argv: string[],
  env: Record<string, string | undefined>,
  options: { stdin?: string; stdoutTTY?: boolean } = {},
): Promise<{ stdout: string; stderr: string; code: number }> {
  const stdout = sink();
  const stderr = sink();
  const io: IO = {
    ...testIO(stdout, stderr, env, options.stdin, false),
    stdoutIsTTY: options.stdoutTTY ?? false,
  };
  const code = await main(argv, io, new AbortController().signal);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * A stderr line in its `error:` form: machine output (--json, -o ndjson) writes the failure as one
 * JSON envelope.
 */
export function asErrorLine(line: string): string {
  if (!line.startsWith('{')) return line;
  return `error: ${(JSON.parse(line) as { error_message?: string }).error_message}`;
}

/**
 * A failure: the exit code, nothing on stdout, one error on stderr (after any --debug lines), no
 * stack trace. `firstLine` is matched against the error's `error:` line (a JSON envelope's message
 * counts as one); `clean` takes what else a command draws on stderr (a spinner) first.
 */
export function expectFailure(
  result: InProcessResult,
  exit: number,
  firstLine: string | RegExp,
  clean: (stderr: string) => string = (stderr) => stderr,
): void {
  expect(result.code, result.stderr).toBe(exit);
  expect(result.stdout).toBe('');
  const lines = unwrapped(clean(result.stderr))
    .trimEnd()
    .split('\n')
    .filter((line) => !line.startsWith('debug: '))
    .map(asErrorLine);
  if (typeof firstLine === 'string') expect(lines[0]).toBe(firstLine);
  else expect(lines[0]).toMatch(firstLine);
  expect(lines.filter((line) => line.startsWith('error:'))).toHaveLength(1);
  expect(result.stderr).not.toMatch(STACK);
}
