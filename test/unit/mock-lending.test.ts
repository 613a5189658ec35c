// The mock's lending views (income, balance, liabilities, score, verify), underwriting, enrich and
// the transactions listing: values drawn from the report's own transactions, the same every time,
// the rules of keys and reports, and checked requests. The documented shapes themselves are checked
// in mock-documented.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BANDS } from '../../src/mock/lending/score.js';
import { amortisedEmi } from '../../src/mock/lending/underwriting.js';
import { verifyView } from '../../src/mock/lending/verify.js';
import type { Transaction } from '../../src/mock/report/transaction.js';
import { type MockServer, startMockServer } from '../../src/mock/server.js';
import { expectError } from '../support/errors.js';
import { keyOf } from '../support/keys.js';

// Fixture ids (see src/mock/fixtures/README.md).
const ORG_A = 'org_4d2a9f61c8e3b705';
const ORG_B = 'org_b81e07c39a5f2d64';
const RAM = 'rpt_e8699f830adc84b8'; // A: salary 125,000 on the 10th, Nabil home loan 42,350 a month
const GLOBAL_IME = 'rpt_c807f6ec29bccbbc'; // A: remittance and pension, no salary
const NO_NAME = 'rpt_b0b9312a63cd30df'; // A: no holder name on the statement
const PROCESSING = 'rpt_5f037950f28b8944'; // A
const FAILED = 'rpt_83bf1b6bfc2499c2'; // A
const HARI_B = 'rpt_4f932909d44290ba'; // B

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ clock: () => new Date('2026-05-14T09:30:00Z') });
});
afterAll(() => mock.close());

async function call(
  path: string,
  options: {
    json?: unknown;
    key?: string;
    headers?: Record<string, string>;
    server?: MockServer;
  } = {},
) {
  const server = options.server ?? mock;
  const key = options.key ?? (options.server ? keyOf(server, ORG_A) : keyOf(mock, ORG_A));
  const reply = await fetch(`${server.url}${path}`, {
    method: options.json === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      ...options.headers,
    },
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  return {
    status: reply.status,
    headers: reply.headers,
    url: reply.url,
    body: (await reply.json()) as any,
  };
}

const view = async (id: string, name: string, key?: string) =>
  (await call(`/v1/reports/${id}/${name}`, { key })).body;

const LOAN = { principal: 500_000, tenor_months: 36, annual_rate_pct: 12 };

describe('income', () => {
  it('finds the monthly salary, its payday, and the income among the credits', async () => {
    const income = await view(RAM, 'income');
    expect(income).toMatchObject({
      salary_detected: true,
      salary_amount: 125_000,
      salary_regularity: 'monthly',
      salary_day_of_month: 10,
      remittance_detected: false,
    });
    // Salary and bank interest are income; transfers from people, refunds and wallet withdrawals
    // are not.
    expect(new Set(income.income_transactions.map((t: any) => t.category))).toEqual(
      new Set(['salary', 'interest']),
    );
    expect(
      income.income_transactions.every(
        (t: any) => t.credit > 0 && t.debit === null && /^txn_\d{4}$/.test(t.id),
      ),
    ).toBe(true);
    expect(income.income_stability_score).toBeGreaterThanOrEqual(90);
  });

  it('adds up each month’s credits as the report’s monthly summary does', async () => {
    const [income, report] = [await view(RAM, 'income'), (await call(`/v1/reports/${RAM}`)).body];
    expect(income.monthly_credits).toEqual(
      report.monthly_summary.map((m: any) => ({ month: m.month, total_credits: m.total_credits })),
    );
    const credits = report.monthly_summary.reduce(
      (sum: number, m: any) => sum + m.total_credits,
      0,
    );
    // Six months and a day: the average is per month of the period, partial months in part.
    expect(income.avg_monthly_credit).toBeCloseTo(credits / (184 / (365.25 / 12)), 1);
  });

  it('has no salary fields without a salary, and sees remittance', async () => {
    expect(await view(GLOBAL_IME, 'income')).toMatchObject({
      salary_detected: false,
      salary_amount: null,
      salary_regularity: null,
      salary_day_of_month: null,
      remittance_detected: true,
    });
  });

  it('calls a salary that stopped irregular', async () => {
    const { body } = await call('/v1/sandbox/reports', { json: { scenario: 'high_risk' } });
    expect(await view(body.report_id, 'income')).toMatchObject({
      salary_detected: true,
      salary_regularity: 'irregular',
    });
  });
});

describe('balance', () => {
  it('averages the balance every day of the period ends with', async () => {
    const [balance, report] = [await view(RAM, 'balance'), (await call(`/v1/reports/${RAM}`)).body];
    const balances = [
      report.statement.opening_balance,
      ...report.transactions.map((t: any) => t.balance),
    ];
    expect(balance.avg_daily_balance).toBeGreaterThan(Math.min(...balances));
    expect(balance.avg_daily_balance).toBeLessThan(Math.max(...balances));
    expect(balance.trend).toBe(report.signals.balance_trend);
  });

  it('follows the scenario profiles: salaried grows, high_risk declines', async () => {
    for (const [scenario, trend] of [
      ['salaried', 'growing'],
      ['high_risk', 'declining'],
    ]) {
      const { body } = await call('/v1/sandbox/reports', { json: { scenario } });
      expect((await view(body.report_id, 'balance')).trend, scenario).toBe(trend);
    }
  });
});

describe('liabilities', () => {
  it('groups loan repayments by lender, named as the bank list writes the bank', async () => {
    const liabilities = await view(RAM, 'liabilities');
    expect(liabilities).toMatchObject({
      monthly_emi_total: 42_350,
      bounce_count: 0,
      lenders: [{ lender: 'Nabil Bank', total: 254_100, count: 6, monthly_avg: 42_350 }],
    });
    const repayments = await call(
      `/v1/reports/${RAM}/transactions?category=loan_repayment&direction=debit`,
    );
    expect(liabilities.liability_transactions).toEqual(repayments.body.transactions);
  });

  it('sets the EMIs against the monthly income', async () => {
    const { body } = await call('/v1/sandbox/reports', { json: { scenario: 'high_risk' } });
    const liabilities = await view(body.report_id, 'liabilities');
    expect(liabilities.lenders.map((l: any) => l.lender)).toEqual([
      'Prabhu Bank',
      'Mahalaxmi Bikas Bank',
      'Swabalamban Laghubitta',
    ]);
    expect(liabilities.monthly_emi_total).toBe(21_400 + 12_500 + 7_500);
    expect(liabilities.emi_load_pct).toBeGreaterThan(100); // the salary stopped: three EMIs outweigh what still comes in
  });

  it('reads lenders and bounces from the narrations of written transactions', async () => {
    const override_transactions = [
      {
        date: '2026-03-01',
        description: 'SALARY HIMAL TRADERS MAR 2026',
        amount: 60_000,
        direction: 'credit',
      },
      {
        date: '2026-03-05',
        description: 'EMI NMB BANK MAR 2026',
        amount: 15_000,
        direction: 'debit',
      },
      {
        date: '2026-04-01',
        description: 'SALARY HIMAL TRADERS APR 2026',
        amount: 60_000,
        direction: 'credit',
      },
      {
        date: '2026-04-05',
        description: 'EMI NMB BANK APR 2026',
        amount: 15_000,
        direction: 'debit',
      },
      {
        date: '2026-04-06',
        description: 'ECS RTN INSUFFICIENT FUNDS CHARGE',
        amount: 500,
        direction: 'debit',
      },
    ];
    const { body } = await call('/v1/sandbox/reports', {
      json: { scenario: 'salaried', override_transactions },
    });
    const liabilities = await view(body.report_id, 'liabilities');
    expect(liabilities).toMatchObject({
      monthly_emi_total: 15_000,
      bounce_count: 1,
      lenders: [{ lender: 'NMB Bank', total: 30_000, count: 2, monthly_avg: 15_000 }],
    });
    expect((await view(body.report_id, 'score')).factors).toContainEqual(
      expect.objectContaining({ factor: 'bounced_payments', impact: -50 }),
    );
  });
});

describe('score', () => {
  it('bands the score, and its factors add up to it from 500', async () => {
    for (const id of [RAM, GLOBAL_IME, NO_NAME]) {
      const { score, band, factors } = await view(id, 'score');
      expect(band).toBe(BANDS.find(([, min]) => score >= min)![0]);
      expect(score).toBe(500 + factors.reduce((sum: number, f: any) => sum + f.impact, 0));
      expect(factors.every((f: any) => typeof f.detail === 'string' && f.detail !== '')).toBe(true);
    }
  });

  it('ranks the scenario profiles in their order of risk', async () => {
    const scores: Record<string, number> = {};
    for (const scenario of ['salaried', 'thin_file', 'high_risk']) {
      const { body } = await call('/v1/sandbox/reports', { json: { scenario } });
      scores[scenario] = (await view(body.report_id, 'score')).score;
    }
    expect(scores.salaried).toBeGreaterThan(scores.thin_file!);
    expect(scores.thin_file).toBeGreaterThan(scores.high_risk!);
  });
});

describe('verify', () => {
  it('finds a made-up statement authentic', async () => {
    const verify = await view(RAM, 'verify');
    expect(verify.verdict).toBe('authentic');
    expect(verify.checks.every((c: any) => c.passed)).toBe(true);
  });

  const period = { from: '2026-03-01', to: '2026-03-31' };
  const txn = (
    id: string,
    date: string,
    amount: number,
    balance: number,
    direction: 'credit' | 'debit' = 'debit',
  ): Transaction => ({
    id,
    date,
    direction,
    amount,
    balance,
    narration: `POS SHOP ${id}`,
    counterparty: { type: 'merchant', name: 'Shop' },
    category: 'merchant_payment',
    merchant: null,
    channel: 'in store',
    confidence: 0.9,
  });

  it('calls a broken balance chain suspicious, and dates out of order or period a case for review', () => {
    const honest = [txn('a', '2026-03-02', 100, 900), txn('b', '2026-03-03', 200, 700)];
    expect(verifyView({ period, opening_balance: 1000, transactions: honest })).toMatchObject({
      verdict: 'authentic',
      confidence: 0.99,
    });
    const edited = [txn('a', '2026-03-02', 100, 900), txn('b', '2026-03-03', 20, 700)];
    const suspicious = verifyView({ period, opening_balance: 1000, transactions: edited });
    expect(suspicious.verdict).toBe('suspicious');
    expect(suspicious.checks.find((c) => c.check === 'balance_chain_integrity')).toEqual({
      check: 'balance_chain_integrity',
      passed: false,
      severity: 'high',
    });
    expect(suspicious.confidence).toBeLessThan(0.5);
    const late = [txn('a', '2026-03-02', 100, 900), txn('b', '2026-04-03', 200, 700)];
    expect(verifyView({ period, opening_balance: 1000, transactions: late }).verdict).toBe(
      'review',
    );
  });
});

describe('the views of a report', () => {
  const VIEWS = ['income', 'balance', 'liabilities', 'score', 'verify'];

  it.each(VIEWS)(
    '%s: any key of the organisation reads it; the same every time and on every server',
    async (name) => {
      const first = await view(RAM, name);
      expect(
        await view(RAM, name, keyOf(mock, ORG_A, { scope: 'READ_ONLY', mode: 'live' })),
      ).toEqual(first);
      const other = await startMockServer({ clock: () => new Date('2026-01-01T00:00:00Z') });
      try {
        expect((await call(`/v1/reports/${RAM}/${name}`, { server: other })).body).toEqual(first);
      } finally {
        await other.close();
      }
    },
  );

  it.each(VIEWS)(
    '%s: 404 for another organisation’s report, 409 processing, 400 failed',
    async (name) => {
      expectError(await call(`/v1/reports/${HARI_B}/${name}`), 404, 'REPORT_NOT_FOUND');
      expectError(await call(`/v1/reports/${PROCESSING}/${name}`), 409, 'REPORT_NOT_READY');
      expectError(await call(`/v1/reports/${FAILED}/${name}`), 400, 'DOCUMENT_PARSE_FAILED');
      expect(
        (await call(`/v1/reports/${HARI_B}/${name}`, { key: keyOf(mock, ORG_B) })).status,
      ).toBe(200);
    },
  );
});

describe('underwriting', () => {
  const underwrite = (id: string, json: unknown, key?: string) =>
    call(`/v1/reports/${id}/underwriting`, { json, key });

  it('works out the EMI, FOIR and headroom from the statement', async () => {
    const { status, body } = await underwrite(RAM, { loan: LOAN });
    expect(status).toBe(200);
    const liabilities = await view(RAM, 'liabilities');
    expect(body.loan).toEqual({
      ...LOAN,
      emi: 16_607.15,
      total_repayable: 597_857.4,
      total_interest: 97_857.4,
    });
    expect(body.existing_emi).toBe(liabilities.monthly_emi_total);
    expect(body.foir.ceiling).toBe(0.5); // the default
    expect(body.foir.current).toBeCloseTo(42_350 / body.monthly_income, 4);
    expect(body.foir.with_loan).toBeCloseTo((42_350 + 16_607.15) / body.monthly_income, 4);
    expect(body.max_supportable_emi).toBeCloseTo(0.5 * body.monthly_income - 42_350, 2);
    expect(body.affordability.headroom).toBeCloseTo(body.max_supportable_emi - 16_607.15, 2);
    expect(body.score).toEqual(await view(RAM, 'score'));
    expect(body.verify).toEqual(await view(RAM, 'verify'));
    expect(body).not.toHaveProperty('name_match');
    expect(['approve', 'review', 'decline']).toContain(body.verdict);
    expect(body.reasons.length).toBeGreaterThan(0);
  });

  it('approves an affordable loan for the salaried profile and declines one the high-risk profile cannot carry', async () => {
    const salaried = (await call('/v1/sandbox/reports', { json: { scenario: 'salaried' } })).body;
    const approved = (
      await underwrite(salaried.report_id, {
        applicant_name: 'Kamala Devi Bhattarai',
        loan: { principal: 300_000, tenor_months: 24, annual_rate_pct: 13 },
      })
    ).body;
    expect(approved).toMatchObject({
      verdict: 'approve',
      affordability: { status: 'affordable' },
      risk_flags: [],
      name_match: { result: 'match' },
    });

    const risky = (await call('/v1/sandbox/reports', { json: { scenario: 'high_risk' } })).body;
    const declined = (
      await underwrite(risky.report_id, {
        loan: { principal: 300_000, tenor_months: 24, annual_rate_pct: 13 },
      })
    ).body;
    expect(declined).toMatchObject({
      verdict: 'decline',
      max_supportable_emi: 0,
      affordability: { status: 'unaffordable' },
    });
    expect(declined.risk_flags).toEqual(
      expect.arrayContaining(['existing_emi_above_ceiling', 'overdraft', 'declining_balance']),
    );
  });

  it('declines a loan that outgrows a lower FOIR ceiling', async () => {
    const salaried = (await call('/v1/sandbox/reports', { json: { scenario: 'salaried' } })).body;
    const body = (
      await underwrite(salaried.report_id, {
        foir_ceiling: 0.2,
        loan: { principal: 300_000, tenor_months: 24, annual_rate_pct: 13 },
      })
    ).body;
    expect(body).toMatchObject({
      verdict: 'decline',
      foir: { ceiling: 0.2 },
      affordability: { status: 'unaffordable' },
    });
  });

  it('matches the applicant’s name when given: another name declines, a statement without one asks for review', async () => {
    const other = (await underwrite(RAM, { applicant_name: 'Gita Devi Poudel', loan: LOAN })).body;
    expect(other.name_match.result).toBe('no_match');
    expect(other).toMatchObject({ verdict: 'decline' });
    expect(other.risk_flags).toContain('name_mismatch');
    const unnamed = (
      await underwrite(NO_NAME, {
        applicant_name: 'Gita Devi Poudel',
        loan: { principal: 100_000, tenor_months: 12, annual_rate_pct: 10 },
      })
    ).body;
    expect(unnamed.name_match.result).toBe('no_data');
    expect(unnamed.verdict).toBe('review');
  });

  it('repays a loan at 0 % in equal parts', () => {
    expect(amortisedEmi({ principal: 120_000, tenor_months: 12, annual_rate_pct: 0 })).toBe(10_000);
  });

  it.each([
    ['no body', undefined],
    ['no loan', {}],
    ['principal 0', { loan: { ...LOAN, principal: 0 } }],
    ['principal as text', { loan: { ...LOAN, principal: '500000' } }],
    ['tenor 0', { loan: { ...LOAN, tenor_months: 0 } }],
    ['tenor 601', { loan: { ...LOAN, tenor_months: 601 } }],
    ['tenor 12.5', { loan: { ...LOAN, tenor_months: 12.5 } }],
    ['rate -1', { loan: { ...LOAN, annual_rate_pct: -1 } }],
    ['rate 100.5', { loan: { ...LOAN, annual_rate_pct: 100.5 } }],
    ['no rate', { loan: { principal: 1, tenor_months: 1 } }],
    ['foir 0', { foir_ceiling: 0, loan: LOAN }],
    ['foir 1.2', { foir_ceiling: 1.2, loan: LOAN }],
    ['empty name', { applicant_name: ' ', loan: LOAN }],
  ])('refuses %s with 400 INVALID_REQUEST', async (_what, json) => {
    const reply =
      json === undefined
        ? await call(`/v1/reports/${RAM}/underwriting`, { json: '' })
        : await underwrite(RAM, json);
    expectError(reply, 400, 'INVALID_REQUEST');
  });

  it('accepts the bounds: tenor 1 and 600, rate 0 and 100, FOIR 1', async () => {
    for (const loan of [
      { ...LOAN, tenor_months: 1, annual_rate_pct: 0 },
      { ...LOAN, tenor_months: 600, annual_rate_pct: 100 },
    ]) {
      expect((await underwrite(RAM, { foir_ceiling: 1, loan })).status).toBe(200);
    }
  });

  it('needs a FULL key, and follows the report rules', async () => {
    expectError(
      await underwrite(RAM, { loan: LOAN }, keyOf(mock, ORG_A, { scope: 'READ_ONLY' })),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expectError(await underwrite(HARI_B, { loan: LOAN }), 404, 'REPORT_NOT_FOUND');
    expectError(await underwrite(PROCESSING, { loan: LOAN }), 409, 'REPORT_NOT_READY');
  });

  it('replays its reply for a repeated Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'underwrite-00000001' };
    const first = await call(`/v1/reports/${RAM}/underwriting`, { json: { loan: LOAN }, headers });
    const again = await call(`/v1/reports/${RAM}/underwriting`, { json: { loan: LOAN }, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(
      await call(`/v1/reports/${RAM}/underwriting`, {
        json: { loan: { ...LOAN, principal: 1 } },
        headers,
      }),
      422,
      'IDEMPOTENCY_KEY_REUSED',
    );
  });
});

describe('enrich', () => {
  const enrich = (json: unknown, key?: string) => call('/v1/enrich', { json, key });
  const SALARY = {
    date: '2026-03-25',
    description: 'SALARY MARCH 2026',
    credit: 72_000,
    balance: 145_200,
  };

  it('categorises each transaction, keeping what the caller sent, and sums them up as a report', async () => {
    const transactions = [
      { ...SALARY, ref: 'row-1' },
      {
        date: '2026-03-26',
        description: 'NEA ELECTRICITY BILL 012345',
        debit: 1_850,
        credit: null,
        balance: 143_350,
      },
      { date: '2026-04-02', description: 'ESEWA LOAD 9841000000', debit: 2_000, balance: null },
      { date: '2026-04-03', description: 'SOMETHING UNHEARD OF', debit: 150, credit: 0 },
    ];
    const { status, body } = await enrich({ transactions });
    expect(status).toBe(200);
    expect(body.count).toBe(4);
    expect(body.transactions[0]).toEqual({
      ...transactions[0],
      category: 'salary',
      confidence: 0.75,
    });
    expect(body.transactions.map((t: any) => t.category)).toEqual([
      'salary',
      'utility',
      'wallet',
      'other',
    ]);
    expect(body.transactions[3].confidence).toBe(0.5);
    expect(body.signals).toMatchObject({ salary_detected: true, salary_amount: 72_000 });
    expect(
      body.monthly_summary.map((m: any) => [m.month, m.total_credits, m.total_debits]),
    ).toEqual([
      ['2026-03', 72_000, 1_850],
      ['2026-04', 0, 2_150],
    ]);
    // Balances not sent are run on from the last one that was: 143,350 − 2,000 − 150.
    expect(body.monthly_summary[1].closing_balance).toBe(141_200);
    expect(body.categories).toMatchObject({
      salary: { count: 1, credit: 72_000, debit: 0 },
      wallet: { count: 1, credit: 0, debit: 2_000 },
    });
  });

  it('reads a QR terminal of the merchant directory as the report does', async () => {
    const payments = (await call(`/v1/reports/${RAM}`)).body.transactions.filter(
      (t: any) => t.merchantTerminal && t.debit,
    );
    const { body } = await enrich({
      transactions: payments.map((t: any) => ({
        date: t.date,
        description: t.description,
        debit: t.debit,
        balance: t.balance,
      })),
    });
    expect(body.transactions.map((t: any) => t.category)).toEqual(
      payments.map((t: any) => t.category),
    );
    expect(new Set(body.transactions.map((t: any) => t.category))).toEqual(
      new Set(['merchant_payment', 'utility']),
    );
    expect(body.transactions.every((t: any) => t.confidence === 0.92)).toBe(true);
  });

  it('takes 5,000 transactions, not 5,001', async () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        ...SALARY,
        date: `2026-03-${String((i % 28) + 1).padStart(2, '0')}`,
      }));
    expect((await enrich({ transactions: many(5000) })).body.count).toBe(5000);
    expectError(await enrich({ transactions: many(5001) }), 400, 'INVALID_REQUEST');
  });

  it.each([
    ['no transactions', {}],
    ['an empty list', { transactions: [] }],
    ['a list that is no array', { transactions: { 0: SALARY } }],
    ['an item that is no object', { transactions: ['SALARY'] }],
    ['a bad date', { transactions: [{ ...SALARY, date: '2026-02-30' }] }],
    ['no description', { transactions: [{ ...SALARY, description: '' }] }],
    ['no amount', { transactions: [{ date: '2026-03-01', description: 'X' }] }],
    ['both credit and debit', { transactions: [{ ...SALARY, debit: 5 }] }],
    ['a negative amount', { transactions: [{ date: '2026-03-01', description: 'X', debit: -5 }] }],
    [
      'an amount as text',
      { transactions: [{ date: '2026-03-01', description: 'X', credit: '5' }] },
    ],
    ['a balance as text', { transactions: [{ ...SALARY, balance: '1' }] }],
  ])('refuses %s with 400 INVALID_REQUEST', async (_what, json) => {
    expectError(await enrich(json), 400, 'INVALID_REQUEST');
  });

  it('needs a FULL key', async () => {
    expectError(
      await enrich({ transactions: [SALARY] }, keyOf(mock, ORG_A, { scope: 'READ_ONLY' })),
      403,
      'INSUFFICIENT_SCOPE',
    );
  });
});

describe('transactions of a report', () => {
  /** A report of 1,200 written transactions. */
  async function longReport(): Promise<string> {
    const override_transactions = Array.from({ length: 1200 }, (_, i) => ({
      date: `2026-0${1 + Math.floor(i / 400)}-${String((i % 28) + 1).padStart(2, '0')}`,
      description: i % 2 ? 'ATM WDL 000001 NEW ROAD' : 'SALARY PART',
      amount: 100,
      direction: i % 2 ? 'debit' : 'credit',
    }));
    return (
      await call('/v1/sandbox/reports', { json: { scenario: 'salaried', override_transactions } })
    ).body.report_id;
  }

  it('answers 500 by default and 1,000 at most', async () => {
    const id = await longReport();
    expect((await call(`/v1/reports/${id}/transactions`)).body.count).toBe(500);
    expect((await call(`/v1/reports/${id}/transactions?limit=1000`)).body.count).toBe(1000);
    expectError(await call(`/v1/reports/${id}/transactions?limit=1001`), 400, 'INVALID_REQUEST');
    const march = (
      await call(
        `/v1/reports/${id}/transactions?since=2026-03-01&until=2026-03-31&category=cash_withdrawal&limit=1000`,
      )
    ).body;
    expect(march.count).toBe(200);
    expect(
      march.transactions.every((t: any) => t.date.startsWith('2026-03') && t.debit === 100),
    ).toBe(true);
  });

  it('refuses a date that is not in the calendar', async () => {
    expectError(
      await call(`/v1/reports/${RAM}/transactions?since=2026-02-30`),
      400,
      'INVALID_REQUEST',
    );
  });

  it('may be read with a READ_ONLY key', async () => {
    expect(
      (
        await call(`/v1/reports/${RAM}/transactions?limit=1`, {
          key: keyOf(mock, ORG_A, { scope: 'READ_ONLY' }),
        })
      ).status,
    ).toBe(200);
  });
});
