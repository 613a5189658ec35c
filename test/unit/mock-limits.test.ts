// What no client of svc mock, nor many at once, can take of it: a request without a key it needs,
// or that declares a body past the cap, is answered before its body is read, and the connection
// closed; a body without a declared length is cut off at the cap; the bodies held at one time share
// a budget (past it, 503 with Retry-After); connections, and the time to send headers and the whole
// request, are bounded. Clients here speak HTTP over a raw socket, so that they can announce a body
// and never send it: an answer that comes anyway was given without reading it.
import { connect, type Socket } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { type MockLimits, type MockServer, startMockServer } from '../../src/mock/server.js';
import { testKeyOf } from '../support/mock-admin.js';

const MIB = 1024 * 1024;
/**
 * How long a test waits for something that should come at once (a liveness bound, not a measure).
 */
const PATIENCE_MS = 5000;

let mock: MockServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await mock?.close();
  mock = undefined;
});

async function start(limits?: MockLimits): Promise<{ port: number; key: string }> {
  mock = await startMockServer({ limits });
  return { port: Number(new URL(mock.url).port), key: testKeyOf(mock) };
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
}

/**
 * A connection that keeps what comes back; `response()` is the first complete response, or
 * undefined if none comes in time.
 */
async function open(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  await new Promise<void>((resolve, reject) =>
    socket.once('connect', resolve).once('error', reject),
  );
  let received = Buffer.alloc(0);
  let closed = false;
  socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  socket.on('error', () => {}); // a write after the server closed: the answer came first
  const whenClosed = new Promise<true>((resolve) =>
    socket.once('close', () => resolve((closed = true))),
  );
  const parse = (): RawResponse | undefined => {
    const end = received.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [
        line.slice(0, line.indexOf(':')).toLowerCase(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (received.length < end + 4 + length) return undefined;
    const text = received.subarray(end + 4, end + 4 + length).toString('utf8');
    return {
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: text ? JSON.parse(text) : undefined,
    };
  };
  return {
    socket,
    write: (data: string | Buffer) =>
      new Promise<void>((resolve) =>
        socket.writable ? socket.write(data, () => resolve()) : resolve(),
      ),
    async response(): Promise<RawResponse | undefined> {
      const deadline = Date.now() + PATIENCE_MS;
      for (;;) {
        const parsed = parse();
        if (parsed || closed || Date.now() > deadline) return parsed;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    /** True once the server closed the connection; false if it is still open after a while. */
    closed: () =>
      Promise.race([
        whenClosed,
        new Promise<false>((resolve) => setTimeout(() => resolve(false), PATIENCE_MS)),
      ]),
  };
}

const head = (
  method: string,
  path: string,
  port: number,
  headers: Record<string, string | number>,
) =>
  [
    `${method} ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');

const multipart = { 'Content-Type': 'multipart/form-data; boundary=x' };

describe('refused before the body is read, and the connection closed', () => {
  it.each([
    ['no key', {}, 'No API key was sent.'],
    [
      'an unknown key',
      { Authorization: 'Bearer svc_sk_test_0123456789abcdef0123456789abcdef' },
      'Unknown API key.',
    ],
  ])(
    'a 20 MiB upload with %s: 401 while the body is still to come',
    async (_what, auth, message) => {
      const { port } = await start();
      const client = await open(port);
      await client.write(
        head('POST', '/v1/parse', port, { ...auth, ...multipart, 'Content-Length': 20 * MIB }),
      );
      const reply = await client.response();
      expect(reply?.status).toBe(401);
      expect(reply!.body).toEqual({
        error_type: 'AUTHENTICATION_ERROR',
        error_code: 'INVALID_API_KEY',
        error_message: message,
        display_message: null,
        request_id: expect.stringMatching(/^req_[0-9a-f]{32}$/),
        documentation_url: expect.stringMatching(/\/concepts\/errors#invalid_api_key$/),
        suggested_action: expect.any(String),
      });
      expect(reply!.headers.connection).toBe('close');
      expect(await client.closed()).toBe(true);
    },
  );

  it('a declared length past the cap, with a good key: 413 FILE_TOO_LARGE on parse, REQUEST_TOO_LARGE elsewhere', async () => {
    const { port, key } = await start();
    for (const [path, code] of [
      ['/v1/parse', 'FILE_TOO_LARGE'],
      ['/v1/enrich', 'REQUEST_TOO_LARGE'],
    ] as const) {
      const client = await open(port);
      await client.write(
        head('POST', path, port, {
          Authorization: `Bearer ${key}`,
          ...multipart,
          'Content-Length': 25 * MIB,
        }),
      );
      const reply = await client.response();
      expect(reply?.status, path).toBe(413);
      expect(reply!.body).toMatchObject({
        error_code: code,
        error_type: 'INVALID_REQUEST_ERROR',
        request_id: expect.stringMatching(/^req_/),
      });
      expect(reply!.headers.connection).toBe('close');
      expect(await client.closed()).toBe(true);
    }
  });

  it('a route that a token opens (no key) still has its cap', async () => {
    const { port } = await start();
    const client = await open(port);
    await client.write(
      head('POST', '/connect/approve?token=creq_unknown', port, {
        'Content-Type': 'application/json',
        'Content-Length': 20 * MIB,
      }),
    );
    expect((await client.response())?.status).toBe(413);
    expect(await client.closed()).toBe(true);
  });

  it('/_mock/ with a body and no key: 401 unread; with a key and a body past its cap: 413 unread', async () => {
    const { port, key } = await start();
    const keyless = await open(port);
    await keyless.write(
      head('POST', '/_mock/faults', port, {
        'Content-Type': 'application/json',
        'Content-Length': 20 * MIB,
      }),
    );
    expect((await keyless.response())?.status).toBe(401);
    expect(await keyless.closed()).toBe(true);
    const large = await open(port);
    await large.write(
      head('POST', '/_mock/faults', port, {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Content-Length': 40 * MIB,
      }),
    );
    expect(await large.response()).toMatchObject({
      status: 413,
      body: { error_code: 'REQUEST_TOO_LARGE' },
    });
    expect(await large.closed()).toBe(true);
  });

  it('logs a refused request with nothing read of its body', async () => {
    const { port, key } = await start();
    const client = await open(port);
    await client.write(
      head('POST', '/v1/parse', port, { ...multipart, 'Content-Length': 20 * MIB }),
    );
    await client.response();
    const log = (await (
      await fetch(`${mock!.url}/_mock/requests`, { headers: { Authorization: `Bearer ${key}` } })
    ).json()) as { path: string; status: number; body_bytes: number }[];
    expect(log).toMatchObject([{ path: '/v1/parse', status: 401, body_bytes: 0 }]);
  });
});

describe('a body without a declared length (chunked)', () => {
  it('is cut off at the cap: 413 before the client has finished, and the connection closed', async () => {
    const { port, key } = await start();
    const client = await open(port);
    await client.write(
      head('POST', '/v1/parse', port, {
        Authorization: `Bearer ${key}`,
        ...multipart,
        'Transfer-Encoding': 'chunked',
      }),
    );
    const mebibyte = Buffer.alloc(MIB, 'a');
    // 21 MiB, past the cap, and never the last chunk: an answer that comes was given without the
    // rest.
    for (let i = 0; i < 21 && !client.socket.destroyed; i++)
      await client.write(
        Buffer.concat([Buffer.from(`${MIB.toString(16)}\r\n`), mebibyte, Buffer.from('\r\n')]),
      );
    const reply = await client.response();
    expect(reply?.status).toBe(413);
    expect(reply!.body).toMatchObject({ error_code: 'FILE_TOO_LARGE' });
    expect(await client.closed()).toBe(true);
  });

  it('within the cap is read as before', async () => {
    const { port, key } = await start();
    const client = await open(port);
    const body = JSON.stringify({ transactions: [] });
    await client.write(
      head('POST', '/v1/enrich', port, {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      }),
    );
    await client.write(`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`);
    const reply = await client.response();
    expect(reply?.status).toBe(400); // an empty list: the service's own refusal, after reading the body
    expect(reply!.body.error_message).toMatch(/transactions/);
  });
});

describe('the budget of all bodies held at one time', () => {
  const BUDGET = 100_000;
  const enrich = (port: number, key: string, length: number) =>
    head('POST', '/v1/enrich', port, {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      'Content-Length': length,
    });

  it('refuses, unread, a body that would pass it: 503 with Retry-After; the bodies held go on', async () => {
    const { port, key } = await start({ bodyBudgetBytes: BUDGET });
    const body = JSON.stringify({ transactions: [] }).padEnd(80_000, ' ');
    const holding = await open(port);
    await holding.write(enrich(port, key, body.length) + body.slice(0, 10)); // 80,000 bytes announced, held
    await new Promise((resolve) => setTimeout(resolve, 50));

    const declared = await open(port);
    await declared.write(enrich(port, key, 30_000));
    const busy = await declared.response();
    expect(busy?.status).toBe(503);
    expect(busy!.headers['retry-after']).toBe('1');
    expect(busy!.headers.connection).toBe('close');
    expect(busy!.body).toMatchObject({
      error_type: 'API_ERROR',
      error_code: 'SERVICE_UNAVAILABLE',
      request_id: expect.stringMatching(/^req_/),
    });
    expect(await declared.closed()).toBe(true);

    const chunked = await open(port);
    await chunked.write(
      head('POST', '/v1/enrich', port, {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Transfer-Encoding': 'chunked',
      }),
    );
    await chunked.write(`${(30_000).toString(16)}\r\n${' '.repeat(30_000)}\r\n`);
    expect((await chunked.response())?.status).toBe(503);

    await holding.write(body.slice(10));
    expect((await holding.response())?.status).toBe(400); // read whole, and answered
  });

  it('gives back what a request held once it is answered', async () => {
    const { port, key } = await start({ bodyBudgetBytes: BUDGET });
    const body = JSON.stringify({ transactions: [] }).padEnd(80_000, ' ');
    for (let i = 0; i < 5; i++) {
      const client = await open(port);
      await client.write(enrich(port, key, body.length) + body);
      expect((await client.response())?.status).toBe(400);
    }
  });
});

describe('connections and time', () => {
  it('closes a connection past the most open at one time', async () => {
    const { port } = await start({ maxConnections: 2 });
    const [first, second] = [await open(port), await open(port)];
    await new Promise((resolve) => setTimeout(resolve, 50));
    const third = await open(port);
    expect(await third.closed()).toBe(true);
    await first.write(head('GET', '/v1/usage', port, {}));
    expect((await first.response())?.status).toBe(401); // the first ones are still served
    second.socket.destroy();
  });

  it('cuts off a client that does not finish its headers in time', async () => {
    const { port } = await start({ headersTimeoutMs: 200 });
    const client = await open(port);
    await client.write(`GET /v1/usage HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    expect(await client.closed()).toBe(true);
  });

  it('cuts off a client that does not send the whole body in time', async () => {
    const { port, key } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 300 });
    const client = await open(port);
    await client.write(
      head('POST', '/v1/enrich', port, {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        'Content-Length': 1000,
      }) + '{"tra',
    );
    expect(await client.closed()).toBe(true);
  });
});
