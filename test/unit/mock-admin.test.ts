// The mock's /_mock/ endpoints need no key, so they answer only requests addressed to a loopback
// name: a web page whose DNS name is rebound to 127.0.0.1 reaches the mock with its own name in
// the Host header, and must neither read the request log nor queue or clear faults.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isLoopbackHostHeader } from '../../src/mock/admin.js';
import { startMockServer, type MockServer } from '../../src/mock/server.js';

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
