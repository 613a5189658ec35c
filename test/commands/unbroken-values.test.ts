// Values a person copies are never split across lines (docs/reference/output.md, "Tables"), whole
// commands in-process as a person at a terminal of 80, 60 and 0 columns (a terminal that tells no
// width is fitted as one of 80): the Connect URL, a consent's data URL, the scenario names of `svc
// sandbox scenarios`, dates and times. A value too wide to sit beside its label starts a line of
// its own, unindented; a table that cannot keep one whole becomes cards. stdout, stderr and the
// exit code apart.
import { describe, expect, it } from 'vitest';

import { BASE_URL, FakeService, MemoryCache, plain, svc } from '../support/in-process.js';

const WIDTHS = [80, 60, 0] as const;
/** The width a run is fitted to: a terminal of 0 columns tells none, and is fitted as one of 80. */
const fitted = (columns: number) => (columns === 0 ? 80 : columns);
const lines = (text: string) => plain(text).replace(/\n$/, '').split('\n');
const width = (line: string) => [...line].length;

/** No line is wider than the terminal, but one that holds a single value wider than it, alone. */
function expectFits(text: string, columns: number): void {
  for (const line of lines(text))
    if (/\s/.test(line.trim())) expect(width(line), line).toBeLessThanOrEqual(fitted(columns));
}

function expectWhole(text: string, values: readonly string[]): void {
  const shown = lines(text);
  for (const value of values)
    expect(
      shown.some((line) => line.includes(value)),
      `${value} whole on one line of:\n${shown.join('\n')}`,
    ).toBe(true);
}

describe.each(WIDTHS)('at %i columns', (columns) => {
  it('svc connect: the Connect URL whole, on a line of its own when it does not fit beside its label', async () => {
    const token = 'creq_4cd2fe8f55f6e2cd0ca78a70';
    const url =
      'https://connect.svc.example/connect?token=swln_4cd2fe8f55f6e2cd0ca78a70bb61c2d9e4f1a7';
    const service = new FakeService().expect('POST', '/v1/connect/request', {
      body: { request_token: token, connect_url: url },
    });
    const result = await svc(
      ['connect', '--scopes', 'identity,income', '--redirect-uri', 'https://app.example.com/done'],
      { tty: true, columns, service },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(lines(result.stdout)).toEqual([`Request token  ${token}`, 'Connect URL', url]);
  });

  it('svc consents create: the data URL whole; the notes on stderr wrapped to the width, the consent id whole', async () => {
    const id = 'cns_c29af449e7313dfa';
    const token = 'cst_d9aee607fd9c2aac4e513c9a6e8e92a4';
    const dataUrl = `${BASE_URL}/v1/consents/${id}/data?token=${token}`;
    const reply = {
      id,
      token,
      data_url: dataUrl,
      scopes: ['identity', 'income'],
      expires_at: '2026-06-21T10:00:00Z',
    };
    const service = new FakeService().expect('POST', '/v1/consents', { status: 201, body: reply });
    const result = await svc(
      ['consents', 'create', 'rpt_e8699f830adc84b8', '--scopes', 'identity,income'],
      { tty: true, columns, service },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual([
      `Consent   ${id}`,
      `Token     ${token}`,
      'Data URL',
      dataUrl,
      'Scopes    identity, income',
      'Expires   2026-06-21 10:00 UTC (in 30 days)',
    ]);
    expectFits(result.stderr, columns);
    expect(result.stderr).toMatch(/^warning: this token gives whoever holds it the report's data/);
    expectWhole(result.stderr, [`svc consents revoke ${id}\``]);
  });

  it('svc connect exchange: the access token whole, whatever letters the service makes it of', async () => {
    // No digit and no underscore: nothing in the token itself says it is one; its field does.
    const accessToken = 'grant-access-token-abcdefghijklmnopqrstuvwxyz-ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    const reply = {
      grant_id: 'grt_4cd2fe8f55f6e2cd',
      scopes: ['identity'],
      access_token: accessToken,
    };
    const service = new FakeService().expect('POST', '/v1/connect/exchange', { body: reply });
    const result = await svc(['connect', 'exchange', 'pub_4cd2fe8f55f6e2cd0ca78a70'], {
      tty: true,
      columns,
      service,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout)).toEqual([
      'Grant         grt_4cd2fe8f55f6e2cd',
      'Scopes        identity',
      'Access token',
      accessToken,
    ]);
    expectFits(result.stderr, columns);
  });

  it('svc sandbox scenarios: scenario names and error codes whole, in a table or as cards', async () => {
    const body = {
      default: 'salaried',
      report_scenarios: [
        {
          scenario: 'salaried',
          description:
            'Steady monthly salary, rent, a light car-loan EMI and internet; the balance grows over six months',
        },
      ],
      error_scenarios: [
        {
          scenario: 'error_unsupported_bank',
          error_code: 'UNSUPPORTED_BANK',
          description: 'A statement of a bank the service does not read',
        },
        {
          scenario: 'error_unsupported_document',
          error_code: 'UNSUPPORTED_DOCUMENT',
          description: 'A document that is not a bank or wallet statement',
        },
        {
          scenario: 'error_image_not_readable',
          error_code: 'IMAGE_NOT_READABLE',
          description: 'A photo or scan too blurred or too small to read',
        },
      ],
    };
    const service = new FakeService().expect('GET', '/v1/sandbox/scenarios', { body });
    const result = await svc(['sandbox', 'scenarios'], {
      tty: true,
      columns,
      cache: new MemoryCache(),
      service,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expectFits(result.stdout, columns);
    expectWhole(result.stdout, [
      'error_unsupported_bank',
      'error_unsupported_document',
      'error_image_not_readable',
      'UNSUPPORTED_DOCUMENT',
      'IMAGE_NOT_READABLE',
    ]);
  });

  it('a date, its time and zone stay on one line, even beside a label that leaves a value 20 columns', async () => {
    const reply = {
      plan: 'growth',
      quota: 10000,
      used: 9500,
      remaining: 500,
      period: '2026-05',
      resets_at: '2026-06-01T00:00:00Z',
      merchant_resolve: { quota_of_the_billing_cycle_resets_at: '2026-06-01T00:00:00Z' },
    };
    const service = new FakeService().expect('GET', '/v1/usage', { body: reply });
    const result = await svc(['usage'], {
      tty: true,
      columns,
      env: { TZ: 'Asia/Kathmandu' },
      service,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expectFits(result.stdout, columns);
    const shown = lines(result.stdout);
    expect(shown.filter((line) => line.includes('2026-06-01 05:45 +0545'))).toHaveLength(2);
    const resets = shown.indexOf('Resets');
    if (columns === 60)
      expect(shown.slice(resets, resets + 4)).toEqual([
        'Resets',
        '2026-06-01 05:45 +0545 (in 10 days)',
        'Merchant resolve quota of the billing cycle resets at',
        '2026-06-01 05:45 +0545 (in 10 days)',
      ]);
  });
});
