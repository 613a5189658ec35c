// `svc api METHOD PATH`, in the manner of `gh api`: one round trip against svc mock. Fields, the
// query string, --input, -H, -i, error statuses and the checks before any request are tested
// in-process: test/commands/api.test.ts.
import { describe, expect, it } from 'vitest';

import { unwrapped } from '../support/unwrapped.js';
import { useWorld } from './harness.js';

const world = useWorld();

async function onlyRequest() {
  const requests = await world.requests();
  expect(requests).toHaveLength(1);
  return requests[0]!;
}

describe('GET', () => {
  it('sends -q parameters and -f fields as the query string and prints the body as pretty JSON', async () => {
    const r = await world.svc(['api', 'GET', 'reports', '-q', 'limit=2', '-f', 'status=complete']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\{\n  "data": \[\n    \{\n      "report_id": "rpt_/);
    const body = JSON.parse(r.stdout);
    expect(body.data).toHaveLength(2);
    expect(body.data.every((x: { status: string }) => x.status === 'complete')).toBe(true);
    expect(await onlyRequest()).toMatchObject({
      method: 'GET',
      path: '/v1/reports',
      query: { limit: '2', status: 'complete' },
      body: null,
    });
  });
});

describe('refused before any request (exit 2)', () => {
  it.each([
    [['POST', 'enrich', '--input', '/dev/zero'], '--input /dev/zero'],
    [['POST', 'enrich', '-F', 'transactions=@/dev/zero'], '-F transactions=@/dev/zero'],
  ])(
    'svc api %j: a device that never ends is read up to the limit, not until the memory runs out',
    async (args, by) => {
      const started = Date.now();
      const r = await world.svc(['api', ...args], { timeoutMs: 20_000 });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(unwrapped(r.stderr)).toBe(
        `error: ${by}: more than 32 MB to send; svc api takes at most 32 MB from files and standard input for one request\n`,
      );
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(await world.requests()).toEqual([]);
    },
  );

  it("svc api with backslashes does not leave /v1: the mock's own routes are not reached with the key", async () => {
    const r = await world.svc(['api', 'x\\..\\..\\_mock\\requests']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: PATH "x\\..\\..\\_mock\\requests" must not contain \\, which a URL reads as /\n',
    );
    expect(await world.requests()).toEqual([]);
  });
});
