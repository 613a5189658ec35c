// The spinner of a slow request (src/app/spinners.ts), on a client whose replies the test
// holds, with a fake clock: shown after a second, taken away with the reply or the failure, never
// while another spinner holds the line or while several requests run at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { ApiReply, RequestSpec, Send } from '../../src/api/client.js';
import {
  SLOW_REQUEST_MS,
  type SlowRequestOptions,
  slowRequestSpinner,
} from '../../src/app/spinners.js';
import type { LineText, Spinner } from '../../src/core/stream/terminal-line.js';

/** A reply the test hands out when it likes. */
interface Held {
  spec: RequestSpec;
  answer: () => void;
  fail: (error: Error) => void;
}

function heldClient(): { client: { request: Send }; held: Held[] } {
  const held: Held[] = [];
  const client = {
    request: (spec: RequestSpec) =>
      new Promise<ApiReply>((resolve, reject) => {
        held.push({
          spec,
          answer: () => resolve({ status: 200, raw: '{}', body: {} } as ApiReply),
          fail: reject,
        });
      }),
  };
  return { client, held };
}

/** The client's requests through the spinner's layer. */
function throughSpinner(client: { request: Send }, options: SlowRequestOptions): { request: Send } {
  return { request: slowRequestSpinner(options)(client.request) };
}

/** Spinners drawn, and what is on the line now. */
function screen() {
  const drawn: string[] = [];
  let showing: string[] = [];
  const spin = async (line: LineText): Promise<Spinner> => {
    // As a line wide enough for every field shows it.
    const text = typeof line === 'string' ? line : line.fields.join(' ');
    drawn.push(text);
    showing.push(text);
    return {
      update() {},
      stop: () => {
        showing = showing.filter((t) => t !== text);
      },
    };
  };
  return { spin, drawn, showing: () => showing };
}

/** Lets the promises settle (the fake clock leaves setImmediate alone). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('the spinner of a slow request', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows after a second, naming the request without its query, and goes with the reply', async () => {
    const { client, held } = heldClient();
    const s = screen();
    const watched = throughSpinner(client, { spin: s.spin, lineTaken: () => false });
    const reply = watched.request({ method: 'GET', path: '/v1/consents/cns_1/data?token=secret' });
    await vi.advanceTimersByTimeAsync(SLOW_REQUEST_MS - 1);
    expect(s.drawn).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(s.showing()).toEqual(['Waiting for GET /v1/consents/cns_1/data…']);
    held[0]!.answer();
    await reply;
    // Off the line before the caller goes on: nothing it writes meets the spinner.
    expect(s.showing()).toEqual([]);
  });

  it('shows nothing for a request answered within the second', async () => {
    const { client, held } = heldClient();
    const s = screen();
    const watched = throughSpinner(client, { spin: s.spin, lineTaken: () => false });
    const reply = watched.request({ method: 'GET', path: '/v1/usage' });
    await vi.advanceTimersByTimeAsync(900);
    held[0]!.answer();
    await reply;
    await vi.advanceTimersByTimeAsync(5_000);
    await settle();
    expect(s.drawn).toEqual([]);
  });

  it('goes with a failure (Ctrl-C, a timeout, an error status) too', async () => {
    const { client, held } = heldClient();
    const s = screen();
    const watched = throughSpinner(client, { spin: s.spin, lineTaken: () => false });
    const reply = watched.request({ method: 'POST', path: '/v1/merchants/resolve' });
    await vi.advanceTimersByTimeAsync(1_500);
    await settle();
    expect(s.showing()).toEqual(['Waiting for POST /v1/merchants/resolve…']);
    held[0]!.fail(new Error('interrupted'));
    await expect(reply).rejects.toThrow('interrupted');
    expect(s.showing()).toEqual([]);
  });

  it('is not drawn while a spinner or a progress bar of the command holds the line', async () => {
    const { client, held } = heldClient();
    const s = screen();
    const watched = throughSpinner(client, { spin: s.spin, lineTaken: () => true });
    const reply = watched.request({ method: 'POST', path: '/v1/parse' });
    await vi.advanceTimersByTimeAsync(3_000);
    held[0]!.answer();
    await reply;
    expect(s.drawn).toEqual([]);
  });

  it('is taken away when a second request starts at once, and none is drawn while several run', async () => {
    const { client, held } = heldClient();
    const s = screen();
    const watched = throughSpinner(client, { spin: s.spin, lineTaken: () => false });
    const first = watched.request({ method: 'POST', path: '/v1/merchants/resolve' });
    await vi.advanceTimersByTimeAsync(1_200);
    await settle();
    expect(s.showing()).toHaveLength(1);
    const second = watched.request({ method: 'POST', path: '/v1/merchants/resolve' });
    expect(s.showing()).toEqual([]);
    await vi.advanceTimersByTimeAsync(3_000);
    await settle();
    expect(s.drawn).toHaveLength(1);
    // One left alone: a reply only takes spinners away, so none comes back for it.
    held[0]!.answer();
    await first;
    await vi.advanceTimersByTimeAsync(3_000);
    expect(s.drawn).toHaveLength(1);
    held[1]!.answer();
    await second;
    expect(s.showing()).toEqual([]);
  });

  it('one request after another: each slow one gets its own spinner, each taken away', async () => {
    const { client, held } = heldClient();
    const s = screen();
    const watched = throughSpinner(client, { spin: s.spin, lineTaken: () => false });
    for (const path of ['/v1/reports', '/v1/usage']) {
      const reply = watched.request({ method: 'GET', path });
      await vi.advanceTimersByTimeAsync(2_000);
      await settle();
      expect(s.showing()).toEqual([`Waiting for GET ${path}…`]);
      held.at(-1)!.answer();
      await reply;
      expect(s.showing()).toEqual([]);
    }
  });

  it('a spinner still being drawn when the reply comes is taken away as soon as it is drawn', async () => {
    const { client, held } = heldClient();
    let finishDrawing!: () => void;
    let stopped = 0;
    const spin = () =>
      new Promise<Spinner>((resolve) => {
        finishDrawing = () => resolve({ update() {}, stop: () => stopped++ });
      });
    const watched = throughSpinner(client, { spin, lineTaken: () => false });
    const reply = watched.request({ method: 'GET', path: '/v1/usage' });
    await vi.advanceTimersByTimeAsync(1_000);
    held[0]!.answer();
    await reply;
    expect(stopped).toBe(0);
    finishDrawing();
    await settle();
    expect(stopped).toBe(1);
  });

  it('keeps a long path to one line', async () => {
    const { client, held } = heldClient();
    const s = screen();
    const watched = throughSpinner(client, { spin: s.spin, lineTaken: () => false });
    const reply = watched.request({ method: 'GET', path: `/v1/reports/${'x'.repeat(200)}\n/auth` });
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    held[0]!.answer();
    await reply;
    expect(s.drawn[0]).not.toContain('\n');
    expect(s.drawn[0]!.length).toBeLessThan(90);
  });
});
