// Output cut to fit (a terminal column, an excerpt of a body in an error, an error field) is masked
// before it is cut, and before it is made printable: a key cut short, or split by what is left of
// an escape sequence, is no longer recognisable to the output's own masking.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import { ApiClient } from '../../src/api/client.js';
import { createPaint } from '../../src/core/output/paint.js';
import { merchantColumns, merchantTableWriter } from '../../src/merchants/table-writers.js';
import { maskKey } from '../../src/service/keys.js';

const KEY = 'svc_sk_test_0123456789abcdef0123456789abcdef';
const SECRET_HEAD = KEY.slice('svc_sk_test_'.length, 'svc_sk_test_'.length + 12);

describe('cut output is masked first', () => {
  it('a merchant cell holding the key, cut to the terminal width, shows none of its secret', async () => {
    let out = '';
    const sink = { write: async (text: string) => void (out += text) };
    const writer = merchantTableWriter(
      sink as never,
      await createPaint(false),
      { width: 100 },
      merchantColumns(false),
      (text) => text.split(KEY).join(maskKey(KEY)),
    );
    await writer.write([
      {
        input: 'x',
        type: 'name',
        matched: true,
        merchant: `${KEY} and a long tail to be cut, longer than any column a terminal of 100 gives`,
        mcc: '5411',
        category: 'groceries',
        city: 'Pokhara',
      },
    ]);
    expect(out).toContain('svc_sk_test_…');
    expect(out).not.toContain(SECRET_HEAD);
  });

  it('an error excerpt of a body holding the key shows none of its secret', async () => {
    const message = await errorMessageFor(200, 'text/plain', 'x'.repeat(100) + KEY);
    expect(message).toMatch(/not JSON/);
    expect(message).not.toContain(SECRET_HEAD);
  });

  it('an error excerpt of a body holding the key split by an escape sequence shows none of its secret', async () => {
    const message = await errorMessageFor(
      200,
      'text/plain',
      `${'x'.repeat(10)}${KEY.slice(0, 16)}\u001b[0m${KEY.slice(16)}`,
    );
    expect(message).toMatch(/not JSON/);
    expect(message.replace(/\[0m/g, '')).not.toContain(SECRET_HEAD);
  });

  it('an error field cut short, the key in it split by an invisible character across the cut, shows none of its secret', async () => {
    // The cut comes at 500 characters: after the first 12 of the secret.
    const split = `${KEY.slice(0, 24)}\u200b${KEY.slice(24)}`;
    const envelope = {
      error_type: 'INVALID_REQUEST_ERROR',
      error_code: 'INVALID_REQUEST',
      error_message: 'x'.repeat(470) + split,
    };
    const message = await errorMessageFor(422, 'application/json', JSON.stringify(envelope));
    expect(message.replace(/\u200b/g, '')).not.toContain(SECRET_HEAD);
  });
});

/**
 * The message of the error a client with the key gets from a server answering `GET /v1/usage` so.
 */
async function errorMessageFor(status: number, contentType: string, body: string): Promise<string> {
  const server = createServer((_req, res) =>
    res.writeHead(status, { 'Content-Type': contentType }).end(body),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const client = new ApiClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: KEY,
      userAgent: 'svc/test',
      timeoutMs: 5_000,
      retries: 0,
      env: {},
      signal: new AbortController().signal,
    });
    return await client.request({ method: 'GET', path: '/v1/usage' }).then(
      () => '',
      (error: Error & { envelope?: { error_message?: string } }) =>
        error.envelope?.error_message ?? error.message,
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
