// Runs the built `svc` as a user would: a child process with its own environment and config
// folder, against `svc mock` on a loopback port. stdout, stderr and the exit code come back apart.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, beforeEach } from 'vitest';

import type { FaultSpec } from '../../src/mock/faults.js';
import type { RecordedRequest } from '../../src/mock/requestlog.js';
import { type MockKey, type MockServer, startMockServer } from '../../src/mock/server.js';
import { svcAgainst } from '../support/in-process.js';
import { findKey } from '../support/keys.js';
import { mockAdminJson } from '../support/mock-admin.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SVC = join(ROOT, 'bin', 'svc.cjs');

export interface Result {
  stdout: string;
  stderr: string;
  code: number | null;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  cwd?: string;
  timeoutMs?: number;
}

/**
 * A clean environment: no key, no base URL, no colour overrides, private config, cache and data
 * folders.
 */
export function baseEnv(configDir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: configDir,
    SVC_CONFIG_DIR: join(configDir, 'config'),
    SVC_CACHE_DIR: join(configDir, 'cache'),
    SVC_DATA_DIR: join(configDir, 'data'),
    LANG: 'C.UTF-8',
    // Times in tables are shown in this zone: the same on every machine.
    TZ: 'UTC',
  };
}

function environment(options: RunOptions & { configDir: string }): Record<string, string> {
  const env: Record<string, string> = { ...baseEnv(options.configDir) };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export function run(args: string[], options: RunOptions & { configDir: string }): Promise<Result> {
  const env = environment(options);
  const child = spawn(process.execPath, [SVC, ...args], {
    env,
    cwd: options.cwd ?? ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.on('error', () => {});
  child.stdin.end(options.input ?? '');
  return collect(child, options.timeoutMs).then((result) => {
    assertNoKeyLeak(args, env, options.input, result);
    return result;
  });
}

const FULL_KEY = /svc_sk_(live|test)_[0-9a-f]{16,}/;

/**
 * Every run is also a secrets test: no key svc was given (environment, --api-key, or stdin for
 * `login --with-key`) and no full key of the usual form may appear in its output. `svc mock` alone
 * prints keys: its demo keys.
 */
function assertNoKeyLeak(
  args: string[],
  env: Record<string, string>,
  input: RunOptions['input'],
  result: Result,
): void {
  if (args[0] === 'mock') return;
  const flag = args.indexOf('--api-key');
  const given = [
    env.SVC_API_KEY,
    flag >= 0 ? args[flag + 1] : undefined,
    args.includes('--with-key') ? String(input ?? '').trim() : undefined,
  ];
  const secrets = given.filter((k): k is string => k !== undefined && k.length >= 12);
  for (const [stream, text] of [
    ['stdout', result.stdout],
    ['stderr', result.stderr],
  ] as const) {
    const leaked = secrets.find((k) => text.includes(k)) ?? FULL_KEY.exec(text)?.[0];
    if (leaked) throw new Error(`svc ${args.join(' ')} printed a full API key on ${stream}`);
  }
}

/** Collects a child's output until it ends; a child that outlives the limit is killed. */
/**
 * stdout, stderr and the exit code of a child; killed after `timeoutMs` (its code is then null).
 */
export function collect(
  child: ChildProcessWithoutNullStreams,
  timeoutMs = 15_000,
): Promise<Result> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

/**
 * `svc ARGS | head -c 1`, the reader gone after one byte: svc's exit code on stdout, its stderr on
 * stderr.
 */
export function intoHead(args: string[], env: Record<string, string>): Promise<Result> {
  const script = '"$0" "$@" | head -c 1 >/dev/null; echo "${PIPESTATUS[0]}"';
  const child = spawn('bash', ['-c', script, process.execPath, SVC, ...args], { env, cwd: ROOT });
  child.stdin.end();
  return collect(child);
}

export type { FaultSpec, RecordedRequest };

/**
 * One mock service and one config folder for a test file: started before its tests, reset before
 * each test, stopped (with every temporary folder it made) after them.
 */
export function useWorld(options: { inProcess?: boolean } = {}): World {
  const world = new World(options.inProcess ?? false);
  beforeAll(() => world.start());
  afterAll(() => world.stop());
  beforeEach(() => world.reset());
  return world;
}

export class World {
  /** Set once the file's tests start. */
  mock!: MockServer;

  /**
   * `inProcess`: svc runs in this process over its real transport (test/support/in-process.ts), for
   * suites that check what the service and svc say to each other rather than what a process does.
   */
  constructor(private readonly inProcess: boolean) {}

  private run(args: string[], options: RunOptions & { configDir: string }): Promise<Result> {
    if (!this.inProcess) return run(args, options);
    const env = environment(options);
    const input = options.input === undefined ? undefined : String(options.input);
    return svcAgainst(args, env, { stdin: input }).then((result) => {
      assertNoKeyLeak(args, env, options.input, result);
      return result;
    });
  }
  readonly dir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
  private readonly temps: string[] = [this.dir];

  async start(): Promise<void> {
    // Tests check the bodies svc sent.
    this.mock = await startMockServer({
      port: 0,
      processingDelayMs: 300,
      requestLog: { bodies: true },
    });
  }

  async stop(): Promise<void> {
    await this.mock?.close();
    try {
      this.assertNoKeyInFiles();
    } finally {
      for (const dir of this.temps) rmSync(dir, { recursive: true, force: true });
    }
  }

  /**
   * A key may rest in a config file (and svc mock's demo keys in their file) and nowhere else: not
   * in caches, logs or output files.
   */
  private assertNoKeyInFiles(): void {
    const keys = this.mock?.keys.map((k) => k.key) ?? [];
    for (const dir of this.temps) {
      for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || entry.name === 'config.json' || entry.name === 'mock-keys.json')
          continue;
        const path = join(entry.parentPath, entry.name);
        const text = readFileSync(path, 'latin1');
        const leaked = keys.find((k) => text.includes(k)) ?? FULL_KEY.exec(text)?.[0];
        if (leaked) throw new Error(`a full API key was written to ${path}`);
      }
    }
  }

  /** A new empty folder, removed when the world stops. */
  tempDir(prefix = 'svc-e2e-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.temps.push(dir);
    return dir;
  }

  key(
    org: 0 | 1 = 0,
    mode: 'live' | 'test' = 'test',
    scope: 'FULL' | 'READ_ONLY' = 'FULL',
  ): MockKey {
    const orgs = [...new Set(this.mock.keys.map((k) => k.organization_id))];
    return findKey(this.mock, orgs[org], { mode, scope });
  }

  /** svc with the mock's URL and a test FULL key in the environment. */
  svc(args: string[], options: RunOptions = {}): Promise<Result> {
    return this.run(args, {
      ...options,
      configDir: this.dir,
      env: { SVC_BASE_URL: this.mock.url, SVC_API_KEY: this.key().key, ...options.env },
    });
  }

  /** svc with nothing configured but what the options give. */
  bare(args: string[], options: RunOptions = {}): Promise<Result> {
    return this.run(args, { ...options, configDir: this.dir });
  }

  async requests(): Promise<RecordedRequest[]> {
    return mockAdminJson<RecordedRequest[]>(this.mock, '/_mock/requests');
  }

  async reset(): Promise<void> {
    await mockAdminJson(this.mock, '/_mock/requests', { method: 'DELETE' });
    await mockAdminJson(this.mock, '/_mock/faults', { method: 'DELETE' });
  }

  async fault(...specs: FaultSpec[]): Promise<void> {
    await mockAdminJson(this.mock, '/_mock/faults', { json: specs });
  }
}

/**
 * Runs a shell command in a pseudo-terminal (util-linux `script`), as a person at a terminal would.
 */
export function inTerminal(
  command: string,
  options: {
    env?: Record<string, string | undefined>;
    input?: string;
    configDir: string;
    timeoutMs?: number;
  },
): Promise<Result> {
  const env: Record<string, string> = {
    ...baseEnv(options.configDir),
    TERM: 'xterm-256color',
    COLUMNS: '120',
  };
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env,
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (options.input) child.stdin.write(options.input);
  return collect(child, options.timeoutMs);
}

export const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** A line of a stack trace: never shown to users without --debug. */
export const STACK_LINE = /^\s+at\s/m;

/** The smallest file the service takes as a PDF statement, naming its holder. */
export const TINY_PDF =
  '%PDF-1.4\n1 0 obj << /Type /Page >> endobj\nBT (Account Holder: Sita Kumari Thapa) Tj ET\n%%EOF\n';

export const svcCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(SVC)}`;

export const ANSI = /\u001b\[[0-9;]*m/;

/**
 * What a run may write to the terminal before it counts as running away (a spinner redrawn without
 * end).
 */
const OUTPUT_CAP = 1024 * 1024;

export interface SizedTerminalRun {
  /** What svc wrote to the terminal, as the terminal received it. */
  terminal: string;
  code: number | null;
  /** svc was killed: it wrote past OUTPUT_CAP, or outlived the time limit. */
  ranAway: boolean;
}

/**
 * Runs `svc ARGS` (shell words) in a pseudo-terminal of `columns` columns (0: one that tells no
 * width), its stdout sent to `stdoutFile` when given. `whileRunning` may act on svc's process id
 * (send a signal). svc is killed when it writes past OUTPUT_CAP or outlives `timeoutMs`, and at
 * the end if still there: a process stuck in a loop never handles the SIGHUP of its terminal
 * closing. `scratch` is a folder for svc's process id.
 */
export async function inSizedTerminal(
  args: string,
  options: {
    columns: number;
    configDir: string;
    scratch: string;
    env?: Record<string, string>;
    stdoutFile?: string;
    timeoutMs?: number;
    whileRunning?: (pid: number, output: () => string) => Promise<void>;
  },
): Promise<SizedTerminalRun> {
  const pidFile = join(options.scratch, 'svc.pid');
  const redirect = options.stdoutFile ? ` > ${JSON.stringify(options.stdoutFile)}` : '';
  const command = `stty cols ${options.columns} rows 30; echo $$ > ${JSON.stringify(pidFile)}; exec ${svcCommand} ${args}${redirect}`;
  const env = { ...baseEnv(options.configDir), TERM: 'xterm-256color', ...options.env };
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    env,
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let terminal = '';
  let ranAway = false;
  const svcPid = () =>
    existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8').trim()) || undefined : undefined;
  let ended = false;
  const killAll = () => {
    ranAway = true;
    const pid = svcPid();
    try {
      if (pid) process.kill(pid, 'SIGKILL');
    } catch {
      // ended already
    }
    child.kill('SIGKILL');
  };
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    if (terminal.length < OUTPUT_CAP) terminal += d;
    else if (!ranAway) killAll();
  });
  const closed = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      resolve(code);
    }),
  );
  const timer = setTimeout(killAll, options.timeoutMs ?? 15_000);
  try {
    if (options.whileRunning) {
      for (let i = 0; i < 100 && !svcPid(); i++) await new Promise((r) => setTimeout(r, 50));
      await options.whileRunning(svcPid()!, () => terminal);
    }
    const code = await closed;
    return { terminal, code: ranAway ? null : code, ranAway };
  } finally {
    clearTimeout(timer);
    // A test that failed while svc ran: svc goes with it.
    if (!ended) killAll();
  }
}

/**
 * Waits (at most `ms`) until `done` holds of the terminal's text; fails the test with the text
 * otherwise.
 */
export async function untilShown(
  output: () => string,
  done: (text: string) => boolean,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done(output()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (!done(output())) throw new Error(`waited ${ms} ms; the terminal shows:\n${output()}`);
}
