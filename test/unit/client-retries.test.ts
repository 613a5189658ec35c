// The waits of the HTTP path between attempts, read from an injected sleep: exponential backoff
// with jitter (half to all of 0.5 s, 1 s, 2 s … capped at 8 s), or the reply's Retry-After
// (capped at 60 s). Nothing here waits for real.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ApiClient } from '../../src/api/client.js';

/** The replies the server gives, in turn; the last one repeats. */
let script: { status: number; headers?: Record<string, string>; body?: string }[] = [];
let served = 0;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((_req, res) => {
    const reply = script[Math.min(served++, script.length - 1)]!;
    res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
    res.end(
      reply.body ??
        (reply.status === 200
          ? '{"data":[]}'
          : '{"error_code":"SERVICE_UNAVAILABLE","error_message":"try later"}'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Sends one GET with `retries`, the jitter fixed at `random`; returns the waits asked for. */
async function waitsOf(
  replies: typeof script,
  retries: number,
  random: number,
  method: 'GET' | 'POST' = 'GET',
): Promise<{ waits: number[]; outcome: string }> {
  script = replies;
  served = 0;
  const waits: number[] = [];
  const client = new ApiClient({
    baseUrl,
    apiKey: 'svc_sk_test_00000000000000000000000000000000',
    userAgent: 'svc/test',
    timeoutMs: 5_000,
    retries,
    env: {},
    signal: new AbortController().signal,
    sleep: async (ms) => {
      waits.push(ms);
    },
    random: () => random,
  });
  const outcome = await client
    .request({ method, path: '/v1/reports', ...(method === 'POST' && { json: {} }) })
    .then(
      (reply) => `ok ${reply.status}`,
      (error: Error) => `failed ${error.constructor.name}`,
    );
  return { waits, outcome };
}

describe('backoff between attempts', () => {
  it('doubles from 0.5 s, the jitter taking it from half to all of each step', async () => {
    const busy = [{ status: 503 }];
    expect(await waitsOf(busy, 5, 0)).toEqual({
      waits: [250, 500, 1000, 2000, 4000],
      outcome: 'failed ApiError',
    });
    expect(await waitsOf(busy, 5, 0.999999)).toEqual({
      waits: [500, 1000, 2000, 4000, 8000],
      outcome: 'failed ApiError',
    });
  });

  it('is capped at 8 s however many retries are asked for', async () => {
    const { waits } = await waitsOf([{ status: 503 }], 8, 0.999999);
    expect(waits.slice(-4)).toEqual([8000, 8000, 8000, 8000]);
  });

  it('stops waiting as soon as an attempt succeeds', async () => {
    expect(await waitsOf([{ status: 502 }, { status: 504 }, { status: 200 }], 5, 0)).toEqual({
      waits: [250, 500],
      outcome: 'ok 200',
    });
  });

  it('never waits after the last attempt, nor with --retries 0', async () => {
    expect((await waitsOf([{ status: 503 }], 2, 0)).waits).toHaveLength(2);
    expect(await waitsOf([{ status: 503 }], 0, 0)).toEqual({
      waits: [],
      outcome: 'failed ApiError',
    });
  });
});

describe('Retry-After', () => {
  it('replaces the backoff when the reply gives it, in seconds or as a date', async () => {
    expect(
      (await waitsOf([{ status: 429, headers: { 'Retry-After': '3' } }, { status: 200 }], 2, 0))
        .waits,
    ).toEqual([3000]);
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const [wait] = (
      await waitsOf(
        [{ status: 503, headers: { 'Retry-After': inTenSeconds } }, { status: 200 }],
        2,
        0,
      )
    ).waits;
    // An HTTP date has whole seconds: between 9 and 10 s from now.
    expect(wait).toBeGreaterThan(8_000);
    expect(wait).toBeLessThanOrEqual(10_000);
  });

  it('is capped at 60 s', async () => {
    expect(
      (await waitsOf([{ status: 429, headers: { 'Retry-After': '3600' } }, { status: 200 }], 2, 0))
        .waits,
    ).toEqual([60_000]);
  });

  it('an unreadable value falls back to the backoff', async () => {
    expect(
      (await waitsOf([{ status: 503, headers: { 'Retry-After': 'soon' } }, { status: 200 }], 2, 0))
        .waits,
    ).toEqual([250]);
  });

  it('a status that is not retried is not waited for, Retry-After or not', async () => {
    expect(await waitsOf([{ status: 500, headers: { 'Retry-After': '1' } }], 3, 0)).toEqual({
      waits: [],
      outcome: 'failed ApiError',
    });
  });
});

describe('a 429 whose quota is used up', () => {
  const quota = (body: string) => ({ status: 429, headers: { 'Retry-After': '1' }, body });

  it.each([
    [
      'the flat envelope',
      '{"error_type":"RATE_LIMIT_ERROR","error_code":"QUOTA_EXCEEDED","error_message":"used up"}',
    ],
    [
      'the nested envelope',
      '{"error":{"type":"rate_limit_error","code":"quota_exceeded","message":"used up"}}',
    ],
  ])('is not retried, in %s: one request, no wait', async (_envelope, body) => {
    expect(await waitsOf([quota(body), { status: 200 }], 2, 0)).toEqual({
      waits: [],
      outcome: 'failed ApiError',
    });
    expect(served).toBe(1);
    expect(await waitsOf([quota(body), { status: 200 }], 2, 0, 'POST')).toEqual({
      waits: [],
      outcome: 'failed ApiError',
    });
    expect(served).toBe(1);
  });

  it('a 429 RATE_LIMITED, or one with no envelope, is still retried', async () => {
    expect(
      await waitsOf(
        [quota('{"error_code":"RATE_LIMITED","error_message":"slow down"}'), { status: 200 }],
        2,
        0,
      ),
    ).toEqual({ waits: [1000], outcome: 'ok 200' });
    expect(await waitsOf([quota('<html>Too Many Requests</html>'), { status: 200 }], 2, 0)).toEqual(
      { waits: [1000], outcome: 'ok 200' },
    );
  });
});

describe('a POST whose own earlier attempt still runs', () => {
  const inProgress = {
    status: 409,
    body: '{"error_code":"IDEMPOTENCY_IN_PROGRESS","error_message":"still processing"}',
  };

  it('waits out 409 IDEMPOTENCY_IN_PROGRESS on a retry, as its earlier attempt is its own', async () => {
    expect(await waitsOf([{ status: 503 }, inProgress, { status: 200 }], 2, 0, 'POST')).toEqual({
      waits: [250, 500],
      outcome: 'ok 200',
    });
  });

  it('does not retry it on a first attempt: another request holds the key', async () => {
    expect(await waitsOf([inProgress], 2, 0, 'POST')).toEqual({
      waits: [],
      outcome: 'failed ApiError',
    });
  });
});
