// The mock's /_mock/ endpoints need no key, so they answer only requests addressed to a loopback
// name: a web page whose DNS name is rebound to 127.0.0.1 reaches the mock with its own name in
// the Host header, and must neither read the request log nor queue or clear faults.
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isLoopbackHostHeader } from '../../src/mock/admin.js';
import { startMockServer, type MockServer } from '../../src/mock/server.js';
import { verifySignature } from '../../src/webhooks/signature.js';

let mock: MockServer;
let port: number;
beforeAll(async () => {
  mock = await startMockServer();
  port = Number(new URL(mock.url).port);
});
afterAll(() => mock.close());
beforeEach(async () => {
  await fetch(`${mock.url}/_mock/requests`, { method: 'DELETE' });
  await fetch(`${mock.url}/_mock/faults`, { method: 'DELETE' });
});

/** One request to the mock with the given Host header (fetch does not let a caller set it). */
function withHost(host: string, method: string, path: string, body?: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host, ...(body ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const LOOPBACK_NAMES = ['127.0.0.1', '127.0.0.1:8787', 'localhost', 'LocalHost:8787', '127.255.3.4:1', '[::1]', '[::1]:8787'];
const FOREIGN_NAMES = [
  'evil.example',
  'evil.example:8787',
  '127.0.0.1.evil.example',
  'localhost.evil.example',
  'evil-localhost',
  '127.0.0.256',
  '127.0.0',
  '0.0.0.0',
  '10.0.0.1',
  '[::1].evil.example',
  '[::2]',
  'user@127.0.0.1',
  '127.0.0.1:8787:1',
  '',
];

describe('isLoopbackHostHeader', () => {
  it.each(LOOPBACK_NAMES)('takes %j', (host) => expect(isLoopbackHostHeader(host)).toBe(true));
  it.each(FOREIGN_NAMES)('refuses %j', (host) => expect(isLoopbackHostHeader(host)).toBe(false));
  it('refuses a missing Host header', () => expect(isLoopbackHostHeader(undefined)).toBe(false));
});

describe('/_mock/ by Host', () => {
  it.each(LOOPBACK_NAMES)('answers Host %j', async (host) => {
    expect(await withHost(host, 'GET', '/_mock/health')).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it.each(['evil.example', 'evil.example:8787', '127.0.0.1.evil.example'])('answers Host %j with 404 and the rule', async (host) => {
    const reply = await withHost(host, 'GET', '/_mock/requests');
    expect(reply.status).toBe(404);
    expect(reply.body.error_code).toBe('NOT_FOUND');
    expect(reply.body.error_message).toBe(
      `The /_mock/ endpoints answer only requests addressed to localhost, 127.0.0.1 or [::1]; this one had Host "${host}".`,
    );
  });

  it('shows a rebound page neither the log nor its secrets', async () => {
    const key = mock.keys[0]!.key;
    await (await fetch(`${mock.url}/v1/usage`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer();
    const reply = await withHost('evil.example', 'GET', '/_mock/requests');
    expect(JSON.stringify(reply.body)).not.toContain('/v1/usage');
  });

  it('lets a rebound page neither queue faults nor clear them, nor clear the log', async () => {
    expect((await withHost('evil.example', 'POST', '/_mock/faults', JSON.stringify({ status: 500 }))).status).toBe(404);
    await fetch(`${mock.url}/_mock/faults`, { method: 'POST', body: JSON.stringify({ path: '/v1/usage', status: 503 }) });
    await (await fetch(`${mock.url}/v1/reports`)).arrayBuffer();
    expect((await withHost('evil.example', 'DELETE', '/_mock/faults')).status).toBe(404);
    expect((await withHost('evil.example', 'DELETE', '/_mock/requests')).status).toBe(404);
    expect(await (await fetch(`${mock.url}/_mock/faults`)).json()).toMatchObject([{ path: '/v1/usage', status: 503 }]);
    expect(((await (await fetch(`${mock.url}/_mock/requests`)).json()) as unknown[]).length).toBe(1);
  });

  it('refuses an HTTP/1.0 request without a Host header', async () => {
    const head = await new Promise<string>((resolve, reject) => {
      let text = '';
      const socket = connect(port, '127.0.0.1', () => socket.end('GET /_mock/requests HTTP/1.0\r\n\r\n'));
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(head).toMatch(/^HTTP\/1\.[01] 404 /);
    expect(head).toContain('this one had no Host header');
  });

  it('still serves the service itself under any name: its endpoints need a key', async () => {
    expect((await withHost('evil.example', 'GET', '/v1/usage')).status).toBe(401);
  });
});

// `svc webhooks listen` registers itself here, as `stripe listen` does: the mock then delivers each
// fired event to it too. A mock of its own, so registrations do not leak into the tests above.
describe('/_mock/webhooks/endpoints', () => {
  let hooks: MockServer;
  let hooksPort: number;
  const lines: string[] = [];
  const receivers: Server[] = [];
  beforeAll(async () => {
    hooks = await startMockServer({ webhookSecret: 'whsec_the_mocks_own', webhookRetryDelaysMs: [5], log: (line) => lines.push(line) });
    hooksPort = Number(new URL(hooks.url).port);
  });
  afterAll(async () => {
    await hooks.close();
    await Promise.all(receivers.map((server) => new Promise((resolve) => server.close(resolve))));
  });
  beforeEach(async () => {
    for (const { id } of await listed()) if (id) await fetch(`${hooks.url}/_mock/webhooks/endpoints/${id}`, { method: 'DELETE' });
    lines.length = 0;
  });

  const listed = async () => (await (await fetch(`${hooks.url}/_mock/webhooks/endpoints`)).json()) as { id: string | null; url: string; source: string }[];
  const register = (body: unknown) =>
    fetch(`${hooks.url}/_mock/webhooks/endpoints`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const hostRequest = (host: string, method: string, path: string, body?: string) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: hooksPort, method, path, headers: { host } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(body);
    });

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

  async function fire(): Promise<{ fired: string; report_id: string; delivered_to: string[] }> {
    const key = hooks.keys.find((k) => k.mode === 'test' && k.scope === 'FULL')!.key;
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const created = (await (await fetch(`${hooks.url}/v1/sandbox/reports`, { method: 'POST', headers, body: '{}' })).json()) as { report_id: string };
    const fired = await fetch(`${hooks.url}/v1/sandbox/reports/${created.report_id}/fire_webhook`, { method: 'POST', headers, body: '{}' });
    expect(fired.status).toBe(200);
    return (await fired.json()) as { fired: string; report_id: string; delivered_to: string[] };
  }

  const until = async (check: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 400 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it('registers {url}: 201 with an id, the address as normalised and the mock\'s own secret', async () => {
    const reply = await register({ url: 'http://127.0.0.1:8788' });
    expect(reply.status).toBe(201);
    const body = (await reply.json()) as { id: string; url: string; secret: string };
    expect(body).toEqual({ id: expect.stringMatching(/^we_[0-9a-f]{16}$/), url: 'http://127.0.0.1:8788/', secret: 'whsec_the_mocks_own' });
    expect(await listed()).toEqual([{ id: body.id, url: 'http://127.0.0.1:8788/', source: 'registered' }]);
    expect(lines).toContain(`webhook endpoint ${body.id} registered: http://127.0.0.1:8788/ (signed with the mock's secret)`);
  });

  it('registers {url, secret}: the endpoint keeps the secret it brought; the list never shows secrets', async () => {
    const reply = await register({ url: 'http://127.0.0.1:8788/hooks', secret: 'whsec_brought_along' });
    expect(reply.status).toBe(201);
    expect(await reply.json()).toMatchObject({ secret: 'whsec_brought_along' });
    expect(JSON.stringify(await listed())).not.toContain('whsec_');
  });

  it('an address registered again replaces its earlier registration (a listener that died and runs again)', async () => {
    const first = (await (await register({ url: 'http://127.0.0.1:8788/' })).json()) as { id: string };
    const second = (await (await register({ url: 'http://127.0.0.1:8788' })).json()) as { id: string };
    expect(second.id).not.toBe(first.id);
    expect((await listed()).map((e) => e.id)).toEqual([second.id]);
    expect((await fetch(`${hooks.url}/_mock/webhooks/endpoints/${first.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('DELETE /_mock/webhooks/endpoints/{id} unregisters; a second DELETE is 404', async () => {
    const { id } = (await (await register({ url: 'http://127.0.0.1:8788/' })).json()) as { id: string };
    const deleted = await fetch(`${hooks.url}/_mock/webhooks/endpoints/${id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id, url: 'http://127.0.0.1:8788/', deleted: true });
    expect(await listed()).toEqual([]);
    const again = await fetch(`${hooks.url}/_mock/webhooks/endpoints/${id}`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error_message: string }).error_message).toMatch(/^No webhook endpoint we_[0-9a-f]{16} is registered/);
  });

  it.each([
    ['not JSON', 'url=http://x', /must be a JSON object/],
    ['an array', '[]', /must be a JSON object/],
    ['no url', {}, /'url' must be an absolute http or https URL/],
    ['a relative url', { url: '/hooks' }, /'url' must be/],
    ['another scheme', { url: 'ftp://127.0.0.1/' }, /'url' must be/],
    ['a short secret', { url: 'http://127.0.0.1:1/', secret: 'short' }, /'secret' must be 8 to 1024 characters/],
    ['a secret with a space', { url: 'http://127.0.0.1:1/', secret: 'whsec_a b' }, /'secret' must be/],
    ['a secret that is no string', { url: 'http://127.0.0.1:1/', secret: 12345678 }, /'secret' must be/],
  ])('refuses %s: 400 INVALID_REQUEST, nothing registered', async (_what, body, message) => {
    const reply = await register(body);
    expect(reply.status).toBe(400);
    const envelope = (await reply.json()) as { error_code: string; error_message: string };
    expect(envelope.error_code).toBe('INVALID_REQUEST');
    expect(envelope.error_message).toMatch(message);
    expect(await listed()).toEqual([]);
  });

  it('answers other methods with 405 and Allow', async () => {
    const put = await fetch(`${hooks.url}/_mock/webhooks/endpoints`, { method: 'PUT' });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST']);
    const get = await fetch(`${hooks.url}/_mock/webhooks/endpoints/we_0123456789abcdef`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'DELETE']);
  });

  it('lets a rebound page neither register (and so receive report data) nor unregister', async () => {
    const refused = await hostRequest('evil.example', 'POST', '/_mock/webhooks/endpoints', JSON.stringify({ url: 'http://evil.example/' }));
    expect(refused.status).toBe(404);
    expect(JSON.stringify(refused.body)).not.toContain('whsec_');
    const { id } = (await (await register({ url: 'http://127.0.0.1:8788/' })).json()) as { id: string };
    expect((await hostRequest('evil.example:80', 'DELETE', `/_mock/webhooks/endpoints/${id}`)).status).toBe(404);
    expect((await hostRequest('evil.example', 'GET', '/_mock/webhooks/endpoints')).status).toBe(404);
    expect((await listed()).map((e) => e.id)).toEqual([id]);
  });

  it('a fired event goes to each registered endpoint, signed with its secret; the reply lists them in delivered_to', async () => {
    const [own, brought] = [await receiver(), await receiver()];
    await register({ url: own.url });
    await register({ url: brought.url, secret: 'whsec_brought_along' });
    const reply = await fire();
    expect(reply).toEqual({ fired: 'report.ready', report_id: expect.any(String), environment: 'test', delivered_to: [own.url, brought.url] });
    await until(() => own.got.length + brought.got.length === 2);
    expect(verifySignature({ secret: 'whsec_the_mocks_own', header: own.got[0]!.signature, body: own.got[0]!.body }).valid).toBe(true);
    expect(verifySignature({ secret: 'whsec_brought_along', header: brought.got[0]!.signature, body: brought.got[0]!.body }).valid).toBe(true);
    expect(JSON.parse(own.got[0]!.body)).toMatchObject({ event: 'report.ready', report_id: reply.report_id });
    await until(() => lines.filter((line) => line.startsWith('delivered ')).length === 2);
    expect(lines).toContain(`delivered report.ready for ${reply.report_id} to ${own.url} → 200`);
  });

  it('with no endpoint the reply says delivered_to [] and the log says so', async () => {
    const reply = await fire();
    expect(reply.delivered_to).toEqual([]);
    expect(lines).toContain(`fired report.ready for ${reply.report_id} to no endpoint: run \`svc webhooks listen\` against this mock, or start it with --webhook-url URL`);
  });

  it('an unregistered endpoint gets nothing more', async () => {
    const target = await receiver();
    const { id } = (await (await register({ url: target.url })).json()) as { id: string };
    await fetch(`${hooks.url}/_mock/webhooks/endpoints/${id}`, { method: 'DELETE' });
    expect((await fire()).delivered_to).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(target.got).toEqual([]);
  });

  it('drops a registered endpoint where nothing listens any more, once every attempt was refused', async () => {
    const gone = await receiver();
    await new Promise((resolve) => receivers.pop()!.close(resolve));
    const { id } = (await (await register({ url: gone.url })).json()) as { id: string };
    expect((await fire()).delivered_to).toEqual([gone.url]);
    await until(async () => (await listed()).length === 0);
    expect(await listed()).toEqual([]);
    expect(lines).toContain(`webhook endpoint ${id} unregistered: nothing listens at ${gone.url}`);
  });
});
