// --calendar ad|bs, SVC_CALENDAR and the profile's `calendar`, and --fy (docs/reference/dates.md):
// in-process, as a person at a terminal and as a script. Tables show BS dates under headers marked
// (BS), a date-time keeping its time; --json never changes; -o csv and -o ndjson add `<field>_bs`
// right after each date; --since and --until read BS dates and send AD ones; --fy sends a fiscal
// year's two ends. The conversions themselves are checked against a second table in
// test/unit/bikram-sambat.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { BS_RANGE_TEXT } from '../../src/commands/help/topics.js';
import { RANGE_TEXT } from '../../src/core/calendar/bikram-sambat.js';
import { documented } from '../support/fixtures.js';
import { expectFailure, FakeService, MODES, plain, svc, unwrapped } from '../support/in-process.js';

const ID = 'rpt_9f2c41d07ab35e18';
const CONSENT_ID = 'cns_4b1d2e9a0c3f5e71';
const TRANSACTIONS = documented('transactions');
const TRANSACTIONS_PATH = `/v1/reports/${ID}/transactions`;

/**
 * The documented transaction (2026-03-25, 2082-12-11 BS) and three more: a date past the table, a
 * text that is no date, none.
 */
const MANY = {
  count: 4,
  transactions: [
    ...TRANSACTIONS.transactions,
    {
      id: 'txn_0002',
      date: '2027-05-01',
      description: 'LATER',
      debit: 10,
      credit: null,
      balance: 1,
      category: 'other',
      confidence: 0.5,
    },
    {
      id: 'txn_0003',
      date: 'pending',
      description: 'NOT YET',
      debit: 10,
      credit: null,
      balance: 1,
      category: 'other',
      confidence: 0.5,
    },
    {
      id: 'txn_0004',
      date: '2026-02-30',
      description: 'NO DAY',
      debit: 10,
      credit: null,
      balance: 1,
      category: 'other',
      confidence: 0.5,
    },
  ],
};

const CONSENTS = {
  data: [
    {
      id: CONSENT_ID,
      report_id: ID,
      scopes: ['identity'],
      grantee_label: 'Nabil Bank loan desk',
      status: 'active',
      created_at: '2026-05-20T08:30:00Z',
      expires_at: '2026-06-19T08:30:00Z',
      revoked_at: null,
    },
  ],
};

const transactions = (body: unknown = TRANSACTIONS, query = '') =>
  new FakeService().expect('GET', `${TRANSACTIONS_PATH}${query}`, { body });

describe('--calendar bs in tables', () => {
  it.each(MODES)('transactions: the date in BS under DATE (BS), for $mode', async ({ tty }) => {
    const result = await svc(['reports', 'transactions', ID, '--calendar', 'bs'], {
      tty,
      service: transactions(),
      columns: 120,
    });
    expect(result.code, result.stderr).toBe(0);
    const out = plain(result.stdout);
    if (tty) {
      expect(out).toMatch(/│ DATE \(BS\) +│ DESCRIPTION/);
      expect(out).toMatch(/│ 2082-12-11 +│ SALARY …/);
      expect(out).not.toContain('2026-03-25');
    } else {
      expect(result.stdout).toBe(
        'DATE (BS)\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY\tID\tCONFIDENCE\n2082-12-11\tSALARY …\t\t72000\t145200\tsalary\ttxn_0001\t0.95\n',
      );
    }
  });

  it.each(MODES)(
    'without it (ad, the default) the table is as sent, its header unmarked, for $mode',
    async ({ tty }) => {
      const result = await svc(['reports', 'transactions', ID], {
        tty,
        service: transactions(),
        columns: 120,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('2026-03-25');
      expect(result.stdout).not.toContain('(BS)');
    },
  );

  it('a date past the table stays in AD, marked AD; a text that is no date stays as sent', async () => {
    const result = await svc(['reports', 'transactions', ID, '--calendar', 'bs'], {
      service: transactions(MANY),
    });
    expect(result.code, result.stderr).toBe(0);
    const dates = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t')[0]);
    expect(dates).toEqual(['DATE (BS)', '2082-12-11', '2027-05-01 AD', 'pending', '2026-02-30']);
  });

  it('a column with no date keeps its header unmarked', async () => {
    const body = { count: 1, transactions: [{ ...TRANSACTIONS.transactions[0], date: 'pending' }] };
    const result = await svc(['reports', 'transactions', ID, '--calendar', 'bs'], {
      service: transactions(body),
    });
    expect(result.stdout.split('\n')[0]).toMatch(/^DATE\tDESCRIPTION/);
    expect(result.stdout.split('\n')[1]).toMatch(/^pending\t/);
  });

  it.each(MODES)(
    'consents list: created_at and expires_at in BS, each keeping its time, for $mode',
    async ({ tty }) => {
      const service = new FakeService().expect('GET', '/v1/consents', { body: CONSENTS });
      const result = await svc(['consents', 'list', '--calendar', 'bs'], {
        tty,
        service,
        columns: 200,
      });
      expect(result.code, result.stderr).toBe(0);
      const out = plain(result.stdout).replaceAll('\u00a0', ' ');
      expect(out).toContain('2083-02-06 08:30 UTC');
      expect(out).toContain('2083-03-05 08:30 UTC');
      expect(out).not.toContain('2026-05-20');
      expect(out).toMatch(/CREATED[^\n]*\(BS\)/);
    },
  );

  it.each(MODES)(
    'reports get: the statement period and created_at in BS, labels marked, for $mode',
    async ({ tty }) => {
      const service = new FakeService().expect('GET', `/v1/reports/${ID}`, {
        body: documented('report'),
      });
      const result = await svc(['reports', 'get', ID, '--calendar', 'bs'], {
        tty,
        service,
        columns: 120,
      });
      expect(result.code, result.stderr).toBe(0);
      const out = plain(result.stdout).replaceAll('\u00a0', ' ');
      if (tty) {
        expect(out).toMatch(/^Period \(BS\) +2082-09-17 → 2082-12-17$/m);
        expect(out).toMatch(/^Created \(BS\) +2083-02-13 10:23 UTC/m);
      } else {
        expect(out).toMatch(/^period \(BS\)\t2082-09-17 → 2082-12-17$/m);
        expect(out).toMatch(/^created_at \(BS\)\t2083-02-13 10:23 UTC$/m);
      }
      // A month (YYYY-MM) stays as sent.
      expect(out).not.toMatch(/2082-12\b(?!-)/);
    },
  );
});

describe('--calendar bs in machine formats', () => {
  it.each(MODES)('--json is the reply as received, for $mode', async ({ tty }) => {
    const bs = await svc(['reports', 'transactions', ID, '--calendar', 'bs', '--json'], {
      tty,
      service: transactions(),
    });
    const ad = await svc(['reports', 'transactions', ID, '--json'], {
      tty,
      service: transactions(),
    });
    expect(bs.code, bs.stderr).toBe(0);
    expect(bs.stdout).toBe(ad.stdout);
    expect(bs.stdout).not.toContain('2082');
  });

  it.each(MODES)(
    '-o csv keeps the date and adds date_bs right after it, for $mode',
    async ({ tty }) => {
      const result = await svc(['reports', 'transactions', ID, '--calendar', 'bs', '-o', 'csv'], {
        tty,
        service: transactions(MANY),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.split('\r\n').slice(0, 5)).toEqual([
        'id,date,date_bs,description,debit,credit,balance,category,confidence',
        'txn_0001,2026-03-25,2082-12-11,SALARY …,,72000,145200,salary,0.95',
        'txn_0002,2027-05-01,,LATER,10,,1,other,0.5',
        'txn_0003,pending,,NOT YET,10,,1,other,0.5',
        'txn_0004,2026-02-30,,NO DAY,10,,1,other,0.5',
      ]);
    },
  );

  it.each(MODES)(
    '-o ndjson keeps the date and adds date_bs right after it (null past the table), for $mode',
    async ({ tty }) => {
      const result = await svc(
        ['reports', 'transactions', ID, '--calendar', 'bs', '-o', 'ndjson'],
        { tty, service: transactions(MANY) },
      );
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(
        '{"id":"txn_0001","date":"2026-03-25","date_bs":"2082-12-11","description":"SALARY …","debit":null,"credit":72000,"balance":145200,"category":"salary","confidence":0.95}',
      );
      expect(lines[1]).toContain('"date":"2027-05-01","date_bs":null,');
      expect(lines[2]).toContain('"date":"pending","description"');
    },
  );

  it('-o ndjson: a date-time keeps its time as sent; numbers keep every digit', async () => {
    const raw = '{"data":[{"id":"x","created_at":"2026-05-20T08:30:00Z","amount":125000.50}]}';
    const service = new FakeService().expect('GET', '/v1/consents', { raw });
    const result = await svc(['consents', 'list', '--calendar', 'bs', '-o', 'ndjson'], { service });
    expect(result.stdout).toBe(
      '{"id":"x","created_at":"2026-05-20T08:30:00Z","created_at_bs":"2083-02-06T08:30:00Z","amount":125000.50}\n',
    );
  });

  it("reports get -o csv: the report's transactions, date_bs after date", async () => {
    const service = new FakeService().expect('GET', `/v1/reports/${ID}`, {
      body: documented('report'),
    });
    const result = await svc(['reports', 'get', ID, '--calendar', 'bs', '-o', 'csv'], { service });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split('\r\n')[0]).toContain('date,date_bs');
  });
});

describe('where the calendar comes from: --calendar > SVC_CALENDAR > the profile > ad', () => {
  const configDir = () => mkdtempSync(join(tmpdir(), 'svc-calendar-'));

  it('SVC_CALENDAR=bs, and --calendar ad over it', async () => {
    const env = { SVC_CALENDAR: 'bs' };
    const bs = await svc(['reports', 'transactions', ID], { env, service: transactions() });
    expect(bs.stdout).toMatch(/^DATE \(BS\)\t/);
    const ad = await svc(['reports', 'transactions', ID, '--calendar', 'ad'], {
      env,
      service: transactions(),
    });
    expect(ad.stdout).toMatch(/^DATE\t/);
  });

  it.each(MODES)(
    'svc config set calendar bs, then tables in BS; a value svc does not know is exit 2, for $mode',
    async ({ tty }) => {
      const env = { SVC_CONFIG_DIR: configDir() };
      expect((await svc(['config', 'set', 'calendar', 'bs'], { tty, env })).code).toBe(0);
      expect((await svc(['config', 'get', 'calendar'], { tty, env })).stdout).toBe('bs\n');
      const bs = await svc(['reports', 'transactions', ID], { tty, env, service: transactions() });
      expect(plain(bs.stdout)).toContain('2082-12-11');
      const overridden = await svc(['reports', 'transactions', ID], {
        tty,
        env: { ...env, SVC_CALENDAR: 'ad' },
        service: transactions(),
      });
      expect(plain(overridden.stdout)).toContain('2026-03-25');
      expectFailure(
        await svc(['config', 'set', 'calendar', 'nepali'], { tty, env }),
        2,
        'error: calendar takes ad or bs (svc help calendar), not "nepali"',
      );
    },
  );

  it('SVC_CALENDAR of another value is exit 2, nothing sent', async () => {
    expectFailure(
      await svc(['reports', 'transactions', ID], { env: { SVC_CALENDAR: 'BS' } }),
      2,
      'error: SVC_CALENDAR takes ad or bs, not "BS"',
    );
  });

  it('--calendar of another value is exit 2, nothing sent', async () => {
    const result = await svc(['reports', 'transactions', ID, '--calendar', 'nepali']);
    expectFailure(result, 2, /^error: --calendar takes one of ad, bs, not "nepali"/);
  });
});

describe('--since and --until with --calendar bs', () => {
  it.each(MODES)('take BS dates and send their AD dates, for $mode', async ({ tty }) => {
    const service = transactions(TRANSACTIONS, '?since=2024-07-16&until=2025-07-16');
    const result = await svc(
      [
        'reports',
        'transactions',
        ID,
        '--calendar',
        'bs',
        '--since',
        '2081-04-01',
        '--until',
        '2082-03-32',
      ],
      { tty, service, columns: 120 },
    );
    expect(result.code, result.stderr).toBe(0);
    if (tty)
      expect(plain(result.stdout)).toContain('Filters: since 2081-04-01 BS, until 2082-03-32 BS.');
  });

  it.each([
    [
      '2081-13-01',
      'error: --since 2081-13-01 is no date of the Bikram Sambat calendar: months run from 01 to 12',
    ],
    [
      '2081-00-10',
      'error: --since 2081-00-10 is no date of the Bikram Sambat calendar: months run from 01 to 12',
    ],
    [
      '2081-01-32',
      'error: --since 2081-01-32 is no date of the Bikram Sambat calendar: 2081-01 (Baisakh 2081) has days 01 to 31',
    ],
    // Mangsir has 29 days in 2082, Asar 31 in 2081 and 32 in 2082 (the table's, checked in
    // test/unit/bikram-sambat.test.ts).
    [
      '2082-08-30',
      'error: --since 2082-08-30 is no date of the Bikram Sambat calendar: 2082-08 (Mangsir 2082) has days 01 to 29',
    ],
    [
      '2081-03-32',
      'error: --since 2081-03-32 is no date of the Bikram Sambat calendar: 2081-03 (Asar 2081) has days 01 to 31',
    ],
    [
      '2082-03-33',
      'error: --since 2082-03-33 is no date of the Bikram Sambat calendar: 2082-03 (Asar 2082) has days 01 to 32',
    ],
    [
      '2081-05-00',
      'error: --since 2081-05-00 is no date of the Bikram Sambat calendar: 2081-05 (Bhadra 2081) has days 01 to 31',
    ],
    [
      '2084-01-01',
      `error: --since 2084-01-01 is outside the Bikram Sambat years svc knows: ${RANGE_TEXT}`,
    ],
    [
      '1999-12-30',
      `error: --since 1999-12-30 is outside the Bikram Sambat years svc knows: ${RANGE_TEXT}`,
    ],
    [
      '2081-4-1',
      'error: --since takes a Bikram Sambat date written YYYY-MM-DD (e.g. 2083-02-08), not "2081-4-1"',
    ],
  ])('--since %s is exit 2, nothing sent', async (date, message) => {
    for (const { tty } of MODES)
      expectFailure(
        await svc(['reports', 'transactions', ID, '--calendar', 'bs', '--since', date], { tty }),
        2,
        message,
      );
  });

  it('--since after --until is exit 2, in the dates given', async () => {
    expectFailure(
      await svc([
        'reports',
        'transactions',
        ID,
        '--calendar',
        'bs',
        '--since',
        '2082-02-01',
        '--until',
        '2082-01-01',
      ]),
      2,
      'error: --since 2082-02-01 comes after --until 2082-01-01: the range would hold no day',
    );
  });

  it('without bs, a BS-only day is refused as an AD date', async () => {
    expectFailure(
      await svc(['reports', 'transactions', ID, '--since', '2081-03-32']),
      2,
      'error: --since 2081-03-32 is no date of the calendar: 2081-03 has days 01 to 31',
    );
  });
});

describe('--fy', () => {
  it.each(MODES)(
    '--fy 2081/82 sends 2024-07-16 to 2025-07-16, in either calendar, for $mode',
    async ({ tty }) => {
      for (const calendar of ['ad', 'bs']) {
        const service = transactions(TRANSACTIONS, '?since=2024-07-16&until=2025-07-16');
        const result = await svc(
          ['reports', 'transactions', ID, '--fy', '2081/82', '--calendar', calendar],
          { tty, service },
        );
        expect(result.code, result.stderr).toBe(0);
      }
    },
  );

  it('the first and last fiscal years of the table', async () => {
    await expect(
      svc(['reports', 'transactions', ID, '--fy', '2000/01'], {
        service: transactions(TRANSACTIONS, '?since=1943-07-16&until=1944-07-15'),
      }),
    ).resolves.toMatchObject({ code: 0 });
    await expect(
      svc(['reports', 'transactions', ID, '--fy', '2082/83'], {
        service: transactions(TRANSACTIONS, '?since=2025-07-17&until=2026-07-16'),
      }),
    ).resolves.toMatchObject({ code: 0 });
  });

  it.each([
    [
      ['--fy', '2081/82', '--since', '2081-05-01'],
      'error: --fy sets both ends of the range; it cannot be given with --since',
    ],
    [
      ['--fy', '2081/82', '--until', '2081-05-01'],
      'error: --fy sets both ends of the range; it cannot be given with --until',
    ],
    [
      ['--fy', '2081-82'],
      'error: --fy takes a Bikram Sambat fiscal year written YYYY/YY (e.g. 2081/82), not "2081-82"',
    ],
    [
      ['--fy', '2081/2082'],
      'error: --fy takes a Bikram Sambat fiscal year written YYYY/YY (e.g. 2081/82), not "2081/2082"',
    ],
    [
      ['--fy', '2081/83'],
      'error: --fy 2081/83 is no fiscal year: its years must follow each other, as 2081/82',
    ],
    [
      ['--fy', '2099/00'],
      `error: --fy 2099/00 is outside the Bikram Sambat years svc knows: ${RANGE_TEXT}, fiscal years 2000/01 to 2082/83`,
    ],
    [
      ['--fy', '2083/84'],
      `error: --fy 2083/84 is outside the Bikram Sambat years svc knows: ${RANGE_TEXT}, fiscal years 2000/01 to 2082/83`,
    ],
  ])('%j is exit 2, nothing sent', async (args, message) => {
    for (const { tty } of MODES)
      expectFailure(await svc(['reports', 'transactions', ID, ...args], { tty }), 2, message);
  });
});

describe('svc data months with --calendar bs: AD months, the datasets being monthly by AD month', () => {
  const SERIES = '/v1/data/cbank/cpi/series';
  const POINTS = {
    data: { indicator: 'PCPI_IX', points: [{ month: '2024-07', value: 101.5 }] },
    meta: { source: 'central bank', attribution: 'Source: central bank.' },
  };
  const series = (query: string) =>
    new FakeService().expect('GET', `${SERIES}?${query}`, { body: POINTS });

  it.each([
    [
      ['--from', '2081-04'],
      'error: --from 2081-04 is a Bikram Sambat month (Shrawan 2081 is 2024-07-16 to 2024-08-16, in the AD months 2024-07 and 2024-08); svc data months are AD: use --from 2024-07',
      'For a Nepali fiscal year, give --fy 2081/82.',
    ],
    [
      ['--from', '2024-01', '--to', '2082-04'],
      'error: --to 2082-04 is a Bikram Sambat month (Shrawan 2082 is 2025-07-17 to 2025-08-16, in the AD months 2025-07 and 2025-08); svc data months are AD: use --to 2025-08',
      'For a Nepali fiscal year, give --fy 2082/83.',
    ],
    [
      ['--from', '2082-01'],
      'error: --from 2082-01 is a Bikram Sambat month (Baisakh 2082 is 2025-04-14 to 2025-05-14, in the AD months 2025-04 and 2025-05); svc data months are AD: use --from 2025-04',
      'For a Nepali fiscal year, give --fy 2081/82.',
    ],
  ])(
    'series %j: a BS month is exit 2, naming the AD months it spans, nothing sent',
    async (args, message, hint) => {
      for (const { tty } of MODES) {
        const result = await svc(
          ['data', 'series', 'cpi', 'PCPI_IX', '--calendar', 'bs', ...args],
          { tty },
        );
        expectFailure(result, 2, message);
        expect(unwrapped(result.stderr).split('\n')[1]).toBe(hint);
      }
    },
  );

  it.each(MODES)(
    'snapshot --month 2081-04 is exit 2, naming both AD months, for $mode',
    async ({ tty }) => {
      const result = await svc(['data', 'snapshot', '--month', '2081-04'], {
        tty,
        env: { SVC_CALENDAR: 'bs' },
      });
      expectFailure(
        result,
        2,
        'error: --month 2081-04 is a Bikram Sambat month (Shrawan 2081 is 2024-07-16 to 2024-08-16, in the AD months 2024-07 and 2024-08); svc data months are AD: use --month 2024-07 or --month 2024-08',
      );
    },
  );

  it.each(MODES)(
    'an AD month is sent as given with bs, next January too (a --to that ends this year), for $mode',
    async ({ tty }) => {
      const result = await svc(
        [
          'data',
          'series',
          'cpi',
          'PCPI_IX',
          '--calendar',
          'bs',
          '--from',
          '2024-07',
          '--to',
          '2027-01',
          '--json',
        ],
        {
          tty,
          service: series('from=2024-07&indicator=PCPI_IX&to=2027-01'),
        },
      );
      expect(result.code, result.stderr).toBe(0);
    },
  );

  it.each(MODES)(
    'without bs, a month is an AD month as before, whatever its year, for $mode',
    async ({ tty }) => {
      const result = await svc(
        ['data', 'series', 'cpi', 'PCPI_IX', '--from', '2081-04', '--json'],
        { tty, service: series('from=2081-04&indicator=PCPI_IX') },
      );
      expect(result.code, result.stderr).toBe(0);
    },
  );

  it.each(MODES)(
    'series --fy 2081/82 asks for the AD months 2024-07 to 2025-07 (to=2025-08, exclusive), in either calendar, and says so on stderr, for $mode',
    async ({ tty }) => {
      for (const calendar of ['ad', 'bs']) {
        const result = await svc(
          ['data', 'series', 'cpi', 'PCPI_IX', '--fy', '2081/82', '--calendar', calendar, '--json'],
          { tty, service: series('from=2024-07&indicator=PCPI_IX&to=2025-08') },
        );
        expect(result.code, result.stderr).toBe(0);
        expect(JSON.parse(plain(result.stdout))).toEqual(POINTS);
        // A terminal wraps the line to its width.
        expect(plain(result.stderr).replace(/\s+/g, ' ')).toBe(
          '--fy 2081/82 (2024-07-16 to 2025-07-16) selects the AD months 2024-07 to 2025-07, the first and the last only in part. ',
        );
      }
    },
  );

  it.each([
    [
      ['--fy', '2081/82', '--from', '2024-07'],
      'error: --fy sets both ends of the range; it cannot be given with --from',
    ],
    [
      ['--fy', '2081/82', '--to', '2025-08'],
      'error: --fy sets both ends of the range; it cannot be given with --to',
    ],
    [
      ['--fy', '2081-82'],
      'error: --fy takes a Bikram Sambat fiscal year written YYYY/YY (e.g. 2081/82), not "2081-82"',
    ],
    [
      ['--fy', '2083/84'],
      `error: --fy 2083/84 is outside the Bikram Sambat years svc knows: ${RANGE_TEXT}, fiscal years 2000/01 to 2082/83`,
    ],
  ])('series %j is exit 2, nothing sent', async (args, message) => {
    for (const { tty } of MODES)
      expectFailure(await svc(['data', 'series', 'cpi', 'PCPI_IX', ...args], { tty }), 2, message);
  });
});

describe('charts with --calendar bs: the as-of date in BS, marked (BS); the months AD, marked AD', () => {
  const SERIES = {
    data: {
      indicator: 'PCPI_IX',
      label: 'CPI',
      points: Array.from({ length: 12 }, (_, i) => ({
        month: `2024-${String(i + 1).padStart(2, '0')}`,
        value: 100 + i + (i === 5 ? 9 : 0),
      })),
    },
    meta: { source: 'central bank', attribution: 'Source: central bank.', as_of: '2026-03-31' },
  };
  const series = () =>
    new FakeService().expect('GET', '/v1/data/cbank/cpi/series?indicator=PCPI_IX', {
      body: SERIES,
    });
  const INCOME = {
    report_id: ID,
    monthly_credits: ['2026-01', '2026-02', '2026-03'].map((month, i) => ({
      month,
      total_credits: 70000 + i * 5000,
    })),
  };
  const income = () =>
    new FakeService().expect('GET', `/v1/reports/${ID}/income`, { body: INCOME });

  it.each(MODES)('data series --chart, for $mode', async ({ tty }) => {
    for (const calendar of ['ad', 'bs'] as const) {
      const result = await svc(
        ['data', 'series', 'cpi', 'PCPI_IX', '--chart', '--calendar', calendar],
        { tty, service: series(), columns: 80 },
      );
      expect(result.code, result.stderr).toBe(0);
      const out = plain(result.stdout);
      const ad = calendar === 'bs' ? ' AD' : '';
      expect(out.split('\n')[0]).toBe(`CPI · PCPI_IX · 2024-01${ad} to 2024-12${ad}`);
      expect(out).toMatch(new RegExp(`^ +2024-01${ad} +2024-12${ad}$`, 'm'));
      expect(out).toContain(`max 114.00 (2024-06${ad})`);
      expect(out).toContain(`min 100.00 (2024-01${ad})`);
      // The as-of line: under the chart on a terminal, on stderr in a pipe.
      const asOf = `As of ${calendar === 'bs' ? '2082-12-17 (BS)' : '2026-03-31'} · central bank`;
      expect(tty ? out : result.stderr).toContain(asOf);
      expect(result.stdout + result.stderr).not.toContain(
        calendar === 'bs' ? '2026-03-31' : '(BS)',
      );
    }
  });

  it.each(MODES)('reports income --chart, for $mode', async ({ tty }) => {
    for (const calendar of ['ad', 'bs'] as const) {
      const result = await svc(['reports', 'income', ID, '--chart', '--calendar', calendar], {
        tty,
        service: income(),
        columns: 80,
      });
      expect(result.code, result.stderr).toBe(0);
      const out = plain(result.stdout);
      const ad = calendar === 'bs' ? ' AD' : '';
      expect(out.split('\n')[0]).toBe(`Monthly credits of ${ID} · 2026-01${ad} to 2026-03${ad}`);
      expect(out).toMatch(new RegExp(`^ +2026-01${ad} +2026-03${ad}$`, 'm'));
      expect(out).toContain(`(2026-03${ad})`);
    }
  });
});

describe('svc help calendar', () => {
  it.each(MODES)(
    'explains both calendars and the fiscal year, with examples, for $mode',
    async ({ tty }) => {
      const result = await svc(['help', 'calendar'], { tty });
      expect(result.code, result.stderr).toBe(0);
      const text = plain(result.stdout).replace(/\s+/g, ' ');
      for (const words of [
        '--calendar ad',
        '--calendar bs',
        'DATE (BS)',
        '<field>_bs',
        'SVC_CALENDAR',
        '--fy 2081/82 is 2081-04-01 to 2082-03-32 BS, 2024-07-16 to 2025-07-16 AD',
        'svc data series --fy 2081/82 asks for the AD months 2024-07 to 2025-07',
        'svc config set calendar bs',
      ]) {
        expect(text).toContain(words);
      }
      expect(text).toContain(RANGE_TEXT);
    },
  );

  it("names the table's years as the table has them", () => {
    expect(BS_RANGE_TEXT).toBe(RANGE_TEXT);
  });
});
