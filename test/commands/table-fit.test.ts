// Whole commands on a narrow terminal, in-process: every designed view (and the generic ones of
// recurring and counterparties) at 80 and at 60 columns, with replies of the documented shapes and
// of the mock's richer ones. No line is wider than the terminal but one that holds a single value
// wider than it (never split); ids, amounts and terminal numbers appear whole on one line. A list
// is a table of its default columns at 80 and at 60 (docs/reference/output.md, "Tables"); -o wide
// shows every column, as one card a row where no narrowing fits. In a pipe the output is the same
// whatever the width. Widths are measured here: colour codes stripped, code points counted, East
// Asian wide characters as two.
import { describe, expect, it } from 'vitest';

import { documented } from '../support/fixtures.js';
import {
  type FakeReply,
  FakeService,
  type InProcessResult,
  type SeenRequest,
  svc,
} from '../support/in-process.js';

const ID = 'rpt_e8699f830adc84b8';

const RECURRING = {
  report_id: ID,
  currency: 'NPR',
  inflow_streams: [
    {
      counterparty: 'Leapfrog Technology Pvt Ltd',
      category: 'salary',
      cadence: 'monthly',
      average_amount: 125000,
      occurrences: 6,
      status: 'MATURE',
      is_active: true,
      last_date: '2026-01-10',
      next_date: '2026-02-10',
    },
    {
      counterparty: 'NABIL Bank Interest',
      category: 'interest',
      cadence: 'quarterly',
      average_amount: 2098.77,
      occurrences: 2,
      status: 'EARLY_DETECTION',
      is_active: true,
      last_date: '2026-01-08',
      next_date: '2026-04-08',
    },
  ],
  outflow_streams: [
    {
      counterparty: 'Krishna Prasad Joshi',
      category: 'rent',
      cadence: 'monthly',
      average_amount: 28000,
      occurrences: 6,
      status: 'MATURE',
      is_active: true,
      last_date: '2025-12-18',
      next_date: '2026-01-18',
    },
    {
      counterparty: 'WorldLink Communications',
      category: 'subscription',
      cadence: 'monthly',
      average_amount: 1800,
      occurrences: 6,
      status: 'MATURE',
      is_active: true,
      last_date: '2025-12-28',
      next_date: '2026-01-28',
    },
  ],
};

const statement = (
  id: string,
  report: string,
  holder: string,
  hash: string,
  revoked: string | null = null,
) => ({
  statement_id: id,
  status: revoked ? 'revoked' : 'issued',
  report_id: report,
  account_holder: holder,
  content_hash: hash,
  issued_at: '2026-02-10T10:30:00Z',
  revoked_at: revoked,
  verify_url: `https://svc.test/verify/${id}`,
});
const STATEMENTS = {
  statements: [
    statement(
      'stmt_edd965552fcfdf1d',
      'rpt_f2f26e05bdcf42c7',
      'Bishnu Maya Rai',
      '39203d1316de0513390ca0624b4511ba427ae661ec939a4ec2e0c23fcc2eaedc',
    ),
    statement(
      'stmt_0c73d482daf58756',
      'rpt_8074807054f108e7',
      'Mohammad Irfan Ansari',
      '3c5e5e7d95897a94c1beaddab0fdb4e369b024728a16b6b0df87705e5d442169',
      '2026-06-20T14:00:00Z',
    ),
  ],
};

const COUNTERPARTIES = {
  report_id: ID,
  currency: 'NPR',
  total_inflow: 898676.55,
  total_outflow: 745256.8,
  by_type: [
    { type: 'merchant', inflow: 0, outflow: 100727.8, inflow_count: 0, outflow_count: 24 },
    { type: 'institution', inflow: 754197.55, outflow: 285300, inflow_count: 8, outflow_count: 8 },
  ],
  top_merchants: [
    {
      name: 'Nepal Oil Corporation Pump',
      type: 'merchant',
      inflow: 0,
      outflow: 17522.05,
      transaction_count: 5,
    },
    {
      name: 'WorldLink Communications',
      type: 'merchant',
      inflow: 0,
      outflow: 10800,
      transaction_count: 6,
    },
  ],
};

const REPORTS = {
  data: [
    {
      report_id: 'rpt_9809bacb02f7a90e',
      status: 'processing',
      bank_code: 'SIDDHARTHA',
      created_at: '2026-11-21T10:50:38Z',
    },
    {
      report_id: 'rpt_ee5ae9b58dd7dad7',
      status: 'failed',
      bank_code: 'NIMB',
      created_at: '2026-10-26T17:09:26Z',
    },
  ],
  has_more: false,
};

/** The mock's transactions: more columns than 80 can box. */
const TRANSACTIONS = {
  count: 74,
  transactions: [
    {
      id: 'txn_0001',
      date: '2025-07-18',
      description: 'FT TO KRISHNA PRASAD JOSHI 342826680 MOB',
      debit: 28000,
      credit: null,
      balance: 60566.46,
      category: 'transfer',
      confidence: 0.95,
    },
    {
      id: 'txn_0004',
      date: '2025-07-28',
      description: 'MPAY 9123879296770097,136979793,MOB',
      debit: 1800,
      credit: null,
      balance: 37429.76,
      category: 'utility',
      confidence: 0.95,
    },
    {
      id: 'txn_0008',
      date: '2025-08-10',
      description: 'SALARY LEAPFROG TECHNOLOGY PVT LTD AUG 2025',
      debit: null,
      credit: 125000,
      balance: 143794,
      category: 'salary',
      confidence: 0.95,
    },
  ],
};

const SCORE = {
  score: 813,
  band: 'excellent',
  factors: [
    {
      factor: 'income_stability',
      impact: 98,
      detail: 'Income stability 99/100 from month to month.',
    },
    {
      factor: 'savings_buffer',
      impact: 51,
      detail: 'The average daily balance covers 1.3 months of spending.',
    },
    {
      factor: 'emi_load',
      impact: -16,
      detail: 'EMIs take 33.9% of a monthly income of 124760.26.',
    },
  ],
};

const META = {
  source: 'Nepal Rastra Bank',
  source_url: 'https://www.nrb.org.np/category/consumer-price-index/',
  attribution:
    'Source: Nepal Rastra Bank — Consumer Price Index (SDMX feed). Republished by svc with attribution.',
  as_of: '2026-03-31',
};

/**
 * The merchant directory's answer: a terminal starting with 9 or 1 is known, as is a name saying
 * Store.
 */
function merchants(request: SeenRequest): FakeReply {
  const body = request.json as { terminals?: string[]; names?: string[] };
  const known: Record<string, { merchant: string; terminal: string }> = {
    '9756038350856888': { merchant: 'Himalayan Interiors', terminal: '9756038350856888' },
    '1478927208396712': { merchant: 'Joshi Tarkari Pasal', terminal: '1478927208396712' },
    'Kanchenjunga Mountain Departmental Store': {
      merchant: 'Kanchenjunga Mountain Departmental Store',
      terminal: '4479028991229775',
    },
  };
  const results = [...(body.terminals ?? []), ...(body.names ?? [])].map((input) => {
    const found = known[input];
    return found
      ? { input, matched: true, ...found, mcc: '5411', category: 'groceries', city: 'Kathmandu' }
      : { input, matched: false };
  });
  return {
    body: {
      data: { count: results.length, matched: results.filter((r) => r.matched).length, results },
      meta: { source: 'directory' },
    },
  };
}

interface Case {
  name: string;
  argv: string[];
  method?: string;
  path: string;
  reply: FakeReply | ((request: SeenRequest) => FakeReply);
  stdin?: string;
  /** What must appear whole, on one line, at both widths. */
  whole: string[];
  /** What the default columns leave out, and -o wide shows whole, on one line, at both widths. */
  wide?: string[];
  /** Widths at which the (first) table must be cards, and at which it must stay a table. */
  cardsAt?: number[];
  tableAt?: number[];
}

const CASES: Case[] = [
  {
    name: 'recurring',
    argv: ['recurring', ID],
    path: `/v1/reports/${ID}/recurring`,
    reply: { body: RECURRING },
    whole: [ID, '1,25,000.00', '2,098.77'],
    // The next date is left out at 60 columns (and said so), the last date shown with -o wide
    // alone.
    wide: ['2026-02-10', '2026-01-10'],
    tableAt: [80, 60],
  },
  {
    name: 'statements list',
    argv: ['statements', 'list'],
    path: '/v1/statements',
    reply: { body: STATEMENTS },
    whole: ['https://svc.test/verify/stmt_edd965552fcfdf1d'],
    wide: [
      'stmt_edd965552fcfdf1d',
      'stmt_0c73d482daf58756',
      'rpt_f2f26e05bdcf42c7',
      'rpt_8074807054f108e7',
      '2026-06-20 14:00 UTC',
      '39203d1316de0513390ca0624b4511ba427ae661ec939a4ec2e0c23fcc2eaedc',
    ],
    tableAt: [80, 60],
  },
  {
    name: 'reports counterparties',
    argv: ['reports', 'counterparties', ID],
    path: `/v1/reports/${ID}/counterparties`,
    reply: { body: COUNTERPARTIES },
    whole: [ID, 'NPR 8,98,676.55', '7,54,197.55', '17,522.05'],
    tableAt: [80, 60],
  },
  {
    name: 'reports list',
    argv: ['reports', 'list'],
    path: '/v1/reports',
    reply: { body: REPORTS },
    whole: ['rpt_9809bacb02f7a90e', 'rpt_ee5ae9b58dd7dad7'],
    tableAt: [80, 60],
  },
  {
    name: 'reports transactions',
    argv: ['reports', 'transactions', ID],
    path: `/v1/reports/${ID}/transactions`,
    reply: { body: TRANSACTIONS },
    whole: ['2025-07-18', '28,000.00', '1,25,000.00'],
    wide: ['txn_0001', 'txn_0004', 'txn_0008', '1,43,794.00', '9123879296770097'],
    tableAt: [80, 60],
  },
  {
    name: 'reports transactions (documented)',
    argv: ['reports', 'transactions', ID],
    path: `/v1/reports/${ID}/transactions`,
    reply: { body: documented('transactions') },
    whole: ['72,000.00'],
    wide: ['txn_0001', '1,45,200.00'],
    tableAt: [80, 60],
  },
  {
    name: 'reports get',
    argv: ['reports', 'get', 'cl_abc123'],
    path: '/v1/reports/cl_abc123',
    reply: { body: documented('report') },
    whole: ['cl_abc123', 'NPR 1,45,200.00'],
  },
  {
    name: 'reports identity',
    argv: ['reports', 'identity', ID],
    path: `/v1/reports/${ID}/identity`,
    reply: { body: documented('identity') },
    whole: ['09810017508391', 'RAM PRASAD SHARMA'],
  },
  {
    name: 'reports income',
    argv: ['reports', 'income', ID],
    path: `/v1/reports/${ID}/income`,
    reply: { body: documented('income') },
    whole: ['72,000.00', '85,000.00'],
    tableAt: [80, 60],
  },
  {
    name: 'reports balance',
    argv: ['reports', 'balance', ID],
    path: `/v1/reports/${ID}/balance`,
    reply: { body: documented('balance') },
    whole: ['1,45,200.00', '12,450.30'],
  },
  {
    name: 'reports liabilities',
    argv: ['reports', 'liabilities', ID],
    path: `/v1/reports/${ID}/liabilities`,
    reply: { body: documented('liabilities') },
    whole: ['63,000.00', '21,000.00'],
    tableAt: [80, 60],
  },
  {
    name: 'reports score',
    argv: ['reports', 'score', ID],
    path: `/v1/reports/${ID}/score`,
    reply: { body: SCORE },
    whole: ['813 / 1000', '+98', '-16'],
    wide: ['124760.26.'],
    tableAt: [80, 60],
  },
  {
    name: 'reports verify',
    argv: ['reports', 'verify', ID],
    path: `/v1/reports/${ID}/verify`,
    reply: { body: documented('verify') },
    whole: ['Balance chain integrity'],
    tableAt: [80, 60],
  },
  {
    name: 'enrich',
    argv: ['enrich', '--file', '-'],
    method: 'POST',
    path: '/v1/enrich',
    reply: { body: documented('enrich') },
    stdin:
      'date,description,credit,debit,balance\n2026-03-25,SALARY LEAPFROG MAR 2026,72000,,145200\n',
    whole: ['72,000.00'],
    wide: ['1,45,200.00'],
    tableAt: [80, 60],
  },
  {
    name: 'usage',
    argv: ['usage'],
    path: '/v1/usage',
    reply: {
      body: { ...documented('usage'), data_api: { quota: 2500, used: 318, remaining: 2182 } },
    },
    whole: ['2026-06-01 00:00 UTC', '2,182'],
  },
  {
    name: 'data latest cpi',
    argv: ['data', 'latest', 'cpi'],
    path: '/v1/data/cbank/cpi/latest',
    reply: { body: { data: documented('cpi-latest'), meta: META } },
    whole: [
      'PCPI_IX',
      '106.96',
      '2026-03-31',
      'https://www.nrb.org.np/category/consumer-price-index/',
    ],
    tableAt: [80, 60],
  },
  {
    name: 'merchants resolve',
    argv: [
      'merchants',
      'resolve',
      '9756038350856888',
      '1478927208396712',
      '--name',
      'Kanchenjunga Mountain Departmental Store',
      '--name',
      'NABIL BANK LTD QR PAYMENT TO HIMALAYAN INTERIORS',
    ],
    method: 'POST',
    path: '/v1/merchants/resolve',
    reply: merchants,
    whole: ['9756038350856888', '1478927208396712', '4479028991229775'],
    tableAt: [80, 60],
  },
];

const ANSI = /\u001b\[[0-9;]*m/g;
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;
const width = (line: string) =>
  [...line.replace(ANSI, '')].reduce((n, char) => n + (WIDE.test(char) ? 2 : 1), 0);
const screen = (text: string) => text.replace(ANSI, '').trimEnd().split('\n');

function run(
  c: Case,
  options: { tty: boolean; columns: number },
  ...flags: string[]
): Promise<InProcessResult> {
  const service = new FakeService().expect(
    c.method ?? 'GET',
    (request) => request.url.pathname === c.path,
    c.reply,
  );
  return svc([...c.argv, ...flags], { ...options, service, stdin: c.stdin });
}

/**
 * A card: a header in capitals, two spaces or more, its value. A table: box drawing, or the
 * streamed table's header line.
 */
const isCards = (lines: readonly string[]) =>
  !lines.some((line) => /[│┌]/.test(line) || /^INPUT +TERMINAL/.test(line)) &&
  lines.some((line) => /^[A-Z][A-Z ]+ {2,}\S/.test(line));

describe.each([80, 60])('at %i columns on a terminal', (columns) => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s fits, its ids and amounts whole',
    async (_name, c) => {
      const r = await run(c, { tty: true, columns });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\u001b\[/);
      const lines = screen(r.stdout);
      // Only a value wider than the terminal (a 64-digit hash at 60) is wider: alone on its line,
      // whole.
      for (const line of lines)
        if (/\s/.test(line.trim())) expect(width(line), line).toBeLessThanOrEqual(columns);
      for (const value of c.whole)
        expect(
          lines.some((line) => line.includes(value)),
          `${value} whole on one line`,
        ).toBe(true);
      if (c.cardsAt?.includes(columns)) expect(isCards(lines), 'cards').toBe(true);
      if (c.tableAt?.includes(columns)) expect(isCards(lines), 'a table').toBe(false);
    },
  );

  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s with -o wide fits, every value whole',
    async (_name, c) => {
      const r = await run(c, { tty: true, columns }, '-o', 'wide');
      expect(r.code, r.stderr).toBe(0);
      const lines = screen(r.stdout);
      for (const line of lines)
        if (/\s/.test(line.trim())) expect(width(line), line).toBeLessThanOrEqual(columns);
      for (const value of [...c.whole, ...(c.wide ?? [])])
        expect(
          lines.some((line) => line.includes(value)),
          `${value} whole on one line`,
        ).toBe(true);
    },
  );
});

describe('the card form', () => {
  it('shows each stream of `svc recurring -o wide` as a block of HEADER  value lines, a blank line between', async () => {
    const lines = screen((await run(CASES[0]!, { tty: true, columns: 80 }, '-o', 'wide')).stdout);
    const inflow = lines.indexOf('Inflow streams');
    expect(lines.slice(inflow + 1, inflow + 12)).toEqual([
      'COUNTERPARTY    Leapfrog Technology Pvt Ltd',
      'CATEGORY        salary',
      'CADENCE         monthly',
      'AVERAGE AMOUNT  NPR 1,25,000.00',
      'OCCURRENCES     6',
      'STATUS          MATURE',
      'IS ACTIVE       yes',
      'LAST DATE       2026-01-10',
      'NEXT DATE       2026-02-10',
      '',
      'COUNTERPARTY    NABIL Bank Interest',
    ]);
  });

  it('keeps `svc statements list -o wide` whole: the hash, the address and the ids, each on its line', async () => {
    const lines = screen((await run(CASES[1]!, { tty: true, columns: 80 }, '-o', 'wide')).stdout);
    expect(lines.slice(0, 8)).toEqual([
      'STATEMENT       stmt_edd965552fcfdf1d',
      'STATUS          issued',
      'CONTENT HASH    39203d1316de0513390ca0624b4511ba427ae661ec939a4ec2e0c23fcc2eaedc',
      'VERIFY AT       https://svc.test/verify/stmt_edd965552fcfdf1d',
      'REPORT ID       rpt_f2f26e05bdcf42c7',
      'ACCOUNT HOLDER  Bishnu Maya Rai',
      'ISSUED AT       2026-02-10 10:30 UTC',
      '',
    ]);
  });

  it('is a boxed table again on a terminal wide enough', async () => {
    // The whole hash of a statement, never cut, takes 64 of them.
    for (const c of [CASES[0]!, CASES[1]!, CASES[4]!]) {
      const lines = screen((await run(c, { tty: true, columns: 260 }, '-o', 'wide')).stdout);
      expect(isCards(lines), c.name).toBe(false);
      for (const line of lines) expect(width(line)).toBeLessThanOrEqual(260);
    }
  });
});

describe('merchants resolve at 80 columns', () => {
  it('keeps the terminal numbers whole and cuts the merchant names and a statement line given as input, a row a line', async () => {
    const lines = screen((await run(CASES.at(-1)!, { tty: true, columns: 80 })).stdout);
    // Two spaces between columns would cut more: one leaves the free text more room.
    expect(lines).toEqual([
      'INPUT            TERMINAL         MERCHANT      MCC  CATEGORY  CITY      MATCHED',
      '9756038350856888 9756038350856888 Himalayan In… 5411 groceries Kathmandu yes',
      '1478927208396712 1478927208396712 Joshi Tarkar… 5411 groceries Kathmandu yes',
      'Kanchenjunga Mo… 4479028991229775 Kanchenjunga… 5411 groceries Kathmandu yes',
      'NABIL BANK LTD…                                                          no',
      '4 lookups, 3 matched, 1 not found, 0 duplicates, 1 call in 0.0s',
    ]);
  });

  it('-o wide: keeps the terminal numbers whole, wraps the merchant names and a statement line given as input', async () => {
    const lines = screen(
      (await run(CASES.at(-1)!, { tty: true, columns: 80 }, '-o', 'wide')).stdout,
    );
    // Two spaces between columns leave too little room: one does, and the free text gives up the
    // rest.
    expect(lines).toEqual([
      'INPUT            TERMINAL         MERCHANT      MCC  CATEGORY  CITY      MATCHED',
      '9756038350856888 9756038350856888 Himalayan     5411 groceries Kathmandu yes',
      '                                  Interiors',
      '1478927208396712 1478927208396712 Joshi Tarkari 5411 groceries Kathmandu yes',
      '                                  Pasal',
      'Kanchenjunga     4479028991229775 Kanchenjunga  5411 groceries Kathmandu yes',
      'Mountain                          Mountain',
      'Departmental                      Departmental',
      'Store                             Store',
      'NABIL BANK LTD                                                           no',
      'QR PAYMENT TO',
      'HIMALAYAN',
      'INTERIORS',
      '4 lookups, 3 matched, 1 not found, 0 duplicates, 1 call in 0.0s',
    ]);
  });
});

describe('in a pipe', () => {
  it.each(CASES.map((c) => [c.name, c] as const))(
    '%s is the same at 60 columns as at 200',
    async (_name, c) => {
      const [narrow, wide] = [
        await run(c, { tty: false, columns: 60 }),
        await run(c, { tty: false, columns: 200 }),
      ];
      expect(narrow.code, narrow.stderr).toBe(0);
      expect(narrow.stdout).toBe(wide.stdout);
      expect(narrow.stdout).not.toMatch(/\u001b\[|[│┌]/);
    },
  );
});
