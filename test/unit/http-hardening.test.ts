// The hardened pieces of the HTTP path, one by one: which proxy a base URL goes
// through (never one for loopback), Retry-After as decimal seconds, the size cap of a reply on
// both transports, the error fields cut for the error line, and header values refused unsent.
import { createServer, type RequestListener, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

import { afterEach, describe, expect, it } from 'vitest';

import { ApiClient, retryAfterMs, shortenEnvelope } from '../../src/api/client.js';
import { LARGEST_REPLY_BYTES } from '../../src/api/reply-size.js';
import { maskCredentials, proxyFor } from '../../src/api/transport.js';
import { NetworkError, UnexpectedReplyError, UsageError } from '../../src/core/errors.js';
import { byteSize } from '../../src/core/program/typed-options.js';

const KEY = 'svc_sk_test_00000000000000000000000000000000';
const MIB = 1024 * 1024;
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function client(
  baseUrl: string,
  options: { env?: Record<string, string>; maxReplyBytes?: number; apiKey?: string } = {},
): ApiClient {
  return new ApiClient({
    baseUrl,
    apiKey: options.apiKey ?? KEY,
    userAgent: 'svc/test',
    timeoutMs: 5_000,
    retries: 0,
    env: options.env ?? {},
    signal: new AbortController().signal,
    maxReplyBytes: options.maxReplyBytes,
  });
}

/** A service on loopback answering with `handler`, and a proxy that tunnels every CONNECT to it. */
async function serviceBehindProxy(
  handler: RequestListener,
): Promise<{ service: string; proxy: string; tunnels: string[] }> {
  const servicePort = await listen(createServer(handler));
  const tunnels: string[] = [];
  const proxy = createServer();
  proxy.on('connect', (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const upstream = connect(servicePort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const proxyPort = await listen(proxy);
  return {
    service: `http://127.0.0.1:${servicePort}`,
    proxy: `http://127.0.0.1:${proxyPort}`,
    tunnels,
  };
}

describe('proxyFor', () => {
  const env = { HTTPS_PROXY: 'http://proxy.corp:3128', HTTP_PROXY: 'http://plain.corp:3128' };

  it.each([
    'http://127.0.0.1:8080',
    'http://127.3.4.5',
    'http://localhost:9000',
    'http://[::1]:8080',
    'https://localhost',
  ])('%s: never a proxy (loopback)', (base) => {
    expect(
      proxyFor(new URL(base), { ...env, http_proxy: 'http://p:1', https_proxy: 'http://p:1' }),
    ).toBeUndefined();
  });

  it('https: HTTPS_PROXY, the lower-case spelling first, else the http proxy (as undici reads them)', () => {
    const target = new URL('https://api.example.com');
    expect(proxyFor(target, env)?.variable).toBe('HTTPS_PROXY');
    expect(proxyFor(target, { ...env, https_proxy: 'http://lower:1' })?.url.host).toBe('lower:1');
    expect(proxyFor(target, { HTTP_PROXY: 'http://plain.corp:3128' })?.variable).toBe('HTTP_PROXY');
    expect(proxyFor(target, {})).toBeUndefined();
  });

  it.each([
    ['*', true],
    ['example.com', true],
    ['.example.com', true],
    ['*.example.com', true],
    ['api.example.com:443', true],
    ['api.example.com:8443', false],
    ['other.com, ample.com', false],
    ['other.com api.example.com', true],
  ])('NO_PROXY=%j bypasses api.example.com: %s', (noProxy, bypassed) => {
    expect(
      proxyFor(new URL('https://api.example.com'), { ...env, NO_PROXY: noProxy }) === undefined,
    ).toBe(bypassed);
  });

  it('shows the proxy with its user and password masked, and the variable', () => {
    expect(
      proxyFor(new URL('https://api.example.com'), {
        HTTPS_PROXY: 'http://alice:pw@proxy.corp:3128/',
      })?.shown,
    ).toBe('http://***@proxy.corp:3128 (HTTPS_PROXY)');
  });

  it.each([
    'http://u:p@[bad',
    'proxy.corp:3128',
    '127.0.0.1:3128',
    'socks5://proxy.corp:1080',
    'ftp://proxy.corp',
  ])('a malformed proxy %j is a usage error naming the variable', (value) => {
    const attempt = () => proxyFor(new URL('https://api.example.com'), { HTTPS_PROXY: value });
    expect(attempt).toThrow(UsageError);
    expect(attempt).toThrow(/^HTTPS_PROXY /);
    expect(attempt).not.toThrow(/u:p/);
  });

  it('maskCredentials masks what parses and what does not', () => {
    expect(maskCredentials('http://u:p@[bad')).toBe('http://***@[bad');
    expect(maskCredentials('http://a@b:c@host:1')).toBe('http://***@host:1');
    expect(maskCredentials('http://host:1/x@y')).toBe('http://host:1/x@y');
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-11-21T10:00:00Z');

  it.each([
    ['1.5', 1500],
    ['0.25', 250],
    ['0', 0],
    [' 2 ', 2000],
    ['120.5', 60_000],
  ])('%j seconds: %i ms', (value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });

  it.each(['-5', 'junk 2', '1e3', '1.5.2', '+3', 'NaN', 'Infinity', '2026-11-21', '5 seconds'])(
    '%j: unreadable, the backoff applies',
    (value) => {
      expect(retryAfterMs(value, now)).toBeUndefined();
    },
  );

  it.each([
    'Sat, 21 Nov 2026 10:00:05 GMT',
    'Saturday, 21-Nov-26 10:00:05 GMT',
    'Sat Nov 21 10:00:05 2026',
  ])('the HTTP date %j', (value) => {
    expect(retryAfterMs(value, now)).toBe(5000);
  });
});

/** --max-reply-size as src/main.ts declares it. */
const parseReplySize = (text: string) => byteSize(text, LARGEST_REPLY_BYTES);

describe('parseReplySize', () => {
  it.each([
    ['64M', 64 * MIB],
    ['200MiB', 200 * MIB],
    ['200 MB', 200 * MIB],
    ['1.5k', 1536],
    ['123', 123],
    ['500M', 500 * MIB],
  ])('%j: %i bytes', (text, bytes) => {
    expect(parseReplySize(text)).toBe(bytes);
  });

  it.each(['lots', '0', '', '-5M', '2G', '501M', '64T', '0.1'])('%j: not a size', (text) => {
    expect(parseReplySize(text)).toBeUndefined();
  });
});

describe('the size cap of a reply', () => {
  const body = JSON.stringify({ data: 'x'.repeat(4000) });

  it('a direct reply past maxReplyBytes is an unexpected reply (exit 10); under it, taken', async () => {
    const port = await listen(
      createServer((_req, res) =>
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(body),
      ),
    );
    const base = `http://127.0.0.1:${port}`;
    await expect(
      client(base, { maxReplyBytes: 1024 }).request({ method: 'GET', path: '/v1/usage' }),
    ).rejects.toThrow(
      new UnexpectedReplyError(
        'GET /v1/usage answered with a body larger than 1 KiB; the transfer was stopped (raise --max-reply-size to take it)',
      ),
    );
    expect(
      (await client(base, { maxReplyBytes: 8192 }).request({ method: 'GET', path: '/v1/usage' }))
        .raw,
    ).toBe(body);
  });

  it('counts decoded bytes: a small gzip body that expands past the cap is stopped', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * MIB, ' '));
    const port = await listen(
      createServer((_req, res) =>
        res
          .writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
          .end(bomb),
      ),
    );
    await expect(
      client(`http://127.0.0.1:${port}`, { maxReplyBytes: MIB }).request({
        method: 'GET',
        path: '/v1/usage',
      }),
    ).rejects.toThrow(/larger than 1 MiB/);
  });

  it('through a proxy too, counted as undici decodes', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * MIB, ' '));
    const { proxy, tunnels } = await serviceBehindProxy((_req, res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
        .end(bomb),
    );
    // Not loopback, so the proxy is used; its tunnel leads to the loopback service.
    const remote = client('http://svc.example.test', {
      env: { HTTP_PROXY: proxy },
      maxReplyBytes: MIB,
    });
    await expect(remote.request({ method: 'GET', path: '/v1/usage' })).rejects.toThrow(
      /larger than 1 MiB/,
    );
    expect(tunnels).toEqual(['svc.example.test:80']);
  });

  it('a reply through a proxy under the cap is taken whole', async () => {
    const { proxy } = await serviceBehindProxy((_req, res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' })
        .end(gzipSync(body)),
    );
    const reply = await client('http://svc.example.test', { env: { HTTP_PROXY: proxy } }).request({
      method: 'GET',
      path: '/v1/usage',
    });
    expect(reply.raw).toBe(body);
  });

  it('a loopback base URL ignores the proxy variables', async () => {
    const { service, tunnels } = await serviceBehindProxy((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(body),
    );
    const proxyPort = await listen(createServer());
    const reply = await client(service, {
      env: {
        HTTP_PROXY: `http://127.0.0.1:${proxyPort}`,
        HTTPS_PROXY: `http://127.0.0.1:${proxyPort}`,
      },
    }).request({ method: 'GET', path: '/v1/usage' });
    expect(reply.raw).toBe(body);
    expect(tunnels).toEqual([]);
  });
});

describe('shortenEnvelope', () => {
  it('cuts each long field to 500 characters and an ellipsis', () => {
    const long = 'y'.repeat(5000);
    expect(
      shortenEnvelope({
        error_code: long,
        error_message: long,
        request_id: 'req_1',
        display_message: null,
      }),
    ).toEqual({
      error_code: 'y'.repeat(500) + '…',
      error_message: 'y'.repeat(500) + '…',
      request_id: 'req_1',
      display_message: null,
    });
  });

  it('gives the same envelope back when nothing is long', () => {
    const envelope = { error_code: 'NOT_FOUND', error_message: 'x'.repeat(500) };
    expect(shortenEnvelope(envelope)).toBe(envelope);
  });
});

describe('header values are checked before anything is sent', () => {
  async function requestWith(options: {
    apiKey?: string;
    headers?: Record<string, string>;
  }): Promise<{ error: unknown; hits: number }> {
    let hits = 0;
    const port = await listen(createServer((_req, res) => (hits++, res.writeHead(200).end('{}'))));
    const error = await client(`http://127.0.0.1:${port}`, { apiKey: options.apiKey })
      .request({ method: 'GET', path: '/v1/usage', headers: options.headers })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    return { error, hits };
  }

  it.each(['\r\nX-Evil: 1', '\n', '\u0000', '\u001b', '\t', '\u{1f600}'])(
    'a key holding %j: a usage error, the key not in it',
    async (tail) => {
      const { error, hits } = await requestWith({ apiKey: KEY + tail });
      expect(error).toBeInstanceOf(UsageError);
      expect(String((error as Error).message)).not.toContain(KEY);
      expect(hits).toBe(0);
    },
  );

  it.each(['a\u0001b', 'x\r\ny', '\u{1f600}'])(
    'a header value %j: a usage error naming the header',
    async (value) => {
      const { error, hits } = await requestWith({ headers: { 'X-Svc-Access-Token': value } });
      expect(error).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(/^the value of the X-Svc-Access-Token header /);
      expect(hits).toBe(0);
    },
  );

  it('a tab and Latin-1 are sendable', async () => {
    const { error, hits } = await requestWith({ headers: { 'X-Note': 'a\tcafé' } });
    expect(error).toBeUndefined();
    expect(hits).toBe(1);
  });
});

describe('proxy failures', () => {
  it('a refused proxy is a network error naming the proxy, not the service', async () => {
    const port = await listen(createServer());
    servers.pop()!.close();
    const error = await client('https://svc.example.test', {
      env: { HTTPS_PROXY: `http://u:pw@127.0.0.1:${port}` },
    })
      .request({ method: 'GET', path: '/v1/usage' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe(
      `connection refused by the proxy http://***@127.0.0.1:${port} (HTTPS_PROXY)`,
    );
  });
});
