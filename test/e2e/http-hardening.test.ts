// The HTTP path against hostile servers and odd environments: proxies that see keys, ask for
// passwords or are not there; replies too big, too deep or
// too wordy; header values and keys that would break the request; Retry-After values that are
// not numbers of seconds. Each server here is made for its case, on loopback.
// `world.svc` runs svc in this process over its real transport (useWorld({ inProcess: true }));
// what only a real process shows (a closed pipe, a terminal, signals) spawns the built binary.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { unwrapped } from '../support/unwrapped.js';
import { type Result, STACK_LINE, useWorld } from './harness.js';

const world = useWorld({ inProcess: true });
/** A base URL no resolver knows: only a proxy can reach it. */
const REMOTE = 'https://svc.example.test';
const MIB = 1024 * 1024;
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

/** Runs svc against a plain HTTP server answering with `handler`; `hits` counts its requests. */
async function against(
  handler: RequestListener,
  args: string[],
  env: Record<string, string> = {},
): Promise<Result & { hits: number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  const port = await listen(server);
  try {
    const result = await world.svc(args, {
      env: { SVC_BASE_URL: `http://127.0.0.1:${port}`, ...env },
      timeoutMs: 30_000,
    });
    return { ...result, hits };
  } finally {
    await close(server);
  }
}

/** A proxy that records what reaches it and answers every CONNECT and request with `status`. */
async function startProxy(
  status: number,
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(status, { 'Proxy-Authenticate': 'Basic realm="corp"' });
    res.end();
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req, socket: Socket) => {
    seen.push(`CONNECT ${req.url}`);
    socket.end(
      `HTTP/1.1 ${status} Nope\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n`,
    );
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await close(server);
    },
  };
}

/**
 * A failure: `first` is matched against its `error:` line (under --json, against `error: ` and the
 * JSON envelope's message).
 */
function expectOneLine(result: Result, code: number, first: RegExp): void {
  expect(result.code, result.stderr).toBe(code);
  expect(result.stdout).toBe('');
  const line = lines(unwrapped(result.stderr))[0]!;
  expect(
    line.startsWith('{')
      ? `error: ${(JSON.parse(line) as { error_message: string }).error_message}`
      : line,
  ).toMatch(first);
  expect(result.stderr).not.toMatch(STACK_LINE);
}

describe('item 3: a loopback base URL never goes through a proxy', () => {
  it.each(['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy'])(
    '%s set: the key goes straight to the loopback service, the proxy sees nothing',
    async (variable) => {
      const proxy = await startProxy(200);
      try {
        const result = await world.svc(['usage', '--json', '--retries', '0'], {
          env: { [variable]: proxy.url },
        });
        expect(result.code, result.stderr).toBe(0);
        expect(JSON.parse(result.stdout)).toBeTypeOf('object');
        expect(proxy.seen).toEqual([]);
        expect((await world.requests()).filter((r) => r.path === '/v1/usage')).toHaveLength(1);
      } finally {
        await proxy.close();
      }
    },
  );

  it('a base URL elsewhere still goes through the proxy (a CONNECT tunnel: the key is encrypted inside it)', async () => {
    const proxy = await startProxy(403);
    try {
      const result = await world.svc(['usage', '--retries', '0'], {
        env: { SVC_BASE_URL: REMOTE, HTTPS_PROXY: proxy.url },
      });
      expect(proxy.seen).toEqual(['CONNECT svc.example.test:443']);
      expectOneLine(
        result,
        9,
        new RegExp(
          `^error: the proxy ${proxy.url} \\(HTTPS_PROXY\\) did not connect to svc\\.example\\.test \\(HTTP 403\\)$`,
        ),
      );
    } finally {
      await proxy.close();
    }
  });
});

describe('item 17: proxy failures name the proxy, its credentials masked', () => {
  it('407: exit 9, "the proxy asked for authentication", no retry, the password never shown', async () => {
    const proxy = await startProxy(407);
    try {
      const withPassword = proxy.url.replace('http://', 'http://alice:s3cr3t-pw@');
      const result = await world.svc(['usage', '--retries', '2'], {
        env: { SVC_BASE_URL: REMOTE, HTTPS_PROXY: withPassword },
      });
      expectOneLine(
        result,
        9,
        new RegExp(
          `^error: the proxy http://\\*\\*\\*@127\\.0\\.0\\.1:\\d+ \\(HTTPS_PROXY\\) asked for authentication$`,
        ),
      );
      expect(result.stderr).toContain('did not accept the user and password in HTTPS_PROXY');
      expect(result.stderr).not.toMatch(/s3cr3t|alice/);
      expect(proxy.seen).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('407 without credentials: the hint says where they go', async () => {
    const proxy = await startProxy(407);
    try {
      const result = await world.svc(['usage', '--retries', '0'], {
        env: { SVC_BASE_URL: REMOTE, https_proxy: proxy.url },
      });
      expectOneLine(
        result,
        9,
        /^error: the proxy http:\/\/127\.0\.0\.1:\d+ \(https_proxy\) asked for authentication$/,
      );
      expect(result.stderr).toContain('http://user:password@host:port');
    } finally {
      await proxy.close();
    }
  });

  it('a proxy that refuses connections: exit 9 naming the proxy, not the service', async () => {
    const port = await closedPort();
    const result = await world.svc(['usage', '--retries', '0'], {
      env: { SVC_BASE_URL: REMOTE, HTTPS_PROXY: `http://bob:hunter2@127.0.0.1:${port}` },
    });
    expectOneLine(
      result,
      9,
      new RegExp(
        `^error: connection refused by the proxy http://\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(HTTPS_PROXY\\)$`,
      ),
    );
    expect(result.stderr).not.toMatch(/hunter2|svc\.example\.test/);
  });

  it.each([
    ['HTTP_PROXY', 'http://u:p@[bad', '"http://***@[bad"'],
    ['HTTPS_PROXY', '127.0.0.1:3128', '"127.0.0.1:3128"'],
  ])('a malformed %s: exit 2 naming the variable, nothing sent', async (variable, value, shown) => {
    const result = await world.svc(['usage', '--retries', '2'], {
      env: { SVC_BASE_URL: REMOTE, [variable]: value },
    });
    expectOneLine(
      result,
      2,
      new RegExp(
        `^error: ${variable} is not a proxy address: ${shown.replace(/[.*[\]]/g, '\\$&')}$`,
      ),
    );
    expect(result.stderr).not.toContain('u:p');
  });
});

describe('item 10: a reply is capped at 64 MiB (--max-reply-size raises it)', () => {
  /**
   * A handler that sends 100 MiB of one JSON string, as the reader takes it; `sent` counts what
   * went out.
   */
  function hugeString(status: number, opening: string) {
    const counter = { sent: 0 };
    const handler: RequestListener = (_req, res) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(MIB, 'a');
      res.write(opening);
      const more = () => {
        while (counter.sent < 100 * MIB && !res.destroyed) {
          counter.sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('"}');
      };
      more();
    };
    return { handler, counter };
  }

  it('a plain 100 MiB body: the transfer stops at the cap, exit 10, one line, no retry', async () => {
    const { handler, counter } = hugeString(200, '{"pad":"');
    const result = await against(handler, ['reports', 'list', '--json', '--retries', '2']);
    expectOneLine(
      result,
      10,
      /^error: GET \/v1\/reports answered with a body larger than 64 MiB; the transfer was stopped \(raise --max-reply-size to take it\)$/,
    );
    expect(result.hits).toBe(1);
    expect(counter.sent).toBeLessThan(100 * MIB);
  });

  it('an error status with a 100 MiB body is classified by its status (exit 8), the body left unread', async () => {
    const { handler, counter } = hugeString(500, '{"error_code":"API_ERROR","error_message":"');
    const result = await against(handler, ['reports', 'list', '--retries', '0']);
    expectOneLine(result, 8, /^error: HTTP_500: 500 Internal Server Error: /);
    expect(counter.sent).toBeLessThan(100 * MIB);
  });

  it('a 1 MB gzip body that expands to 1 GiB: stopped at the cap, exit 10, no retry', async () => {
    // Sixteen gzip members of 64 MiB of spaces each: gunzip decodes them one after the other.
    const member = gzipSync(Buffer.alloc(64 * MIB, ' '));
    const bomb = Buffer.concat(Array.from({ length: 16 }, () => member));
    expect(bomb.length).toBeLessThan(2 * MIB);
    const result = await against(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        res.end(bomb);
      },
      ['reports', 'list', '--json', '--retries', '2'],
    );
    expectOneLine(result, 10, /^error: GET \/v1\/reports answered with a body larger than 64 MiB/);
    expect(result.hits).toBe(1);
  });

  it('svc api is capped too', async () => {
    const result = await against(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        res.end(gzipSync(Buffer.alloc(65 * MIB, ' ')));
      },
      ['api', 'GET', 'usage'],
    );
    expectOneLine(result, 10, /^error: GET \/v1\/usage answered with a body larger than 64 MiB/);
  });

  it('a reply under the cap is untouched', async () => {
    const result = await against(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
        res.end(gzipSync(Buffer.from(' '.repeat(MIB) + '{"data":[],"has_more":false}')));
      },
      ['reports', 'list', '--json'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ data: [], has_more: false });
  });

  it.each(['lots', '0', '2G', '-5M'])(
    '--max-reply-size %s: exit 2 before any request',
    async (value) => {
      const result = await world.svc(['usage', '--max-reply-size', value]);
      expect(result.code, result.stderr).toBe(2);
      expect(unwrapped(result.stderr)).toBe(
        `error: --max-reply-size takes a size from 1 byte to 500M, such as 200M, not "${value}"\n`,
      );
      expect(await world.requests()).toEqual([]);
    },
  );
});

describe('item 11: deeply nested JSON never gives a stack trace', () => {
  const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  const deepError = `{"error_type":"INVALID_REQUEST_ERROR","error_code":"INVALID_REQUEST","error_message":"too deep","details":${nested(5000)}}`;

  it.each([
    ['reports', 'get', 'rpt_deep'],
    ['reports', 'get', 'rpt_deep', '--json'],
    ['api', 'GET', 'reports/rpt_deep'],
  ])('a 400 nested 5,000 deep (%s …): exit 6 by its error code, no stack', async (...args) => {
    const result = await against(
      (_req, res) => res.writeHead(400, { 'Content-Type': 'application/json' }).end(deepError),
      args,
    );
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(result.stderr).not.toMatch(/call stack/i);
  });

  it.each([
    ['reports', 'get', 'rpt_deep'],
    ['reports', 'get', 'rpt_deep', '--json'],
    ['api', 'GET', 'reports/rpt_deep'],
  ])('a 200 nested 100,000 deep (%s …): printed, exit 0, no stack', async (...args) => {
    const result = await against(
      (_req, res) =>
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(nested(100_000)),
      args,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(STACK_LINE);
    expect(result.stderr).not.toMatch(/call stack/i);
  });
});

describe('item 12: every field of an error line is cut to a readable length', () => {
  const huge = 'x'.repeat(5 * MIB);
  const body = JSON.stringify({
    error_type: 'INVALID_REQUEST_ERROR',
    error_code: `E${huge}`,
    error_message: huge,
    suggested_action: huge,
    request_id: `req_${huge}`,
  });
  const serve: RequestListener = (_req, res) =>
    res.writeHead(400, { 'Content-Type': 'application/json' }).end(body);

  it.each([
    ['reports', 'get', 'rpt_wordy'],
    ['api', 'GET', 'reports/rpt_wordy'],
  ])('%s …: exit 6, no line longer than about 1,000 characters', async (...args) => {
    const result = await against(serve, args);
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toContain('x'.repeat(500) + '…');
    for (const line of result.stderr.split('\n')) expect(line.length).toBeLessThan(1100);
    expect(result.stderr.length).toBeLessThan(5000);
  });

  it('--json keeps the whole envelope on stderr', async () => {
    const result = await against(serve, ['reports', 'get', 'rpt_wordy', '--json']);
    expect(result.code, result.stderr).toBe(6);
    expect(JSON.parse(result.stderr)).toEqual(JSON.parse(body));
  });

  it('--debug traces the whole envelope', async () => {
    const result = await against(serve, ['reports', 'get', 'rpt_wordy', '--debug']);
    expect(result.code).toBe(6);
    const uncut = lines(result.stderr).find((line) =>
      line.startsWith('debug: error envelope, uncut: '),
    );
    expect(JSON.parse(uncut!.slice('debug: error envelope, uncut: '.length)).error_message).toBe(
      huge,
    );
  });
});

describe('item 15: header values and keys that HTTP cannot carry are refused before sending', () => {
  it.each([
    'X-Note: a\u0001b',
    'X-Note: bell\u0007',
    'X-Note: esc\u001b[31m',
    'X-Note: del\u007f',
    'X-Note: two\nlines',
    'X-Note: emoji \u{1f600}',
  ])('-H %j: exit 2, nothing sent', async (header) => {
    const result = await world.svc(['api', 'GET', 'usage', '-H', header, '--retries', '2']);
    expectOneLine(result, 2, /^error: the value of the X-Note header /);
    expect(await world.requests()).toEqual([]);
  });

  it('a tab, which HTTP allows in a value, is sent', async () => {
    const result = await world.svc(['api', 'GET', 'usage', '-H', 'X-Note: a\tb']);
    expect(result.code, result.stderr).toBe(0);
  });

  it.each(['\r\nX-Evil: 1', '\n', '\u001b', '\t'])(
    'a key holding %j: exit 2, nothing sent, the key not shown',
    async (tail) => {
      const key = `${world.key().key}${tail}`;
      const result = await world.svc(['usage', '--retries', '2'], { env: { SVC_API_KEY: key } });
      expectOneLine(result, 2, /^error: the API key contains a control character/);
      expect(result.stderr).not.toContain(world.key().key);
      expect(await world.requests()).toEqual([]);
    },
  );
});

describe('item 16: Retry-After is read as decimal seconds, anything else falls back to the backoff', () => {
  /**
   * The time between the first and the second attempt, the first answered 503 with `retryAfter`.
   */
  async function gap(retryAfter: string): Promise<number> {
    const times: number[] = [];
    const result = await against(
      (_req, res) => {
        times.push(performance.now());
        if (times.length === 1)
          res
            .writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': retryAfter })
            .end('{"error_code":"BUSY"}');
        else
          res
            .writeHead(200, { 'Content-Type': 'application/json' })
            .end('{"data":[],"has_more":false}');
      },
      ['reports', 'list', '--json', '--retries', '1'],
    );
    expect(result.code, result.stderr).toBe(0);
    return times[1]! - times[0]!;
  }

  it('1.5: one and a half seconds', async () => {
    const ms = await gap('1.5');
    expect(ms).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(5000);
  });

  // The first backoff is 250 to 500 ms; before, each of these meant no wait at all.
  it.each(['-5', 'junk 2', '1e3'])('%j: the backoff', async (value) => {
    const ms = await gap(value);
    expect(ms).toBeGreaterThanOrEqual(230);
    expect(ms).toBeLessThan(2000);
  });
});
