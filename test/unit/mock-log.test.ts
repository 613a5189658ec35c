// The mock's request log stays bounded: it keeps the latest requests (1,000 by default, or
// `svc mock --keep-requests N`) and their bodies only when asked (`--keep-bodies`), so a long
// benchmark against the mock cannot grow it without limit.
import { afterEach, describe, expect, it } from 'vitest';

import {
  DEFAULT_LOG_CAPACITY,
  type RecordedRequest,
  RequestLog,
} from '../../src/mock/requestlog.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { svc } from '../support/in-process.js';
import { mockAdmin, mockAdminJson, testKeyOf } from '../support/mock-admin.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
const body = (text: string) => Buffer.from(text);

function recordPaths(log: RequestLog, count: number): void {
  for (let i = 1; i <= count; i++)
    log.record('GET', new URL(`http://127.0.0.1/v1/r${i}`), {}, Buffer.alloc(0), 0, `req_${i}`);
}

describe('RequestLog', () => {
  it('keeps the latest requests up to its capacity, oldest first, and counts those dropped', () => {
    const log = new RequestLog({ capacity: 3 });
    recordPaths(log, 5);
    expect(log.list().map((r) => r.path)).toEqual(['/v1/r3', '/v1/r4', '/v1/r5']);
    expect(log.dropped()).toBe(2);
    log.clear();
    expect([log.list(), log.dropped()]).toEqual([[], 0]);
  });

  it(`keeps ${DEFAULT_LOG_CAPACITY} requests by default`, () => {
    const log = new RequestLog();
    recordPaths(log, DEFAULT_LOG_CAPACITY + 10);
    expect(log.list()).toHaveLength(DEFAULT_LOG_CAPACITY);
    expect(log.list()[0]!.path).toBe('/v1/r11');
  });

  it('with capacity 0 keeps nothing, yet hands back the entry the server completes', () => {
    const log = new RequestLog({ capacity: 0 });
    const entry = log.record(
      'GET',
      new URL('http://127.0.0.1/v1/usage'),
      {},
      Buffer.alloc(0),
      0,
      'req_1',
    );
    expect(entry.path).toBe('/v1/usage');
    expect(log.list()).toEqual([]);
  });

  it('keeps no body unless asked, but always its size', () => {
    const url = new URL('http://127.0.0.1/v1/consents');
    const quiet = new RequestLog().record('POST', url, JSON_HEADERS, body('{"a":1}'), 7, 'req_1');
    expect(quiet).toMatchObject({ body: null, body_bytes: 7 });
    const kept = new RequestLog({ bodies: true }).record(
      'POST',
      url,
      JSON_HEADERS,
      body('{"a":1}'),
      7,
      'req_1',
    );
    expect(kept).toMatchObject({ body: '{"a":1}', body_bytes: 7 });
  });

  it('records a query parameter or header named __proto__ like any other', () => {
    const entry = new RequestLog().record(
      'GET',
      new URL('http://127.0.0.1/v1/usage?__proto__=x'),
      { ['__proto__']: 'y' },
      Buffer.alloc(0),
      0,
      'req_1',
    );
    expect(JSON.parse(JSON.stringify(entry))).toMatchObject({ query: { ['__proto__']: 'x' } });
  });
});

describe('GET /_mock/requests', () => {
  let mock: MockServer | undefined;
  afterEach(async () => mock?.close());

  async function logged(): Promise<{ entries: RecordedRequest[]; dropped: string | null }> {
    const reply = await mockAdmin(mock!, '/_mock/requests');
    return {
      entries: (await reply.json()) as RecordedRequest[],
      dropped: reply.headers.get('x-mock-requests-dropped'),
    };
  }

  it('lists only the latest requests and says how many were dropped', async () => {
    mock = await startMockServer({ requestLog: { capacity: 5 } });
    for (let i = 1; i <= 20; i++) await (await fetch(`${mock.url}/v1/usage?n=${i}`)).arrayBuffer();
    const { entries, dropped } = await logged();
    expect(entries.map((r) => r.query.n)).toEqual(['16', '17', '18', '19', '20']);
    expect(dropped).toBe('15');
  });

  it('keeps no bodies by default, only their sizes', async () => {
    mock = await startMockServer();
    const sent = JSON.stringify({ name: 'Ram Bahadur Shrestha' });
    const headers = { ...JSON_HEADERS, authorization: `Bearer ${testKeyOf(mock)}` };
    await (
      await fetch(`${mock.url}/v1/consents`, { method: 'POST', headers, body: sent })
    ).arrayBuffer();
    const { entries, dropped } = await logged();
    expect(entries).toMatchObject([{ path: '/v1/consents', body: null, body_bytes: sent.length }]);
    expect(dropped).toBe('0');
  });
});

describe('svc mock --keep-requests / --keep-bodies', () => {
  async function withMock(
    flags: string[],
    use: (
      url: string,
      started: { url: string; keys: { key: string; mode: string; scope: string }[] },
    ) => Promise<void>,
  ): Promise<void> {
    const stop = new AbortController();
    let shown!: (line: string) => void;
    const firstLine = new Promise<string>((resolve) => (shown = resolve));
    const exit = svc(['mock', '--port', '0', '--json', '--quiet', ...flags], {
      signal: stop.signal,
      onStdout: shown,
    });
    try {
      const started = JSON.parse(await firstLine) as {
        url: string;
        keys: { key: string; mode: string; scope: string }[];
      };
      await use(started.url, started);
    } finally {
      stop.abort();
      expect((await exit).code).toBe(0);
    }
  }

  it('keeps the given number of requests, without bodies by default', async () => {
    await withMock(['--keep-requests', '2'], async (url, started) => {
      const headers = { ...JSON_HEADERS, authorization: `Bearer ${testKeyOf(started)}` };
      for (const name of ['a', 'b', 'c'])
        await (
          await fetch(`${url}/v1/consents`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name }),
          })
        ).arrayBuffer();
      const entries = await mockAdminJson<RecordedRequest[]>(started, '/_mock/requests');
      expect(entries.map((r) => r.body)).toEqual([null, null]);
    });
  });

  it('keeps bodies with --keep-bodies', async () => {
    await withMock(['--keep-bodies'], async (url, started) => {
      const headers = { ...JSON_HEADERS, authorization: `Bearer ${testKeyOf(started)}` };
      await (
        await fetch(`${url}/v1/consents`, { method: 'POST', headers, body: '{"name":"a"}' })
      ).arrayBuffer();
      const entries = await mockAdminJson<RecordedRequest[]>(started, '/_mock/requests');
      expect(entries.map((r) => r.body)).toEqual(['{"name":"a"}']);
    });
  });

  it.each(['-1', 'many', '1000001'])(
    'refuses --keep-requests %s as a usage error',
    async (value) => {
      const result = await svc(['mock', '--port', '0', '--keep-requests', value]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: --keep-requests takes a whole number from 0 to 1000000, not "${value}"\n`,
      );
    },
  );
});

describe('secrets in what the mock shows of a request', () => {
  let mock: MockServer | undefined;
  afterEach(async () => mock?.close());

  it('masks a consent token (token=) on its stderr lines and in GET /_mock/requests, as svc masks secrets', async () => {
    const lines: string[] = [];
    mock = await startMockServer({ log: (line) => lines.push(line) });
    const key = testKeyOf(mock);
    const created = await fetch(`${mock.url}/v1/consents`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, authorization: `Bearer ${key}` },
      body: JSON.stringify({ report_id: 'rpt_e8699f830adc84b8', scopes: ['identity'] }),
    });
    const { token, data_url: dataUrl } = (await created.json()) as {
      token: string;
      data_url: string;
    };
    expect((await fetch(`${dataUrl}&token_hint=x`)).status).toBe(200);

    const masked = `…${token.slice(-4)}`;
    const line = lines.find((l) => l.startsWith('GET /v1/consents/'));
    expect(line).toMatch(
      new RegExp(`^GET /v1/consents/cns_[0-9a-f]+/data\\?token=${masked}&token_hint=x 200 \\d+ms$`),
    );
    const entries = await mockAdminJson<RecordedRequest[]>(mock, '/_mock/requests');
    expect(entries.at(-1)!.query).toEqual({ token: masked, token_hint: 'x' });
    expect(JSON.stringify(entries) + lines.join('\n')).not.toContain(token);
  });

  it('masks every parameter that carries a token, and the Authorization and X-Svc-Access-Token headers', async () => {
    const lines: string[] = [];
    mock = await startMockServer({ log: (line) => lines.push(line) });
    const key = testKeyOf(mock);
    const secrets = {
      access: 'cat_0123456789abcdef0123456789abcdef',
      public: 'cpt_fedcba9876543210fedcba9876543210',
    };
    await (
      await fetch(
        `${mock.url}/v1/grants/grt_0123456789abcdef/data?public_token=${secrets.public}`,
        { headers: { authorization: `Bearer ${key}`, 'x-svc-access-token': secrets.access } },
      )
    ).arrayBuffer();
    const [entry] = await mockAdminJson<RecordedRequest[]>(mock, '/_mock/requests');
    expect(entry!.headers.authorization).toBe(`Bearer svc_sk_test_…${key.slice(-4)}`);
    expect(entry!.headers['x-svc-access-token']).toBe('…cdef');
    expect(entry!.query).toEqual({ public_token: '…3210' });
    expect(lines[0]).toMatch(
      /^GET \/v1\/grants\/grt_0123456789abcdef\/data\?public_token=…3210 \d+ \d+ms$/,
    );
    const shown = JSON.stringify(entry) + lines.join('\n');
    for (const secret of [key, secrets.access, secrets.public]) expect(shown).not.toContain(secret);
  });
});
