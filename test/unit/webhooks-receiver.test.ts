// The listener's receiver against senders that hold on: too many connections, headers or a body
// that never finish, bodies and headers past their caps, and a close() that does not wait on them.
// Each bound is tightened through `limits` so the tests take a moment; the defaults are checked as
// values, and a body of the default cap is taken.
import { connect, type Socket } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { MAX_DELIVERY_BYTES } from '../../src/webhooks/events.js';
import {
  type Receiver,
  RECEIVER_LIMITS,
  type ReceiverLimits,
  startReceiver,
} from '../../src/webhooks/receiver.js';
import { signatureHeader } from '../../src/webhooks/signature.js';
import { svc } from '../support/in-process.js';
import { after, post, rawRequest } from '../support/peers.js';

const SECRET = 'whsec_receiver_test';

const receivers: Receiver[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(
  limits: Partial<ReceiverLimits> = {},
): Promise<{ receiver: Receiver; port: number; delivered: number[]; refused: string[] }> {
  const delivered: number[] = [];
  const refused: string[] = [];
  const started = await startReceiver({
    port: 0,
    secret: SECRET,
    limits,
    onDelivery: (d) => delivered.push(d.raw.length),
    onRejected: (reason) => refused.push(reason),
  });
  receivers.push(started);
  return { receiver: started, port: Number(new URL(started.url).port), delivered, refused };
}

/** A connection that sends `text` and then nothing; resolves once connected. */
function stalled(port: number, text: string): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      resolve({ socket, closed });
    });
    sockets.push(socket);
    let reply = '';
    socket.setEncoding('latin1').on('data', (data: string) => (reply += data));
    const closed = new Promise<string>((done) => socket.on('close', () => done(reply)));
    socket.on('error', reject);
  });
}

/** What happened to a connection within `ms`: the reply it got before closing, or 'still open'. */
const within = (closed: Promise<string>, ms = 8000) =>
  Promise.race([closed, after(ms, 'still open')]);

/**
 * A header of the right form signed just now: the receiver reads the body of such a delivery (to
 * check its signature).
 */
const fresh = () => `X-Svc-Signature: t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`;

const event = () =>
  JSON.stringify({
    event: 'report.ready',
    report_id: 'rpt_e8699f830adc84b8',
    timestamp: new Date().toISOString(),
  });

describe('the receiver bounds what a sender can hold', () => {
  it('the defaults: 16 connections, a 4 MiB body, an 8 KiB header, 10 s for the headers, 30 s for the request', () => {
    expect(RECEIVER_LIMITS).toEqual({
      maxConnections: 16,
      maxBodyBytes: MAX_DELIVERY_BYTES,
      maxHeaderBytes: 8 * 1024,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      idleTimeoutMs: 10_000,
    });
    expect(MAX_DELIVERY_BYTES).toBe(4 * 1024 * 1024);
  });

  it('`webhooks listen --help` states the defaults', async () => {
    const help = await svc(['webhooks', 'listen', '--help']);
    expect(help.code).toBe(0);
    const text = help.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(
      `a delivery body of at most ${MAX_DELIVERY_BYTES / 1024 / 1024} MiB (413 past it) and headers of at most ${RECEIVER_LIMITS.maxHeaderBytes / 1024} KiB (431)`,
    );
    expect(text).toContain(
      `a sender has ${RECEIVER_LIMITS.headersTimeoutMs / 1000} s for the headers and ${RECEIVER_LIMITS.requestTimeoutMs / 1000} s for the whole request`,
    );
    expect(text).toContain(`at most ${RECEIVER_LIMITS.maxConnections} connections at once`);
  });

  it('takes a valid delivery as large as the cap', async () => {
    const { port, delivered } = await receiver();
    const padding = 'x'.repeat(MAX_DELIVERY_BYTES - event().length - 20);
    const body = JSON.stringify({ ...JSON.parse(event()), padding });
    expect(body.length).toBeLessThanOrEqual(MAX_DELIVERY_BYTES);
    expect(
      await post(`http://127.0.0.1:${port}/`, body, {
        'X-Svc-Signature': signatureHeader(SECRET, body),
      }),
    ).toBe(200);
    expect(delivered).toEqual([body.length]);
  });

  it('a body whose Content-Length passes the cap is refused (413) before any of it comes', async () => {
    const { port, refused } = await receiver({ maxBodyBytes: 1000 });
    const { closed } = await stalled(
      port,
      'POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000000\r\nX-Svc-Signature: t=1,v1=00\r\n\r\n',
    );
    expect(await within(closed)).toMatch(/^HTTP\/1\.1 413 /);
    expect(refused).toEqual(['a body larger than 1000 bytes']);
  });

  it('a chunked body that passes the cap is refused (413) at the cap', async () => {
    const { port } = await receiver({ maxBodyBytes: 1000 });
    const chunk = 'x'.repeat(600);
    const { closed } = await stalled(
      port,
      `POST /hooks HTTP/1.1\r\nHost: x\r\n${fresh()}\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n${chunk}\r\n258\r\n${chunk}\r\n`,
    );
    expect(await within(closed)).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('an unsigned or stale delivery is refused (400) on its header, its body unread', async () => {
    const { port, refused } = await receiver();
    const stale = `X-Svc-Signature: t=${Math.floor(Date.now() / 1000) - 3600},v1=${'0'.repeat(64)}`;
    for (const header of ['', `${stale}\r\n`]) {
      // The body is announced and never sent: only a refusal on the header answers at once.
      const { closed } = await stalled(
        port,
        `POST /hooks HTTP/1.1\r\nHost: x\r\n${header}Content-Length: 1000\r\n\r\n{`,
      );
      expect(await within(closed)).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect(refused).toEqual([
      'no X-Svc-Signature header',
      'stale: signed 60 minutes ago, more than the 300 s allowed',
    ]);
  });

  it('a header larger than the cap is refused (431)', async () => {
    const { port } = await receiver();
    const request = `POST /hooks HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(12 * 1024)}\r\nContent-Length: 2\r\n\r\n{}`;
    expect(await rawRequest(port, request)).toBe(431);
  });

  it('headers that never finish: the connection is closed at the headers time limit', async () => {
    const { port } = await receiver({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { closed } = await stalled(port, 'POST /hooks HTTP/1.1\r\nHost: x\r\n');
    expect(await within(closed)).not.toBe('still open');
  });

  it('a body that never finishes: the connection is closed at the request time limit', async () => {
    const { port, delivered } = await receiver({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const { closed } = await stalled(
      port,
      `POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n${fresh()}\r\n\r\n{"event":`,
    );
    expect(await within(closed)).not.toBe('still open');
    expect(delivered).toEqual([]);
  });

  it('a connection on which nothing comes is closed', async () => {
    const { port } = await receiver({ idleTimeoutMs: 300 });
    const { closed } = await stalled(port, '');
    expect(await within(closed)).not.toBe('still open');
  });

  it('past the most connections at once, one more is closed as it comes; the others stay', async () => {
    const { port } = await receiver({ maxConnections: 2 });
    const held = [
      await stalled(port, 'POST /hooks HTTP/1.1\r\n'),
      await stalled(port, 'POST /hooks HTTP/1.1\r\n'),
    ];
    const extra = await stalled(port, 'POST /hooks HTTP/1.1\r\n');
    expect(await within(extra.closed)).toBe('');
    expect(await within(held[0]!.closed, 200)).toBe('still open');
    // Once one goes, a new connection is taken again.
    held[0]!.socket.destroy();
    await held[0]!.closed;
    const body = event();
    expect(
      await post(`http://127.0.0.1:${port}/`, body, {
        'X-Svc-Signature': signatureHeader(SECRET, body),
      }),
    ).toBe(200);
  });

  it('close() does not wait for a sender that stalls', async () => {
    const { receiver: started, port } = await receiver();
    await stalled(
      port,
      `POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n${fresh()}\r\n\r\n{`,
    );
    // Let the request reach the server: a connection with nothing read yet is idle, and closes
    // anyway.
    await after(200, undefined);
    expect(
      await Promise.race([started.close().then(() => 'closed'), after(8000, 'still closing')]),
    ).toBe('closed');
  });
});
