// Output cut to fit (a terminal column, an excerpt of a body in an error) is masked before it is
// cut: a key cut short is no longer recognisable to the output's own masking.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { maskKey } from '../../src/config/keys.js';
import { merchantTableWriter } from '../../src/commands/merchants/table-writers.js';
import { createPaint } from '../../src/core/output/paint.js';

const KEY = 'svc_sk_test_0123456789abcdef0123456789abcdef';
const SECRET_HEAD = KEY.slice('svc_sk_test_'.length, 'svc_sk_test_'.length + 12);

describe('cut output is masked first', () => {
  it('a merchant cell holding the key, cut to the terminal width, shows none of its secret', async () => {
    let out = '';
    const sink = { write: async (text: string) => void (out += text) };
    const writer = merchantTableWriter(sink as never, await createPaint(false), { width: 100, mask: (text) => text.split(KEY).join(maskKey(KEY)) });
    await writer.write([{ input: 'x', type: 'name', matched: true, merchant: `${KEY} and a long tail to be cut, longer than any column a terminal of 100 gives`, mcc: '5411', category: 'groceries', city: 'Pokhara' }]);
    expect(out).toContain('svc_sk_test_…');
    expect(out).not.toContain(SECRET_HEAD);
  });

  it('an error excerpt of a body holding the key shows none of its secret', async () => {
    const server = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('x'.repeat(100) + KEY));
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
      const message = await client.request({ method: 'GET', path: '/v1/usage' }).then(() => '', (error: Error) => error.message);
      expect(message).toMatch(/not JSON/);
      expect(message).not.toContain(SECRET_HEAD);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
