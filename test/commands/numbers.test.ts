// Numbers, in-process, as a person at a terminal and as a script (docs/reference/output.md,
// "Tables" and "Reading replies"). A script gets the service's own values, every digit kept, in a
// pipe's table, in CSV and NDJSON and in the merged reply of `merchants resolve`, however
// JSON.parse would read them (125000.50, 12345678901234567890, 1e400, -0); a person gets money as
// every view shows it: lakh grouping, two decimals, the currency in a field list, every digit of
// the integer part kept.
import { describe, expect, it } from 'vitest';

import { FakeService, MemoryCache, MODES, plain, svc } from '../support/in-process.js';

const ID = 'rpt_9f2c41d07ab35e18';
/** 20 digits: a double keeps 17 of them (…567000). */
const BIG = '12345678901234567890';
/** Its lakh grouping, for people. */
const BIG_FOR_PEOPLE = '1,23,45,67,89,01,23,45,67,890.00';

/** A service answering one GET with this text. */
const answering = (path: string, raw: string) => new FakeService().expect('GET', path, { raw });

/** The lines of stdout, without the colour a terminal gets. */
const linesOf = (stdout: string) => plain(stdout).split('\n');

describe('a designed table: reports transactions', () => {
  const raw = `{"count": 2, "transactions": [
    {"id": "txn_0001", "date": "2026-03-25", "description": "SALARY", "debit": null, "credit": ${BIG}, "balance": 125000.50, "category": "salary", "confidence": 0.950},
    {"id": "txn_0002", "date": "2026-03-26", "description": "ODD", "debit": 1e400, "credit": null, "balance": -0, "category": "other", "confidence": 1E-7}
  ]}`;
  const run = (tty: boolean, ...flags: string[]) =>
    svc(['reports', 'transactions', ID, ...flags], {
      tty,
      service: answering(`/v1/reports/${ID}/transactions`, raw),
    });

  it('gives a script every number as the service wrote it, in the table of a pipe', async () => {
    const r = await run(false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'DATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY\tID\tCONFIDENCE\n' +
        `2026-03-25\tSALARY\t\t${BIG}\t125000.50\tsalary\ttxn_0001\t0.950\n` +
        '2026-03-26\tODD\t1e400\t\t-0\tother\ttxn_0002\t1E-7\n',
    );
  });

  it('shows a person the amounts as money, every digit kept; a number no double holds as it came', async () => {
    // 100 columns: at 80 a credit of 20 digits leaves no room for the balance beside it.
    const r = await svc(['reports', 'transactions', ID], {
      tty: true,
      columns: 100,
      service: answering(`/v1/reports/${ID}/transactions`, raw),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const screen = plain(r.stdout);
    expect(screen).toContain(BIG_FOR_PEOPLE);
    expect(screen).toContain('1,25,000.50');
    expect(screen).toContain('1e400');
    expect(screen).not.toMatch(/Infinity|NaN|null|567000/);
  });

  it.each(MODES)(
    '-o csv and -o ndjson write the numbers as received, for $mode',
    async ({ tty }) => {
      const csv = await run(tty, '-o', 'csv');
      expect(csv.code, csv.stderr).toBe(0);
      expect(plain(csv.stdout).split('\r\n').slice(1, 3)).toEqual([
        `txn_0001,2026-03-25,SALARY,,${BIG},125000.50,salary,0.950`,
        'txn_0002,2026-03-26,ODD,1e400,,-0,other,1E-7',
      ]);
      const ndjson = await run(tty, '-o', 'ndjson');
      expect(ndjson.code, ndjson.stderr).toBe(0);
      expect(plain(ndjson.stdout)).toContain(`"credit":${BIG},"balance":125000.50`);
      expect(plain(ndjson.stdout)).toContain('"debit":1e400,');
    },
  );
});

describe('views the generic view lays out: counterparties, recurring, a report', () => {
  const counterparties = `{"report_id": "${ID}", "currency": "NPR", "total_inflow": 480891, "total_outflow": 208282.570,
    "by_type": [{"type": "merchant", "inflow": ${BIG}, "outflow": 35594.43, "inflow_count": 3, "outflow_count": 9}]}`;
  const show = (tty: boolean, columns = 100) =>
    svc(['reports', 'counterparties', ID], {
      tty,
      columns,
      service: answering(`/v1/reports/${ID}/counterparties`, counterparties),
    });

  it('counterparties: a script gets the values as received', async () => {
    const r = await show(false);
    expect(r.code, r.stderr).toBe(0);
    const lines = linesOf(r.stdout);
    expect(lines).toContain('total_inflow\t480891');
    expect(lines).toContain('total_outflow\t208282.570');
    expect(lines).toContain(`merchant\t${BIG}\t35594.43\t3\t9`);
    expect(r.stdout).not.toMatch(/NPR \d|,\d{2},/);
  });

  it('counterparties: a person sees money as the report header shows it, counts as counts', async () => {
    const r = await show(true);
    expect(r.code, r.stderr).toBe(0);
    const screen = plain(r.stdout);
    expect(screen).toMatch(/^Total inflow +NPR 4,80,891\.00$/m);
    expect(screen).toMatch(/^Total outflow +NPR 2,08,282\.57$/m);
    expect(screen).toMatch(
      new RegExp(`│ merchant │ +${BIG_FOR_PEOPLE} │ +35,594\\.43 │ +3 │ +9 │`),
    );
  });

  it.each(MODES)(
    'recurring: the average amount of a stream as money for a person, as received for a script, for $mode',
    async ({ tty }) => {
      const raw = `{"report_id": "${ID}", "currency": "NPR", "inflow_streams": [{"counterparty": "Tribhuvan University", "cadence": "monthly", "average_amount": 58400, "occurrences": 6}]}`;
      const r = await svc(['reports', 'recurring', ID], {
        tty,
        columns: 120,
        service: answering(`/v1/reports/${ID}/recurring`, raw),
      });
      expect(r.code, r.stderr).toBe(0);
      if (tty)
        expect(plain(r.stdout)).toMatch(/│ Tribhuvan University │ monthly +│ +58,400\.00 │ +6 │/);
      else expect(linesOf(r.stdout)).toContain('Tribhuvan University\tmonthly\t58400\t6');
    },
  );

  it.each(MODES)(
    'a report: the balances, the signals and the monthly summary alike, for $mode',
    async ({ tty }) => {
      const raw = `{"report_id": "${ID}", "status": "complete", "statement": {"bank": "Nabil Bank", "currency": "NPR", "opening_balance": 125000.50, "closing_balance": ${BIG}, "total_transactions": 12},
      "signals": {"salary_amount": 58400, "cash_withdrawal_ratio": 0.081},
      "monthly_summary": [{"month": "2026-03", "total_credits": 480891, "net": -1250.5, "transaction_count": 12}]}`;
      const r = await svc(['reports', 'get', ID], {
        tty,
        columns: 120,
        service: answering(`/v1/reports/${ID}`, raw),
      });
      expect(r.code, r.stderr).toBe(0);
      const lines = linesOf(r.stdout).map((line) => line.replace(/ {2,}/g, '  ').trimEnd());
      if (tty) {
        expect(lines).toEqual(
          expect.arrayContaining([
            'Opening balance  NPR 1,25,000.50',
            `Closing balance  NPR ${BIG_FOR_PEOPLE}`,
            'Signals salary amount  NPR 58,400.00',
            'Signals cash withdrawal ratio  8.1%',
          ]),
        );
        expect(plain(r.stdout)).toMatch(/│ 2026-03 │ +4,80,891\.00 │ +-1,250\.50 │ +12 │/);
      } else {
        expect(lines).toEqual(
          expect.arrayContaining([
            'opening_balance\t125000.50',
            `closing_balance\t${BIG}`,
            'signals.salary_amount\t58400',
            'signals.cash_withdrawal_ratio\t0.081',
            '2026-03\t480891\t-1250.5\t12',
          ]),
        );
      }
    },
  );
});

describe('the data families: a list the command picks out of the reply', () => {
  const raw = `{"data": {"month": "2026-02", "line_items": [
    {"key": "total-deposits", "label": "Total deposits", "value": ${BIG}, "unit": "NPR_mn"},
    {"key": "reserves", "label": "Reserves", "value": 1e400, "unit": "NPR_mn"},
    {"key": "capital", "label": "Capital", "value": 20603.190, "unit": "NPR_mn"}
  ]}, "meta": {"source": "Nepal Rastra Bank"}}`;
  const run = (tty: boolean, ...flags: string[]) =>
    svc(['data', 'latest', 'balance-sheet', ...flags], {
      tty,
      columns: 120,
      cache: new MemoryCache(),
      service: answering('/v1/data/cbank/banking/balance-sheet/latest', raw),
    });

  it('a script gets the values as received in the table of a pipe', async () => {
    const r = await run(false);
    expect(r.code, r.stderr).toBe(0);
    const lines = linesOf(r.stdout);
    expect(lines).toContain(`2026-02\ttotal-deposits\tTotal deposits\t${BIG}`);
    expect(lines).toContain('2026-02\treserves\tReserves\t1e400');
    expect(lines).toContain('2026-02\tcapital\tCapital\t20603.190');
  });

  it('a person sees them grouped, every digit kept', async () => {
    const r = await run(true);
    expect(r.code, r.stderr).toBe(0);
    expect(plain(r.stdout)).toContain(BIG_FOR_PEOPLE);
    expect(plain(r.stdout)).toMatch(/│ reserves +│ Reserves +│ +1e400 │/);
    expect(plain(r.stdout)).toContain('20,603.19');
  });

  it.each(MODES)(
    '-o ndjson and -o csv write each line item with its value as received, for $mode',
    async ({ tty }) => {
      const ndjson = await run(tty, '-o', 'ndjson');
      expect(ndjson.code, ndjson.stderr).toBe(0);
      expect(plain(ndjson.stdout).split('\n').slice(0, 3)).toEqual([
        `{"key":"total-deposits","label":"Total deposits","value":${BIG},"unit":"NPR_mn"}`,
        '{"key":"reserves","label":"Reserves","value":1e400,"unit":"NPR_mn"}',
        '{"key":"capital","label":"Capital","value":20603.190,"unit":"NPR_mn"}',
      ]);
      const csv = await run(tty, '-o', 'csv');
      expect(csv.code, csv.stderr).toBe(0);
      expect(plain(csv.stdout).split('\r\n').slice(0, 4)).toEqual([
        'key,label,value,unit',
        `total-deposits,Total deposits,${BIG},NPR_mn`,
        'reserves,Reserves,1e400,NPR_mn',
        'capital,Capital,20603.190,NPR_mn',
      ]);
    },
  );
});

describe('merchants resolve: replies merged into one', () => {
  const T1 = '9756038350856888';
  const raw = `{"data": {"count": 1, "matched": 1, "results": [{"input": "${T1}", "type": "terminal", "matched": true, "merchant": "Big Mart", "mcc": 5411, "limit": ${BIG}, "risk": 1e400, "rate": 0.10, "delta": -0}]}, "meta": {"source": "svc merchant directory", "version": 2.0}}`;
  const run = (tty: boolean, ...flags: string[]) =>
    svc(['merchants', 'resolve', T1, ...flags], {
      tty,
      service: new FakeService().expect('POST', '/v1/merchants/resolve', { raw }),
    });

  it.each(MODES)(
    '--json writes the merged reply with every number as received, for $mode',
    async ({ tty }) => {
      const r = await run(tty, '--json');
      expect(r.code, r.stderr).toBe(0);
      const text = plain(r.stdout);
      expect(text).toContain(`"limit": ${BIG},`);
      expect(text).toContain('"risk": 1e400,');
      expect(text).toContain('"rate": 0.10,');
      expect(text).toContain('"delta": -0\n');
      expect(text).toContain('"version": 2.0\n');
      expect(text).not.toMatch(/null|Infinity|567000/);
    },
  );

  it.each(MODES)('-o ndjson and -o csv write them as received too, for $mode', async ({ tty }) => {
    const ndjson = await run(tty, '-o', 'ndjson');
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(plain(ndjson.stdout)).toBe(
      `{"input":"${T1}","type":"terminal","matched":true,"merchant":"Big Mart","mcc":5411,"limit":${BIG},"risk":1e400,"rate":0.10,"delta":-0}\n`,
    );
  });
});

describe('money in the other views: underwriting, enrich, decisions, the data a consent opens', () => {
  /**
   * Runs a command whose one request is answered with `raw`; a field's line with its spaces made
   * one.
   */
  async function shown(
    argv: string[],
    method: string,
    path: string,
    raw: string,
    tty: boolean,
    env: Record<string, string | undefined> = {},
  ) {
    const service = new FakeService().expect(method, (request) => request.url.pathname === path, {
      raw,
    });
    const r = await svc(argv, { tty, columns: 120, env, service });
    expect(r.code, r.stderr).toBe(0);
    return plain(r.stdout)
      .split('\n')
      .map((line) => line.replace(/ {2,}/g, '  ').trimEnd());
  }

  it.each(MODES)(
    'underwrite: the loan and the incomes as money, a share as it is, for $mode',
    async ({ tty }) => {
      const raw = `{"verdict": "approve", "currency": "NPR", "monthly_income": 58280.330, "loan": {"principal": 400000, "emi": 13671.05, "tenor_months": 36}, "foir": {"ceiling": 0.5}}`;
      const lines = await shown(
        [
          'reports',
          'underwrite',
          ID,
          '--principal',
          '400000',
          '--tenor-months',
          '36',
          '--annual-rate',
          '14',
        ],
        'POST',
        `/v1/reports/${ID}/underwriting`,
        raw,
        tty,
      );
      if (tty)
        expect(lines).toEqual(
          expect.arrayContaining([
            'Monthly income  NPR 58,280.33',
            'Loan principal  NPR 4,00,000.00',
            'Loan EMI  NPR 13,671.05',
            'Loan tenor months  36',
            'FOIR ceiling  50%',
          ]),
        );
      else
        expect(lines).toEqual(
          expect.arrayContaining([
            'monthly_income\t58280.330',
            'loan.principal\t400000',
            'loan.emi\t13671.05',
            'loan.tenor_months\t36',
          ]),
        );
    },
  );

  it.each(MODES)(
    'enrich: the monthly summary after the transactions, as money for a person, for $mode',
    async ({ tty }) => {
      const raw = `{"count": 1, "transactions": [{"date": "2026-03-25", "description": "SALARY", "credit": 72000.50, "balance": ${BIG}, "category": "salary", "confidence": 0.95}],
      "monthly_summary": [{"month": "2026-03", "total_credits": 72000.50, "transaction_count": 1}]}`;
      const service = new FakeService().expect('POST', '/v1/enrich', { raw });
      const r = await svc(['enrich', '--file', '-'], {
        tty,
        columns: 120,
        stdin: '[{"date":"2026-03-25","description":"SALARY","credit":72000.5,"balance":1}]',
        service,
      });
      expect(r.code, r.stderr).toBe(0);
      const screen = plain(r.stdout);
      if (tty) {
        expect(screen).toMatch(
          new RegExp(`│ 2026-03-25 │ SALARY +│ 72,000\\.50 │ +│ ${BIG_FOR_PEOPLE} │`),
        );
        expect(screen).toMatch(/│ 2026-03 │ +72,000\.50 │ +1 │/);
      } else {
        expect(screen).toContain(`2026-03-25\tSALARY\t72000.50\t\t${BIG}\tsalary\t0.95\n`);
        expect(screen).toContain('2026-03\t72000.50\t1\n');
      }
    },
  );

  it.each(MODES)('decisions list: the amount decided on, for $mode', async ({ tty }) => {
    const raw = `{"data": [{"decision": "approved", "client_reference_id": "loan-1001", "amount": 500000.50}], "has_more": false}`;
    const lines = await shown(['decisions', 'list'], 'GET', '/v1/decisions', raw, tty);
    if (tty)
      expect(lines).toContainEqual(
        expect.stringMatching(/│ approved +│ loan-1001 +│ 5,00,000\.50 │/),
      );
    else expect(lines).toContain('approved\tloan-1001\t500000.50');
  });

  it.each(MODES)(
    'consents data: the income a consent opens, its amounts as money, for $mode',
    async ({ tty }) => {
      const raw = `{"scopes": ["income"], "data": {"income": {"salary_detected": true, "salary_amount": 72000, "income_stability_score": 82}}}`;
      const lines = await shown(
        ['consents', 'data', 'cns_ad69e6ff0b9b28ab'],
        'GET',
        '/v1/consents/cns_ad69e6ff0b9b28ab/data',
        raw,
        tty,
        {
          SVC_API_KEY: undefined,
          SVC_CONSENT_TOKEN: 'cst_0123456789abcdef0123456789abcdef',
        },
      );
      if (tty)
        expect(lines).toEqual(
          expect.arrayContaining([
            'Salary amount  NPR 72,000.00',
            'Income stability score  82 / 100',
          ]),
        );
      else
        expect(lines).toEqual(
          expect.arrayContaining(['salary_amount\t72000', 'income_stability_score\t82']),
        );
    },
  );
});
