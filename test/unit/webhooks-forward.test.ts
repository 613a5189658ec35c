// `webhooks listen --forward-to`: the delivery passed on as it came, one deadline over the whole
// exchange that a garbage collection cannot lose, and no more than a short excerpt of any reply.
import type { IncomingHttpHeaders } from 'node:http';

import { describe, expect, it } from 'vitest';

import {
  forwardDelivery,
  ForwardTimeoutError,
  MAX_REPLY_EXCERPT_BYTES,
} from '../../src/webhooks/forward.js';
import type { Delivery } from '../../src/webhooks/receiver.js';
import { signatureHeader } from '../../src/webhooks/signature.js';
import {
  after,
  collectingGarbage,
  endlessTarget,
  peer,
  peerOnPortFetchRefuses,
  silentTarget,
} from '../support/peers.js';

const BODY = JSON.stringify({
  event: 'report.ready',
  report_id: 'rpt_e8699f830adc84b8',
  timestamp: '2026-05-22T09:59:55Z',
});
const SIGNATURE = signatureHeader('whsec_forward_test', BODY);

const delivery: Delivery = {
  event: JSON.parse(BODY),
  body: JSON.parse(BODY),
  raw: Buffer.from(BODY),
  headers: {
    'content-type': 'application/json',
    'user-agent': 'svc-mock-webhooks',
    'x-svc-signature': SIGNATURE,
    cookie: 'not passed on',
    host: '127.0.0.1:8788',
  },
  path: '/hooks',
  signedAt: 0,
};

const forever = new AbortController().signal;
/** The outcome of a forward, or 'still running' once `ms` have passed. */
function settled<T>(
  promise: Promise<T>,
  ms = 8000,
): Promise<{ value: T } | { error: unknown } | 'still running'> {
  return Promise.race([
    promise.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
    after(ms, 'still running' as const),
  ]);
}

describe('forwardDelivery', () => {
  it('POSTs the same body with the content type, user agent and X-Svc-… headers; answers the status', async () => {
    const got: { headers: IncomingHttpHeaders; body: string }[] = [];
    const target = await peer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        got.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    expect(
      await forwardDelivery(target.url, delivery, { timeoutMs: 5000, signal: forever }),
    ).toEqual({ status: 204, excerpt: '' });
    expect(got).toHaveLength(1);
    expect(got[0]!.body).toBe(BODY);
    expect(got[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'svc-mock-webhooks',
      'x-svc-signature': SIGNATURE,
    });
    expect(got[0]!.headers.cookie).toBeUndefined();
  });

  it('reaches a target on a port the global fetch refuses (6000, 10080…: "bad port")', async () => {
    let got = '';
    const target = await peerOnPortFetchRefuses((req, res) => {
      req.setEncoding('utf8').on('data', (chunk: string) => (got += chunk));
      req.on('end', () => res.writeHead(204).end());
    });
    expect(
      await forwardDelivery(target.url, delivery, { timeoutMs: 5000, signal: forever }),
    ).toEqual({ status: 204, excerpt: '' });
    expect(got).toBe(BODY);
  });

  it('a refusal comes with the start of its reply', async () => {
    const target = await peer((req, res) =>
      req
        .resume()
        .on('end', () => res.writeHead(422, { 'Content-Type': 'text/plain' }).end('bad signature')),
    );
    expect(
      await forwardDelivery(target.url, delivery, { timeoutMs: 5000, signal: forever }),
    ).toEqual({ status: 422, excerpt: 'bad signature' });
  });

  it('a target that never answers: rejected at the deadline, though garbage is collected meanwhile', async () => {
    const target = await silentTarget();
    const gc = collectingGarbage();
    try {
      const outcome = await settled(
        forwardDelivery(target.url, delivery, { timeoutMs: 300, signal: forever }),
      );
      expect(outcome).toEqual({ error: expect.any(ForwardTimeoutError) });
      expect((outcome as { error: Error }).error.message).toBe('no answer within 0.3 s');
    } finally {
      gc.stop();
    }
  });

  it('the deadline covers the reply too: a refusal whose body stops coming is reported with what came', async () => {
    const target = await peer((req, res) => {
      req.resume();
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.write('the start of it');
    });
    const gc = collectingGarbage();
    try {
      expect(
        await settled(forwardDelivery(target.url, delivery, { timeoutMs: 300, signal: forever })),
      ).toEqual({ value: { status: 500, excerpt: 'the start of it' } });
    } finally {
      gc.stop();
    }
  });

  it.each([200, 500])(
    'a reply without end (%i): a few bytes at most are read, and the connection is closed',
    async (status) => {
      const target = await endlessTarget(status);
      const outcome = await settled(
        forwardDelivery(target.url, delivery, { timeoutMs: 60_000, signal: forever }),
      );
      expect(outcome).toEqual({ value: { status, excerpt: expect.any(String) } });
      const { excerpt } = (outcome as { value: { excerpt: string } }).value;
      expect(Buffer.byteLength(excerpt)).toBeLessThanOrEqual(MAX_REPLY_EXCERPT_BYTES);
      if (status === 500) expect(excerpt.length).toBeGreaterThan(0);
      await target.closed;
      expect(target.sent()).toBeLessThan(16 * 1024 * 1024);
    },
  );

  it('stops at once when the listener is interrupted', async () => {
    const target = await silentTarget();
    const stop = new AbortController();
    const forwarding = settled(
      forwardDelivery(target.url, delivery, { timeoutMs: 60_000, signal: stop.signal }),
    );
    while (target.requests() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    stop.abort();
    const outcome = await forwarding;
    expect(outcome).not.toBe('still running');
    expect((outcome as { error: Error }).error).not.toBeInstanceOf(ForwardTimeoutError);
  });
});
