// A request the service is slow to answer, in-process with a fake clock: a person at a terminal
// sees `Waiting for GET /v1/usage…` on stderr after a second, cut to one line of the terminal
// (of 80 columns when it tells no width); a script sees nothing; a command with
// a spinner of its own shows only that one; Ctrl-C still ends the run with 130. (What the screen
// looks like, cleared, in a real terminal: test/e2e/slow-requests.test.ts.)
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  type FakeReply,
  FakeService,
  type InProcessOptions,
  plain,
  svc,
} from '../support/in-process.js';

const USAGE = {
  plan: 'growth',
  quota: 10000,
  used: 9500,
  remaining: 500,
  period: '2026-05',
  resets_at: '2026-06-01T00:00:00Z',
};
const WAITING = 'Waiting for GET /v1/usage…';
/** The frames of a spinner in a test's stderr (no terminal to clear them): a frame and its text. */
const FRAMES = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^…\n]*…/g;

/** Lets promises settle; the fake clock leaves setImmediate alone. */
async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs svc with GET /v1/usage held for `ms` of the fake clock: the reply comes when the clock has
 * moved that far (or never, for Ctrl-C). `reply` is what comes.
 */
async function heldFor(
  ms: number,
  argv: string[],
  options: InProcessOptions & { reply?: FakeReply; abort?: AbortController; path?: string } = {},
) {
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const service = new FakeService().expect('GET', options.path ?? '/v1/usage', (request) => {
    void request;
    return new Promise<FakeReply>((resolve, reject) => {
      void answered.then(() => resolve(options.reply ?? { body: USAGE }));
      options.abort?.signal.addEventListener('abort', () =>
        reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
      );
    });
  });
  const run = svc(argv, { ...options, service, signal: options.abort?.signal });
  // The command loads its modules (real time, which the fake clock leaves alone) and sends the
  // request.
  const deadline = Date.now() + 10_000;
  while (service.seen.length === 0 && Date.now() < deadline) await settle(1);
  expect(service.seen).toHaveLength(1);
  await vi.advanceTimersByTimeAsync(ms);
  // The spinner, if any, is drawn (ora loads on first use).
  await settle();
  if (options.abort) options.abort.abort();
  else answer();
  return run;
}

describe('a slow request', () => {
  beforeAll(async () => {
    // Loaded before the clock is faked: the spinner is then drawn within a few turns.
    await import('ora');
  });
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows a person a spinner on stderr after a second, then the reply on stdout', async () => {
    const result = await heldFor(1_500, ['usage'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(WAITING);
    expect(result.stderr.replace(FRAMES, '')).toBe('');
    expect(plain(result.stdout)).toContain('9,500 of 10,000 (95%)');
    expect(result.stdout).not.toContain('Waiting');
  });

  it('shows nothing for a reply within the second', async () => {
    const result = await heldFor(900, ['usage'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('shows a script nothing, however slow the reply', async () => {
    const result = await heldFor(5_000, ['usage']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('with --json on a terminal: the spinner on stderr, the body alone on stdout', async () => {
    const result = await heldFor(1_500, ['usage', '--json'], { tty: true, env: { NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(WAITING);
    expect(JSON.parse(result.stdout)).toEqual(USAGE);
  });

  it('a failure comes after the spinner: one error line, the exit code of the error', async () => {
    const reply = {
      status: 503,
      body: { error_type: 'API_ERROR', error_code: 'SERVICE_UNAVAILABLE', error_message: 'Down.' },
    };
    const result = await heldFor(1_500, ['usage', '--retries', '0'], { tty: true, reply });
    expect(result.code).toBe(8);
    expect(result.stderr).toContain(WAITING);
    expect(result.stderr.replace(FRAMES, '').split('\n')[0]).toBe(
      'error: SERVICE_UNAVAILABLE: Down.',
    );
  });

  it('a command with a spinner of its own shows that one only: svc whoami checks the key', async () => {
    const result = await heldFor(1_500, ['whoami'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Checking the key…');
    expect(result.stderr).not.toContain('Waiting for');
  });

  it.each([
    [60, 59],
    // A terminal that tells no width: the line is cut to 80 columns, and the spinner still goes.
    [0, 79],
  ])(
    'at %i columns each frame fits one line of the terminal (at most %i wide), the request whole',
    async (columns, widest) => {
      const id = 'rpt_e8699f830adc84b8';
      const path = `/v1/reports/${id}/transactions`;
      const result = await heldFor(1_500, ['reports', 'transactions', id], {
        tty: true,
        columns,
        path,
        reply: { body: { report_id: id, transactions: [] } },
      });
      expect(result.code, result.stderr).toBe(0);
      const frames = result.stderr.match(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏\n]*/g) ?? [];
      expect(frames.length).toBeGreaterThan(0);
      for (const frame of frames) expect([...frame].length, frame).toBeLessThanOrEqual(widest);
      const whole = `Waiting for GET ${path}…`;
      if (columns === 0) expect(frames[0]).toContain(whole);
      // The request is not cut (as `…/transac…`): its "Waiting for" is left out for room.
      else expect(frames[0]).toMatch(/^. GET \/v1\/reports\/rpt_e8699f830adc84b8\/transactions…$/);
      expect(result.stderr.replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏\n]*/g, '')).toBe('');
      expect(plain(result.stdout)).not.toContain('Waiting');
    },
  );

  it('Ctrl-C while it waits: exit 130, one line', async () => {
    const result = await heldFor(1_500, ['usage'], { tty: true, abort: new AbortController() });
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(WAITING);
    expect(result.stderr.replace(FRAMES, '')).toBe('error: interrupted\n');
    expect(result.stdout).toBe('');
  });
});
