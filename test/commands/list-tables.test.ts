// Lists are tables (docs/reference/output.md, "Tables"): on a terminal from 60 columns up a list is
// a boxed table of its default columns, a row a line, its free text cut with an ellipsis and its
// ids, amounts and dates whole; a table too wide leaves columns out and names them; cards only
// below 60 columns. -o wide shows every column, free text wrapped. In a pipe the TSV keeps every
// column. --columns picks and orders the columns by the reply's field names, --no-headers leaves
// the header out, in a table, TSV and CSV; the CSV of a list has its documented fields first,
// nested objects in dotted columns, lists of plain values joined with `; `, and --no-formula-guard
// writes cells as received.
import { describe, expect, it } from 'vitest';

import { expectRefused } from '../support/errors.js';
import {
  ANSI,
  BOX,
  expectFailure,
  type FakeReply,
  FakeService,
  MODES,
  plain,
  svc,
  unwrapped,
} from '../support/in-process.js';

const ID = 'rpt_f2f26e05bdcf42c7';

const NARRATIONS = [
  'MPAY 1336577437837246,199527119,MOB',
  'FT FROM BIJAY KHADKA 275688331 MOB',
  'OWN A/C TRF TO 7045',
  'CASH DEPOSIT BY SELF',
  'EMI KUMARI BANK PERSONAL LOAN APR 2026',
  'SALARY TRIBHUVAN UNIVERSITY MAY 2026',
  'KATHMANDU UPATYAKA KHANEPANI LIMITED BILL 0425',
];

/** 49 transactions as a statement has them: narrations of every length, lakhs in the balance. */
const TRANSACTIONS = {
  count: 49,
  transactions: Array.from({ length: 49 }, (_, i) => {
    const credit = i % 3 === 1;
    const amount = Math.round((1000 + ((i * 7919) % 57000) + i / 100) * 100) / 100;
    return {
      id: `txn_${String(i + 1).padStart(4, '0')}`,
      date: `2026-${String(4 + Math.floor(i / 9)).padStart(2, '0')}-${String(1 + ((i * 3) % 28)).padStart(2, '0')}`,
      description: NARRATIONS[i % NARRATIONS.length],
      debit: credit ? null : amount,
      credit: credit ? amount : null,
      balance: 100000 + i * 1234.56,
      category: credit ? 'salary' : 'merchant_payment',
      confidence: 0.95,
    };
  }),
};

const transactions = (reply: FakeReply = { body: TRANSACTIONS }) =>
  new FakeService().expect('GET', `/v1/reports/${ID}/transactions`, reply);
const listTransactions = (
  options: { tty: boolean; columns?: number; reply?: FakeReply },
  ...flags: string[]
) =>
  svc(['reports', 'transactions', ID, ...flags], {
    tty: options.tty,
    columns: options.columns,
    service: transactions(options.reply),
  });

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uff00-\uff60]/u;
const width = (line: string) =>
  [...plain(line)].reduce((n, char) => n + (WIDE.test(char) ? 2 : 1), 0);
const screenOf = (stdout: string) => plain(stdout).trimEnd().split('\n');
/** The rows of a boxed table: lines between its borders that are not its header. */
const rowsOf = (lines: readonly string[]) =>
  lines.filter((line) => /^│ \d{4}-\d{2}-\d{2} │/.test(line));
const money = (n: number) =>
  n.toLocaleString('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('reports transactions on a terminal: a table of its default columns', () => {
  it('at 80 columns: a boxed table, a row a line, descriptions cut with …, dates and amounts whole', async () => {
    const result = await listTransactions({ tty: true, columns: 80 });
    expect(result.code, result.stderr).toBe(0);
    const lines = screenOf(result.stdout);
    // The title, the box (top, a header of two lines, rule, bottom), 49 rows, the count and the
    // filters: 57 lines, not 394. The currency is said once, under the amounts' headers, where
    // the descriptions would otherwise give up five columns of their text.
    expect(lines).toHaveLength(1 + 5 + 49 + 2);
    expect(lines[2]).toMatch(/^│ DATE +│ DESCRIPTION +│ +DEBIT │ +CREDIT │ +BALANCE │$/);
    expect(lines[3]).toMatch(/^│ +│ +│ +\(NPR\) │ +\(NPR\) │ +\(NPR\) │$/);
    expect(lines[6]).toMatch(/^│ 2026-04-04 │ FT FROM BIJAY KHADKA 275… │/);
    for (const line of lines) expect(width(line), line).toBeLessThanOrEqual(80);
    const rows = rowsOf(lines);
    expect(rows).toHaveLength(49);
    TRANSACTIONS.transactions.forEach((t, i) => {
      const row = rows[i]!;
      expect(row).toContain(`│ ${t.date} │`);
      expect(row).toContain(` ${money(t.balance)} │`);
      expect(row).toContain(` ${money((t.debit ?? t.credit)!)} │`);
    });
    // The longest narration is cut, beside the last letters kept; a short one is whole.
    expect(rows[6]).toMatch(/│ KATHMANDU UPATYAKA \S*… +│/);
    expect(rows[3]).toMatch(/│ CASH DEPOSIT BY SELF +│/);
    // The id, category and confidence are for -o wide.
    expect(result.stdout).not.toContain('txn_0001');
  });

  it('at 60 columns: still a table; the balance is left out, and said so', async () => {
    const result = await listTransactions({ tty: true, columns: 60 });
    expect(result.code, result.stderr).toBe(0);
    const lines = screenOf(result.stdout);
    expect(lines[2]).toMatch(/^│ DATE +│ DESCRIPTION +│ +DEBIT │ +CREDIT │$/);
    expect(rowsOf(lines)).toHaveLength(49);
    for (const line of lines) expect(width(line), line).toBeLessThanOrEqual(60);
    expect(lines.join(' ')).toContain(
      'Left out at this width: BALANCE (-o wide shows every column).',
    );
  });

  it('at 120 columns: the descriptions whole', async () => {
    const result = await listTransactions({ tty: true, columns: 120 });
    const rows = rowsOf(screenOf(result.stdout));
    expect(rows).toHaveLength(49);
    expect(result.stdout).not.toContain('…');
    expect(rows[6]).toContain('│ KATHMANDU UPATYAKA KHANEPANI LIMITED BILL 0425 │');
  });

  it('below 60 columns: a card a row, of the default columns', async () => {
    const result = await listTransactions({ tty: true, columns: 50 });
    expect(result.code, result.stderr).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).not.toMatch(BOX);
    const first = screen.split('\n\n')[0]!.split('\n');
    expect(first).toEqual([
      `Transactions of ${ID}`,
      'DATE         2026-04-01',
      'DESCRIPTION  MPAY 1336577437837246,199527119,MOB',
      `DEBIT        NPR ${money(TRANSACTIONS.transactions[0]!.debit!)}`,
      'BALANCE      NPR 1,00,000.00',
    ]);
  });

  it('in a pipe: every column, nothing cut, whatever the width', async () => {
    for (const columns of [60, 80, 200]) {
      const result = await listTransactions({ tty: false, columns });
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(50);
      expect(lines[0]).toBe('DATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY\tID\tCONFIDENCE');
      expect(lines[7]).toBe(
        '2026-04-19\tKATHMANDU UPATYAKA KHANEPANI LIMITED BILL 0425\t' +
          `${TRANSACTIONS.transactions[6]!.debit}\t\t${TRANSACTIONS.transactions[6]!.balance}\tmerchant_payment\ttxn_0007\t0.95`,
      );
      expect(result.stdout).not.toMatch(ANSI);
      expect(result.stdout).not.toContain('…');
    }
  });
});

describe('-o wide', () => {
  it('shows a person every column, the free text wrapped and never cut', async () => {
    const result = await listTransactions({ tty: true, columns: 130 }, '-o', 'wide');
    expect(result.code, result.stderr).toBe(0);
    const lines = screenOf(result.stdout);
    expect(lines[2]).toMatch(
      /^│ DATE +│ DESCRIPTION +│ +DEBIT │ +CREDIT │ +BALANCE │ CATEGORY +│ ID +│ CONFIDENCE │$/,
    );
    expect(result.stdout).not.toContain('…');
    expect(lines.some((line) => line.includes('│ txn_0001 │'))).toBe(true);
    // Wrapped between its words: the row takes two lines, its words all there.
    expect(lines.join('\n')).toMatch(
      /│ KATHMANDU UPATYAKA KHANEPANI +│[^\n]*\n│ +│ LIMITED BILL 0425 +│/,
    );
  });

  it('gives a script the same TSV as a table', async () => {
    const [wide, table] = [
      await listTransactions({ tty: false }, '-o', 'wide'),
      await listTransactions({ tty: false }),
    ];
    expect(wide.code).toBe(0);
    expect(wide.stdout).toBe(table.stdout);
  });
});

describe.each(MODES)('--columns, for $mode', ({ tty }) => {
  const NESTED = {
    count: 2,
    transactions: [
      {
        transaction_id: 'txn_0001',
        date: '2026-03-03',
        name: 'BHAT-BHATENI',
        amount: 1250,
        merchant_info: { city: 'Kathmandu', mcc: '5411' },
      },
      {
        transaction_id: 'txn_0002',
        date: '2026-03-04',
        name: 'DARAZ',
        amount: 999,
        merchant_info: { city: 'Lalitpur' },
      },
    ],
  };

  it('picks and orders the columns by field name; a column read under another name (name for description) and a nested field (dotted) too', async () => {
    const result = await listTransactions(
      { tty, reply: { body: NESTED } },
      '--columns',
      'merchant_info.city,name,transaction_id,amount',
    );
    expect(result.code, result.stderr).toBe(0);
    if (tty) {
      const lines = screenOf(result.stdout);
      expect(lines[2]).toMatch(/^│ MERCHANT INFO CITY │ DESCRIPTION +│ ID +│ AMOUNT \(NPR\) │$/);
      expect(lines[4]).toMatch(/^│ Kathmandu +│ BHAT-BHATENI +│ txn_0001 │ +1,250\.00 │$/);
    } else {
      expect(result.stdout).toBe(
        'MERCHANT INFO.CITY\tDESCRIPTION\tID\tAMOUNT\nKathmandu\tBHAT-BHATENI\ttxn_0001\t1250\nLalitpur\tDARAZ\ttxn_0002\t999\n',
      );
    }
  });

  it('picks the columns of -o csv by the keys of the records, dotted for nested ones', async () => {
    const result = await listTransactions(
      { tty, reply: { body: NESTED } },
      '-o',
      'csv',
      '--columns',
      'date,merchant_info.mcc,transaction_id',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      'date,merchant_info.mcc,transaction_id\r\n2026-03-03,5411,txn_0001\r\n2026-03-04,,txn_0002\r\n',
    );
  });

  it('a name the reply has not is exit 2, naming the columns it has', async () => {
    const result = await listTransactions({ tty }, '--columns', 'date,bogus');
    expectFailure(
      result,
      2,
      'error: --columns: no column "bogus" in this reply; its columns are date, description (or name), debit, credit, balance, category (or personal_finance_category.primary), id (or transaction_id), confidence',
    );
    const csv = await listTransactions({ tty }, '-o', 'csv', '--columns', 'date,bogus,debt');
    expectFailure(
      csv,
      2,
      /^error: --columns: no columns "bogus", "debt" in this reply; its columns are id, date, description, debit, credit, balance, category, confidence$/,
    );
  });

  it('a documented field the reply lacks is a blank column; an empty list has its documented fields', async () => {
    const blank = await listTransactions(
      { tty, reply: { body: NESTED } },
      '-o',
      'csv',
      '--columns',
      'transaction_id,confidence',
    );
    expect(blank.stdout).toBe('transaction_id,confidence\r\ntxn_0001,\r\ntxn_0002,\r\n');
    const empty = await listTransactions(
      { tty: false, reply: { body: { count: 0, transactions: [] } } },
      '--columns',
      'confidence,date',
    );
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toBe('CONFIDENCE\tDATE\n');
    const unknown = await listTransactions(
      { tty, reply: { body: { count: 0, transactions: [] } } },
      '-o',
      'csv',
      '--columns',
      'date,bogus',
    );
    expectFailure(
      unknown,
      2,
      /^error: --columns: no column "bogus" in this reply; its columns are id, date,/,
    );
  });

  it('a list no document shows, empty, takes any name: nothing is known of its columns', async () => {
    const service = new FakeService().expect(
      'GET',
      '/v1/data/cbank/cpi/series?from=2024-01&indicator=PCPI_IX',
      { body: [] },
    );
    const result = await svc(
      [
        'data',
        'series',
        'cpi',
        'PCPI_IX',
        '--from',
        '2024-01',
        '--no-cache',
        '-o',
        'csv',
        '--columns',
        'month,whatever',
      ],
      { tty, service },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('month,whatever\r\n');
  });

  it('is refused with JSON, before any request', async () => {
    for (const flags of [['--json'], ['-o', 'ndjson'], ['--jq', '.count']]) {
      const result = await svc(['reports', 'transactions', ID, ...flags, '--columns', 'date'], {
        tty,
      });
      expect(result.code).toBe(2);
      expect(result.requests).toEqual([]);
      expect(unwrapped(result.stderr)).toMatch(
        /--columns picks the columns of a table or CSV; it does not apply to (--json|-o ndjson|--jq)/,
      );
    }
  });
});

describe.each(MODES)('--no-headers, for $mode', ({ tty }) => {
  it('leaves out the header line of a table, a TSV and a CSV', async () => {
    const table = await listTransactions({ tty, columns: 80 }, '--no-headers');
    expect(table.code, table.stderr).toBe(0);
    if (tty) {
      const lines = screenOf(table.stdout);
      expect(lines[1]).toMatch(/^┌─/);
      expect(lines[2]).toMatch(/^│ 2026-04-01 │ MPAY/);
      expect(table.stdout).not.toContain('DESCRIPTION');
    } else {
      expect(table.stdout.split('\n')[0]).toBe(
        `2026-04-01\tMPAY 1336577437837246,199527119,MOB\t${TRANSACTIONS.transactions[0]!.debit}\t\t100000\tmerchant_payment\ttxn_0001\t0.95`,
      );
    }
    const csv = await listTransactions(
      { tty },
      '-o',
      'csv',
      '--no-headers',
      '--columns',
      'id,date',
    );
    expect(csv.stdout.split('\r\n').slice(0, 2)).toEqual([
      'txn_0001,2026-04-01',
      'txn_0002,2026-04-04',
    ]);
  });

  it('is refused with JSON, before any request', async () => {
    const result = await svc(['reports', 'list', '-o', 'json', '--no-headers'], { tty });
    expect(result.code).toBe(2);
    expect(result.requests).toEqual([]);
  });
});

describe.each(MODES)('CSV of a list, for $mode', ({ tty }) => {
  const reports = (body: unknown) => new FakeService().expect('GET', '/v1/reports', { body });

  it('an empty list writes its documented fields as the header row', async () => {
    const list = await svc(['reports', 'list', '-o', 'csv'], {
      tty,
      service: reports({ data: [], has_more: false }),
    });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toBe('report_id,status,bank_code,created_at\r\n');
    const none = await listTransactions(
      { tty, reply: { body: { count: 0, transactions: [] } } },
      '-o',
      'csv',
    );
    expect(none.stdout).toBe('id,date,description,debit,credit,balance,category,confidence\r\n');
    const statements = await svc(['statements', 'list', '-o', 'csv'], {
      tty,
      service: new FakeService().expect('GET', '/v1/statements', { body: { statements: [] } }),
    });
    expect(statements.stdout).toBe('content_hash,verify_url,status\r\n');
  });

  it('nested objects in dotted columns, lists of plain values joined with ;, the documented fields first and the others in the order they first come', async () => {
    const body = {
      data: [
        {
          created_at: '2026-05-20T08:30:00Z',
          tags: ['salary', 'kyc'],
          report_id: 'rpt_1',
          statement: { bank_code: 'NABIL', period: { from: '2026-01-01', to: '2026-03-31' } },
        },
        {
          owner: { name: 'Ram', roles: ['analyst'] },
          status: 'complete',
          report_id: 'rpt_2',
          bank_code: 'NMB',
        },
      ],
    };
    const result = await svc(['reports', 'list', '-o', 'csv'], { tty, service: reports(body) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        'report_id,status,bank_code,created_at,tags,statement.bank_code,statement.period.from,statement.period.to,owner.name,owner.roles',
        'rpt_1,,,2026-05-20T08:30:00Z,salary; kyc,NABIL,2026-01-01,2026-03-31,,',
        'rpt_2,complete,NMB,,,,,,Ram,analyst',
        '',
      ].join('\r\n'),
    );
  });

  it('--no-formula-guard writes the cells as received; without it a formula gets a quote', async () => {
    const body = {
      data: [{ report_id: 'rpt_1', status: '=cmd|x', bank_code: '@SUM(A1)', created_at: '-1' }],
    };
    const guarded = await svc(['reports', 'list', '-o', 'csv'], { tty, service: reports(body) });
    expect(guarded.stdout.split('\r\n')[1]).toBe("rpt_1,'=cmd|x,'@SUM(A1),-1");
    const raw = await svc(['reports', 'list', '-o', 'csv', '--no-formula-guard'], {
      tty,
      service: reports(body),
    });
    expect(raw.code, raw.stderr).toBe(0);
    expect(raw.stdout.split('\r\n')[1]).toBe('rpt_1,=cmd|x,@SUM(A1),-1');
  });

  it('--no-formula-guard is refused outside -o csv, before any request', async () => {
    for (const flags of [[], ['-o', 'wide']]) {
      const result = await svc(['reports', 'list', ...flags, '--no-formula-guard'], { tty });
      expectRefused(
        result,
        /^error: --no-formula-guard applies to -o csv alone, not -o (table|wide)$/,
      );
    }
    const ndjson = await svc(['reports', 'list', '-o', 'ndjson', '--no-formula-guard'], { tty });
    expect(ndjson.code).toBe(2);
    expect(ndjson.requests).toEqual([]);
  });
});

describe('merchants resolve: --columns, --no-headers and --no-formula-guard', () => {
  const FOUND = {
    input: '9000000000000001',
    type: 'terminal',
    matched: true,
    terminal: '9000000000000001',
    merchant: '=Big Mart',
    mcc: '5411',
    category: 'groceries',
    city: 'Kathmandu',
  };
  const resolve = () =>
    new FakeService().expect('POST', '/v1/merchants/resolve', {
      body: { data: { count: 1, matched: 1, results: [FOUND] }, meta: {} },
    });

  it.each(MODES)('picks the columns of the table and the CSV, for $mode', async ({ tty }) => {
    const table = await svc(
      [
        'merchants',
        'resolve',
        '9000000000000001',
        '--columns',
        'merchant,terminal',
        '--no-headers',
      ],
      { tty, service: resolve() },
    );
    expect(table.code, table.stderr).toBe(0);
    expect(plain(table.stdout).split('\n')[0]).toMatch(
      tty ? /^=Big Mart +9000000000000001$/ : /^=Big Mart\t9000000000000001$/,
    );
    const csv = await svc(
      [
        'merchants',
        'resolve',
        '9000000000000001',
        '-o',
        'csv',
        '--columns',
        'type,merchant',
        '--no-formula-guard',
      ],
      { tty, service: resolve() },
    );
    expect(csv.stdout).toBe('type,merchant\r\nterminal,=Big Mart\r\n');
  });

  it.each(MODES)('a name neither has is exit 2, before any request, for $mode', async ({ tty }) => {
    const result = await svc(
      ['merchants', 'resolve', '9000000000000001', '--columns', 'merchant,town'],
      { tty },
    );
    expectRefused(
      result,
      /^error: --columns: no column "town" in this reply; its columns are input, terminal, merchant, mcc, category, city, matched$/,
    );
  });
});

describe('the other lists at 80 and 60 columns: tables, a row a line', () => {
  const TXN = (i: number) => ({
    id: `txn_${i}`,
    date: `2026-0${1 + (i % 6)}-25`,
    description: `SALARY TRIBHUVAN UNIVERSITY MONTH ${i} WITH A LONG NARRATION`,
    credit: 58400,
    balance: 102512.85 + i,
  });
  const cases: {
    name: string;
    argv: string[];
    path: string;
    body: unknown;
    header: RegExp;
    rows: number;
  }[] = [
    {
      name: 'reports income',
      argv: ['reports', 'income', ID],
      path: `/v1/reports/${ID}/income`,
      body: {
        salary_detected: true,
        monthly_credits: [],
        income_transactions: Array.from({ length: 6 }, (_, i) => TXN(i)),
      },
      header: /^│ DATE +│ DESCRIPTION +│ (DEBIT │ )? +CREDIT │/,
      rows: 6,
    },
    {
      name: 'reports liabilities',
      argv: ['reports', 'liabilities', ID],
      path: `/v1/reports/${ID}/liabilities`,
      body: {
        monthly_emi_total: 12850,
        lenders: [],
        liability_transactions: Array.from({ length: 6 }, (_, i) => ({
          ...TXN(i),
          credit: null,
          debit: 12850,
        })),
      },
      header: /^│ DATE +│ DESCRIPTION +│ +DEBIT │/,
      rows: 6,
    },
    {
      name: 'decisions list',
      argv: ['decisions', 'list'],
      path: '/v1/decisions',
      body: {
        data: Array.from({ length: 8 }, (_, i) => ({
          id: `dec_0022366470d6320${i}`,
          client_reference_id: `loan-10${i}`,
          report_id: ID,
          decision: 'approved',
          decision_rationale:
            'FOIR 32%, steady salary from a long-standing employer, two EMIs serviced without a bounce',
          amount: 125000 * (i + 1),
          created_at: '2026-05-22T03:42:00Z',
        })),
        has_more: false,
      },
      header: /^│ DECISION │ CLIENT +│/,
      rows: 8,
    },
    {
      name: 'consents list',
      argv: ['consents', 'list'],
      path: '/v1/consents',
      body: {
        data: Array.from({ length: 3 }, (_, i) => ({
          status: 'active',
          id: `cns_cf9fcc3287a54e2${i}`,
          report_id: ID,
          scopes: ['identity', 'income'],
          grantee_label: 'Nabil Bank loan desk, Kathmandu branch',
          created_at: '2026-05-20T03:42:00Z',
          expires_at: '2026-06-19T03:42:00Z',
          reads: 0,
        })),
      },
      header: /^│ STATUS │ ID +│ SCOPES +│ GRANTEE/,
      rows: 3,
    },
    {
      name: 'recurring',
      argv: ['recurring', ID],
      path: `/v1/reports/${ID}/recurring`,
      body: {
        report_id: ID,
        outflow_streams: Array.from({ length: 3 }, (_, i) => ({
          counterparty: 'Kathmandu Upatyaka Khanepani Limited',
          category: 'utilities',
          cadence: 'monthly',
          average_amount: 609.82 + i,
          occurrences: 6,
          status: 'EARLY_DETECTION',
          is_active: true,
          last_date: '2026-10-01',
          next_date: '2026-11-01',
        })),
      },
      header: /^│ COUNTERPARTY +│ CADENCE │/,
      rows: 3,
    },
    {
      name: 'reports list',
      argv: ['reports', 'list'],
      path: '/v1/reports',
      body: {
        data: Array.from({ length: 3 }, (_, i) => ({
          report_id: `rpt_9809bacb02f7a90${i}`,
          status: 'processing',
          bank_code: 'SIDDHARTHA',
          created_at: '2026-11-21T10:50:38Z',
        })),
      },
      header: /^│ ID +│ STATUS +│ BANK +│/,
      rows: 3,
    },
  ];

  it.each(cases.flatMap((c) => [80, 60].map((columns) => [c.name, columns, c] as const)))(
    '%s at %i columns',
    async (_name, columns, c) => {
      const service = new FakeService().expect('GET', c.path, { body: c.body });
      const result = await svc(c.argv, { tty: true, columns, service });
      expect(result.code, result.stderr).toBe(0);
      const lines = screenOf(result.stdout);
      for (const line of lines) expect(width(line), line).toBeLessThanOrEqual(columns);
      const top = lines.findIndex((line) => c.header.test(line));
      expect(top, lines.join('\n')).toBeGreaterThan(0);
      // The header (its words may wrap), the rule, then the rows: at 80 columns a line a row; at 60
      // a list of scopes may wrap between its words.
      const rule = lines.findIndex((line, i) => i > top && line.startsWith('├'));
      const bottom = lines.findIndex((line, i) => i > rule && line.startsWith('└'));
      const body = lines.slice(rule + 1, bottom);
      expect(body.filter((line) => /^│ \S/.test(line))).toHaveLength(c.rows);
      if (columns === 80) expect(body).toHaveLength(c.rows);
    },
  );

  it('a column blank in every row gives way first, and is not named: income at 60 columns keeps the balance', async () => {
    const service = new FakeService().expect('GET', `/v1/reports/${ID}/income`, {
      body: { income_transactions: Array.from({ length: 3 }, (_, i) => TXN(i)) },
    });
    const result = await svc(['reports', 'income', ID], { tty: true, columns: 60, service });
    const lines = screenOf(result.stdout);
    expect(lines).toContainEqual(
      expect.stringMatching(/^│ DATE +│ DESCRIPTION +│ +CREDIT │ +BALANCE │$/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^│ 2026-01-25 │ SALARY TRIBHUVAN… +│ 58,400\.00 │ 1,02,512\.85 │$/),
    );
    expect(result.stdout).not.toContain('Left out');
  });

  it('a long address stays whole at 60 columns: the state gives way first, and is named', async () => {
    const url = 'https://verify.example.com.np/s/stmt_edd965552fcfdf1d';
    const service = new FakeService().expect('GET', '/v1/statements', {
      body: {
        statements: [
          {
            statement_id: 'stmt_edd965552fcfdf1d',
            status: 'issued',
            content_hash: 'abc',
            verify_url: url,
          },
        ],
      },
    });
    const result = await svc(['statements', 'list'], { tty: true, columns: 60, service });
    const lines = screenOf(result.stdout);
    expect(lines[1]).toMatch(/^│ VERIFY AT +│$/);
    expect(lines[3]).toBe(`│ ${url} │`);
    expect(lines.join(' ')).toContain(
      'Left out at this width: STATUS (-o wide shows every column).',
    );
  });
});
