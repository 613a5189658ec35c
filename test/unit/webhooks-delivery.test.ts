// The mock's webhook deliveries: signed POSTs, retried with backoff when the receiver fails, and
// stopped at once by close(). A local HTTP server plays the receiver.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

import { afterEach, describe, expect, it } from 'vitest';

import { startMockServer } from '../../src/mock/server.js';
import { WebhookSender } from '../../src/mock/webhooks.js';
import type { WebhookEvent } from '../../src/webhooks/events.js';
import { verifySignature } from '../../src/webhooks/signature.js';
import {
  after,
  collectingGarbage,
  endlessTarget,
  peerOnPortFetchRefuses,
  silentTarget,
} from '../support/peers.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver answering each request with the next status of `statuses` (the last one repeats). */
async function receiver(
  statuses: number[],
): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)]!).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  servers.push(server);
  return { url: `http://127.0.0.1:${address.port}/hooks`, received, server };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const SECRET = 'whsec_unit_test_secret';
const EVENT: WebhookEvent = {
  event: 'report.ready',
  report_id: 'rpt_e8699f830adc84b8',
  timestamp: '2026-01-01T00:00:00Z',
};
/** Whose event it is, and the key that registers endpoints for that organisation. */
const ORG = 'org_4d2a9f61c8e3b705';
const OWNER = { hash: 'a'.repeat(64), organization_id: ORG };

describe('WebhookSender', () => {
  it('POSTs the event as JSON with a valid signature', async () => {
    const target = await receiver([200]);
    const sender = new WebhookSender({ urls: [target.url], secret: SECRET });
    sender.send(EVENT, ORG);
    await sender.settled();
    expect(target.received).toHaveLength(1);
    const [delivery] = target.received;
    expect(JSON.parse(delivery!.body)).toEqual(EVENT);
    expect(delivery!.headers['content-type']).toBe('application/json');
    const header = delivery!.headers['x-svc-signature'] as string;
    expect(verifySignature({ secret: SECRET, header, body: delivery!.body }).valid).toBe(true);
  });

  it('retries a failed delivery with a fresh signature and stops at the first 2xx', async () => {
    const target = await receiver([500, 503, 204]);
    const lines: string[] = [];
    const sender = new WebhookSender({
      urls: [target.url],
      secret: SECRET,
      retryDelaysMs: [10, 20, 40, 80],
      log: (line) => lines.push(line),
    });
    sender.send(EVENT, ORG);
    await sender.settled();
    expect(target.received).toHaveLength(3);
    for (const delivery of target.received) {
      expect(delivery.body).toBe(target.received[0]!.body);
      expect(
        verifySignature({
          secret: SECRET,
          header: delivery.headers['x-svc-signature'] as string,
          body: delivery.body,
        }).valid,
      ).toBe(true);
    }
    expect(lines).toEqual([
      `could not deliver report.ready for rpt_e8699f830adc84b8 to ${target.url} (answered 500); retry 1 of 4 in 10ms`,
      `could not deliver report.ready for rpt_e8699f830adc84b8 to ${target.url} (answered 503); retry 2 of 4 in 20ms`,
      `delivered report.ready for rpt_e8699f830adc84b8 to ${target.url} → 204 (attempt 3 of 5)`,
    ]);
  });

  it('gives up after the last attempt', async () => {
    const target = await receiver([500]);
    const lines: string[] = [];
    const sender = new WebhookSender({
      urls: [target.url],
      secret: SECRET,
      retryDelaysMs: [5, 5],
      log: (line) => lines.push(line),
    });
    sender.send(EVENT, ORG);
    await sender.settled();
    expect(target.received).toHaveLength(3);
    expect(lines.at(-1)).toMatch(/ \(answered 500\); gave up after 3 attempts$/);
  });

  it('delivers to a receiver on a port the global fetch refuses (6000, 10080…: "bad port")', async () => {
    const received: string[] = [];
    const target = await peerOnPortFetchRefuses((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    const lines: string[] = [];
    const sender = new WebhookSender({
      urls: [target.url],
      secret: SECRET,
      retryDelaysMs: [],
      log: (line) => lines.push(line),
    });
    sender.send(EVENT, ORG);
    await sender.settled();
    expect(lines).toEqual([
      `delivered report.ready for rpt_e8699f830adc84b8 to ${target.url} → 204`,
    ]);
    expect(received.map((body) => JSON.parse(body))).toEqual([EVENT]);
  });

  it('retries when nothing listens at the address', async () => {
    const target = await receiver([200]);
    await new Promise((resolve) => target.server.close(resolve));
    const lines: string[] = [];
    const sender = new WebhookSender({
      urls: [target.url],
      secret: SECRET,
      retryDelaysMs: [5],
      log: (line) => lines.push(line),
    });
    sender.send(EVENT, ORG);
    await sender.settled();
    expect(lines).toEqual([
      expect.stringMatching(/\(failed: ECONNREFUSED\); retry 1 of 1/),
      expect.stringMatching(/ECONNREFUSED\); gave up after 2 attempts$/),
    ]);
  });

  it('delivers to every address', async () => {
    const [a, b] = [await receiver([200]), await receiver([200])];
    const sender = new WebhookSender({ urls: [a.url, b.url], secret: SECRET });
    sender.send(EVENT, ORG);
    await sender.settled();
    expect([a.received.length, b.received.length]).toEqual([1, 1]);
  });

  it('logs one line per delivery: the event, the report, the address and the status', async () => {
    const target = await receiver([200]);
    const lines: string[] = [];
    const sender = new WebhookSender({
      urls: [target.url],
      secret: SECRET,
      log: (line) => lines.push(line),
    });
    expect(sender.send(EVENT, ORG)).toEqual([target.url]);
    await sender.settled();
    expect(lines).toEqual([
      `delivered report.ready for rpt_e8699f830adc84b8 to ${target.url} → 200`,
    ]);
  });

  it('with no endpoint sends nothing, returns [] and says so', async () => {
    const lines: string[] = [];
    const sender = new WebhookSender({ urls: [], secret: SECRET, log: (line) => lines.push(line) });
    expect(sender.send(EVENT, ORG)).toEqual([]);
    expect(lines).toEqual([
      'fired report.ready for rpt_e8699f830adc84b8 to no endpoint: run `svc webhooks listen` against this mock, or start it with --webhook-url URL',
    ]);
  });

  it('delivers to registered endpoints with their own secret, and to each address once', async () => {
    const [fixed, registered] = [await receiver([200]), await receiver([200])];
    const sender = new WebhookSender({ urls: [fixed.url, registered.url], secret: SECRET });
    sender.register(registered.url, OWNER, 'whsec_registered_secret');
    // The registered endpoint first; the --webhook-url of the same address is not delivered to
    // twice.
    expect(sender.send(EVENT, ORG)).toEqual([registered.url, fixed.url]);
    await sender.settled();
    expect([fixed.received.length, registered.received.length]).toEqual([1, 1]);
    const header = (r: Received) => r.headers['x-svc-signature'] as string;
    expect(
      verifySignature({
        secret: SECRET,
        header: header(fixed.received[0]!),
        body: fixed.received[0]!.body,
      }).valid,
    ).toBe(true);
    expect(
      verifySignature({
        secret: 'whsec_registered_secret',
        header: header(registered.received[0]!),
        body: registered.received[0]!.body,
      }).valid,
    ).toBe(true);
  });

  it("a registration without a secret gets one of its own, not the sender's; unregister stops deliveries", async () => {
    const target = await receiver([200]);
    const sender = new WebhookSender({ urls: [], secret: SECRET });
    const endpoint = sender.register(target.url, OWNER);
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^we_[0-9a-f]{16}$/),
      url: target.url,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{64}$/),
      owner: OWNER,
    });
    expect(endpoint.secret).not.toBe(SECRET);
    expect(sender.register('http://127.0.0.1:1/', OWNER).secret).not.toBe(endpoint.secret);
    expect(sender.endpointsOf(OWNER)).toEqual([
      endpoint,
      expect.objectContaining({ url: 'http://127.0.0.1:1/' }),
    ]);
    expect(sender.unregister(endpoint.id, OWNER)).toEqual(endpoint);
    expect(sender.unregister(endpoint.id, OWNER)).toBeUndefined();
  });

  it("a registered endpoint is its key's: another key neither sees nor removes it; it gets its organisation's events only", async () => {
    const target = await receiver([200]);
    const sender = new WebhookSender({ urls: [], secret: SECRET });
    const endpoint = sender.register(target.url, OWNER);
    const sameOrgOtherKey = { hash: 'b'.repeat(64), organization_id: ORG };
    const otherOrg = { hash: 'c'.repeat(64), organization_id: 'org_b81e07c39a5f2d64' };
    expect([sender.endpointsOf(sameOrgOtherKey), sender.endpointsOf(otherOrg)]).toEqual([[], []]);
    expect(sender.unregister(endpoint.id, otherOrg)).toBeUndefined();
    expect(sender.unregister(endpoint.id, sameOrgOtherKey)).toBeUndefined();
    expect(sender.send(EVENT, otherOrg.organization_id)).toEqual([]);
    expect(sender.send(EVENT, ORG)).toEqual([target.url]);
    await sender.settled();
    expect(target.received).toHaveLength(1);
  });

  it('keeps a registered endpoint that answered, even with errors; drops it only when nothing listened', async () => {
    const failing = await receiver([500]);
    const sender = new WebhookSender({ urls: [], secret: SECRET, retryDelaysMs: [5] });
    sender.register(failing.url, OWNER);
    sender.send(EVENT, ORG);
    await sender.settled();
    expect(sender.endpointsOf(OWNER)).toHaveLength(1);
    await new Promise((resolve) => failing.server.close(resolve));
    sender.send(EVENT, ORG);
    await sender.settled();
    expect(sender.endpointsOf(OWNER)).toEqual([]);
  });

  it('close() cancels a retry that is waiting, and later sends do nothing', async () => {
    const target = await receiver([500]);
    const sender = new WebhookSender({
      urls: [target.url],
      secret: SECRET,
      retryDelaysMs: [3_600_000],
    });
    sender.send(EVENT, ORG);
    // Wait for the first attempt to be answered; the retry then waits an hour unless close() ends
    // it.
    while (target.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    sender.close();
    await sender.settled();
    sender.send(EVENT, ORG);
    await sender.settled();
    expect(target.received).toHaveLength(1);
  });
});

describe('WebhookSender against a receiver that hangs or never stops answering', () => {
  it('a receiver that never answers: each attempt ends at its time limit, garbage collections or not', async () => {
    const target = await silentTarget();
    const lines: string[] = [];
    const sender = new WebhookSender({
      urls: [target.url],
      secret: SECRET,
      attemptTimeoutMs: 300,
      retryDelaysMs: [5],
      log: (line) => lines.push(line),
    });
    const gc = collectingGarbage();
    try {
      sender.send(EVENT, ORG);
      expect(
        await Promise.race([
          sender.settled().then(() => 'settled'),
          after(8000, 'still waiting after 8 s'),
        ]),
      ).toBe('settled');
    } finally {
      gc.stop();
    }
    expect(lines).toEqual([
      expect.stringMatching(/\(no answer within 300ms\); retry 1 of 1 in 5ms$/),
      expect.stringMatching(/\(no answer within 300ms\); gave up after 2 attempts$/),
    ]);
    expect(target.requests()).toBe(2);
  });

  it('a receiver whose reply never ends: its status is taken, its body is not read', async () => {
    const target = await endlessTarget(200);
    const lines: string[] = [];
    const sender = new WebhookSender({
      urls: [target.url],
      secret: SECRET,
      attemptTimeoutMs: 60_000,
      log: (line) => lines.push(line),
    });
    sender.send(EVENT, ORG);
    expect(
      await Promise.race([
        sender.settled().then(() => 'settled'),
        after(8000, 'still reading after 8 s'),
      ]),
    ).toBe('settled');
    expect(lines).toEqual([
      `delivered report.ready for rpt_e8699f830adc84b8 to ${target.url} → 200`,
    ]);
    await target.closed;
    expect(target.sent()).toBeLessThan(16 * 1024 * 1024);
  });
});

describe('startMockServer with webhookUrls', () => {
  it('delivers a fired event signed with the secret it reports', async () => {
    const target = await receiver([500]);
    const mock = await startMockServer({
      webhookUrls: [target.url],
      webhookRetryDelaysMs: [3_600_000],
    });
    const key = mock.keys.find((k) => k.mode === 'test' && k.scope === 'FULL')!;
    const auth = { Authorization: `Bearer ${key.key}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${mock.url}/v1/sandbox/reports`, {
      method: 'POST',
      headers: auth,
      body: '{}',
    });
    const { report_id: id } = (await created.json()) as { report_id: string };
    const fired = await fetch(`${mock.url}/v1/sandbox/reports/${id}/fire_webhook`, {
      method: 'POST',
      headers: auth,
      body: '{}',
    });
    expect(await fired.json()).toEqual({
      fired: 'report.ready',
      report_id: id,
      environment: 'test',
      delivered_to: [target.url],
    });
    while (target.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const [delivery] = target.received;
    expect(
      verifySignature({
        secret: mock.webhookSecret,
        header: delivery!.headers['x-svc-signature'] as string,
        body: delivery!.body,
      }).valid,
    ).toBe(true);
    expect(JSON.parse(delivery!.body)).toMatchObject({ event: 'report.ready', report_id: id });
    await mock.close();
  });

  it('uses a secret it is given', async () => {
    const mock = await startMockServer({ webhookSecret: 'whsec_given' });
    expect(mock.webhookSecret).toBe('whsec_given');
    await mock.close();
  });
});
