// The two commands that serve rather than ask, in-process as a person and as a script: `svc
// webhooks listen` receiving a signed delivery, and `svc mock` answering until Ctrl-C. Both bind a
// real loopback port; what needs a real process (signals, the mock's deliveries to a listener in
// another process) is in test/e2e/webhooks.test.ts.
import { createServer } from 'node:http';

import { describe, expect, it } from 'vitest';

import { signatureHeader } from '../../src/webhooks/signature.js';
import { plain, svc } from '../support/in-process.js';

const SECRET = 'whsec_in_process_listener';
const DELIVERY = JSON.stringify({
  event: 'report.ready',
  report_id: 'rpt_9f2c41d07ab35e18',
  timestamp: '2026-05-27T10:23:41Z',
  result: {},
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Sends until the listener is up: the command starts in this process, its server a moment later.
 */
async function post(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (attempt > 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

describe.each([
  ['a person', true],
  ['a script', false],
] as const)('for %s', (_who, tty) => {
  it('svc webhooks listen --exit-after 1 takes one valid delivery, prints it and ends with exit 0', async () => {
    const port = await freePort();
    const run = svc(
      ['webhooks', 'listen', '--port', String(port), '--secret', SECRET, '--exit-after', '1'],
      { tty, realWaits: true },
    );
    const forged = await post(`http://127.0.0.1:${port}/hooks`, {
      method: 'POST',
      body: DELIVERY,
      headers: { 'X-Svc-Signature': signatureHeader('not the secret', DELIVERY) },
    });
    expect(forged.status).toBe(400);
    const valid = await post(`http://127.0.0.1:${port}/hooks`, {
      method: 'POST',
      body: DELIVERY,
      headers: { 'X-Svc-Signature': signatureHeader(SECRET, DELIVERY) },
    });
    expect(valid.status).toBe(200);
    const result = await run;
    expect(result.code).toBe(0);
    expect(plain(result.stdout)).toContain('report.ready');
    expect(plain(result.stdout)).toContain('rpt_9f2c41d07ab35e18');
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(`Listening for webhook deliveries on http://127.0.0.1:${port}`);
    expect(result.stderr).toMatch(/refused a delivery \(POST \/hooks\): .*signature/);
  });

  it('svc mock answers with the keys it printed until Ctrl-C, then stops with exit 0', async () => {
    const port = await freePort();
    const stop = new AbortController();
    const run = svc(['mock', '--port', String(port), '--json', '--quiet'], {
      tty,
      signal: stop.signal,
    });
    const usage = await post(`http://127.0.0.1:${port}/v1/usage`, {
      headers: { Authorization: 'Bearer svc_sk_test_not_a_key_of_the_mock' },
    });
    expect(usage.status).toBe(401);
    stop.abort();
    const result = await run;
    expect(result.code).toBe(0);
    const started = JSON.parse(result.stdout) as {
      url: string;
      keys: { key: string; mode: string; scope: string }[];
    };
    expect(started.url).toBe(`http://127.0.0.1:${port}`);
    expect(started.keys.map((k) => `${k.mode}/${k.scope}`)).toEqual(
      expect.arrayContaining(['test/FULL', 'live/READ_ONLY']),
    );
    expect(result.stderr).toContain('svc mock stopped');
  });
});
