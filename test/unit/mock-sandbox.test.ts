// The mock's sandbox: scenario reports (deterministic, in the profile their scenario promises),
// error scenarios, override_transactions, the scenario list, fire_webhook, and test keys only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fixtures } from '../../src/mock/fixtures.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { keyOf } from '../support/keys.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ clock: () => new Date('2026-05-14T09:30:00Z') });
});
afterAll(() => mock.close());

async function call(path: string, json?: unknown, key = keyOf(mock, 'Sagarmatha Lending')) {
  const reply = await fetch(`${mock.url}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: reply.status, body: (await reply.json()) as any };
}

const create = (json: unknown) => call('/v1/sandbox/reports', json);
const withoutIds = (report: any) => ({ ...report, report_id: undefined, created_at: undefined });

describe('scenario reports', () => {
  it('makes the default scenario, salaried, when none is named', async () => {
    const { status, body } = await create({});
    expect(status).toBe(201);
    expect(withoutIds(body)).toEqual(withoutIds((await create({ scenario: 'salaried' })).body));
  });

  it.each(fixtures.scenarios.report_scenarios.map((s) => [s.scenario, s] as const))(
    '%s: the same report every time, apart from its id',
    async (_name, scenario) => {
      const [a, b] = [
        await create({ scenario: scenario.scenario }),
        await create({ scenario: scenario.scenario }),
      ];
      expect(a.body.report_id).not.toBe(b.body.report_id);
      expect(withoutIds(a.body)).toEqual(withoutIds(b.body));
      expect(a.body.statement).toMatchObject({
        bank_code: scenario.bank_code,
        total_transactions: scenario.statement.transaction_count,
        period: { to: '2026-05-09' },
      });
      // Kept: every report endpoint reads it.
      const identity = await call(`/v1/reports/${a.body.report_id}/identity`);
      expect(identity.body.account_holder).toBe(scenario.statement.account_holder);
      expect(
        (await call(`/v1/reports?limit=100`)).body.data.map((r: any) => r.report_id),
      ).toContain(a.body.report_id);
    },
  );

  it('follows the documented profiles', async () => {
    const signals = async (scenario: string) => (await create({ scenario })).body.signals;
    expect(await signals('salaried')).toMatchObject({
      salary_detected: true,
      balance_trend: 'growing',
      negative_balance_days: 0,
    });
    expect(await signals('thin_file')).toMatchObject({
      salary_detected: false,
      loan_repayments_detected: false,
    });
    expect(await signals('high_risk')).toMatchObject({
      balance_trend: 'declining',
      loan_repayments_detected: true,
    });
    expect((await signals('high_risk')).negative_balance_days).toBeGreaterThan(0);
    expect(await signals('remittance')).toMatchObject({
      salary_detected: false,
      remittance_detected: true,
    });
    const thin = (await create({ scenario: 'thin_file' })).body;
    expect(thin.transactions.length).toBeLessThan(20);
  });

  it('answers an error scenario as that failure would, creating nothing', async () => {
    const before = (await call('/v1/reports?limit=100')).body.data.length;
    for (const scenario of fixtures.scenarios.error_scenarios) {
      const { status, body } = await create({ scenario: scenario.scenario });
      expect(status).toBe(422);
      expect(body).toMatchObject({
        error_code: scenario.error_code,
        error_type: 'INVALID_REQUEST_ERROR',
        display_message: null,
      });
      expect(body.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    }
    expect((await call('/v1/reports?limit=100')).body.data.length).toBe(before);
  });

  it('reads override_transactions instead of the scenario’s own, balance from the scenario’s opening balance', async () => {
    const { status, body } = await create({
      scenario: 'high_risk',
      override_transactions: [
        {
          date: '2026-03-03',
          description: 'MPAY 7670618176042425,123456789,MOB',
          amount: 1250.5,
          direction: 'debit',
        },
        {
          date: '2026-03-01',
          description: 'SALARY ACME PVT LTD MAR 2026',
          amount: 50000,
          direction: 'credit',
        },
        {
          date: '2026-03-02',
          description: 'ATM WDL 123456 NEW ROAD',
          amount: 5000,
          direction: 'debit',
        },
      ],
    });
    expect(status).toBe(201);
    expect(body.statement).toMatchObject({
      period: { from: '2026-03-01', to: '2026-03-03' },
      opening_balance: 150000,
      closing_balance: 193749.5,
      total_transactions: 3,
    });
    expect(
      body.transactions.map((t: any) => [
        t.date,
        t.amount,
        t.balance,
        t.personal_finance_category.primary,
      ]),
    ).toEqual([
      ['2026-03-01', -50000, 200000, 'INCOME'],
      ['2026-03-02', 5000, 195000, 'TRANSFER_OUT'],
      ['2026-03-03', 1250.5, 193749.5, 'FOOD_AND_DRINK'],
    ]);
    expect(body.transactions[2]).toMatchObject({
      merchant_name: 'Foodmandu',
      payment_terminal_id: '7670618176042425',
    });
    expect(body.categories).toMatchObject({
      salary: { count: 1 },
      cash_withdrawal: { count: 1 },
      merchant_payment: { count: 1 },
    });
  });

  it.each([
    [{ scenario: 'nope' }, /Unknown scenario 'nope'/],
    [{ scenario: 7 }, /'scenario' must be a string/],
    [{ override_transactions: {} }, /must be an array/],
    [
      {
        override_transactions: [
          { date: '2026-02-30x', description: 'x', amount: 1, direction: 'debit' },
        ],
      },
      /\[0\]\.date/,
    ],
    [
      {
        override_transactions: [
          { date: '2026-02-03', description: ' ', amount: 1, direction: 'debit' },
        ],
      },
      /\[0\]\.description/,
    ],
    [
      {
        override_transactions: [
          { date: '2026-02-03', description: 'x', amount: -1, direction: 'debit' },
        ],
      },
      /\[0\]\.amount/,
    ],
    [
      {
        override_transactions: [
          { date: '2026-02-03', description: 'x', amount: 1, direction: 'out' },
        ],
      },
      /\[0\]\.direction/,
    ],
  ])('refuses %j with 400', async (json, message) => {
    const { status, body } = await create(json);
    expect(status).toBe(400);
    expect(body.error_message).toMatch(message);
  });
});

describe('the scenario list', () => {
  it('names every report and error scenario and the default', async () => {
    const { status, body } = await call('/v1/sandbox/scenarios');
    expect(status).toBe(200);
    expect(body.default).toBe('salaried');
    expect(body.report_scenarios.map((s: any) => s.scenario)).toEqual([
      'salaried',
      'thin_file',
      'high_risk',
      'remittance',
    ]);
    expect(body.error_scenarios.map((s: any) => s.scenario)).toEqual([
      'error_unsupported_bank',
      'error_unsupported_document',
      'error_password_required',
      'error_image_not_readable',
    ]);
    for (const s of [...body.report_scenarios, ...body.error_scenarios])
      expect(s.description).toEqual(expect.any(String));
    for (const s of body.error_scenarios) expect(s.error_code).toMatch(/^[A-Z_]+$/);
  });
});

describe('fire_webhook', () => {
  it('fires report.ready by default, report.failed with an error code', async () => {
    const { body: report } = await create({});
    const fire = (json: unknown) =>
      call(`/v1/sandbox/reports/${report.report_id}/fire_webhook`, json);
    // delivered_to is the mock's addition: the endpoints it delivers to, none here.
    expect((await fire({})).body).toEqual({
      fired: 'report.ready',
      report_id: report.report_id,
      environment: 'test',
      delivered_to: [],
    });
    expect((await fire({ event: 'report.failed', error_code: 'TAMPER_DETECTED' })).body.fired).toBe(
      'report.failed',
    );
    expect((await fire({ event: 'parse.complete' })).status).toBe(400);
    expect((await fire({ event: 'report.failed', error_code: 'lower' })).status).toBe(400);
    expect((await fire({ event: 'report.ready', error_code: 'TAMPER_DETECTED' })).status).toBe(400);
  });

  it("answers 404 for another organisation's report", async () => {
    const other = keyOf(mock, 'Himalaya Microfinance');
    const { status, body } = await call(
      '/v1/sandbox/reports/rpt_4f932909d44290ba/fire_webhook',
      {},
      other,
    );
    expect([status, body.error_code]).toEqual([404, 'REPORT_NOT_FOUND']);
  });
});

describe('keys', () => {
  it.each([
    ['/v1/sandbox/scenarios', undefined],
    ['/v1/sandbox/reports', {}],
    ['/v1/sandbox/reports/rpt_4f932909d44290ba/fire_webhook', {}],
  ])('refuses a live key on %s with 403 TEST_KEY_REQUIRED', async (path, json) => {
    const { status, body } = await call(
      path,
      json,
      keyOf(mock, 'Sagarmatha Lending', { mode: 'live' }),
    );
    expect([status, body.error_code, body.error_type]).toEqual([
      403,
      'TEST_KEY_REQUIRED',
      'PERMISSION_ERROR',
    ]);
  });

  it('needs a FULL key to create a report, and draws no quota', async () => {
    expect(
      (
        await call(
          '/v1/sandbox/reports',
          {},
          keyOf(mock, 'Sagarmatha Lending', { scope: 'READ_ONLY' }),
        )
      ).body.error_code,
    ).toBe('INSUFFICIENT_SCOPE');
    const used = async () => (await call('/v1/usage')).body.used;
    const before = await used();
    await create({});
    expect(await used()).toBe(before);
  });
});
