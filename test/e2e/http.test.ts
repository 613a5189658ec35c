// The one HTTP path, seen from outside (docs/reference/reliability.md: requests, debug, proxy and
// retries; docs/reference/exit-codes.md: errors and exit codes): svc against the mock, with faults
// injected per test. GET command: `svc reports list`; POST command: `svc match <id> --name X`.
// `world.svc` runs svc in this process over its real transport (useWorld({ inProcess: true }));
// what only a real process shows (a closed pipe, a terminal, signals) spawns the built binary.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { join } from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { envelope } from '../support/errors.js';
import { unwrapped } from '../support/unwrapped.js';
import {
  baseEnv,
  type Result,
  ROOT,
  STACK_LINE,
  SVC,
  TINY_PDF,
  useWorld,
  VERSION,
} from './harness.js';

const RAM = 'rpt_e8699f830adc84b8'; // complete, Ram Bahadur Shrestha (organisation A)
const PROCESSING = 'rpt_9809bacb02f7a90e'; // stays processing: views answer 409 REPORT_NOT_READY
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const world = useWorld({ inProcess: true });
let url: string;
let key: string;

beforeAll(() => {
  url = world.mock.url;
  key = world.key().key;
});

const list = (...flags: string[]) => world.svc(['reports', 'list', ...flags]);
const match = (...flags: string[]) =>
  world.svc(['match', RAM, '--name', 'Ram Bahadur Shrestha', ...flags]);
const logged = async () => world.requests();
const service = async () => (await logged()).filter((r) => r.path.startsWith('/v1/'));
/** The lines of stderr, each message on one (svc wraps them at 80 columns in a pipe). */
const lines = (text: string) =>
  unwrapped(text)
    .split('\n')
    .filter((line) => line !== '');

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Expects a failure reported as a script sees it: the exit code, nothing on stdout, no stack. */
function expectFailure(result: Result, exit: number): void {
  expect(result.code, `stderr: ${result.stderr}`).toBe(exit);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^error: /);
  expect(result.stderr).not.toMatch(STACK_LINE);
}

describe('request headers', () => {
  it('a GET sends the key as Bearer, Accept JSON and the svc/node User-Agent', async () => {
    // The mock's log masks the Authorization header, so this one request goes to a recorder.
    const seen: Record<string, string | string[] | undefined>[] = [];
    const recorder = createServer((req, res) => {
      seen.push(req.headers);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ data: [] }));
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    try {
      const port = (recorder.address() as AddressInfo).port;
      const result = await world.svc(['reports', 'list', '--retries', '0'], {
        env: { SVC_BASE_URL: `http://127.0.0.1:${port}` },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(seen).toHaveLength(1);
      expect(seen[0]!.authorization).toBe(`Bearer ${key}`);
    } finally {
      recorder.closeAllConnections();
      await new Promise<void>((resolve) => recorder.close(() => resolve()));
    }
  });

  it('every request carries authorization, accept and user-agent', async () => {
    const result = await list('--retries', '0');
    expect(result.code, result.stderr).toBe(0);
    const [request, ...others] = await service();
    expect(others).toHaveLength(0);
    expect(request!.method).toBe('GET');
    expect(request!.path).toBe('/v1/reports');
    expect(request!.headers.authorization).toBe(`Bearer svc_sk_test_…${key.slice(-4)}`);
    expect(request!.headers.accept).toBe('application/json');
    const ua = new RegExp(`^svc/${VERSION.replaceAll('.', '\\.')} node/\\d+\\.\\d+\\.\\d+$`);
    expect(request!.headers['user-agent']).toMatch(ua);
    expect(request!.headers['user-agent']).toBe(`svc/${VERSION} node/${process.versions.node}`);
  });

  it('a POST sends a JSON body with content-type and a UUID idempotency-key', async () => {
    const result = await match('--retries', '0');
    expect(result.code, result.stderr).toBe(0);
    const [request, ...others] = await service();
    expect(others).toHaveLength(0);
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe(`/v1/reports/${RAM}/identity/match`);
    expect(request!.headers['content-type']).toMatch(/^application\/json(;|$)/);
    expect(request!.headers['idempotency-key']).toMatch(UUID);
    expect(request!.headers.authorization).toBe(`Bearer svc_sk_test_…${key.slice(-4)}`);
    expect(request!.headers.accept).toBe('application/json');
    expect(request!.headers['user-agent']).toBe(`svc/${VERSION} node/${process.versions.node}`);
    expect(JSON.parse(request!.body!)).toEqual({ name: 'Ram Bahadur Shrestha' });
  });

  it('two separate POST invocations use different idempotency keys', async () => {
    expect((await match('--retries', '0')).code).toBe(0);
    expect((await match('--retries', '0')).code).toBe(0);
    const keys = (await service()).map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('retries', () => {
  it('503 twice then success: exit 0 after 3 requests', async () => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status: 503,
      json: envelope('API_ERROR', 'API_ERROR', 'made-up failure API_ERROR'),
      times: 2,
    });
    const result = await list('--retries', '2');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(RAM);
    expect((await service()).map((r) => r.status)).toEqual([503, 503, 200]);
  });

  it('a POST retried after 503 reuses the same idempotency-key on every attempt', async () => {
    await world.fault({
      method: 'POST',
      path: '/v1/reports/',
      status: 503,
      json: envelope('API_ERROR', 'API_ERROR', 'made-up failure API_ERROR'),
      times: 2,
    });
    const result = await match('--retries', '2');
    expect(result.code, result.stderr).toBe(0);
    const requests = await service();
    expect(requests.map((r) => r.status)).toEqual([503, 503, 200]);
    const keys = new Set(requests.map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(UUID);
    for (const r of requests) expect(JSON.parse(r.body!)).toEqual({ name: 'Ram Bahadur Shrestha' });
  });

  it('429 with Retry-After: 1 once then success: exit 0 after 2 requests, the wait honoured', async () => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status: 429,
      headers: { 'Retry-After': '1' },
      json: envelope('RATE_LIMIT_ERROR', 'RATE_LIMITED', 'made-up failure RATE_LIMITED'),
    });
    const result = await list('--retries', '2', '--debug');
    expect(result.code, result.stderr).toBe(0);
    const requests = await service();
    expect(requests.map((r) => r.status)).toEqual([429, 200]);
    // The wait svc took, as its trace says (the backoff alone would be 250-500 ms).
    expect(result.stderr).toMatch(/^debug: … GET \S+ HTTP 429; retry 1 of 2 in 1000ms$/m);
  });

  it.each([502, 504])('%i is retried', async (status) => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status,
      body: 'Bad gateway',
      times: 1,
    });
    const result = await list('--retries', '2');
    expect(result.code, result.stderr).toBe(0);
    expect((await service()).map((r) => r.status)).toEqual([status, 200]);
  });

  it('--retries 0: no retry', async () => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status: 503,
      json: envelope('API_ERROR', 'API_ERROR', 'made-up failure API_ERROR'),
      times: 5,
    });
    const result = await list('--retries', '0');
    expectFailure(result, 8);
    expect(await service()).toHaveLength(1);
  });

  it('--retries 1: at most 2 attempts', async () => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status: 503,
      json: envelope('API_ERROR', 'API_ERROR', 'made-up failure API_ERROR'),
      times: 5,
    });
    const result = await list('--retries', '1');
    expectFailure(result, 8);
    expect((await service()).map((r) => r.status)).toEqual([503, 503]);
  });

  it.each([
    [400, 'INVALID_REQUEST', 'INVALID_REQUEST_ERROR', 6],
    [404, 'NOT_FOUND', 'NOT_FOUND_ERROR', 5],
    [500, 'API_ERROR', 'API_ERROR', 8],
  ])('%i is never retried', async (status, code, type, exit) => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status,
      json: envelope(type, code, `made-up failure ${code}`),
      times: 3,
    });
    const result = await list('--retries', '2');
    expectFailure(result, exit);
    expect(await service()).toHaveLength(1);
  });

  it('a POST answered 400 is not retried either', async () => {
    await world.fault({
      method: 'POST',
      path: '/v1/reports/',
      status: 400,
      json: envelope('INVALID_REQUEST_ERROR', 'INVALID_REQUEST', 'made-up failure INVALID_REQUEST'),
      times: 3,
    });
    const result = await match('--retries', '2');
    expectFailure(result, 6);
    expect(await service()).toHaveLength(1);
  });

  it('a reply slower than --timeout is a network error: retried, then exit 9 naming the timeout', async () => {
    await world.fault({ method: 'GET', path: '/v1/reports', delay_ms: 3000, times: 2 });
    const result = await list('--timeout', '0.5', '--retries', '1');
    expectFailure(result, 9);
    expect(result.stderr).toMatch(/time(d)? ?out/i);
    const requests = await service();
    expect(requests).toHaveLength(2);
  });
});

describe('network failures', () => {
  it('nothing listening: exit 9 with a one-line error and no stack trace', async () => {
    const port = await closedPort();
    const result = await world.svc(['reports', 'list', '--retries', '0'], {
      env: { SVC_BASE_URL: `http://127.0.0.1:${port}` },
    });
    expectFailure(result, 9);
    const errorLines = lines(result.stderr).filter((line) => line.startsWith('error:'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toContain(`127.0.0.1:${port}`);
  });

  it('a connection reset on every attempt: exit 9 after the retries', async () => {
    await world.fault({ method: 'GET', path: '/v1/reports', reset: true, times: 3 });
    const result = await list('--retries', '2');
    expectFailure(result, 9);
    const requests = await service();
    expect(requests).toHaveLength(3);
    expect(requests.every((r) => r.status === null)).toBe(true);
  });

  it('a connection reset once, then success: exit 0', async () => {
    await world.fault({ method: 'GET', path: '/v1/reports', reset: true, times: 1 });
    const result = await list('--retries', '1');
    expect(result.code, result.stderr).toBe(0);
    expect(await service()).toHaveLength(2);
  });
});

describe('exit codes', () => {
  it('401 INVALID_API_KEY (a key the service does not know) → 3', async () => {
    const result = await world.svc(['reports', 'list', '--retries', '0'], {
      env: { SVC_API_KEY: `svc_sk_test_${'0'.repeat(32)}` },
    });
    expectFailure(result, 3);
    expect(result.stderr).toMatch(/^error: INVALID_API_KEY: /);
  });

  it('403 INSUFFICIENT_SCOPE (parse with a READ_ONLY key) → 4', async () => {
    const pdf = join(world.dir, 'tiny.pdf');
    writeFileSync(pdf, TINY_PDF);
    const result = await world.svc(['parse', pdf, '--retries', '0'], {
      env: { SVC_API_KEY: world.key(0, 'test', 'READ_ONLY').key },
    });
    expectFailure(result, 4);
    expect(result.stderr).toMatch(/^error: INSUFFICIENT_SCOPE: /);
    expect((await service()).map((r) => r.status)).toEqual([403]);
  });

  it('404 REPORT_NOT_FOUND → 5', async () => {
    const result = await world.svc(['reports', 'get', 'rpt_0000000000000000', '--retries', '0']);
    expectFailure(result, 5);
    expect(result.stderr).toMatch(/^error: REPORT_NOT_FOUND: /);
  });

  it('409 REPORT_NOT_READY → 6', async () => {
    const result = await world.svc(['reports', 'counterparties', PROCESSING, '--retries', '0']);
    expectFailure(result, 6);
    expect((await service()).map((r) => r.status)).toEqual([409]);
  });

  it.each([
    [400, 'INVALID_REQUEST', 'INVALID_REQUEST_ERROR', 6],
    [422, 'INVALID_REQUEST', 'INVALID_REQUEST_ERROR', 6],
    [429, 'QUOTA_EXCEEDED', 'RATE_LIMIT_ERROR', 7],
    [500, 'API_ERROR', 'API_ERROR', 8],
  ])('%i %s (%s) → %i', async (status, code, type, exit) => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status,
      json: envelope(type, code, `made-up failure ${code}`),
    });
    const result = await list('--retries', '0');
    expectFailure(result, exit);
    expect(result.stderr.split('\n')[0]).toBe(`error: ${code}: made-up failure ${code}`);
  });

  it('503 after the retries → 8', async () => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status: 503,
      json: envelope('API_ERROR', 'API_ERROR', 'made-up failure API_ERROR'),
      times: 2,
    });
    const result = await list('--retries', '1');
    expectFailure(result, 8);
    expect(await service()).toHaveLength(2);
  });

  it.each([
    ['error_code wins over the status', 400, 'QUOTA_EXCEEDED', undefined, 7],
    ['error_code wins over the status', 500, 'INVALID_API_KEY', undefined, 3],
    ['error_code wins over error_type', 400, 'REPORT_NOT_FOUND', 'PERMISSION_ERROR', 5],
    ['error_type is used when the code is unknown', 400, 'SOMETHING_NEW', 'PERMISSION_ERROR', 4],
    ['error_type is used when the code is unknown', 500, 'SOMETHING_NEW', 'RATE_LIMIT_ERROR', 7],
    [
      'error_type is used when the code is unknown',
      404,
      'SOMETHING_NEW',
      'AUTHENTICATION_ERROR',
      3,
    ],
  ])('%s: status %i, %s / %s → %i', async (_why, status, code, type, exit) => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status,
      json: envelope(type, code, `made-up failure ${code}`),
    });
    const result = await list('--retries', '0');
    expectFailure(result, exit);
    expect(result.stderr).toContain(code);
  });

  it.each([
    [401, 3],
    [403, 4],
    [404, 5],
    [400, 6],
    [409, 6],
    [422, 6],
    [429, 7],
    [500, 8],
    [501, 8],
    [503, 8],
    [418, 1],
  ])('status %i with an unknown code and type → %i', async (status, exit) => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status,
      json: envelope('SOMETHING_ELSE', 'SOMETHING_NEW', 'made-up failure SOMETHING_NEW'),
    });
    const result = await list('--retries', '0');
    expectFailure(result, exit);
    expect(result.stderr).toContain('SOMETHING_NEW');
  });

  it('an HTML 502 page → 8 with a one-line message', async () => {
    const page = `<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n${'<p>upstream went away</p>\n'.repeat(200)}</body>\n</html>\n`;
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status: 502,
      headers: { 'Content-Type': 'text/html' },
      body: page,
    });
    const result = await list('--retries', '0');
    expectFailure(result, 8);
    const [first, ...rest] = lines(result.stderr);
    expect(first).toMatch(/^error: .*502/);
    expect(first!.length).toBeLessThan(400);
    for (const line of rest) expect(line).not.toContain('<');
  });

  it('a 200 whose body is not JSON → 10 with a short excerpt', async () => {
    const body = 'this is not json at all; '.repeat(400);
    await world.fault({ method: 'GET', path: '/v1/reports', status: 200, body });
    const result = await list('--retries', '0');
    expectFailure(result, 10);
    expect(result.stderr).toContain('this is not json');
    expect(result.stderr.length).toBeLessThan(800);
  });

  it('a 200 JSON reply of the wrong shape → 10', async () => {
    await world.fault({ method: 'GET', path: '/v1/reports', status: 200, json: { data: 'nope' } });
    const result = await list('--retries', '0');
    expectFailure(result, 10);
  });

  it('the older nested envelope with 401 → 3, its code upper-cased', async () => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status: 401,
      json: { error: { code: 'invalid_api_key', message: 'The key was revoked.' } },
    });
    const result = await list('--retries', '0');
    expectFailure(result, 3);
    expect(result.stderr.split('\n')[0]).toBe('error: INVALID_API_KEY: The key was revoked.');
  });

  it('the older nested envelope: its code decides even against the status', async () => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status: 400,
      json: { error: { code: 'quota_exceeded', message: 'No more.' } },
    });
    const result = await list('--retries', '0');
    expectFailure(result, 7);
    expect(result.stderr).toContain('QUOTA_EXCEEDED');
  });
});

describe('error output', () => {
  it('stderr: error line, suggested action, documentation URL, request id; stdout empty', async () => {
    const result = await world.svc(['reports', 'get', 'rpt_0000000000000000', '--retries', '0']);
    expectFailure(result, 5);
    // The same request made directly, for the envelope's fixed fields.
    const direct = (await (
      await fetch(`${url}/v1/reports/rpt_0000000000000000`, {
        headers: { Authorization: `Bearer ${key}` },
      })
    ).json()) as Record<string, string>;
    const requestId = (await service())[0]!.request_id;
    expect(requestId).toMatch(/^req_[0-9a-f]+$/);
    const out = lines(result.stderr);
    expect(out[0]).toBe(`error: REPORT_NOT_FOUND: ${direct.error_message}`);
    expect(out[1]).toContain(direct.suggested_action);
    expect(out[2]).toContain(direct.documentation_url);
    expect(out[3]).toContain(requestId);
    expect(out[3]).toMatch(/req_[0-9a-f]+/);
  });

  it('lines are in the documented order for an injected envelope too', async () => {
    const body = envelope(
      'INVALID_REQUEST_ERROR',
      'INVALID_REQUEST',
      'made-up failure INVALID_REQUEST',
      {
        suggested_action: 'Fix the thing.',
        documentation_url: 'https://docs.example/errors#invalid_request',
        request_id: 'req_0123456789abcdef',
      },
    );
    await world.fault({ method: 'GET', path: '/v1/reports', status: 400, json: body });
    const result = await list('--retries', '0');
    expectFailure(result, 6);
    const out = lines(result.stderr);
    expect(out[0]).toBe('error: INVALID_REQUEST: made-up failure INVALID_REQUEST');
    expect(out[1]).toContain('Fix the thing.');
    expect(out[2]).toContain('https://docs.example/errors#invalid_request');
    expect(out[3]).toContain('req_0123456789abcdef');
  });

  it.each(['--json', '-o ndjson', '-o json'])(
    'with %s stderr is exactly one line: the compact envelope',
    async (flagText) => {
      const flags = flagText.split(' ');
      const body = envelope(
        'INVALID_REQUEST_ERROR',
        'INVALID_REQUEST',
        'made-up failure INVALID_REQUEST',
        {
          display_message: null,
          suggested_action: 'Fix the thing.',
          documentation_url: 'https://docs.example/errors#invalid_request',
          request_id: 'req_0123456789abcdef',
        },
      );
      await world.fault({ method: 'GET', path: '/v1/reports', status: 400, json: body });
      const result = await list('--retries', '0', ...flags);
      expect(result.code).toBe(6);
      expect(result.stdout).toBe('');
      expect(result.stderr.endsWith('\n')).toBe(true);
      const out = result.stderr.slice(0, -1);
      expect(out).not.toContain('\n');
      const parsed = JSON.parse(out) as unknown;
      expect(parsed).toEqual(body);
      expect(out).toBe(JSON.stringify(parsed));
    },
  );

  it('with --json a real service error is the envelope the service sent', async () => {
    const result = await world.svc([
      'reports',
      'get',
      'rpt_0000000000000000',
      '--retries',
      '0',
      '--json',
    ]);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    const out = lines(result.stderr);
    expect(out).toHaveLength(1);
    const parsed = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(parsed.error_code).toBe('REPORT_NOT_FOUND');
    expect(parsed.error_type).toBe('NOT_FOUND_ERROR');
    expect(parsed.request_id).toBe((await service())[0]!.request_id);
  });
});

describe('--debug', () => {
  const secretMiddle = () => key.slice('svc_sk_test_'.length, -4);

  it.each([
    ['--debug', ['--debug'], {}],
    ['SVC_DEBUG=1', [], { SVC_DEBUG: '1' }],
  ] as const)(
    '%s: a line per request and reply with method, URL, status, time, request id; key masked',
    async (_name, flags, env) => {
      const result = await world.svc(['reports', 'list', '--retries', '0', ...flags], { env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(RAM);
      const [request] = await service();
      const traced = lines(result.stderr).filter((line) => line.includes(`${url}/v1/reports`));
      expect(traced.length).toBeGreaterThanOrEqual(2);
      expect(traced.every((line) => line.includes('GET'))).toBe(true);
      const reply = traced.find((line) => /\b200\b/.test(line));
      expect(reply).toBeDefined();
      expect(reply).toMatch(/\d+(\.\d+)?\s?ms\b/);
      expect(reply).toContain(request!.request_id);
      for (const text of [result.stdout, result.stderr]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(secretMiddle());
      }
    },
  );

  it('--debug on a retried request traces every attempt', async () => {
    await world.fault({
      method: 'GET',
      path: '/v1/reports',
      status: 503,
      json: envelope('API_ERROR', 'API_ERROR', 'made-up failure API_ERROR'),
    });
    const result = await list('--retries', '1', '--debug');
    expect(result.code, result.stderr).toBe(0);
    const ids = (await service()).map((r) => r.request_id);
    expect(ids).toHaveLength(2);
    expect(result.stderr).toMatch(/\b503\b/);
    expect(result.stderr).toMatch(/\b200\b/);
    for (const id of ids) expect(result.stderr).toContain(id);
    expect(result.stderr).not.toContain(key);
    expect(result.stderr).not.toContain(secretMiddle());
  });

  it('--debug on failures (API error, POST, network error) never shows the key', async () => {
    const runs: Result[] = [];
    runs.push(
      await world.svc(['reports', 'get', 'rpt_0000000000000000', '--retries', '0', '--debug']),
    );
    runs.push(await match('--retries', '0', '--debug'));
    const port = await closedPort();
    runs.push(
      await world.svc(['reports', 'list', '--retries', '0', '--debug'], {
        env: { SVC_BASE_URL: `http://127.0.0.1:${port}` },
      }),
    );
    expect(runs.map((r) => r.code)).toEqual([5, 0, 9]);
    for (const result of runs) {
      expect(result.stdout).not.toContain(key);
      expect(result.stderr).not.toContain(key);
      expect(result.stderr).not.toContain(secretMiddle());
      expect(result.stderr).toMatch(/debug|→|←|GET|POST/);
    }
  });

  it('with --json stdout is still pure JSON', async () => {
    const result = await list('--retries', '0', '--json', '--debug');
    expect(result.code, result.stderr).toBe(0);
    const direct = await (
      await fetch(`${url}/v1/reports`, { headers: { Authorization: `Bearer ${key}` } })
    ).text();
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(direct));
    expect(result.stderr).toContain(`${url}/v1/reports`);
  });
});

interface Proxy {
  port: number;
  /** `CONNECT host:port` or `METHOD absolute-url`, one per request that passed through. */
  seen: string[];
  close(): Promise<void>;
}

/** A tiny forward proxy: CONNECT tunnels and absolute-form requests, counting what passes. */
async function startProxy(): Promise<Proxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '/');
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: target.pathname + target.search,
        headers: req.headers,
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    let tunnelled = false;
    const upstream = connect(Number(port), host, () => {
      tunnelled = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    // As real proxies do: a target it cannot reach is a 502 answer to the CONNECT.
    // (undici reconnects, again and again, to a proxy that just closes the socket.)
    upstream.on('error', () =>
      tunnelled ? client.destroy() : client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'),
    );
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('proxy', () => {
  let proxy: Proxy;
  beforeAll(async () => {
    proxy = await startProxy();
  });
  afterAll(async () => {
    await proxy?.close();
  });
  beforeEach(() => {
    proxy.seen.length = 0;
  });

  const proxyEnv = () => ({
    HTTP_PROXY: `http://127.0.0.1:${proxy.port}`,
    HTTPS_PROXY: `http://127.0.0.1:${proxy.port}`,
  });
  // A loopback base URL never goes through a proxy (http-hardening.test.ts): these use a remote
  // one that only the proxy could reach. The proxy cannot resolve it either, so each run ends
  // with a network error (exit 9) after the proxy saw the CONNECT.
  const REMOTE = 'https://svc.example.test';

  it('HTTP_PROXY/HTTPS_PROXY: the request goes through the proxy', async () => {
    const result = await world.svc(['reports', 'list', '--retries', '0'], {
      env: { ...proxyEnv(), SVC_BASE_URL: REMOTE },
    });
    expect(result.code, result.stderr).toBe(9);
    expect(proxy.seen).toEqual(['CONNECT svc.example.test:443']);
  });

  it('lower-case http_proxy is honoured too (for https, when no https proxy is set)', async () => {
    const result = await world.svc(['reports', 'list', '--retries', '0'], {
      env: { http_proxy: `http://127.0.0.1:${proxy.port}`, SVC_BASE_URL: REMOTE },
    });
    expect(result.code, result.stderr).toBe(9);
    expect(proxy.seen).toEqual(['CONNECT svc.example.test:443']);
  });

  it('NO_PROXY=example.test: the proxy sees nothing', async () => {
    const result = await world.svc(['reports', 'list', '--retries', '0'], {
      env: { ...proxyEnv(), NO_PROXY: 'example.test', SVC_BASE_URL: REMOTE },
    });
    expect(result.code, result.stderr).toBe(9);
    expect(proxy.seen).toEqual([]);
  });

  it('a loopback base URL: the proxy sees nothing, the key goes straight to the service', async () => {
    const result = await world.svc(['reports', 'list', '--retries', '0'], { env: proxyEnv() });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(RAM);
    expect(proxy.seen).toEqual([]);
    expect(await service()).toHaveLength(1);
  });
});

describe('Ctrl-C', () => {
  it('SIGINT while waiting for a reply: exit 130, no stack trace', async () => {
    await world.fault({ method: 'GET', path: '/v1/reports', delay_ms: 20_000 });
    const env = { ...baseEnv(world.dir), SVC_BASE_URL: url, SVC_API_KEY: key };
    const child = spawn(process.execPath, [SVC, 'reports', 'list', '--timeout', '30'], {
      env,
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal })),
    );
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    try {
      // Bounded wait until the request reached the mock.
      for (let i = 0; i < 200 && (await service()).length === 0; i++)
        await new Promise((r) => setTimeout(r, 50));
      expect(await service()).toHaveLength(1);
      child.kill('SIGINT');
      const { code, signal } = await closed;
      expect(signal).toBeNull();
      expect(code).toBe(130);
      expect(stdout).toBe('');
      expect(stderr).not.toMatch(STACK_LINE);
    } finally {
      clearTimeout(killer);
      child.kill('SIGKILL');
    }
  });
});
