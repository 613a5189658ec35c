// The mock's /_mock/ routes read the request log, queue faults and register webhook endpoints, so
// they answer only a request addressed to the mock's own address (a page whose DNS name is rebound
// to 127.0.0.1 comes with its own name in Host), from no other web origin (a page's cross-origin
// POST with a text/plain body needs no preflight), with one of the mock's keys, and with a JSON
// body on a POST. A webhook endpoint belongs to the key that registered it, and its signing secret
// is told only in the reply to the registration.
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import { keyOf } from '../support/keys.js';
import { mockAdmin, mockAdminJson, testKeyOf } from '../support/mock-admin.js';

const ORG_A = 'org_4d2a9f61c8e3b705';
const ORG_B = 'org_b81e07c39a5f2d64';

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request with exactly these headers (fetch sets Host and Origin itself). */
function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, headers, setHost: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('who /_mock/ answers', () => {
  let mock: MockServer;
  let port: number;
  let own: string;
  let key: string;
  beforeAll(async () => {
    mock = await startMockServer();
    port = Number(new URL(mock.url).port);
    own = `127.0.0.1:${port}`;
    key = testKeyOf(mock);
  });
  afterAll(() => mock.close());
  beforeEach(async () => {
    await mockAdmin(mock, '/_mock/requests', { method: 'DELETE' });
    await mockAdmin(mock, '/_mock/faults', { method: 'DELETE' });
  });

  const withKey = (headers: Record<string, string> = {}) => ({
    host: own,
    authorization: `Bearer ${key}`,
    ...headers,
  });
  const pendingFaults = () => mockAdminJson<unknown[]>(mock, '/_mock/faults');

  it('answers a request to its own address with any of its keys', async () => {
    for (const { key: each } of mock.keys) {
      for (const host of [own, `localhost:${port}`, `LocalHost:${port}`]) {
        expect(
          await raw(port, 'GET', '/_mock/health', { host, authorization: `Bearer ${each}` }),
        ).toMatchObject({ status: 200, body: { status: 'ok' } });
      }
    }
  });

  it.each([
    'evil.example',
    'evil.example:PORT',
    '127.0.0.1.evil.example:PORT',
    'localhost.evil.example:PORT',
    '127.0.0.2:PORT',
    '[::1]:PORT',
    'localhost:1',
    '127.0.0.1',
    '',
  ])('answers Host %j with 404 and the rule, even with a key', async (name) => {
    const host = name.replace('PORT', String(port));
    const reply = await raw(port, 'GET', '/_mock/requests', withKey({ host }));
    expect(reply.status).toBe(404);
    expect(reply.body.error_code).toBe('NOT_FOUND');
    expect(reply.body.error_message).toBe(
      `The /_mock/ endpoints answer only requests addressed to 127.0.0.1:${port} or localhost:${port}; this one had Host ${JSON.stringify(host)}.`,
    );
  });

  it('refuses an HTTP/1.0 request without a Host header', async () => {
    const head = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(port, '127.0.0.1', () =>
        socket.end(`GET /_mock/requests HTTP/1.0\r\nAuthorization: Bearer ${key}\r\n\r\n`),
      );
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(head).toMatch(/^HTTP\/1\.[01] 404 /);
    expect(head).toContain('this one had no Host header');
  });

  it.each([
    ['no key', {}, 'no API key was sent'],
    [
      'an unknown key',
      { authorization: 'Bearer svc_sk_test_0123456789abcdef0123456789abcdef' },
      'the API key is not one of its keys',
    ],
    [
      'a key in another scheme',
      { authorization: 'Basic c3ZjOnNlY3JldA==' },
      'the API key is not one of its keys',
    ],
  ])(
    'answers %s with 401 in the service envelope, and reads nothing out',
    async (_what, headers, why) => {
      for (const [method, path] of [
        ['GET', '/_mock/requests'],
        ['GET', '/_mock/faults'],
        ['GET', '/_mock/webhooks/endpoints'],
        ['GET', '/_mock/health'],
        ['DELETE', '/_mock/requests'],
      ]) {
        const reply = await raw(port, method!, path!, { host: own, ...headers });
        expect(reply.status, `${method} ${path}`).toBe(401);
        expect(reply.body).toMatchObject({
          error_type: 'AUTHENTICATION_ERROR',
          error_code: 'INVALID_API_KEY',
          error_message: `The /_mock/ endpoints answer only requests with one of this mock's keys (Authorization: Bearer <key>), as /v1 does; ${why}.`,
          request_id: expect.stringMatching(/^req_[0-9a-f]{32}$/),
        });
      }
    },
  );

  it.each([
    'https://evil.example',
    'null',
    'http://127.0.0.1:1',
    'http://localhost:1',
    'http://127.0.0.1.evil.example',
  ])('refuses a request from the web page of origin %j (403), even with a key', async (origin) => {
    const reply = await raw(port, 'GET', '/_mock/requests', withKey({ origin }));
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({
      error_type: 'PERMISSION_ERROR',
      error_code: 'FOREIGN_ORIGIN',
    });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a page of its own origin', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      expect((await raw(port, 'GET', '/_mock/health', withKey({ origin }))).status).toBe(200);
    }
  });

  it.each([
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['JSON under another name', 'application/jsonp'],
  ])(
    'refuses a POST of %s (415), even with a key: nothing is queued',
    async (_what, contentType) => {
      const reply = await raw(
        port,
        'POST',
        '/_mock/faults',
        withKey({ 'content-type': contentType }),
        JSON.stringify({ path: '/v1/usage', status: 500 }),
      );
      expect(reply.status).toBe(415);
      expect(reply.body).toMatchObject({
        error_code: 'UNSUPPORTED_MEDIA_TYPE',
        error_type: 'INVALID_REQUEST_ERROR',
      });
      expect(await pendingFaults()).toEqual([]);
    },
  );

  it('refuses a POST with no content type (415)', async () => {
    expect(
      (await raw(port, 'POST', '/_mock/faults', withKey(), JSON.stringify({ status: 500 }))).status,
    ).toBe(415);
    expect(await pendingFaults()).toEqual([]);
  });

  it('takes a JSON POST with its key: the fault is queued', async () => {
    const reply = await raw(
      port,
      'POST',
      '/_mock/faults',
      withKey({ 'content-type': 'application/json; charset=utf-8' }),
      JSON.stringify({ path: '/v1/usage', status: 503 }),
    );
    expect(reply.status).toBe(200);
    expect(await pendingFaults()).toMatchObject([{ path: '/v1/usage', status: 503 }]);
  });

  // What a web page sends with fetch(url, {method: 'POST', mode: 'no-cors', body: '…'}): no
  // preflight.
  const fromAPage = (host: string) => ({
    host,
    origin: 'https://evil.example',
    'content-type': 'text/plain;charset=UTF-8',
  });

  it("lets no web page queue a fault (which would make the next `svc connect --open` open the page's own address)", async () => {
    const fault = JSON.stringify({
      path: '/v1/connect/request',
      json: { request_token: 'x', connect_url: 'https://evil.example/' },
    });
    for (const host of [own, 'evil.example'])
      expect(
        (await raw(port, 'POST', '/_mock/faults', fromAPage(host), fault)).status,
      ).toBeGreaterThanOrEqual(400);
    expect(await pendingFaults()).toEqual([]);
  });

  it('lets no web page register its address for webhook deliveries', async () => {
    const registration = JSON.stringify({ url: 'https://evil.example/collect' });
    for (const host of [own, 'evil.example']) {
      const reply = await raw(
        port,
        'POST',
        '/_mock/webhooks/endpoints',
        fromAPage(host),
        registration,
      );
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(JSON.stringify(reply.body)).not.toContain('whsec_');
    }
    expect(await mockAdminJson(mock, '/_mock/webhooks/endpoints')).toEqual([]);
  });

  it('shows a rebound page neither the log nor its secrets, and lets it clear nothing', async () => {
    await (
      await fetch(`${mock.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })
    ).arrayBuffer();
    await mockAdmin(mock, '/_mock/faults', { json: { path: '/v1/statements', status: 503 } });
    for (const [method, path] of [
      ['GET', '/_mock/requests'],
      ['DELETE', '/_mock/faults'],
      ['DELETE', '/_mock/requests'],
    ]) {
      const reply = await raw(port, method!, path!, withKey({ host: `evil.example:${port}` }));
      expect(reply.status).toBe(404);
      expect(JSON.stringify(reply.body)).not.toContain('/v1/usage');
    }
    expect(await pendingFaults()).toMatchObject([{ path: '/v1/statements', status: 503 }]);
    expect(await mockAdminJson<unknown[]>(mock, '/_mock/requests')).toHaveLength(1);
  });

  it('still serves the service itself under any name: its endpoints need a key', async () => {
    expect((await raw(port, 'GET', '/v1/usage', { host: 'evil.example' })).status).toBe(401);
  });
});

// `svc webhooks listen` registers itself here, as `stripe listen` does: the mock then delivers each
// fired event of its organisation to it too. A mock of its own, so registrations do not leak into
// the tests above.
describe('/_mock/webhooks/endpoints', () => {
  let hooks: MockServer;
  let keyA: string;
  const lines: string[] = [];
  const receivers: Server[] = [];
  beforeAll(async () => {
    hooks = await startMockServer({
      webhookSecret: 'whsec_the_mocks_own',
      webhookRetryDelaysMs: [5],
      log: (line) => lines.push(line),
    });
    keyA = keyOf(hooks, ORG_A);
  });
  afterAll(async () => {
    await hooks.close();
    await Promise.all(receivers.map((server) => new Promise((resolve) => server.close(resolve))));
  });
  beforeEach(async () => {
    for (const { key } of hooks.keys) {
      for (const { id } of await listed(key))
        if (id)
          await mockAdmin(hooks, `/_mock/webhooks/endpoints/${id}`, { method: 'DELETE', key });
    }
    lines.length = 0;
  });

  type Listed = { id: string | null; url: string; source: string };
  type Registered = { id: string; url: string; secret: string };
  const listed = (key = keyA) =>
    mockAdminJson<Listed[]>(hooks, '/_mock/webhooks/endpoints', { key });
  const register = (body: unknown, key = keyA) =>
    typeof body === 'string'
      ? fetch(`${hooks.url}/_mock/webhooks/endpoints`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body,
        })
      : mockAdmin(hooks, '/_mock/webhooks/endpoints', { json: body, key });
  const registered = async (body: unknown, key = keyA) =>
    (await (await register(body, key)).json()) as Registered;
  const unregister = (id: string, key = keyA) =>
    mockAdmin(hooks, `/_mock/webhooks/endpoints/${id}`, { method: 'DELETE', key });

  /** A receiver answering 200 and keeping what it got. */
  async function receiver(): Promise<{ url: string; got: { signature: string; body: string }[] }> {
    const got: { signature: string; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        got.push({ signature: String(req.headers['x-svc-signature']), body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receivers.push(server);
    return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, got };
  }

  async function fire(
    org = ORG_A,
  ): Promise<{ fired: string; report_id: string; delivered_to: string[] }> {
    const headers = {
      Authorization: `Bearer ${keyOf(hooks, org)}`,
      'Content-Type': 'application/json',
    };
    const created = (await (
      await fetch(`${hooks.url}/v1/sandbox/reports`, { method: 'POST', headers, body: '{}' })
    ).json()) as { report_id: string };
    const fired = await fetch(`${hooks.url}/v1/sandbox/reports/${created.report_id}/fire_webhook`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    expect(fired.status).toBe(200);
    return (await fired.json()) as { fired: string; report_id: string; delivered_to: string[] };
  }

  const until = async (check: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 400 && !(await check()); i++)
      await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it("registers {url}: 201 with an id, the address as normalised and a secret made for it, not the mock's", async () => {
    const reply = await register({ url: 'http://127.0.0.1:8788' });
    expect(reply.status).toBe(201);
    const body = (await reply.json()) as Registered;
    expect(body).toEqual({
      id: expect.stringMatching(/^we_[0-9a-f]{16}$/),
      url: 'http://127.0.0.1:8788/',
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
    });
    expect(body.secret).not.toBe('whsec_the_mocks_own');
    expect(await listed()).toEqual([
      { id: body.id, url: 'http://127.0.0.1:8788/', source: 'registered' },
    ]);
    expect(lines).toContain(
      `webhook endpoint ${body.id} registered: http://127.0.0.1:8788/ (signed with a secret made for it)`,
    );
    expect(lines.join('\n')).not.toContain(body.secret);
  });

  it("tells a registration's secret only in its reply: another registrant, or any key listing, learns nothing of it", async () => {
    const listener = await registered({ url: 'http://127.0.0.1:8788/' });
    const other = await registered(
      { url: 'http://127.0.0.1:8799/' },
      keyOf(hooks, ORG_A, { mode: 'live', scope: 'READ_ONLY' }),
    );
    expect(other.secret).not.toBe(listener.secret);
    for (const { key } of hooks.keys) {
      const text = await (await mockAdmin(hooks, '/_mock/webhooks/endpoints', { key })).text();
      expect(text).not.toContain('whsec_');
    }
  });

  it('registers {url, secret}: the endpoint keeps the secret it brought; the list never shows secrets', async () => {
    const reply = await register({
      url: 'http://127.0.0.1:8788/hooks',
      secret: 'whsec_brought_along',
    });
    expect(reply.status).toBe(201);
    expect(await reply.json()).toMatchObject({ secret: 'whsec_brought_along' });
    expect(JSON.stringify(await listed())).not.toContain('whsec_');
  });

  it("an endpoint is its key's: another key, even of its organisation, neither lists nor removes it", async () => {
    const { id } = await registered({ url: 'http://127.0.0.1:8788/' });
    for (const other of [
      keyOf(hooks, ORG_A, { mode: 'live' }),
      keyOf(hooks, ORG_A, { mode: 'test', scope: 'READ_ONLY' }),
      keyOf(hooks, ORG_B),
    ]) {
      expect(await listed(other)).toEqual([]);
      expect((await unregister(id, other)).status).toBe(404);
    }
    expect((await listed()).map((e) => e.id)).toEqual([id]);
  });

  it('an address registered again in its organisation replaces its earlier registration (a listener that died and runs again)', async () => {
    const first = await registered({ url: 'http://127.0.0.1:8788/' });
    const second = await registered({ url: 'http://127.0.0.1:8788' });
    expect(second.id).not.toBe(first.id);
    expect((await listed()).map((e) => e.id)).toEqual([second.id]);
    expect((await unregister(first.id)).status).toBe(404);
  });

  it('DELETE /_mock/webhooks/endpoints/{id} unregisters; a second DELETE is 404', async () => {
    const { id } = await registered({ url: 'http://127.0.0.1:8788/' });
    const deleted = await unregister(id);
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id, url: 'http://127.0.0.1:8788/', deleted: true });
    expect(await listed()).toEqual([]);
    const again = await unregister(id);
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error_message: string }).error_message).toMatch(
      /^No webhook endpoint we_[0-9a-f]{16} is registered/,
    );
  });

  it.each([
    ['not JSON', 'url=http://x', /must be a JSON object/],
    ['an array', '[]', /must be a JSON object/],
    ['no url', {}, /'url' must be an absolute http or https URL/],
    ['a relative url', { url: '/hooks' }, /'url' must be/],
    ['another scheme', { url: 'ftp://127.0.0.1/' }, /'url' must be/],
    [
      'a short secret',
      { url: 'http://127.0.0.1:1/', secret: 'short' },
      /'secret' must be 8 to 1024 characters/,
    ],
    [
      'a secret with a space',
      { url: 'http://127.0.0.1:1/', secret: 'whsec_a b' },
      /'secret' must be/,
    ],
    [
      'a secret that is no string',
      { url: 'http://127.0.0.1:1/', secret: 12345678 },
      /'secret' must be/,
    ],
  ])('refuses %s: 400 INVALID_REQUEST, nothing registered', async (_what, body, message) => {
    const reply = await register(body);
    expect(reply.status).toBe(400);
    const envelope = (await reply.json()) as { error_code: string; error_message: string };
    expect(envelope.error_code).toBe('INVALID_REQUEST');
    expect(envelope.error_message).toMatch(message);
    expect(await listed()).toEqual([]);
  });

  it('answers other methods with 405 and Allow', async () => {
    const put = await mockAdmin(hooks, '/_mock/webhooks/endpoints', { method: 'PUT' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST']);
    const get = await mockAdmin(hooks, '/_mock/webhooks/endpoints/we_0123456789abcdef');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'DELETE']);
  });

  it("a fired event goes to each of its organisation's endpoints, signed with the endpoint's secret; the reply lists them in delivered_to", async () => {
    const [own, brought, otherOrg] = [await receiver(), await receiver(), await receiver()];
    const { secret } = await registered({ url: own.url });
    await register({ url: brought.url, secret: 'whsec_brought_along' });
    await register({ url: otherOrg.url }, keyOf(hooks, ORG_B));
    const reply = await fire();
    expect(reply).toEqual({
      fired: 'report.ready',
      report_id: expect.any(String),
      environment: 'test',
      delivered_to: [own.url, brought.url],
    });
    await until(() => own.got.length + brought.got.length === 2);
    expect(
      verifySignature({ secret, header: own.got[0]!.signature, body: own.got[0]!.body }).valid,
    ).toBe(true);
    expect(
      verifySignature({
        secret: 'whsec_the_mocks_own',
        header: own.got[0]!.signature,
        body: own.got[0]!.body,
      }).valid,
    ).toBe(false);
    expect(
      verifySignature({
        secret: 'whsec_brought_along',
        header: brought.got[0]!.signature,
        body: brought.got[0]!.body,
      }).valid,
    ).toBe(true);
    expect(JSON.parse(own.got[0]!.body)).toMatchObject({
      event: 'report.ready',
      report_id: reply.report_id,
    });
    await until(() => lines.filter((line) => line.startsWith('delivered ')).length === 2);
    expect(lines).toContain(`delivered report.ready for ${reply.report_id} to ${own.url} → 200`);
    // The other organisation's endpoint got none of this report.
    expect(otherOrg.got).toEqual([]);
  });

  it('with no endpoint the reply says delivered_to [] and the log says so', async () => {
    const reply = await fire();
    expect(reply.delivered_to).toEqual([]);
    expect(lines).toContain(
      `fired report.ready for ${reply.report_id} to no endpoint: run \`svc webhooks listen\` against this mock, or start it with --webhook-url URL`,
    );
  });

  it('an unregistered endpoint gets nothing more', async () => {
    const target = await receiver();
    const { id } = await registered({ url: target.url });
    await unregister(id);
    expect((await fire()).delivered_to).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(target.got).toEqual([]);
  });

  it('drops a registered endpoint where nothing listens any more, once every attempt was refused', async () => {
    const gone = await receiver();
    await new Promise((resolve) => receivers.pop()!.close(resolve));
    const { id } = await registered({ url: gone.url });
    expect((await fire()).delivered_to).toEqual([gone.url]);
    await until(async () => (await listed()).length === 0);
    expect(await listed()).toEqual([]);
    expect(lines).toContain(`webhook endpoint ${id} unregistered: nothing listens at ${gone.url}`);
  });
});
