// The wire below the HTTP path: what a direct connection (node:http and node:https) does with
// encoded bodies, TLS, a byte order mark and a body that stalls, seen through the built `svc`
// talking to small servers made for each case.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type RequestListener,
  type Server,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { unwrapped } from '../support/unwrapped.js';
import { STACK_LINE, useWorld } from './harness.js';

const world = useWorld();
const REPORTS = {
  data: [
    {
      report_id: 'rpt_0123456789abcdef',
      status: 'complete',
      bank_code: 'NABIL',
      created_at: '2026-11-01T10:00:00Z',
    },
  ],
  has_more: false,
};

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return String((server.address() as AddressInfo).port);
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Runs `svc reports list --json` against a plain HTTP server answering with `handler`. */
async function listFrom(handler: RequestListener, extra: string[] = []) {
  const server = createHttpServer(handler);
  const port = await listen(server);
  try {
    return await world.svc(['reports', 'list', '--json', '--retries', '0', ...extra], {
      env: { SVC_BASE_URL: `http://127.0.0.1:${port}` },
    });
  } finally {
    await close(server);
  }
}

describe('Content-Encoding', () => {
  const encoders: Record<string, (bytes: Buffer) => Buffer> = {
    gzip: gzipSync,
    br: brotliCompressSync,
    deflate: deflateSync,
    'deflate (raw, as some servers send it)': deflateRawSync,
  };

  for (const [name, encode] of Object.entries(encoders)) {
    it(`a ${name} body is decoded`, async () => {
      let asked: IncomingHttpHeaders = {};
      const result = await listFrom((req, res) => {
        asked = req.headers;
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Encoding': name.split(' ')[0]!,
        });
        res.end(encode(Buffer.from(JSON.stringify(REPORTS))));
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual(REPORTS);
      expect(asked['accept-encoding']).toBe('gzip, deflate, br');
    });
  }

  it('a body that is not what its Content-Encoding says: exit 10, one line, no stack', async () => {
    const result = await listFrom((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(JSON.stringify(REPORTS));
    });
    expect(result.code, result.stderr).toBe(10);
    expect(result.stdout).toBe('');
    // --json: the failure is one JSON line on stderr.
    expect(result.stderr.split('\n')).toEqual([expect.any(String), '']);
    expect(JSON.parse(result.stderr)).toMatchObject({
      error_code: 'UNEXPECTED_REPLY',
      error_message:
        'GET /v1/reports answered with a gzip body that does not decode (incorrect header check)',
    });
    expect(result.stderr).not.toMatch(STACK_LINE);
  });
});

describe('body text', () => {
  it('a UTF-8 byte order mark before the JSON is not part of the reply', async () => {
    const result = await listFrom((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(REPORTS))]),
      );
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(REPORTS);
  });

  it('Devanagari split across chunks arrives whole', async () => {
    const named = {
      data: [{ ...REPORTS.data[0], account_holder: 'राम बहादुर श्रेष्ठ' }],
      has_more: false,
    };
    const result = await listFrom((_req, res) => {
      const bytes = Buffer.from(JSON.stringify(named));
      const cut = bytes.indexOf(Buffer.from('ब')) + 1; // inside a three-byte character
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': bytes.length });
      res.write(bytes.subarray(0, cut));
      setTimeout(() => res.end(bytes.subarray(cut)), 50);
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(named);
  });

  it('a body that stalls after the headers is bounded by --timeout: exit 9 naming the limit', async () => {
    const result = await listFrom(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{"data":[');
      },
      ['--timeout', '0.5'],
    );
    expect(result.code, result.stderr).toBe(9);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toMatchObject({
      error_code: 'NETWORK',
      error_message: expect.stringMatching(/^no reply from 127\.0\.0\.1:\d+ within 0\.5 s/),
    });
    expect(result.stderr).not.toMatch(STACK_LINE);
  });
});

describe('a server that does not speak HTTP', () => {
  it('exit 9, one line naming the host, and a hint to check the base URL', async () => {
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket.on('error', () => {}));
      socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await world.svc(['reports', 'list', '--retries', '0'], {
        env: { SVC_BASE_URL: `http://127.0.0.1:${port}` },
      });
      expect(result.code, result.stderr).toBe(9);
      expect(result.stdout).toBe('');
      expect(unwrapped(result.stderr)).toMatch(
        /^error: 127\.0\.0\.1:\d+ did not answer in HTTP \(.+\)\nCheck the base URL: is it the service, on the right port\?\n$/,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('https', () => {
  /** A certificate for 127.0.0.1, signed by itself, made for this run. */
  function selfSigned(): { certPath: string; cert: string; key: string } {
    const dir = world.tempDir('svc-tls-');
    const certPath = join(dir, 'cert.pem');
    const keyPath = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        keyPath,
        '-out',
        certPath,
      ],
      { stdio: 'ignore' },
    );
    return { certPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
  }

  async function withTlsServer(
    run: (url: string, certPath: string) => Promise<void>,
  ): Promise<void> {
    const { certPath, cert, key } = selfSigned();
    const server = createHttpsServer({ cert, key }, (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(REPORTS));
    });
    const port = await listen(server);
    try {
      await run(`https://127.0.0.1:${port}`, certPath);
    } finally {
      await close(server);
    }
  }

  it('a certificate trusted through NODE_EXTRA_CA_CERTS: the reply is printed', async () => {
    await withTlsServer(async (url, certPath) => {
      const result = await world.svc(['reports', 'list', '--json', '--retries', '0'], {
        env: { SVC_BASE_URL: url, NODE_EXTRA_CA_CERTS: certPath },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual(REPORTS);
    });
  });

  it('an untrusted certificate: exit 9, a TLS error and the NODE_EXTRA_CA_CERTS hint', async () => {
    await withTlsServer(async (url) => {
      const result = await world.svc(['reports', 'list', '--retries', '0'], {
        env: { SVC_BASE_URL: url },
      });
      expect(result.code, result.stderr).toBe(9);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^error: TLS failure talking to 127\.0\.0\.1:\d+: /);
      expect(result.stderr).toContain('NODE_EXTRA_CA_CERTS');
      expect(result.stderr).not.toMatch(STACK_LINE);
    });
  });
});
