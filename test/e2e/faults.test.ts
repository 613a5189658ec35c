// The fault-injection suite: for every named fault of `svc mock --fault`, a GET command and a POST
// command give the documented exit code and one clear line on stderr, retry only where
// docs/reference/reliability.md allows (a POST reusing its Idempotency-Key), and end (a hang is
// killed and fails).
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

import { afterAll, describe, expect, it } from 'vitest';

import type { RecordedRequest } from '../../src/mock/requestlog.js';
import { mockAdminJson } from '../support/mock-admin.js';
import { baseEnv, type Result, run, STACK_LINE, SVC, useWorld } from './harness.js';

const RAM = 'rpt_e8699f830adc84b8';
const world = useWorld(); // only for its temporary folders (and the mocks' data folder: their keys)

interface Mock {
  url: string;
  key: string;
  keys: Array<{ key: string; mode: string; scope: string }>;
}

const mocks: ChildProcess[] = [];
afterAll(() => mocks.forEach((child) => child.kill('SIGINT')));

/** A real `svc mock --fault NAME` child, as a person would start it. */
async function mockWith(fault: string): Promise<Mock> {
  const child = spawn(
    process.execPath,
    [SVC, 'mock', '--port', '0', '--json', '--quiet', '--fault', fault],
    { env: baseEnv(world.dir), stdio: ['ignore', 'pipe', 'ignore'] },
  );
  mocks.push(child);
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout }).once('line', resolve),
  );
  const { url, keys } = JSON.parse(line) as {
    url: string;
    keys: Array<{ key: string; mode: string; scope: string }>;
  };
  return { url, key: keys.find((k) => k.mode === 'test' && k.scope === 'FULL')!.key, keys };
}

async function requests(mock: Mock): Promise<RecordedRequest[]> {
  return mockAdminJson<RecordedRequest[]>(mock, '/_mock/requests');
}

const TIMEOUT_S = 0.5;
const RETRIES = 2;

/**
 * A command that hangs is killed after 20 s and fails on its exit code (the waits between attempts
 * are unit-tested).
 */
async function svc(mock: Mock, args: string[]): Promise<Result> {
  return run([...args, '--timeout', String(TIMEOUT_S), '--retries', String(RETRIES)], {
    configDir: world.dir,
    env: { SVC_BASE_URL: mock.url, SVC_API_KEY: mock.key },
    timeoutMs: 20_000,
  });
}

interface Expectation {
  exit: number;
  /** Requests the mock sees for one command. */
  attempts: number;
  /** The first line of stderr. */
  message?: RegExp;
}

const CASES: Array<{ fault: string; get: Expectation; post: Expectation }> = [
  {
    fault: 'html-502',
    get: { exit: 8, attempts: 3, message: /^error: HTTP_502: .*502 Bad Gateway/ },
    post: { exit: 8, attempts: 3 },
  },
  {
    fault: 'truncated-json',
    get: { exit: 10, attempts: 1, message: /^error: .*not JSON/ },
    post: { exit: 10, attempts: 1 },
  },
  {
    fault: 'reset-mid-reply',
    get: { exit: 9, attempts: 3, message: /^error: / },
    post: { exit: 9, attempts: 3 },
  },
  // The retry of a POST reuses its Idempotency-Key while the first attempt is still being
  // processed: the service answers 409 IDEMPOTENCY_IN_PROGRESS (documented), which svc waits out
  // within its retries, then reports with a hint.
  {
    fault: 'slow',
    get: { exit: 9, attempts: 3, message: /^error: no reply from .* within 0\.5 s$/ },
    post: { exit: 6, attempts: 3, message: /^error: IDEMPOTENCY_IN_PROGRESS: / },
  },
  { fault: '429-once', get: { exit: 0, attempts: 2 }, post: { exit: 0, attempts: 2 } },
  { fault: '503-twice', get: { exit: 0, attempts: 3 }, post: { exit: 0, attempts: 3 } },
  {
    fault: 'nested-envelope',
    get: { exit: 3, attempts: 1, message: /^error: INVALID_API_KEY: Key does not exist\.$/ },
    post: { exit: 3, attempts: 1, message: /^error: INVALID_API_KEY: Key does not exist\.$/ },
  },
  {
    fault: 'not-json',
    get: { exit: 10, attempts: 1, message: /^error: .*not JSON: "OK"$/ },
    post: { exit: 10, attempts: 1 },
  },
  {
    fault: '500-always',
    get: { exit: 8, attempts: 1, message: /^error: INTERNAL_ERROR: / },
    post: { exit: 8, attempts: 1 },
  },
];

describe.each(CASES)('svc mock --fault $fault', ({ fault, get, post }) => {
  it('a GET command', async () => {
    const mock = await mockWith(fault);
    const r = await svc(mock, ['reports', 'list']);
    expect(r.code, r.stderr).toBe(get.exit);
    expect(r.stderr).not.toMatch(STACK_LINE);
    if (get.exit === 0) {
      expect(r.stdout.split('\n')[0]).toBe('ID\tSTATUS\tBANK\tCREATED');
    } else {
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toMatch(get.message ?? /^error: /);
    }
    const seen = (await requests(mock)).filter((q) => q.method === 'GET');
    expect(seen).toHaveLength(get.attempts);
  });

  it('a POST command, its retries carrying one Idempotency-Key', async () => {
    const mock = await mockWith(fault);
    const r = await svc(mock, ['match', RAM, '--name', 'Ram Bahadur Shrestha']);
    expect(r.code, r.stderr).toBe(post.exit);
    expect(r.stderr).not.toMatch(STACK_LINE);
    if (post.exit !== 0) expect(r.stderr.split('\n')[0]).toMatch(post.message ?? /^error: /);
    const posts = (await requests(mock)).filter((q) => q.method === 'POST');
    expect(posts).toHaveLength(post.attempts);
    expect(new Set(posts.map((q) => q.headers['idempotency-key'])).size).toBe(1);
  });
});

describe('svc mock --fault huge-reply', () => {
  it('a 50 MB reply is read whole and printed, one line per report', async () => {
    const mock = await mockWith('huge-reply');
    const r = await run(['reports', 'list', '-o', 'ndjson'], {
      configDir: world.dir,
      env: { SVC_BASE_URL: mock.url, SVC_API_KEY: mock.key },
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(300_000);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ status: 'complete', bank_code: 'NABIL' });
  });
});
