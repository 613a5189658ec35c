// Views read alike (docs/reference/output.md, "Formats, columns, colour and pager"): on a terminal,
// one presentation for each kind of value, in every view that shows it; in a pipe, the values as
// the service sent them and the headers as scripts have read them. Money reads `NPR 1,25,000.00` in
// fields and cards, grouped in a table's cells with its currency once in the header; shares and
// confidences read as percentages; a score's contributions are signed; field names read as words;
// reasons as bullets.
import { describe, expect, it } from 'vitest';

import { headerOf, labelOf } from '../../src/core/output/labels.js';
import { FakeService, plain, svc } from '../support/in-process.js';

const ID = 'rpt_9f2c41d07ab35e18';

const answering = (method: string, path: string, body: unknown) =>
  new FakeService().expect(method, (request) => request.url.pathname === path, { body });
const screenOf = (stdout: string) => plain(stdout).trimEnd().split('\n');
/** The lines of a field list, a label and its value two spaces apart. */
const fieldsOf = (stdout: string) => screenOf(stdout).map((line) => line.replace(/ {2,}/g, '  '));

const UNDERWRITING = {
  report_id: ID,
  currency: 'NPR',
  verdict: 'decline',
  reasons: [
    'The EMI of 16726.81 exceeds the largest supportable EMI.',
    'The applicant name does not match the account holder.',
  ],
  loan: { principal: 500000, tenor_months: 36, annual_rate_pct: 12.5, emi: 16726.81 },
  foir: { ceiling: 0.5, with_loan: 0.455 },
  affordability: { status: 'unaffordable', headroom: -436.64 },
  risk_flags: ['name_mismatch'],
  score: {
    score: 905,
    band: 'excellent',
    factors: [{ factor: 'income_stability', impact: 100, detail: 'Stable.' }],
  },
  verify: { verdict: 'authentic', confidence: 0.99 },
  peer_group: { median_inflow: 61000 },
};

const underwrite = (tty: boolean, columns = 80) =>
  svc(
    [
      'reports',
      'underwrite',
      ID,
      '--principal',
      '500000',
      '--tenor-months',
      '36',
      '--annual-rate',
      '12.5',
    ],
    {
      tty,
      columns,
      service: answering('POST', `/v1/reports/${ID}/underwriting`, UNDERWRITING),
    },
  );

describe('a field of the generic view, for a person (reports underwrite)', () => {
  it('names its money with the currency, and reads its key as words; a script gets keys and values as sent', async () => {
    const screen = fieldsOf((await underwrite(true)).stdout);
    expect(screen).toContain('Loan principal  NPR 5,00,000.00');
    expect(screen).toContain('Affordability headroom  NPR -436.64');
    // A field no document names still shows, its key in words: `peer_group.median_inflow`.
    expect(screen).toContain('Peer group median inflow  NPR 61,000.00');
    // No label is a key: none in lower case, none dotted, none with an underscore.
    const fields = screen.slice(screen.findIndex((line) => line.startsWith('Verdict')));
    expect(fields.filter((line) => /^(?:[a-z]|\S*[._]\S* {2})/.test(line))).toEqual([]);
    // The loan asked for, in the title, is money too.
    expect(screen.slice(0, 2).join(' ')).toBe(
      `Underwriting of ${ID}: NPR 5,00,000.00 over 36 months at 12.5% a year`,
    );
    // A script still gets the keys and the values as the service sent them.
    const r = await underwrite(false);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        'FIELD\tVALUE',
        'loan.principal\t500000',
        'foir.with_loan\t0.455',
        'verify.confidence\t0.99',
        'peer_group.median_inflow\t61000',
        'reasons\tThe EMI of 16726.81 exceeds the largest supportable EMI., The applicant name does not match the account holder.',
        'FACTOR\tIMPACT\tDETAIL',
        'income_stability\t100\tStable.',
      ]),
    );
  });

  it('shows a FOIR as a percentage, a share in percent with its sign, a confidence as a percentage', async () => {
    const screen = fieldsOf((await underwrite(true)).stdout);
    expect(screen).toContain('FOIR ceiling  50%');
    expect(screen).toContain('FOIR with loan  45.5%');
    expect(screen).toContain('Loan annual rate  12.5%');
    expect(screen).toContain('Verify confidence  99%');
    expect(screen).toContain('Score  905 / 1000');
  });

  it('lists reasons as bullets, names (flags) on one line', async () => {
    const screen = screenOf((await underwrite(true)).stdout);
    const at = screen.findIndex((line) => line.startsWith('Reasons'));
    expect(screen.slice(at, at + 3)).toEqual([
      'Reasons                   • The EMI of 16726.81 exceeds the largest supportable',
      '                          EMI.',
      '                          • The applicant name does not match the account',
    ]);
    expect(fieldsOf(screen.join('\n'))).toContain('Risk flags  name_mismatch');
  });

  it('signs the contributions of the score it bundles, and names its factors in words', async () => {
    const screen = screenOf((await underwrite(true)).stdout);
    expect(screen).toContain('Score › Factors');
    expect(screen).toContainEqual(
      expect.stringMatching(/^│ Income stability │ +\+100 │ Stable\. +│$/),
    );
  });
});

describe('a table of amounts (reports transactions)', () => {
  const TRANSACTIONS = {
    count: 2,
    transactions: [
      {
        id: 'txn_0001',
        date: '2026-03-25',
        description: 'SALARY TRIBHUVAN UNIVERSITY',
        debit: null,
        credit: 72000,
        balance: 145200,
        category: 'salary',
        confidence: 0.95,
      },
      {
        id: 'txn_0002',
        date: '2026-03-26',
        description: 'EMI NABIL BANK',
        debit: 21000,
        credit: null,
        balance: 124200,
        category: 'loan_repayment',
        confidence: 0.875,
      },
    ],
  };
  const run = (tty: boolean, columns: number, body: unknown = TRANSACTIONS, ...flags: string[]) =>
    svc(['reports', 'transactions', ID, ...flags], {
      tty,
      columns,
      service: answering('GET', `/v1/reports/${ID}/transactions`, body),
    });

  it.each([80, 60])(
    'at %i columns: the currency once in each amount column’s header, the cells grouped with two decimals, no line wider; a pipe as before',
    async (columns) => {
      const screen = screenOf((await run(true, columns)).stdout);
      const header = screen.slice(2, 4).join('\n');
      expect(header).toMatch(/DEBIT/);
      expect((header.match(/\(NPR\)/g) ?? []).length).toBe(columns === 80 ? 3 : 2);
      expect(screen).toContainEqual(expect.stringMatching(/│ +72,000\.00 │/));
      expect(screen.join('\n')).not.toMatch(/NPR \d/);
      for (const line of screen) expect(line.length, line).toBeLessThanOrEqual(columns);
      // A script gets the bare headers and every digit, whatever the width.
      const r = await run(false, columns);
      expect(r.stdout).toBe(
        'DATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY\tID\tCONFIDENCE\n' +
          '2026-03-25\tSALARY TRIBHUVAN UNIVERSITY\t\t72000\t145200\tsalary\ttxn_0001\t0.95\n' +
          '2026-03-26\tEMI NABIL BANK\t21000\t\t124200\tloan_repayment\ttxn_0002\t0.875\n',
      );
    },
  );

  it('below 60 columns, a card names the currency beside each amount', async () => {
    const screen = screenOf((await run(true, 50)).stdout);
    expect(screen.slice(1, 5)).toEqual([
      'DATE         2026-03-25',
      'DESCRIPTION  SALARY TRIBHUVAN UNIVERSITY',
      'CREDIT       NPR 72,000.00',
      'BALANCE      NPR 1,45,200.00',
    ]);
  });

  it('-o wide: a confidence as a percentage', async () => {
    const screen = screenOf((await run(true, 120, TRANSACTIONS, '-o', 'wide')).stdout);
    expect(screen).toContainEqual(expect.stringMatching(/│ txn_0002 │ +87\.5% │$/));
  });

  it('the currency the transactions name heads the columns instead', async () => {
    const newer = {
      transactions: [
        {
          transaction_id: 'txn_1',
          date: '2026-03-25',
          name: 'REMITTANCE',
          amount: 250.5,
          iso_currency_code: 'USD',
          balance: 900,
        },
      ],
    };
    const screen = screenOf((await run(true, 80, newer)).stdout);
    expect(screen).toContainEqual(expect.stringMatching(/│ AMOUNT \(USD\) │ BALANCE \(USD\) │$/));
  });
});

describe('the designed report views', () => {
  it('income: the salary as NPR money in the fields, the monthly credits under CREDITS (NPR); a pipe as before', async () => {
    const body = {
      salary_detected: true,
      salary_amount: 72000,
      avg_monthly_credit: 85000,
      monthly_credits: [{ month: '2026-03', total_credits: 85000 }],
    };
    const income = (tty: boolean) =>
      svc(['reports', 'income', ID], {
        tty,
        service: answering('GET', `/v1/reports/${ID}/income`, body),
      });
    const person = await income(true);
    expect(person.code, person.stderr).toBe(0);
    const screen = screenOf(person.stdout);
    expect(screen).toContain('Salary                  NPR 72,000.00');
    expect(screen).toContainEqual(expect.stringMatching(/^│ MONTH +│ CREDITS \(NPR\) │$/));
    const script = await income(false);
    expect(script.stdout).toContain('salary_amount\t72000\n');
    expect(script.stdout).toContain('MONTH\tCREDITS\n2026-03\t85000\n');
  });

  it('score: factors in words, their impact signed', async () => {
    const body = {
      score: 640,
      band: 'fair',
      factors: [
        { factor: 'emi_load', impact: -20, detail: 'High.' },
        { factor: 'income_stability', impact: 60 },
      ],
    };
    const r = await svc(['reports', 'score', ID], {
      tty: true,
      service: answering('GET', `/v1/reports/${ID}/score`, body),
    });
    const screen = screenOf(r.stdout);
    expect(screen).toContainEqual(expect.stringMatching(/^│ Income stability │ +\+60 │/));
    expect(screen).toContainEqual(expect.stringMatching(/^│ EMI load +│ +-20 │ High\. +│$/));
  });

  it('a report: the signals’ ratio as a percentage, their names in words', async () => {
    const body = {
      report_id: ID,
      status: 'complete',
      statement: { currency: 'NPR', opening_balance: 1000 },
      signals: { cash_withdrawal_ratio: 0.081, salary_amount: 58400 },
    };
    const r = await svc(['reports', 'get', ID], {
      tty: true,
      service: answering('GET', `/v1/reports/${ID}`, body),
    });
    const screen = screenOf(r.stdout).map((line) => line.replace(/ {2,}/g, '  '));
    expect(screen).toEqual(
      expect.arrayContaining([
        'Signals cash withdrawal ratio  8.1%',
        'Signals salary amount  NPR 58,400.00',
      ]),
    );
  });
});

describe('the other views', () => {
  it('enrich -o wide: a confidence as a percentage; a pipe as received', async () => {
    const body = {
      count: 1,
      transactions: [
        {
          date: '2026-03-25',
          description: 'SALARY',
          credit: 72000,
          balance: 145200,
          category: 'salary',
          confidence: 0.95,
        },
      ],
    };
    const enrich = (tty: boolean) =>
      svc(['enrich', '--file', '-', '-o', 'wide'], {
        tty,
        columns: 120,
        stdin: '[{"date":"2026-03-25","description":"SALARY","credit":72000,"balance":145200}]',
        service: new FakeService().expect('POST', '/v1/enrich', { body }),
      });
    const person = await enrich(true);
    expect(person.code, person.stderr).toBe(0);
    expect(screenOf(person.stdout)).toContainEqual(expect.stringMatching(/│ salary +│ +95% │$/));
    expect((await enrich(false)).stdout).toContain(
      '2026-03-25\tSALARY\t72000\t\t145200\tsalary\t0.95\n',
    );
  });

  it('a report that names no currency: its balances in NPR, the currency of every statement', async () => {
    const body = {
      report_id: ID,
      status: 'complete',
      statement: { bank: 'Nabil Bank', opening_balance: 73200 },
    };
    const r = await svc(['reports', 'get', ID], {
      tty: true,
      service: answering('GET', `/v1/reports/${ID}`, body),
    });
    expect(fieldsOf(r.stdout)).toContain('Opening balance  NPR 73,200.00');
  });
});

describe('empty lists', () => {
  it('a list the reply holds empty says `none` to a person, where a blank field would be left out; a pipe keeps the blank', async () => {
    const body = { ...UNDERWRITING, risk_flags: [] };
    const underwriting = (tty: boolean) =>
      svc(
        [
          'reports',
          'underwrite',
          ID,
          '--principal',
          '500000',
          '--tenor-months',
          '36',
          '--annual-rate',
          '12.5',
        ],
        {
          tty,
          service: answering('POST', `/v1/reports/${ID}/underwriting`, body),
        },
      );
    expect(fieldsOf((await underwriting(true)).stdout)).toContain('Risk flags  none');
    expect((await underwriting(false)).stdout).toContain('\nrisk_flags\t\n');
  });
});

describe('counts in the fields of the generic view', () => {
  it('usage: a counter the service adds is grouped, as the documented ones are', async () => {
    const body = { plan: 'growth', quota: 1000, used: 142, data_api: { quota: 2500, used: 318 } };
    const r = await svc(['usage'], { tty: true, service: answering('GET', '/v1/usage', body) });
    const screen = screenOf(r.stdout).map((line) => line.replace(/ {2,}/g, '  '));
    expect(screen).toEqual(expect.arrayContaining(['Data API quota  2,500', 'Data API used  318']));
  });
});

describe('labels', () => {
  it('turns keys into words, known abbreviations in capitals', () => {
    expect(labelOf('foir.with_loan')).toBe('FOIR with loan');
    expect(labelOf('inflow.by_type.individual')).toBe('Inflow by type individual');
    expect(labelOf('swift_bic')).toBe('SWIFT BIC');
    expect(labelOf('mcc')).toBe('MCC');
    expect(labelOf('report_id')).toBe('Report ID');
    expect(labelOf('qr_url')).toBe('QR URL');
    expect(labelOf('date_bs')).toBe('Date BS');
    expect(labelOf('emi_load_pct')).toBe('EMI load');
    expect(labelOf('monthly_avg')).toBe('Monthly average');
    expect(labelOf('name_match.match_score')).toBe('Name match score');
    expect(labelOf('score.score')).toBe('Score');
    expect(labelOf('merchantTerminal')).toBe('Merchant terminal');
    expect(labelOf('constructor')).toBe('Constructor');
    expect(labelOf('__')).toBe('__');
    expect(headerOf('average_amount')).toBe('AVERAGE AMOUNT');
  });
});
