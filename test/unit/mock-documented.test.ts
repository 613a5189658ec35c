// `svc mock` against the replies the service's documentation shows (test/fixtures/documented/):
// the same keys at every level, the same JSON types, the documented enumerations, and equal values
// where the mock's data is fixed. The samples come from the documents, never from the CLI's
// schemas, so the mock cannot agree with the CLI by construction.
import { createServer, type Server } from 'node:http';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FAULT_PRESETS } from '../../src/mock/fault-presets.js';
import { fixtures } from '../../src/mock/fixtures.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { documented } from '../support/fixtures.js';
import { keyOf } from '../support/keys.js';

/** The documented transaction categories. */
const CATEGORIES = [
  'salary',
  'loan_repayment',
  'utility',
  'wallet',
  'merchant_payment',
  'refund',
  'remittance',
  'cash_withdrawal',
  'transfer',
  'investment',
  'interest',
  'tax',
  'fee',
  'other',
];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAY_2026 = new Date('2026-05-14T09:30:00Z');

interface ShapeRules {
  /**
   * Paths (`$.merchant_categories`) whose keys are data, not field names: each value is compared
   * with the sample's first.
   */
  freeKeys?: string[];
  /** Paths whose contents the documents do not show: only their presence is compared. */
  opaque?: string[];
  /**
   * Fields that may be null, with the JSON type of their value otherwise (the documents' "numbers
   * or null").
   */
  nullable?: Record<string, string>;
}

/**
 * Fields of the older transaction shape that are null when the transaction has no such side or no
 * merchant.
 */
const OLDER_NULLABLE = {
  debit: 'number',
  credit: 'number',
  merchant: 'string',
  merchantTerminal: 'string',
  mcc: 'string',
  merchantCategory: 'string',
};
const NEWER_NULLABLE = { merchant_name: 'string', payment_terminal_id: 'string', mcc: 'string' };
const REPORT_RULES: ShapeRules = {
  opaque: ['$.signals', '$.monthly_summary', '$.categories'],
  freeKeys: ['$.merchant_categories'],
};

/**
 * The sample's keys at every level and the sample's JSON types; arrays: every item against the
 * sample's first.
 */
function expectShape(actual: unknown, expected: unknown, rules: ShapeRules = {}, path = '$'): void {
  if (rules.opaque?.includes(path)) {
    expect(actual, path).toBeDefined();
    return;
  }
  const field = path.split('.').at(-1)!;
  const nullableType = rules.nullable?.[field];
  if (nullableType !== undefined) {
    expect(
      actual === null || typeof actual === nullableType,
      `${path} is null or a ${nullableType}`,
    ).toBe(true);
    return;
  }
  if (expected === null) {
    expect(actual, path).toBeNull();
    return;
  }
  if (Array.isArray(expected)) {
    expect(Array.isArray(actual), `${path} is an array`).toBe(true);
    if (expected.length === 0) return; // the documents show the list, not its items
    expect((actual as unknown[]).length, `${path} has items`).toBeGreaterThan(0);
    for (const item of actual as unknown[]) expectShape(item, expected[0], rules, `${path}[]`);
    return;
  }
  if (typeof expected === 'object') {
    expect(
      actual !== null && typeof actual === 'object' && !Array.isArray(actual),
      `${path} is an object`,
    ).toBe(true);
    const object = actual as Record<string, unknown>;
    if (rules.freeKeys?.includes(path)) {
      const template = Object.values(expected)[0];
      for (const value of Object.values(object)) expectShape(value, template, rules, `${path}.*`);
      return;
    }
    expect(Object.keys(object).sort(), path).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected))
      expectShape(object[key], value, rules, `${path}.${key}`);
    return;
  }
  expect(typeof actual, path).toBe(typeof expected);
}

// --- a mock "in May 2026", and a receiver for its webhook deliveries ---

let mock: MockServer;
let receiver: Server;
const deliveries: unknown[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      deliveries.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as { port: number };
  mock = await startMockServer({
    clock: () => MAY_2026,
    processingDelayMs: 50,
    webhookUrls: [`http://127.0.0.1:${port}/hooks`],
  });
});
afterAll(async () => {
  await mock.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const HIMALAYA = 'Himalaya Microfinance';
const SAGARMATHA = 'Sagarmatha Lending';

async function call(
  path: string,
  init: {
    key?: string | null;
    method?: string;
    json?: unknown;
    body?: FormData;
    headers?: Record<string, string>;
  } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? keyOf(mock, HIMALAYA)}`;
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const reply = await fetch(`${mock.url}${path}`, {
    method: init.method ?? (init.json !== undefined || init.body ? 'POST' : 'GET'),
    headers,
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    redirect: 'manual',
  });
  return { status: reply.status, headers: reply.headers, body: (await reply.json()) as any };
}

/** The complete fixture reports of an organisation, by transaction shape. */
const completeReports = (shape: 'older' | 'newer') =>
  fixtures.reports.filter((r) => r.status === 'complete' && r.transaction_shape === shape);
const keyFor = (report: { organization_id: string }) => keyOf(mock, report.organization_id);

/** The full report sample, with its transactions in the given shape. */
function reportSample(shape: 'older' | 'newer') {
  const report = documented('report.json');
  return shape === 'older'
    ? report
    : { ...report, transactions: [documented('transaction-newer.json')] };
}

function expectFullReport(body: any, shape: 'older' | 'newer'): void {
  expectShape(body, reportSample(shape), {
    ...REPORT_RULES,
    nullable: shape === 'older' ? OLDER_NULLABLE : NEWER_NULLABLE,
  });
  expect(body).toMatchObject({
    status: 'complete',
    data_source: 'PARSED_STATEMENT',
    tamper_verifiable: true,
    statement: { currency: 'NPR' },
  });
  expect([body.statement.period.from, body.statement.period.to]).toEqual([
    expect.stringMatching(DATE),
    expect.stringMatching(DATE),
  ]);
  expect(body.statement.total_transactions).toBe(body.transactions.length);
  for (const value of Object.values(body.merchant_categories))
    expectShape(value, documented('report-merchant-categories.json').groceries);
  if (shape === 'older')
    for (const t of body.transactions) expect(CATEGORIES, t.description).toContain(t.category);
}

describe('usage', () => {
  it('is the documented example for Sagarmatha Lending in May 2026, with the mock’s own counters after it', async () => {
    const sampled = documented('usage.json');
    const { status, body } = await call('/v1/usage', { key: keyOf(mock, SAGARMATHA) });
    expect(status).toBe(200);
    expect(Object.fromEntries(Object.keys(sampled).map((k) => [k, body[k]]))).toEqual(sampled);
    expect(Object.keys(body).filter((k) => !(k in sampled))).toEqual([
      'data_api',
      'merchant_resolve',
    ]);
  });
});

describe('errors', () => {
  it('answers an unknown key with the documented flat envelope', async () => {
    const sampled = documented('error-flat.json');
    const { status, body } = await call('/v1/usage', {
      key: 'svc_sk_test_00000000000000000000000000000000',
    });
    expect(status).toBe(401);
    expectShape(body, sampled);
    expect(body.request_id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(body).toEqual({
      ...sampled,
      request_id: body.request_id,
      documentation_url: sampled.documentation_url.replace('{docs_url}', `${mock.url}/docs`),
    });
  });

  it('answers with the documented nested envelope under the nested-envelope fault', async () => {
    const nested = await startMockServer({ faults: FAULT_PRESETS['nested-envelope']!.specs });
    try {
      const reply = await fetch(`${nested.url}/v1/usage`, {
        headers: { authorization: `Bearer ${nested.keys[0]!.key}` },
      });
      expect(reply.status).toBe(401);
      expect(await reply.json()).toEqual(documented('error-nested.json'));
    } finally {
      await nested.close();
    }
  });
});

describe('the full report', () => {
  it.each(
    [...completeReports('older'), ...completeReports('newer')].map(
      (r) => [r.report_id, r.transaction_shape!, r] as const,
    ),
  )('%s follows the documents (%s transactions)', async (id, shape, report) => {
    const { status, body } = await call(`/v1/reports/${id}`, { key: keyFor(report) });
    expect(status).toBe(200);
    expectFullReport(body, shape);
    expect(body.report_id).toBe(id);
  });

  it('has reports of both transaction shapes', () => {
    expect(completeReports('older').length).toBeGreaterThan(0);
    expect(completeReports('newer').length).toBeGreaterThan(0);
  });

  it('is the reply of a synchronous parse (200) and of a sandbox report (201)', async () => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([Buffer.from('%PDF-1.4\n(Account Holder: Sita Kumari Thapa) Tj\n%%EOF')]),
      'statement.pdf',
    );
    const parsed = await call('/v1/parse', { body: form });
    expect(parsed.status).toBe(200);
    expectFullReport(parsed.body, 'newer');
    const sandbox = await call('/v1/sandbox/reports', { json: { scenario: 'salaried' } });
    expect(sandbox.status).toBe(201);
    expectFullReport(sandbox.body, 'newer');
  });

  it('answers an async parse with 202 and a poll_url that leads to the full report', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF')]), 'statement.pdf');
    form.append('async', 'true');
    const { status, body } = await call('/v1/parse', { body: form });
    expect(status).toBe(202);
    expectShape({ poll_url: body.poll_url }, documented('parse-async.json'));
    expect(Object.keys(body).sort()).toEqual(['poll_url', 'report_id', 'status']); // report_id and status: the mock's own
    expect(body.poll_url).toBe(`/v1/reports/${body.report_id}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expectFullReport((await call(body.poll_url)).body, 'newer');
  });
});

describe('views', () => {
  const report = completeReports('older')[0]!;

  it('lists transactions as documented', async () => {
    const credits = await call(
      `/v1/reports/${report.report_id}/transactions?direction=credit&category=salary`,
      { key: keyFor(report) },
    );
    expect(credits.status).toBe(200);
    expectShape(credits.body, documented('transactions.json'));
    expect(credits.body.count).toBe(credits.body.transactions.length);
    const all = await call(`/v1/reports/${report.report_id}/transactions`, { key: keyFor(report) });
    expectShape(all.body, documented('transactions.json'), {
      nullable: { debit: 'number', credit: 'number' },
    });
    for (const t of all.body.transactions) expect(CATEGORIES).toContain(t.category);
  });

  it('gives the identity view as documented', async () => {
    const { body } = await call(`/v1/reports/${report.report_id}/identity`, {
      key: keyFor(report),
    });
    expectShape(body, documented('identity.json'));
    expect(body).toMatchObject({
      bank: 'Nabil Bank',
      bank_code: 'NABIL',
      account_holder: report.account_holder,
      currency: 'NPR',
    });
  });
});

describe('lending views', () => {
  /** The income view of a statement without a salary has no salary amount, regularity or payday. */
  const SALARY_NULLABLE = {
    salary_amount: 'number',
    salary_regularity: 'string',
    salary_day_of_month: 'number',
  };
  const reports = [...completeReports('older'), ...completeReports('newer')];

  async function view(report: (typeof reports)[number], name: string) {
    const { status, body } = await call(`/v1/reports/${report.report_id}/${name}`, {
      key: keyFor(report),
    });
    expect(status, name).toBe(200);
    return body;
  }

  it.each(reports.map((r) => [r.report_id, r] as const))(
    '%s: income and balance follow the documents',
    async (_id, report) => {
      const income = await view(report, 'income');
      expectShape(income, documented('income.json'), { nullable: SALARY_NULLABLE });
      expect(income.salary_amount === null, 'no amount without a salary').toBe(
        !income.salary_detected,
      );
      expect([...(income.salary_detected ? ['monthly', 'irregular'] : [null])]).toContain(
        income.salary_regularity,
      );
      expect(
        Number.isInteger(income.income_stability_score) &&
          income.income_stability_score >= 0 &&
          income.income_stability_score <= 100,
      ).toBe(true);
      for (const month of income.monthly_credits) expect(month.month).toMatch(/^\d{4}-\d{2}$/);

      const balance = await view(report, 'balance');
      expectShape(balance, documented('balance.json'));
      expect(['growing', 'stable', 'declining']).toContain(balance.trend);
      const { statement } = (await call(`/v1/reports/${report.report_id}`, { key: keyFor(report) }))
        .body;
      expect(balance).toMatchObject({
        currency: 'NPR',
        period: statement.period,
        opening_balance: statement.opening_balance,
        closing_balance: statement.closing_balance,
      });
    },
  );

  it.each(reports.map((r) => [r.report_id, r] as const))(
    '%s: liabilities, score and verify follow the documents',
    async (_id, report) => {
      const liabilities = await view(report, 'liabilities');
      // A statement without loans has no lender to compare with the documents' one.
      expectShape(
        liabilities,
        liabilities.lenders.length
          ? documented('liabilities.json')
          : { ...documented('liabilities.json'), lenders: [] },
      );
      expect(Number.isInteger(liabilities.bounce_count)).toBe(true);

      const score = await view(report, 'score');
      expectShape(score, documented('score.json'));
      expect(Number.isInteger(score.score) && score.score >= 0 && score.score <= 1000).toBe(true);
      expect(['excellent', 'good', 'fair', 'poor', 'very_poor']).toContain(score.band);

      const verify = await view(report, 'verify');
      expectShape(verify, documented('verify.json'));
      expect(['authentic', 'review', 'suspicious']).toContain(verify.verdict);
      expect(verify.confidence >= 0 && verify.confidence <= 1).toBe(true);
      expect(verify.checks.map((c: any) => c.check)).toContain('balance_chain_integrity');
      for (const check of verify.checks)
        expect(['high', 'medium', 'low']).toContain(check.severity);
    },
  );

  it('enriches transactions as documented: each given back with category and confidence', async () => {
    const transactions = [
      {
        date: '2026-03-25',
        description: 'SALARY LEAPFROG TECHNOLOGY MAR 2026',
        credit: 72000,
        balance: 145200,
      },
      { date: '2026-03-26', description: 'EMI NMB BANK MAR 2026', debit: 21000, balance: 124200 },
      { date: '2026-03-27', description: 'ATM WDL 123456 NEW ROAD', debit: 5000, balance: 119200 },
    ];
    const { status, body } = await call('/v1/enrich', { json: { transactions } });
    expect(status).toBe(200);
    const sampled = documented('enrich.json');
    const asDebit = ({ credit, ...rest }: any) => ({ ...rest, debit: credit });
    expectShape({ ...body, transactions: body.transactions.slice(0, 1) }, sampled, REPORT_RULES);
    for (const t of body.transactions.slice(1)) expectShape(t, asDebit(sampled.transactions[0]));
    expect(body.count).toBe(3);
    expect(body.transactions.map((t: any) => t.category)).toEqual([
      'salary',
      'loan_repayment',
      'cash_withdrawal',
    ]);
    for (const t of body.transactions) expect(CATEGORIES).toContain(t.category);
  });
});

describe('consents and grants', () => {
  const report = completeReports('older').find(
    (r) => r.organization_id === fixtures.organizations[0]!.organization_id,
  )!;
  const identityAndIncome = () => ({
    ...documented('consent-data.json'),
    data: { identity: documented('identity.json'), income: documented('income.json') },
  });

  it('creates a consent as documented, whose data_url alone reads the granted views', async () => {
    const created = await call('/v1/consents', {
      key: keyFor(report),
      json: {
        report_id: report.report_id,
        scopes: ['identity', 'income'],
        grantee_label: 'Nabil Bank loan desk',
      },
    });
    expect(created.status).toBe(201);
    expectShape(created.body, documented('consent-create.json'));
    expect(created.body.data_url).toBe(
      `${mock.url}/v1/consents/${created.body.id}/data?token=${created.body.token}`,
    );
    expect(created.body.expires_at).toBe('2026-06-13T09:30:00Z'); // 30 days by default

    const data = await call(
      new URL(created.body.data_url).pathname + new URL(created.body.data_url).search,
      { key: null },
    );
    expect(data.status).toBe(200);
    expectShape(data.body, identityAndIncome());
    expect(data.body.scopes).toEqual(['identity', 'income']);
  });

  it('answers a revoked consent with 403 consent_inactive in the flat envelope', async () => {
    const created = await call('/v1/consents', {
      key: keyFor(report),
      json: { report_id: report.report_id, scopes: ['identity'] },
    });
    expect(
      (await call(`/v1/consents/${created.body.id}/revoke`, { key: keyFor(report), json: {} }))
        .status,
    ).toBe(200);
    const refused = await call(`/v1/consents/${created.body.id}/data?token=${created.body.token}`, {
      key: null,
    });
    expect(refused.status).toBe(403);
    // `display_message` is "string or null" (spec): this one speaks to whoever opened the link.
    expectShape(refused.body, documented('error-flat.json'), {
      nullable: { display_message: 'string' },
    });
    expect(refused.body).toMatchObject({
      error_code: 'consent_inactive',
      documentation_url: `${mock.url}/docs/concepts/errors#consent_inactive`,
    });
  });

  it('exchanges the public token of an approved Connect flow as documented, and reads the grant with its access token', async () => {
    const requested = await call('/v1/connect/request', {
      key: keyFor(report),
      json: { scopes: ['identity', 'income'], redirect_uri: 'https://app.example.com/done' },
    });
    const approved = await call(`/connect/approve?token=${requested.body.request_token}`, {
      key: null,
      method: 'POST',
    });
    expect(approved.status).toBe(303);
    const publicToken = new URL(approved.headers.get('location')!).searchParams.get('public_token');

    const exchanged = await call('/v1/connect/exchange', {
      key: keyFor(report),
      json: { public_token: publicToken },
    });
    expect(exchanged.status).toBe(200);
    expectShape(exchanged.body, documented('connect-exchange.json'));
    expect(exchanged.body.scopes).toEqual(['identity', 'income']);

    const granted = await call(`/v1/grants/${exchanged.body.grant_id}/data`, {
      key: keyFor(report),
      headers: { 'x-svc-access-token': exchanged.body.access_token },
    });
    expect(granted.status).toBe(200);
    expectShape(granted.body, documented('grant-data.json'), { opaque: ['$.data'] });
    // The documents do not show what `data` holds; the mock gives the views, as a consent does.
    expectShape(granted.body, identityAndIncome());
  });
});

describe('connect and the sandbox', () => {
  it('answers a Connect request with a token and a …/connect?token=… address', async () => {
    const { status, body } = await call('/v1/connect/request', {
      json: { scopes: ['identity', 'income'], redirect_uri: 'https://app.example.com/done' },
    });
    expect(status).toBe(200);
    expectShape(body, documented('connect-request.json'));
    expect(body.connect_url).toBe(`${mock.url}/connect?token=${body.request_token}`);
  });

  it('fires a webhook as documented and delivers the documented payload, the full report as its result', async () => {
    const created = await call('/v1/sandbox/reports', { json: {} });
    const fired = await call(`/v1/sandbox/reports/${created.body.report_id}/fire_webhook`, {
      json: {},
    });
    // The documented fields as documented, and one of the mock's own: the endpoints it delivers to
    // (svc sandbox fire warns when there are none; it reads the field only where present).
    const { delivered_to: _deliveredTo, ...rest } = fired.body;
    expectShape(rest, documented('fire-webhook.json'));
    expect(fired.body).toEqual({
      fired: 'report.ready',
      report_id: created.body.report_id,
      environment: 'test',
      delivered_to: [`http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`],
    });
    while (deliveries.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const [delivery] = deliveries as any[];
    expectShape(delivery, documented('webhook-payload.json'), { opaque: ['$.result'] });
    expect(delivery).toMatchObject({
      event: 'report.ready',
      report_id: created.body.report_id,
      timestamp: '2026-05-14T09:30:00Z',
    });
    expectFullReport(delivery.result, 'newer');
  });
});

describe('datasets', () => {
  async function data(path: string) {
    const { status, body } = await call(`/v1/data/cbank/${path}`);
    expect(status).toBe(200);
    expectShape(body.meta, documented('dataset-meta.json'));
    expect(body.meta.attribution).toMatch(
      /^Source: .+ — .+ \(.+\)\. Republished .+ with attribution\.$/,
    );
    expect(body.meta.as_of).toMatch(DATE);
    return body.data;
  }

  it('serves cpi/latest as documented', async () => {
    const latest = await data('cpi/latest');
    expectShape(latest, documented('cpi-latest.json'));
    expect(latest.indicators.map((i: any) => i.indicator)).toContain('PCPI_IX');
    expect(
      latest.indicators.every(
        (i: any) => i.unit === 'index' && i.absolute === i.value * 10 ** i.scale,
      ),
    ).toBe(true);
  });

  it('serves interest-rates/latest as documented: an array', async () => {
    const latest = await data('interest-rates/latest');
    expectShape(latest, documented('interest-rates-latest.json'));
    expect(latest.map((r: any) => r.metric)).toEqual(
      expect.arrayContaining(['base-rate', 'wavg-deposit']),
    );
    expect(latest.every((r: any) => r.unit === 'percent')).toBe(true);
  });

  it('serves banking/pnl/latest as documented', async () => {
    const latest = await data('banking/pnl/latest');
    expectShape(latest, documented('pnl-latest.json'));
    expect(latest.line_items.map((i: any) => i.key)).toContain('income.interest-income');
    expect(latest.line_items.every((i: any) => i.unit === 'NPR_mn')).toBe(true);
  });

  it('serves banks/pnl/latest?bank=NABIL as documented', async () => {
    const latest = await data('banks/pnl/latest?bank=NABIL');
    expectShape(latest, documented('banks-pnl-latest.json'));
    expect(latest.bank).toBe('nabil');
    expect(latest.line_items.map((i: any) => i.key)).toContain('nabil.income.interest-income');
    expect(latest.line_items.every((i: any) => i.bank === 'NABIL' && i.unit === 'NPR_mn')).toBe(
      true,
    );
  });
});
