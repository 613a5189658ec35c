// How `svc webhooks listen` finds svc mock and registers with it: only a base URL on this machine
// is tried, with the key in force (the mock answers its own keys only); a registration is a 2xx
// with an id and a secret; anything else (the service's 404, a refusal, silence) is not one.
// Against a real mock, and against servers that are not one.
import { createServer, type Server } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { directTransport } from '../../src/api/transport.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import {
  type MockCallOptions,
  mockCandidate,
  registerWithMock,
  unregisterFromMock,
} from '../../src/webhooks/mock-endpoint.js';
import { mockAdminJson, testKeyOf } from '../support/mock-admin.js';
import { endlessTarget } from '../support/peers.js';

let mock: MockServer;
let OPTIONS: MockCallOptions;
let other: Server;
let otherUrl: string;
const seen: { method: string; url: string; userAgent?: string; authorization?: string }[] = [];
beforeAll(async () => {
  mock = await startMockServer({ webhookSecret: 'whsec_the_mocks_own' });
  OPTIONS = {
    apiKey: testKeyOf(mock),
    timeoutMs: 2000,
    userAgent: 'svc/test',
    transport: directTransport,
  };
  // A server that is not the mock: 404 with the service's envelope for every path.
  other = createServer((req, res) => {
    seen.push({
      method: req.method!,
      url: req.url!,
      userAgent: req.headers['user-agent'],
      authorization: req.headers.authorization,
    });
    req
      .resume()
      .on('end', () =>
        res
          .writeHead(404, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ error_code: 'NOT_FOUND', error_message: 'No such route.' })),
      );
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
});
afterAll(async () => {
  await mock.close();
  await new Promise((resolve) => other.close(resolve));
});

describe('mockCandidate', () => {
  it.each([
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['http://localhost:8787/', 'http://localhost:8787'],
    ['https://127.0.0.2:8443//', 'https://127.0.0.2:8443'],
    ['http://[::1]:8787', 'http://[::1]:8787'],
  ])('tries %s', (base, expected) => expect(mockCandidate(base)).toBe(expected));

  it.each([
    [undefined],
    ['https://api.example.com'],
    ['http://10.0.0.1:8787'],
    ['http://127.0.0.1.example.com'],
    ['ftp://127.0.0.1/'],
    ['not a url'],
  ])('never tries %j: the listener address goes to no other machine', (base) =>
    expect(mockCandidate(base)).toBeUndefined(),
  );
});

describe('registerWithMock and unregisterFromMock', () => {
  it("against svc mock with one of its keys: registered, with a secret made for this endpoint (not the mock's) when none is brought", async () => {
    const registration = await registerWithMock(
      mock.url,
      { url: 'http://127.0.0.1:8788/' },
      OPTIONS,
    );
    expect(registration).toEqual({
      kind: 'registered',
      id: expect.stringMatching(/^we_/),
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
    });
    expect((registration as { secret: string }).secret).not.toBe('whsec_the_mocks_own');
    expect(await mockAdminJson(mock, '/_mock/webhooks/endpoints')).toEqual([
      {
        id: (registration as { id: string }).id,
        url: 'http://127.0.0.1:8788/',
        source: 'registered',
      },
    ]);
    expect(
      await unregisterFromMock(mock.url, (registration as { id: string }).id, OPTIONS),
    ).toBeUndefined();
    expect(await mockAdminJson(mock, '/_mock/webhooks/endpoints')).toEqual([]);
  });

  it('without a key, or with one the mock did not make: not registered (401), with its reason', async () => {
    for (const apiKey of [undefined, 'svc_sk_test_0123456789abcdef0123456789abcdef']) {
      const registration = await registerWithMock(
        mock.url,
        { url: 'http://127.0.0.1:8788/' },
        { ...OPTIONS, apiKey },
      );
      expect(registration).toEqual({
        kind: 'not-registered',
        status: 401,
        fromMock: true,
        code: 'INVALID_API_KEY',
        message: expect.stringMatching(
          /^The \/_mock\/ endpoints answer only requests with one of this mock's keys/,
        ),
      });
    }
    expect(await mockAdminJson(mock, '/_mock/webhooks/endpoints')).toEqual([]);
  });

  it('with a secret brought: the mock signs with it and says so', async () => {
    const registration = await registerWithMock(
      mock.url,
      { url: 'http://127.0.0.1:8789/', secret: 'whsec_brought_along' },
      OPTIONS,
    );
    expect(registration).toMatchObject({ kind: 'registered', secret: 'whsec_brought_along' });
    await unregisterFromMock(mock.url, (registration as { id: string }).id, OPTIONS);
  });

  it('a refusal is not a registration, and carries the reason', async () => {
    expect(
      await registerWithMock(mock.url, { url: 'http://127.0.0.1:8789/', secret: 'short' }, OPTIONS),
    ).toEqual({
      kind: 'not-registered',
      status: 400,
      fromMock: true,
      code: 'INVALID_REQUEST',
      message: "'secret' must be 8 to 1024 characters without white space.",
    });
  });

  it('a server that is not the mock: not registered (404); its DELETE 404 counts as done', async () => {
    expect(await registerWithMock(otherUrl, { url: 'http://127.0.0.1:8788/' }, OPTIONS)).toEqual({
      kind: 'not-registered',
      status: 404,
      fromMock: false,
      code: 'NOT_FOUND',
      message: 'No such route.',
    });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: '/_mock/webhooks/endpoints',
      userAgent: 'svc/test',
      authorization: `Bearer ${OPTIONS.apiKey}`,
    });
    expect(await unregisterFromMock(otherUrl, 'we_gone', OPTIONS)).toBeUndefined();
  });

  it('a server that is not the mock and checks keys before routes: its 401 says nothing of svc mock (fromMock false)', async () => {
    const keyFirst = createServer((req, res) =>
      req
        .resume()
        .on('end', () =>
          res
            .writeHead(401, { 'Content-Type': 'application/json' })
            .end(
              JSON.stringify({ error_code: 'INVALID_API_KEY', error_message: 'Unknown API key' }),
            ),
        ),
    );
    await new Promise<void>((resolve) => keyFirst.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(keyFirst.address() as { port: number }).port}`;
      expect(await registerWithMock(url, { url: 'http://127.0.0.1:8788/' }, OPTIONS)).toEqual({
        kind: 'not-registered',
        status: 401,
        fromMock: false,
        code: 'INVALID_API_KEY',
        message: 'Unknown API key',
      });
    } finally {
      await new Promise((resolve) => keyFirst.close(resolve));
    }
  });

  it('nothing listening: unreachable, with why; unregistering from a stopped mock is done', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(gone.address() as { port: number }).port}`;
    await new Promise((resolve) => gone.close(resolve));
    expect(await registerWithMock(url, { url: 'http://127.0.0.1:8788/' }, OPTIONS)).toEqual({
      kind: 'unreachable',
      reason: 'ECONNREFUSED',
    });
    expect(await unregisterFromMock(url, 'we_0123456789abcdef', OPTIONS)).toBeUndefined();
  });

  it('a server that never answers: unreachable after the timeout', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      expect(
        await registerWithMock(
          url,
          { url: 'http://127.0.0.1:8788/' },
          { ...OPTIONS, timeoutMs: 100 },
        ),
      ).toEqual({ kind: 'unreachable', reason: 'no answer within 0.1 s' });
      expect(
        await unregisterFromMock(url, 'we_0123456789abcdef', { ...OPTIONS, timeoutMs: 100 }),
      ).toBe('no answer within 0.1 s');
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('a 2xx without an id and a secret is no registration', async () => {
    const odd = createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}'),
    );
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(odd.address() as { port: number }).port}`;
      expect(await registerWithMock(url, { url: 'http://127.0.0.1:8788/' }, OPTIONS)).toMatchObject(
        { kind: 'not-registered', status: 200 },
      );
    } finally {
      await new Promise((resolve) => odd.close(resolve));
    }
  });

  it('a 2xx whose id or secret svc mock would never give is an unexpected reply, saying which; a secret of 8 to 1024 characters is taken', async () => {
    let answer = {};
    const odd = createServer((_req, res) =>
      res
        .writeHead(201, { 'Content-Type': 'application/json', 'X-Svc-Mock': '1' })
        .end(JSON.stringify(answer)),
    );
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(odd.address() as { port: number }).port}`;
      const register = async (id: string, secret: string) => {
        answer = { id, url: 'x', secret };
        return registerWithMock(url, { url: 'http://127.0.0.1:8788/' }, OPTIONS);
      };
      for (const secret of ['s'.repeat(8), 's'.repeat(1024)])
        expect(await register('we_1', secret)).toEqual({ kind: 'registered', id: 'we_1', secret });
      expect(await register('we_1', 's'.repeat(1025))).toEqual({
        kind: 'unexpected',
        reason: 'a signing secret of 1025 characters',
      });
      expect(await register('we_1', 's'.repeat(7))).toEqual({
        kind: 'unexpected',
        reason: 'a signing secret of 7 characters',
      });
      expect(await register('we_1', 'whsec_a b_c')).toEqual({
        kind: 'unexpected',
        reason: 'a signing secret with white space or control characters',
      });
      expect(await register('we_1', 'whsec_\u202eabc')).toEqual({
        kind: 'unexpected',
        reason: 'a signing secret with white space or control characters',
      });
      expect(await register('', 'whsec_abcdef')).toEqual({
        kind: 'unexpected',
        reason: 'an endpoint id of 0 characters',
      });
      expect(await register('w'.repeat(257), 'whsec_abcdef')).toEqual({
        kind: 'unexpected',
        reason: 'an endpoint id of 257 characters',
      });
    } finally {
      await new Promise((resolve) => odd.close(resolve));
    }
  });

  it('Ctrl-C while registering rejects (the listener then stops)', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const controller = new AbortController();
      const pending = registerWithMock(
        url,
        { url: 'http://127.0.0.1:8788/' },
        { ...OPTIONS, signal: controller.signal },
      );
      controller.abort();
      await expect(pending).rejects.toThrow();
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('a server at the base URL that is not the mock and never stops answering', () => {
  it('registerWithMock reads no more than a mock reply can be, and says it is no registration', async () => {
    const target = await endlessTarget(201);
    const registration = await registerWithMock(
      target.url,
      { url: 'http://127.0.0.1:8788/' },
      OPTIONS,
    );
    expect(registration).toMatchObject({ kind: 'not-registered', status: 201 });
    await target.closed;
    expect(target.sent()).toBeLessThan(16 * 1024 * 1024);
  });
});
