// The mock's table of Idempotency-Keys on its own: what it keeps, for how long, and how many.
import { describe, expect, it } from 'vitest';

import { ApiError } from '../../src/mock/errors.js';
import { JsonText, type Reply } from '../../src/mock/http.js';
import {
  type Claim,
  IdempotencyTable,
  type IdempotentRequest,
} from '../../src/mock/idempotency.js';

const HOUR = 3_600_000;

function request(
  key: string,
  body: string,
  options: Partial<IdempotentRequest> = {},
): IdempotentRequest {
  const data = Buffer.from(body);
  return {
    scope: 'org_a/test',
    key,
    method: 'POST',
    url: new URL('http://127.0.0.1/v1/parse'),
    contentType: 'application/json',
    body: { data, size: data.length },
    ...options,
  };
}

const ok: Reply = { status: 200, body: { report_id: 'rpt_1' } };
/** `ok` as a replay sends it: the JSON text the table kept. */
const okReplayed = { ...ok, body: new JsonText(JSON.stringify(ok.body)) };
const settle = (claim: Claim, reply: Reply) =>
  'settle' in claim ? claim.settle(reply) : expect.unreachable();
const errorCode = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as ApiError).code;
  }
  return undefined;
};

describe('IdempotencyTable', () => {
  it('replays a settled reply for 24 hours, then runs the request again', () => {
    let now = Date.parse('2026-05-14T00:00:00Z');
    const table = new IdempotencyTable(() => new Date(now));
    settle(table.claim(request('key-00000001', '{"a":1}')), ok);
    now += 23 * HOUR;
    expect(table.claim(request('key-00000001', '{ "a": 1 }'))).toEqual({
      replay: { ...okReplayed, headers: { 'Idempotent-Replayed': 'true' } },
    });
    now += 2 * HOUR;
    expect('settle' in table.claim(request('key-00000001', '{"a":1}'))).toBe(true);
  });

  it('tells a key in flight (409) from one reused with other parameters (422)', () => {
    const table = new IdempotencyTable(() => new Date());
    table.claim(request('key-00000002', '{"a":1}'));
    expect(errorCode(() => table.claim(request('key-00000002', '{"a":1}')))).toBe(
      'IDEMPOTENCY_IN_PROGRESS',
    );
    expect(errorCode(() => table.claim(request('key-00000002', '{"a":2}')))).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
    expect(
      errorCode(() =>
        table.claim(
          request('key-00000002', '{"a":1}', { url: new URL('http://127.0.0.1/v1/enrich') }),
        ),
      ),
    ).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('releases the key on a 5xx and when the caller goes away; keeps client errors', () => {
    const table = new IdempotencyTable(() => new Date());
    settle(table.claim(request('key-00000003', '{}')), { status: 503, body: {} });
    expect('settle' in table.claim(request('key-00000003', '{}'))).toBe(true);
    const gone = table.claim(request('key-00000004', '{}'));
    if ('release' in gone) gone.release();
    expect('settle' in table.claim(request('key-00000004', '{}'))).toBe(true);
    settle(table.claim(request('key-00000005', '{}')), { status: 422, body: {} });
    expect(table.claim(request('key-00000005', '{}'))).toMatchObject({ replay: { status: 422 } });
  });

  it('compares multipart bodies by their parts, whatever the boundary', () => {
    const table = new IdempotencyTable(() => new Date());
    const form = (boundary: string) =>
      request(
        'key-00000006',
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.pdf"\r\n\r\n%PDF-1.4\r\n--${boundary}--\r\n`,
        {
          contentType: `multipart/form-data; boundary=${boundary}`,
        },
      );
    settle(table.claim(form('aaaa')), ok);
    expect(table.claim(form('bbbb'))).toMatchObject({ replay: okReplayed });
  });

  it('scopes keys, refuses keys shorter than 8 or longer than 255 characters, and remembers the newest keys only', () => {
    const table = new IdempotencyTable(() => new Date(), { capacity: 3 });
    settle(table.claim(request('key-00000007', '{}')), ok);
    expect('settle' in table.claim(request('key-00000007', '{}', { scope: 'org_a/live' }))).toBe(
      true,
    );
    expect(errorCode(() => table.claim(request('1234567', '{}')))).toBe('INVALID_REQUEST');
    expect(errorCode(() => table.claim(request('k'.repeat(256), '{}')))).toBe('INVALID_REQUEST');
    for (const key of ['key-00000008', 'key-00000009', 'key-00000010'])
      settle(table.claim(request(key, '{}')), ok);
    expect(table.size).toBe(3);
    expect('settle' in table.claim(request('key-00000007', '{}'))).toBe(true); // forgotten
  });
});
