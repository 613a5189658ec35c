// A webhook delivery sent again within the tolerance window (a replay) is refused: by the guard,
// by the receiver (409, not passed on), and by `svc webhooks listen`, which notes it on stderr and
// keeps its exit code.
import { afterEach, describe, expect, it } from 'vitest';

import { type Delivery, type Receiver, startReceiver } from '../../src/webhooks/receiver.js';
import { ReplayGuard } from '../../src/webhooks/replay.js';
import { signatureHeader, unixNow } from '../../src/webhooks/signature.js';
import { svc } from '../support/in-process.js';

const SECRET = 'whsec_replay_test_secret';
const T = 1_767_225_600;

const body = (report = 'rpt_0123456789abcdef') =>
  JSON.stringify({ event: 'report.ready', report_id: report, timestamp: '2026-01-01T00:00:00Z' });

function deliver(url: string, raw: string, header: string): Promise<Response> {
  return fetch(`${url}/hooks`, {
    method: 'POST',
    body: raw,
    headers: { 'Content-Type': 'application/json', 'X-Svc-Signature': header },
  });
}

describe('ReplayGuard', () => {
  it('accepts a signature once, then refuses it within the window', () => {
    const guard = new ReplayGuard(300);
    expect(guard.accept('a', T, T)).toBe(true);
    expect(guard.accept('a', T, T + 1)).toBe(false);
    expect(guard.accept('a', T, T + 300)).toBe(false);
    expect(guard.accept('b', T, T + 300)).toBe(true);
  });

  it('forgets a signature once the window is over (it is then refused as stale anyway)', () => {
    const guard = new ReplayGuard(300);
    guard.accept('a', T, T);
    expect(guard.accept('a', T, T + 301)).toBe(true);
  });
});

describe('the receiver', () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it('answers a replay 409 and passes it on to nobody', async () => {
    const delivered: Delivery[] = [];
    const refused: string[] = [];
    receiver = await startReceiver({
      port: 0,
      secret: SECRET,
      onDelivery: (d) => delivered.push(d),
      onRejected: (reason) => refused.push(reason),
    });
    const now = unixNow();
    const header = signatureHeader(SECRET, body(), now);

    expect((await deliver(receiver.url, body(), header)).status).toBe(200);
    expect((await deliver(receiver.url, body(), header)).status).toBe(409);
    // The same timestamp and body, the header dressed up with an extra (bogus) signature: still a
    // replay.
    expect((await deliver(receiver.url, body(), `${header},v1=${'0'.repeat(64)}`)).status).toBe(
      409,
    );
    expect(refused).toEqual([
      'a replay: this delivery was already accepted (a signature counts once within 300 s)',
      'a replay: this delivery was already accepted (a signature counts once within 300 s)',
    ]);

    // Another body, or the same body signed anew, is a new delivery.
    expect(
      (
        await deliver(
          receiver.url,
          body('rpt_fedcba9876543210'),
          signatureHeader(SECRET, body('rpt_fedcba9876543210'), now),
        )
      ).status,
    ).toBe(200);
    expect(
      (await deliver(receiver.url, body(), signatureHeader(SECRET, body(), now - 1))).status,
    ).toBe(200);
    expect(delivered).toHaveLength(3);
  });
});

describe('the receiver before and after', () => {
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  it('answers 503 until a secret is agreed (a sender then retries), and verifies with it after', async () => {
    const delivered: Delivery[] = [];
    receiver = await startReceiver({
      port: 0,
      onDelivery: (d) => delivered.push(d),
      onRejected: () => {},
    });
    const header = signatureHeader(SECRET, body(), unixNow());
    const early = await deliver(receiver.url, body(), header);
    expect([early.status, await early.json()]).toEqual([
      503,
      { error: 'the listener is not ready yet' },
    ]);
    receiver.useSecret(SECRET);
    expect((await deliver(receiver.url, body(), header)).status).toBe(200);
    expect(delivered).toHaveLength(1);
  });

  it('once stopped, answers 503 and passes nothing on', async () => {
    const delivered: Delivery[] = [];
    receiver = await startReceiver({
      port: 0,
      secret: SECRET,
      onDelivery: (d) => delivered.push(d),
      onRejected: () => {},
    });
    receiver.stop();
    expect(
      (await deliver(receiver.url, body(), signatureHeader(SECRET, body(), unixNow()))).status,
    ).toBe(503);
    expect(delivered).toEqual([]);
  });
});

describe('svc webhooks listen', () => {
  it('notes a replay on stderr, prints the event once and still ends with exit 0', async () => {
    let errs = '';
    let listening!: (url: string) => void;
    const address = new Promise<string>((resolve) => (listening = resolve));
    const onStderr = (text: string) => {
      errs += text;
      const url = /on (http:\/\/127\.0\.0\.1:\d+) /.exec(errs)?.[1];
      if (url) listening(url);
    };
    // The real clock: the deliveries are signed now, and the listener's time limit is a real wait.
    const run = svc(
      ['webhooks', 'listen', '--port', '0', '--secret', SECRET, '--exit-after', '2', '--json'],
      { now: Date.now(), realWaits: true, onStderr },
    );
    const url = await address;
    const now = unixNow();
    const header = signatureHeader(SECRET, body(), now);
    expect((await deliver(url, body(), header)).status).toBe(200);
    expect((await deliver(url, body(), header)).status).toBe(409);
    expect(
      (
        await deliver(
          url,
          body('rpt_fedcba9876543210'),
          signatureHeader(SECRET, body('rpt_fedcba9876543210'), now),
        )
      ).status,
    ).toBe(200);

    const result = await run;
    expect(result.code, result.stderr).toBe(0);
    expect(
      result.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).report_id),
    ).toEqual(['rpt_0123456789abcdef', 'rpt_fedcba9876543210']);
    expect(
      result.stderr.match(/^warning: refused a delivery \(POST \/hooks\): a replay: .*$/gm),
    ).toHaveLength(1);
  });
});
