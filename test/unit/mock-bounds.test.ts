// What keeps `svc mock` flat over a long benchmark: the request log's ring, the idempotency
// table's limits on keys and on reply bytes, reports listed from an index, sandbox reports sharing
// their scenario's statement, expired Connect requests dropped; and the merchant results written
// by hand exactly as JSON.stringify would write them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { type ApiDeps, handleApi } from '../../src/mock/api.js';
import { ConsentBook } from '../../src/mock/consents.js';
import { DecisionBook } from '../../src/mock/decisions.js';
import { fixtures } from '../../src/mock/fixtures.js';
import { ConnectFlows } from '../../src/mock/grants.js';
import {
  bodyBytes,
  bodyJson,
  JsonText,
  type Reply,
  stringsNeedNoEscape,
} from '../../src/mock/http.js';
import {
  type Claim,
  IdempotencyTable,
  type IdempotentRequest,
} from '../../src/mock/idempotency.js';
import { KeyRing } from '../../src/mock/keys.js';
import { merchantDirectory } from '../../src/mock/merchants/directory.js';
import { RequestLog } from '../../src/mock/requestlog.js';
import { startMockServer } from '../../src/mock/server.js';
import { MockStore } from '../../src/mock/store.js';
import { WebhookSender } from '../../src/mock/webhooks.js';
import { keyOf } from '../support/keys.js';

const url = (path: string) => new URL(`http://127.0.0.1${path}`);
const get = (log: RequestLog, path: string) =>
  log.record('GET', url(path), {}, Buffer.alloc(0), 0, `req_${path}`);

describe('RequestLog, a ring of the latest requests', () => {
  it('keeps its capacity through many turns of the ring, oldest first', () => {
    const log = new RequestLog({ capacity: 3 });
    for (let i = 1; i <= 10; i++) get(log, `/v1/r${i}`);
    expect(log.list().map((r) => r.path)).toEqual(['/v1/r8', '/v1/r9', '/v1/r10']);
    expect([log.size, log.dropped()]).toEqual([3, 7]);
    get(log, '/v1/r11');
    expect(log.list().map((r) => r.path)).toEqual(['/v1/r9', '/v1/r10', '/v1/r11']);
  });

  it('lists the status the server sets after recording, and the time as an ISO date-time', () => {
    const log = new RequestLog({ capacity: 2 });
    const entry = get(log, '/v1/usage');
    entry.status = 200;
    const [listed] = log.list();
    expect(listed).toMatchObject({ path: '/v1/usage', status: 200, request_id: 'req_/v1/usage' });
    expect(listed!.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('starts again from empty after clear, however far the ring had turned', () => {
    const log = new RequestLog({ capacity: 2 });
    for (let i = 1; i <= 5; i++) get(log, `/v1/r${i}`);
    log.clear();
    get(log, '/v1/after');
    expect([log.list().map((r) => r.path), log.dropped()]).toEqual([['/v1/after'], 0]);
  });

  it('keeps a body only when asked, and never one past 256 KiB', () => {
    const json = { 'content-type': 'application/json' };
    const small = Buffer.from('{"a":1}');
    const big = Buffer.alloc(256 * 1024 + 1, 'a');
    expect(
      new RequestLog().record('POST', url('/v1/x'), json, small, small.length, 'req_1').body,
    ).toBeNull();
    const kept = new RequestLog({ bodies: true });
    expect(kept.record('POST', url('/v1/x'), json, small, small.length, 'req_1').body).toBe(
      '{"a":1}',
    );
    expect(kept.record('POST', url('/v1/x'), json, big, big.length, 'req_2')).toMatchObject({
      body: null,
      body_bytes: big.length,
    });
  });
});

describe('IdempotencyTable limits', () => {
  function request(key: string, body = '{}'): IdempotentRequest {
    const data = Buffer.from(body);
    return {
      scope: 'org_a/test',
      key,
      method: 'POST',
      url: url('/v1/merchants/resolve'),
      contentType: 'application/json',
      body: { data, size: data.length },
    };
  }
  const settle = (claim: Claim, reply: Reply) =>
    'settle' in claim ? claim.settle(reply) : expect.unreachable();
  const ran = (claim: Claim) => 'settle' in claim;
  /** A reply whose JSON is `bytes` long. */
  const replyOf = (bytes: number): Reply => ({
    status: 200,
    body: { pad: 'x'.repeat(bytes - '{"pad":""}'.length) },
  });

  it('keeps replies up to its byte limit, forgetting the oldest keys first', () => {
    const table = new IdempotencyTable(() => new Date(), { replyBytes: 1000 });
    for (const key of ['key-00000001', 'key-00000002', 'key-00000003'])
      settle(table.claim(request(key)), replyOf(400));
    expect([table.size, table.replyBytesKept]).toEqual([2, 800]);
    expect(ran(table.claim(request('key-00000001')))).toBe(true); // forgotten: runs again
    expect(table.claim(request('key-00000003'))).toMatchObject({
      replay: { status: 200, headers: { 'Idempotent-Replayed': 'true' } },
    });
  });

  it('does not keep a reply larger than the whole limit, and forgets no other key for it', () => {
    const table = new IdempotencyTable(() => new Date(), { replyBytes: 1000 });
    settle(table.claim(request('key-00000001')), replyOf(400));
    settle(table.claim(request('key-00000002')), replyOf(1001));
    expect([table.size, table.replyBytesKept]).toEqual([1, 400]);
    expect(ran(table.claim(request('key-00000002')))).toBe(true);
    expect(ran(table.claim(request('key-00000001')))).toBe(false);
  });

  it('counts no bytes for keys in flight, and gives back those of a released or failed key', () => {
    const table = new IdempotencyTable(() => new Date(), { replyBytes: 1000 });
    const inFlight = table.claim(request('key-00000001'));
    expect([table.size, table.replyBytesKept]).toEqual([1, 0]);
    settle(inFlight, { status: 503, body: {} });
    expect([table.size, table.replyBytesKept]).toEqual([0, 0]);
    settle(table.claim(request('key-00000002')), replyOf(300));
    expect(table.replyBytesKept).toBe(300);
  });

  it('stays within both limits whatever the mix of keys and sizes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 10, max: 400 }), { maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        (sizes, capacity) => {
          const table = new IdempotencyTable(() => new Date(), { capacity, replyBytes: 1000 });
          sizes.forEach((bytes, i) =>
            settle(
              table.claim(request(`key-${String(i).padStart(8, '0')}`)),
              replyOf(Math.max(bytes, 12)),
            ),
          );
          expect(table.size).toBeLessThanOrEqual(capacity);
          expect(table.replyBytesKept).toBeLessThanOrEqual(1000);
        },
      ),
    );
  });

  it('replays a reply written as JSON text with the same body', () => {
    const table = new IdempotencyTable(() => new Date());
    settle(table.claim(request('key-00000001')), {
      status: 200,
      body: new JsonText('{"data":{"count":1}}'),
    });
    expect(table.claim(request('key-00000001'))).toEqual({
      replay: {
        status: 200,
        body: new JsonText('{"data":{"count":1}}'),
        headers: { 'Idempotent-Replayed': 'true' },
      },
    });
  });

  it('svc mock forgets the oldest replies past idempotencyReplyBytes: a retry of one runs again', async () => {
    const mock = await startMockServer({ idempotencyReplyBytes: 30_000 });
    try {
      const key = keyOf(mock);
      const resolve = (idempotencyKey: string) =>
        fetch(`${mock.url}/v1/merchants/resolve`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': idempotencyKey,
          },
          body: JSON.stringify({
            terminals: Array.from({ length: 200 }, (_, i) => String(1e15 + i)),
          }),
        });
      // Each reply is about 13 KB: two fit.
      for (let i = 0; i < 5; i++) await (await resolve(`bounded-${i}-key`)).arrayBuffer();
      const newest = await resolve('bounded-4-key');
      const oldest = await resolve('bounded-0-key');
      expect([oldest.status, oldest.headers.get('idempotent-replayed')]).toEqual([200, null]);
      expect([newest.status, newest.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
      expect(await newest.json()).toEqual(await oldest.json());
    } finally {
      await mock.close();
    }
  });
});

describe('merchant results written as JSON text', () => {
  const directory = merchantDirectory();
  const terminals = directory.merchants.flatMap((m) => m.terminals).slice(0, 50);
  const names = directory.merchants
    .slice(0, 20)
    .flatMap((m) => [m.merchant, `M/S ${m.merchant} Pvt. Ltd.`]);
  /** What resolveJson must write: JSON.stringify of the results made one by one. */
  const expected = (terminals: string[], names: string[]) => {
    const results = [
      ...terminals.map((t) => directory.resolveTerminal(t)),
      ...names.map((n) => directory.resolveName(n)),
    ];
    return { json: JSON.stringify(results), matched: results.filter((r) => r.matched).length };
  };

  it('are exactly what JSON.stringify writes, for found and unknown terminals and names', () => {
    // Spaced and dashed forms of known terminals (one keeps its last six digits together), and
    // unknown numbers of every length.
    const [first, second] = terminals as [string, string];
    const unknown = [
      '0000',
      '12345',
      '123456',
      second.slice(0, -1) + String((Number(second.at(-1)) + 1) % 10),
      `x${second}`,
    ];
    const inputs: [string[], string[]] = [
      [
        ...terminals,
        ...unknown,
        first.replace(/(\d{4})/g, '$1 ').trim(),
        `${second.slice(0, 4)}-${second.slice(4)}`,
      ],
      [...names, 'Nobody At All'],
    ];
    const wanted = expected(...inputs);
    expect(wanted.matched).toBe(terminals.length + 2 + names.length);
    expect(directory.resolveJson(...inputs, true)).toEqual(wanted);
    // Again, from the terminals' JSON written the first time.
    expect(directory.resolveJson(...inputs, true)).toEqual(wanted);
  });

  it('escape whatever a client sends as input: quotes, backslashes, control characters, lone surrogates, other scripts', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 20 }), { maxLength: 20 }),
        fc.constantFrom(...terminals),
        (inputs, terminal) => {
          const mixed: [string[], string[]] = [
            [...inputs, terminal],
            [...inputs, directory.merchants[0]!.merchant],
          ];
          expect(directory.resolveJson(...mixed, false)).toEqual(expected(...mixed));
        },
      ),
    );
  });

  it('need no escaping when their JSON body has no backslash', () => {
    const body = (text: string) => ({ data: Buffer.from(text), size: text.length });
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : value && typeof value === 'object'
          ? Object.entries(value).flatMap(([key, item]) => [key, ...strings(item)])
          : [];
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, spaced) => {
        const text = JSON.stringify(value, null, spaced ? 1 : undefined);
        if (stringsNeedNoEscape(body(text)))
          for (const s of strings(JSON.parse(text))) expect(JSON.stringify(s)).toBe(`"${s}"`);
      }),
    );
    // Raw bytes: invalid UTF-8 is read as U+FFFD, never as a lone surrogate.
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), (bytes) => {
        const data = Buffer.concat([Buffer.from('["'), bytes, Buffer.from('"]')]);
        let parsed: unknown;
        try {
          parsed = JSON.parse(data.toString('utf8'));
        } catch {
          return;
        }
        if (stringsNeedNoEscape({ data, size: data.length }))
          for (const s of strings(parsed)) expect(JSON.stringify(s)).toBe(`"${s}"`);
      }),
    );
    expect([stringsNeedNoEscape(body('["a\\"b"]')), stringsNeedNoEscape(body('["a b"]'))]).toEqual([
      false,
      true,
    ]);
  });

  it('are sent in UTF-8, whatever characters they hold', () => {
    const utf8 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        expect(bodyBytes(value).equals(utf8(value))).toBe(true);
      }),
    );
    for (const text of ['plain', 'en – dash', 'Café', '\u0113', 'नेपाल', '😀', '\ud800']) {
      expect(bodyBytes(new JsonText(JSON.stringify({ text }))).equals(utf8({ text }))).toBe(true);
    }
  });

  it('are sent as they are, and serialised again are the same JSON', () => {
    const text = new JsonText('{"a":[1,"b"]}');
    expect([bodyJson(text), JSON.stringify(text), bodyJson({ a: 1 })]).toEqual([
      '{"a":[1,"b"]}',
      '{"a":[1,"b"]}',
      '{"a":1}',
    ]);
  });
});

describe('reports a long run makes', () => {
  /**
   * The mock's services in-process, at the time `now()` says, and a test key of the first
   * organisation.
   */
  function world(now: () => Date) {
    const keys = new KeyRing();
    const key = keys
      .issue(fixtures.organizations)
      .find((k) => k.mode === 'test' && k.scope === 'FULL')!;
    const services: ApiDeps = {
      store: new MockStore(fixtures, 2000, now),
      keys,
      webhooks: new WebhookSender({ urls: [], secret: 'whsec_test_secret' }),
      connect: new ConnectFlows(now),
      consents: new ConsentBook(now),
      decisions: new DecisionBook(now),
      clock: now,
    };
    const call = (method: 'GET' | 'POST', path: string, json?: unknown) => {
      const data = Buffer.from(json === undefined ? '' : JSON.stringify(json));
      const body = { data, size: data.length };
      const reply = handleApi(
        {
          method,
          url: url(path),
          authorization: `Bearer ${key.key}`,
          contentType: 'application/json',
          accessToken: undefined,
          body,
          baseUrl: 'http://127.0.0.1',
        },
        services,
      );
      return JSON.parse(bodyJson(reply.body));
    };
    return { store: services.store, org: key.organization_id, call };
  }

  it('share the statement of their scenario and day: a sandbox report keeps only its own few fields', () => {
    let now = new Date('2026-05-14T09:30:00Z');
    const { store, org, call } = world(() => now);
    const [a, b] = [
      call('POST', '/v1/sandbox/reports', { scenario: 'salaried' }),
      call('POST', '/v1/sandbox/reports', { scenario: 'salaried' }),
    ];
    expect(store.findReport(org, a.report_id).statement).toBe(
      store.findReport(org, b.report_id).statement,
    );
    now = new Date('2026-05-15T09:30:00Z');
    const c = call('POST', '/v1/sandbox/reports', { scenario: 'salaried' });
    expect(store.findReport(org, c.report_id).statement).not.toBe(
      store.findReport(org, a.report_id).statement,
    );
    expect(c.statement.period.to).toBe('2026-05-10');
  });

  it('are listed newest first from the first ones, however many there are, whatever the clock did', () => {
    let now = new Date('2026-05-14T09:30:00Z');
    const { store, org, call } = world(() => now);
    const made: string[] = [];
    for (let i = 0; i < 300; i++) {
      now = new Date(Date.parse('2026-05-14T09:30:00Z') + (i % 7) * 60_000 - (i % 3) * 86_400_000);
      made.push(
        call('POST', '/v1/sandbox/reports', { scenario: i % 2 ? 'salaried' : 'thin_file' })
          .report_id,
      );
    }
    const every = store.listReports(org, { limit: 10_000 }).reports;
    const expected = [...every].sort(
      (x, y) => y.created_at.localeCompare(x.created_at) || y.report_id.localeCompare(x.report_id),
    );
    expect(every.map((r) => r.report_id)).toEqual(expected.map((r) => r.report_id));
    expect(every.map((r) => r.report_id)).toEqual(expect.arrayContaining(made));
    const page = call('GET', '/v1/reports?limit=5&status=complete');
    expect([page.data.length, page.has_more]).toEqual([5, true]);
    expect(page.data.map((r: any) => r.report_id)).toEqual(
      every
        .filter((r) => r.status === 'complete')
        .slice(0, 5)
        .map((r) => r.report_id),
    );
  });

  it('drop Connect requests once they have expired, so that opening many keeps only the live ones', () => {
    let now = Date.parse('2026-05-14T09:30:00Z');
    const flows = new ConnectFlows(() => new Date(now));
    const open = (i: number) =>
      flows.open('org_a', {
        request_token: `crt_${i}`,
        organization_name: 'A',
        scopes: [],
        redirect_uri: 'http://127.0.0.1/cb',
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + 30 * 60_000).toISOString(),
      });
    for (let i = 0; i < 5000; i++) {
      open(i);
      now += 1000; // one a second: about 1,800 alive at any time
    }
    expect(flows.requestsKept).toBeLessThanOrEqual(2 * 1800 + 1);
    expect(flows.find('crt_4999')).toBeDefined();
    expect(flows.find('crt_0')).toBeUndefined();
  });
});
