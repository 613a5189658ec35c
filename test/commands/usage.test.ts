// `svc usage` in-process, as a person and as a script.
import { describe, expect, it } from 'vitest';

import { FakeService, MODES, plain, svc } from '../support/in-process.js';

const USAGE = {
  plan: 'growth',
  quota: 10000,
  used: 9500,
  remaining: 500,
  period: '2026-05',
  resets_at: '2026-06-01T00:00:00Z',
};

const service = (body: unknown = USAGE, status = 200) =>
  new FakeService().expect('GET', '/v1/usage', { status, body });

describe('svc usage', () => {
  it('shows a person the plan, the share used and when it resets', async () => {
    const result = await svc(['usage'], { tty: true, service: service() });
    expect(result.code).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).toContain('9,500 of 10,000 (95%)');
    expect(screen).toContain('in 10 days');
    expect(result.stderr).toBe('');
  });

  it('gives a script tab-separated fields and --json the body as received', async () => {
    const table = await svc(['usage'], { service: service() });
    expect(table.stdout).not.toMatch(/\u001b\[/);
    expect(table.stdout).toMatch(/^plan\tgrowth$/m);
    const json = await svc(['usage', '--json'], { service: service() });
    expect(JSON.parse(json.stdout)).toEqual(USAGE);
  });

  it('gives a script the documented counters, the share used and the reset time, then the counters a server adds as dotted fields', async () => {
    const body = {
      ...USAGE,
      data_api: { quota: 2500, used: 322, remaining: 2178 },
      merchant_resolve: { used: 58 },
    };
    const result = await svc(['usage'], { service: service(body) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'FIELD\tVALUE',
        'plan\tgrowth',
        'used\t9,500 of 10,000 (95%)',
        'remaining\t500',
        'period\t2026-05',
        // In the local zone (TZ=UTC here); how far off it is only on a terminal.
        'resets_at\t2026-06-01 00:00 UTC',
        'data_api.quota\t2500',
        'data_api.used\t322',
        'data_api.remaining\t2178',
        'merchant_resolve.used\t58',
      ].join('\n') + '\n',
    );
  });

  it.each(MODES)(
    '-o csv: one record, the counters a server adds in dotted columns, for $mode',
    async ({ tty }) => {
      const body = {
        ...USAGE,
        data_api: { quota: 2500, used: 322 },
        merchant_resolve: { used: 58 },
      };
      const result = await svc(['usage', '-o', 'csv'], { tty, service: service(body) });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        'plan,quota,used,remaining,period,resets_at,data_api.quota,data_api.used,merchant_resolve.used\r\ngrowth,10000,9500,500,2026-05,2026-06-01T00:00:00Z,2500,322,58\r\n',
      );
      const ndjson = await svc(['usage', '-o', 'ndjson'], { tty, service: service(body) });
      expect(ndjson.stdout).toBe(JSON.stringify(body) + '\n');
    },
  );

  it('sends the key and asks for JSON', async () => {
    const { requests } = await svc(['usage', '--json'], { service: service() });
    expect(requests[0]!.headers.authorization).toMatch(/^Bearer svc_sk_test_/);
    expect(requests[0]!.headers.accept).toBe('application/json');
  });

  it('maps an invalid key to exit 3 with one line on stderr', async () => {
    const body = {
      error_type: 'AUTHENTICATION_ERROR',
      error_code: 'INVALID_API_KEY',
      error_message: 'The API key is not valid.',
    };
    const result = await svc(['usage'], { service: service(body, 401) });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe('error: INVALID_API_KEY: The API key is not valid.');
  });

  it.each(MODES)(
    'a 429 QUOTA_EXCEEDED is not retried: one request, exit 7, the message shown, for $mode',
    async ({ tty }) => {
      const body = {
        error_type: 'RATE_LIMIT_ERROR',
        error_code: 'QUOTA_EXCEEDED',
        error_message: 'The monthly quota of 10000 is used up.',
      };
      const fake = new FakeService().expect('GET', '/v1/usage', {
        status: 429,
        body,
        headers: { 'retry-after': '1' },
      });
      const result = await svc(['usage'], { tty, service: fake });
      expect(result.code).toBe(7);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toBe(
        'error: QUOTA_EXCEEDED: The monthly quota of 10000 is used up.',
      );
      expect(result.requests).toHaveLength(1);
      expect(result.waits).toEqual([]);
    },
  );

  it('a 429 RATE_LIMITED is retried after its Retry-After', async () => {
    const body = {
      error_type: 'RATE_LIMIT_ERROR',
      error_code: 'RATE_LIMITED',
      error_message: 'Slow down.',
    };
    const fake = new FakeService()
      .expect('GET', '/v1/usage', { status: 429, body, headers: { 'retry-after': '2' } })
      .expect('GET', '/v1/usage', { body: USAGE });
    const result = await svc(['usage', '--json'], { service: fake });
    expect(result.code).toBe(0);
    expect(result.waits).toEqual([2000]);
    expect(JSON.parse(result.stdout)).toEqual(USAGE);
  });

  it('retries a 503 after the wait Retry-After asks for, on the test clock', async () => {
    const fake = new FakeService()
      .expect('GET', '/v1/usage', {
        status: 503,
        body: { error_code: 'API_ERROR' },
        headers: { 'retry-after': '7' },
      })
      .expect('GET', '/v1/usage', { body: USAGE });
    const result = await svc(['usage', '--json'], { service: fake });
    expect(result.code).toBe(0);
    expect(result.waits).toEqual([7000]);
  });
});

describe('known fields of another type than documented', () => {
  it('are shown as they came, not left blank', async () => {
    const body = {
      plan: 'sandbox',
      quota: { parse: 100 },
      used: { parse: 3 },
      remaining: [1, 2],
      period: { from: 'a' },
      resets_at: 12345,
    };
    const result = await svc(['usage'], {
      service: new FakeService().expect('GET', '/v1/usage', { body }),
    });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toContain('plan\tsandbox');
    expect(lines).toContain('quota.parse\t100');
    expect(lines).toContain('used.parse\t3');
    expect(lines).toContain('remaining\t1, 2');
    expect(lines).toContain('period.from\ta');
    expect(result.stdout).toContain('12345');
  });
});
