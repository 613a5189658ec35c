// `svc data latest|series|snapshot|keys` in-process, as a person at a terminal and as a script.
// The replies are the documents' shapes where the documents show one (cpi, interest-rates, pnl and
// bank-pnl `latest`, the `{data, meta}` envelope, GET /v1/usage: test/fixtures/documented/), and
// shapes of our own where they say "not shown" (the other families, every series, the snapshot).
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Choice } from '../../src/app/services.js';
import { documented } from '../support/fixtures.js';
import {
  BASE_URL,
  type FakeReply,
  FakeService,
  type InProcessOptions,
  type InProcessResult,
  KEY,
  MemoryCache,
  NOW,
  plain,
  scratchDir,
  ScriptedPrompter,
  svc,
  unwrapped,
} from '../support/in-process.js';
import { jsonLines } from '../support/json-lines.js';

/** `meta` as documented: source, source_url, attribution, as_of. */
const META = {
  source: 'Nepal Rastra Bank',
  source_url: 'https://www.nrb.org.np/category/monthly-statistics/',
  attribution:
    'Source: Nepal Rastra Bank — Current Macroeconomic and Financial Situation (table C6). Republished by svc with attribution.',
  as_of: '2026-03-31',
};
const ATTRIBUTION = [META.attribution, `As of ${META.as_of} · ${META.source} · ${META.source_url}`];
/**
 * What stderr says of a dataset table after all else: the attribution, in a pipe (a terminal shows
 * it under the table).
 */
const attributionOnStderr = (tty: boolean) =>
  tty ? '' : ATTRIBUTION.map((line) => `${line}\n`).join('');
const envelope = <T>(data: T, meta: unknown = META) => ({ data, meta });

/** The two ways svc is run: by a script (no terminal, CI set) and by a person at a terminal. */
const MODES = [
  ['a script', false],
  ['a person', true],
] as const;

/**
 * Every run gets its own reply cache unless the test names one: no run is served by another's
 * reply. Whatever happens, the key of the run is never shown in full.
 */
async function data(args: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const result = await svc(['data', ...args], { cache: new MemoryCache(), ...options });
  expect(result.stdout + result.stderr).not.toContain(KEY);
  return result;
}

/**
 * A service expecting these GETs, in order, each answered with its reply (200 with a body by
 * default).
 */
function service(...expected: [path: string, reply: unknown][]): FakeService {
  const fake = new FakeService();
  for (const [path, reply] of expected)
    fake.expect('GET', path, isReply(reply) ? reply : { body: reply });
  return fake;
}
const isReply = (value: unknown): value is FakeReply =>
  typeof value === 'object' && value !== null && ('status' in value || 'raw' in value);

const lines = (text: string) => text.trimEnd().split('\n');

function expectUsageError(result: InProcessResult, mentions: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  // With --json, one JSON line instead.
  expect(result.stderr).toMatch(/^error: |^\{"error_code":"USAGE"/);
  expect(unwrapped(result.stderr)).toMatch(mentions);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.requests).toEqual([]);
}

// ---- the replies ----------------------------------------------------------------------------

/**
 * The documents' `latest` payloads, with a second item of the same fields where a test needs two.
 */
const CPI = {
  ...documented('cpi-latest'),
  indicators: [
    ...documented('cpi-latest').indicators,
    {
      indicator: 'PCPI_CP_0117_IX',
      label: 'Vegetables, index',
      value: 131.5,
      scale: 0,
      absolute: 131.5,
      unit: 'index',
    },
  ],
};
const RATES = documented('interest-rates-latest');
const PNL = {
  ...documented('pnl-latest'),
  line_items: [
    ...documented('pnl-latest').line_items,
    {
      key: 'expense.interest-expense',
      label: 'Interest Expense',
      value: 331028.1,
      unit: 'NPR_mn',
      section: 'Expenses',
      code: '2',
    },
  ],
};
const BANK_PNL = documented('banks-pnl-latest');

/** Shapes the documents do not show: the mock's own choices (src/mock/fixtures/README.md). */
const BALANCE_SHEET = {
  month: '2026-02',
  line_items: [
    {
      key: 'total-deposits',
      label: 'Total deposits',
      value: 7234567.891,
      unit: 'NPR_mn',
      section: 'Capital and liabilities',
    },
    {
      key: 'loans-and-advances',
      label: 'Loans and advances',
      value: 5900123.4,
      unit: 'NPR_mn',
      section: 'Assets',
    },
  ],
};
const CREDIT = {
  month: '2026-02',
  line_items: [
    {
      key: 'sector-agriculture',
      label: 'Agriculture',
      breakdown: 'By sector',
      value: 512340.5,
      unit: 'NPR_mn',
    },
  ],
};
const INDICATORS = {
  month: '2026-02',
  indicators: [
    {
      indicator: 'capital-adequacy-ratio',
      label: 'Capital adequacy ratio',
      group: 'Capital',
      value: 12.81,
      unit: 'percent',
    },
    {
      indicator: 'npl-ratio',
      label: 'Non-performing loans to total loans',
      group: 'Asset quality',
      value: 4.52,
      unit: 'percent',
    },
  ],
};
const CBS = {
  month: '2026-02',
  accounts: [
    {
      code: 'CBS.RM',
      label: 'Reserve money',
      section: 'Liabilities',
      value: 1480321.7,
      unit: 'NPR_mn',
    },
  ],
};
const TRADE = {
  month: '2026-02',
  line_items: [
    {
      key: 'imports-cif',
      label: 'Total imports (CIF)',
      flow: 'imports',
      sitc_section: null,
      value: 161234.2,
      unit: 'NPR_mn',
    },
    {
      key: 'exports-fob-0',
      label: 'Food and live animals',
      flow: 'exports',
      sitc_section: '0',
      value: 2345.6,
      unit: 'NPR_mn',
    },
  ],
};
const MACRO = {
  month: '2026-02',
  indicators: [
    {
      indicator: 'inflation',
      label: 'Consumer price inflation (y-o-y)',
      value: 3.2,
      unit: 'percent',
      source_quote: 'The y-o-y consumer price inflation stood at 3.2 percent in mid-February 2026.',
    },
    {
      indicator: 'forex-reserves',
      label: 'Gross foreign exchange reserves',
      value: 2345.6,
      unit: 'NPR_bn',
      source_quote: 'Reserves stood at Rs.2345.6 billion.',
    },
  ],
};

interface Family {
  name: string;
  path: string;
  selector: string;
  example: string;
  latest: unknown;
  args?: string[];
  /** `latest` in a pipe: the header, then the first row. */
  table: [string, string];
  /** `keys` in a pipe: the header, then the first row. */
  keys: [string, string];
  /** The title of the table on a terminal. */
  title?: string;
}

const FAMILIES: Family[] = [
  {
    name: 'balance-sheet',
    path: 'banking/balance-sheet',
    selector: 'key',
    example: 'total-deposits',
    latest: BALANCE_SHEET,
    table: [
      'MONTH\tSECTION\tKEY\tITEM\tVALUE (NPR millions)',
      '2026-02\tCapital and liabilities\ttotal-deposits\tTotal deposits\t7234567.891',
    ],
    keys: [
      'SECTION\tKEY\tLABEL\tUNIT',
      'Capital and liabilities\ttotal-deposits\tTotal deposits\tNPR millions',
    ],
    title: '2026-02',
  },
  {
    name: 'pnl',
    path: 'banking/pnl',
    selector: 'key',
    example: 'income.interest-income',
    latest: PNL,
    table: [
      'MONTH\tSECTION\tKEY\tITEM\tVALUE (NPR millions)\tCODE',
      '2025-07\tIncome\tincome.interest-income\tInterest Income\t567193.568\t1',
    ],
    keys: [
      'SECTION\tKEY\tLABEL\tUNIT',
      'Income\tincome.interest-income\tInterest Income\tNPR millions',
    ],
    title: '2025-07',
  },
  {
    name: 'credit',
    path: 'banking/credit',
    selector: 'key',
    example: 'sector-agriculture',
    latest: CREDIT,
    table: [
      'MONTH\tKEY\tITEM\tVALUE (NPR millions)\tBREAKDOWN',
      '2026-02\tsector-agriculture\tAgriculture\t512340.5\tBy sector',
    ],
    keys: ['KEY\tLABEL\tUNIT', 'sector-agriculture\tAgriculture\tNPR millions'],
    title: '2026-02',
  },
  {
    name: 'indicators',
    path: 'banking/indicators',
    selector: 'indicator',
    example: 'npl-ratio',
    latest: INDICATORS,
    table: [
      'MONTH\tINDICATOR\tITEM\tVALUE (percent)\tGROUP',
      '2026-02\tcapital-adequacy-ratio\tCapital adequacy ratio\t12.81\tCapital',
    ],
    keys: ['INDICATOR\tLABEL\tUNIT', 'capital-adequacy-ratio\tCapital adequacy ratio\tpercent'],
    title: '2026-02',
  },
  {
    // cbs items name their selector `code`; the parameter is `indicator`.
    name: 'cbs',
    path: 'cbs',
    selector: 'indicator',
    example: 'CBS.RM',
    latest: CBS,
    table: [
      'MONTH\tSECTION\tCODE\tITEM\tVALUE (NPR millions)',
      '2026-02\tLiabilities\tCBS.RM\tReserve money\t1480321.7',
    ],
    keys: ['SECTION\tINDICATOR\tLABEL\tUNIT', 'Liabilities\tCBS.RM\tReserve money\tNPR millions'],
    title: '2026-02',
  },
  {
    name: 'cpi',
    path: 'cpi',
    selector: 'indicator',
    example: 'PCPI_IX',
    latest: CPI,
    table: [
      'MONTH\tINDICATOR\tITEM\tVALUE (index)\tSCALE\tABSOLUTE',
      '2026-03\tPCPI_IX\tOverall index, index\t106.96442\t0\t106.96442',
    ],
    keys: ['INDICATOR\tLABEL\tUNIT', 'PCPI_IX\tOverall index, index\tindex'],
    title: '2026-03',
  },
  {
    // `data` is the list itself: no month to show.
    name: 'interest-rates',
    path: 'interest-rates',
    selector: 'metric',
    example: 'base-rate',
    latest: RATES,
    table: ['METRIC\tITEM\tVALUE (percent)', 'base-rate\tBase Rate\t5'],
    keys: ['METRIC\tLABEL\tUNIT', 'base-rate\tBase Rate\tpercent'],
  },
  {
    name: 'trade',
    path: 'trade',
    selector: 'key',
    example: 'imports-cif',
    latest: TRADE,
    table: [
      'MONTH\tKEY\tITEM\tVALUE (NPR millions)\tFLOW\tSITC SECTION',
      '2026-02\timports-cif\tTotal imports (CIF)\t161234.2\timports\t',
    ],
    keys: ['KEY\tLABEL\tUNIT', 'imports-cif\tTotal imports (CIF)\tNPR millions'],
    title: '2026-02',
  },
  {
    // Units differ from row to row: each row names its own.
    name: 'macro',
    path: 'macro',
    selector: 'indicator',
    example: 'inflation',
    latest: MACRO,
    table: [
      'MONTH\tINDICATOR\tITEM\tVALUE\tUNIT\tSOURCE QUOTE',
      '2026-02\tinflation\tConsumer price inflation (y-o-y)\t3.2\tpercent\tThe y-o-y consumer price inflation stood at 3.2 percent in mid-February 2026.',
    ],
    keys: ['INDICATOR\tLABEL\tUNIT', 'inflation\tConsumer price inflation (y-o-y)\tpercent'],
    title: '2026-02',
  },
  {
    // bank-pnl items name their selector `key` and their label `line_item`; the parameter is
    // `line`.
    name: 'bank-pnl',
    path: 'banks/pnl',
    selector: 'line',
    example: 'income.interest-income',
    latest: BANK_PNL,
    args: ['--bank', 'NABIL'],
    table: [
      'MONTH\tSECTION\tKEY\tITEM\tVALUE (NPR millions)\tBANK\tCODE',
      '2025-07\tIncome\tnabil.income.interest-income\tInterest Income\t40470.486\tNABIL\t1',
    ],
    keys: [
      'SECTION\tLINE\tLABEL\tUNIT',
      'Income\tnabil.income.interest-income\tInterest Income\tNPR millions',
    ],
    title: '2025-07 · nabil',
  },
];

const latestPath = (f: Family) => `/v1/data/cbank/${f.path}/latest${f.args ? '?bank=NABIL' : ''}`;
/** The items of a family's `latest` payload. */
const itemsOf = (latest: any): any[] =>
  Array.isArray(latest) ? latest : (latest.line_items ?? latest.indicators ?? latest.accounts);

/**
 * A series of ours: the selector, a label, a unit and twelve months of 2024 (points or
 * observations).
 */
function seriesOf(
  f: Family,
  list = f.selector === 'indicator' ? 'observations' : 'points',
  extra: Record<string, unknown> = {},
) {
  const points = Array.from({ length: 12 }, (_, i) => ({
    month: `2024-${String(i + 1).padStart(2, '0')}`,
    value: 1000 + i * 250.5,
  }));
  return {
    [f.selector]: f.example,
    label: 'A line item',
    unit: 'NPR_mn',
    ...extra,
    [list]: points,
  };
}

// ---- latest ---------------------------------------------------------------------------------

describe('svc data latest', () => {
  it('series: a reply that is the list of months itself is shown once', async () => {
    const list = [
      { month: '2024-01', value: 5 },
      { month: '2024-02', value: 6 },
    ];
    const r = await data(['series', 'cpi', 'PCPI_IX', '--from', '2024-01', '--no-cache'], {
      service: service(['/v1/data/cbank/cpi/series?from=2024-01&indicator=PCPI_IX', list]),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/2024-01/g)).toHaveLength(1);
    expect(r.stdout).toMatch(/2024-02\t6/);
  });

  it.each(['latest', 'keys'])(
    '%s: a reply that is a list, without `data`, is still shown',
    async (verb) => {
      const list = [
        { month: '2024-01', value: 5, label: 'x' },
        { month: '2024-02', value: 6 },
      ];
      const r = await data([verb, 'cpi', '--no-cache'], {
        service: service(['/v1/data/cbank/cpi/latest', list]),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/2024-01\t5\tx/);
      expect(r.stdout).toMatch(/2024-02\t6\t/);
    },
  );

  it.each(FAMILIES.map((f) => [f.name, f] as const))(
    '%s in a pipe: GET …/latest, a header and one row per line item, every field; the attribution on stderr',
    async (_name, f) => {
      const r = await data(['latest', f.name, ...(f.args ?? [])], {
        service: service([latestPath(f), envelope(f.latest)]),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(lines(r.stderr)).toEqual(ATTRIBUTION);
      const out = lines(r.stdout);
      const items = itemsOf(f.latest);
      expect(out).toHaveLength(1 + items.length);
      expect(out.slice(0, 2)).toEqual(f.table);
      expect(r.stdout).not.toMatch(/\u001b\[|│|┌/);
    },
  );

  it.each(FAMILIES.map((f) => [f.name, f] as const))(
    '%s on a terminal: boxed, titled by the month (and bank), every selector in a row, the attribution dimmed under it',
    async (_name, f) => {
      const r = await data(['latest', f.name, ...(f.args ?? [])], {
        tty: true,
        columns: 200,
        service: service([latestPath(f), envelope(f.latest)]),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\u001b\[/);
      const screen = lines(plain(r.stdout));
      if (f.title) expect(screen[0]).toBe(f.title);
      else expect(screen[0]).toMatch(/^┌─/);
      const field = ['key', 'indicator', 'metric', 'code'].find(
        (name) => name in itemsOf(f.latest)[0]!,
      )!;
      for (const item of itemsOf(f.latest))
        expect(
          screen.some((line) => line.startsWith(`│ ${item[field]} `)),
          item[field],
        ).toBe(true);
      expect(screen.slice(-2)).toEqual(ATTRIBUTION);
      expect(r.stdout).toContain(`\u001b[2m${META.attribution}\u001b[22m`);
    },
  );

  it('on a terminal groups the line items by section, each its own table, without colour under NO_COLOR', async () => {
    const f = FAMILIES[0]!;
    const r = await data(['latest', 'balance-sheet'], {
      tty: true,
      columns: 120,
      env: { NO_COLOR: '1' },
      service: service([latestPath(f), envelope(BALANCE_SHEET)]),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\u001b\[/);
    const screen = lines(r.stdout);
    expect(screen[0]).toBe('2026-02');
    expect(screen[1]).toBe('Capital and liabilities');
    expect(screen).toContain('Assets');
    expect(screen.indexOf('Assets')).toBeGreaterThan(
      screen.findIndex((line) => line.includes('total-deposits')),
    );
    expect(r.stdout).toContain('│ KEY ');
    expect(r.stdout).toContain('VALUE (NPR millions)');
    // Values are right-aligned, in Indian grouping with two decimals.
    expect(r.stdout).toMatch(/│ +72,34,567\.89 │/);
  });

  it.each(MODES)(
    'as %s, writes NPR millions (grouped for a person, as received for a script), the unit once in the header',
    async (_mode, tty) => {
      const f = FAMILIES[0]!;
      const r = await data(['latest', 'balance-sheet'], {
        tty,
        service: service([latestPath(f), envelope(BALANCE_SHEET)]),
      });
      const text = plain(r.stdout);
      expect(text).toContain(tty ? '72,34,567.89' : '\t7234567.891\n');
      expect(text).toContain(tty ? '59,00,123.40' : '\t5900123.4\n');
      expect(text.match(/NPR millions/g)).toHaveLength(tty ? 2 : 1);
      expect(text).not.toContain('NPR_mn');
    },
  );

  it.each(MODES)('as %s, --json prints the envelope exactly as received', async (_mode, tty) => {
    const body = envelope(CPI);
    const raw = JSON.stringify(body, null, 4);
    const r = await data(['latest', 'cpi', '--json'], {
      tty,
      service: service(['/v1/data/cbank/cpi/latest', { raw }]),
    });
    expect(r.code).toBe(0);
    expect(plain(r.stdout)).toBe(JSON.stringify(body, null, 2) + '\n');
    expect(r.stderr).toBe('');
  });

  it.each(MODES)(
    'as %s, --param adds query parameters, a later one of a name overriding an earlier one',
    async (_mode, tty) => {
      const r = await data(
        [
          'latest',
          'trade',
          '--param',
          'lang=en',
          '--param',
          'lang=ne',
          '--param',
          'basis=provisional',
        ],
        {
          tty,
          service: service([
            '/v1/data/cbank/trade/latest?basis=provisional&lang=ne',
            envelope(TRADE),
          ]),
        },
      );
      expect(r.code, r.stderr).toBe(0);
    },
  );

  it.each(MODES)(
    'as %s, bank-pnl without --bank asks for every bank: a row per bank and line, the month alone as title',
    async (_mode, tty) => {
      // The documented item, and one of another bank with the same fields; no `bank` above them.
      const nabil = BANK_PNL.line_items[0];
      const everyBank = {
        month: BANK_PNL.month,
        line_items: [
          nabil,
          { ...nabil, key: 'nic_asia.income.interest-income', bank: 'NIC_ASIA', value: 30100.25 },
        ],
      };
      const r = await data(['latest', 'bank-pnl'], {
        tty,
        columns: 200,
        service: service(['/v1/data/cbank/banks/pnl/latest', envelope(everyBank)]),
      });
      expect(r.code, r.stderr).toBe(0);
      const out = lines(plain(r.stdout));
      if (tty) {
        expect(out[0]).toBe('2025-07');
        expect(
          out.filter((line) => /^│ (nabil|nic_asia)\.income\.interest-income /.test(line)),
        ).toHaveLength(2);
      } else {
        expect(out.slice(0, 3)).toEqual([
          'MONTH\tSECTION\tKEY\tITEM\tVALUE (NPR millions)\tBANK\tCODE',
          '2025-07\tIncome\tnabil.income.interest-income\tInterest Income\t40470.486\tNABIL\t1',
          '2025-07\tIncome\tnic_asia.income.interest-income\tInterest Income\t30100.25\tNIC_ASIA\t1',
        ]);
      }
      expect(tty ? out.slice(-2) : lines(r.stderr)).toEqual(ATTRIBUTION);
    },
  );

  it.each(MODES)(
    'as %s, a reply of a shape svc does not know is still shown, with its attribution',
    async (_mode, tty) => {
      const r = await data(['latest', 'macro'], {
        tty,
        columns: 200,
        service: service([
          '/v1/data/cbank/macro/latest',
          envelope({ month: '2026-02', note: 'revised', total: 12 }),
        ]),
      });
      expect(r.code, r.stderr).toBe(0);
      const text = plain(r.stdout);
      expect(text).toMatch(/month\s.*2026-02/i);
      expect(text).toMatch(/note\s.*revised/i);
      // Under what it holds on a terminal; on stderr in a pipe.
      expect(tty ? lines(text).slice(-2) : lines(r.stderr)).toEqual(ATTRIBUTION);
      if (!tty) expect(text).not.toContain(META.attribution);
      expect(text).not.toMatch(/undefined|null|NaN|\[object Object\]/);
    },
  );
});

// ---- series ---------------------------------------------------------------------------------

describe('svc data series', () => {
  it.each(FAMILIES.map((f) => [f.name, f] as const))(
    '%s in a pipe: GET …/series by its selector parameter and bounds, month/value rows, the attribution',
    async (_name, f) => {
      const bank = f.args ? { bank: 'nabil' } : {};
      const breakdown = f.name === 'credit' ? { breakdown: 'By sector' } : {};
      const query = new URLSearchParams({
        ...(f.args ? { bank: 'NABIL' } : {}),
        from: '2024-01',
        [f.selector]: f.example,
        to: '2025-01',
      });
      query.sort();
      const r = await data(
        ['series', f.name, f.example, '--from', '2024-01', '--to', '2025-01', ...(f.args ?? [])],
        {
          service: service([
            `/v1/data/cbank/${f.path}/series?${query.toString()}`,
            envelope(seriesOf(f, undefined, { ...bank, ...breakdown })),
          ]),
        },
      );
      expect(r.code, r.stderr).toBe(0);
      const out = lines(r.stdout);
      expect(out[0]).toBe('MONTH\tVALUE (NPR millions)');
      expect(out.slice(1, 4)).toEqual(['2024-01\t1000', '2024-02\t1250.5', '2024-03\t1501']);
      // The last line is the last month (`| tail -1`): stdout holds the header and the months
      // alone.
      expect(out).toHaveLength(13);
      expect(out.at(-1)).toBe('2024-12\t3755.5');
      // What `data` holds beside the points, the selector, the label and the unit is said on
      // stderr, then the attribution.
      const rest = Object.entries({ ...bank, ...breakdown }).map(([k, v]) => `data.${k}: ${v}`);
      expect(lines(r.stderr)).toEqual([...rest, ...ATTRIBUTION]);
    },
  );

  it.each(MODES)(
    'as %s, bank-pnl without --bank sends no bank and passes on the service’s refusal (exit 6)',
    async (_mode, tty) => {
      const refusal = {
        error_type: 'INVALID_REQUEST_ERROR',
        error_code: 'INVALID_REQUEST',
        error_message: "'bank' is required for banks/pnl series.",
      };
      const r = await data(['series', 'bank-pnl', 'income.interest-income'], {
        tty,
        service: service([
          '/v1/data/cbank/banks/pnl/series?line=income.interest-income',
          { status: 400, body: refusal },
        ]),
      });
      expect(r.code).toBe(6);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(
        "error: INVALID_REQUEST: 'bank' is required for banks/pnl series.",
      );
    },
  );

  it.each(MODES)(
    'as %s, serves the P&L series too, which the service lists only as latest',
    async (_mode, tty) => {
      const r = await data(
        ['series', 'pnl', 'profit.net-profit', '--from', '2026-01', '-o', 'csv'],
        {
          tty,
          service: service([
            '/v1/data/cbank/banking/pnl/series?from=2026-01&key=profit.net-profit',
            envelope({ key: 'profit.net-profit', points: [{ month: '2026-01', value: 5 }] }),
          ]),
        },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('month,value\r\n2026-01,5\r\n');
    },
  );

  it.each(MODES)('as %s, an unknown selector is the service’s 404 (exit 5)', async (_mode, tty) => {
    const notFound = {
      error_type: 'NOT_FOUND_ERROR',
      error_code: 'NOT_FOUND',
      error_message: "No series 'gold-price' in cpi.",
      request_id: 'req_0123456789abcdef0123456789abcdef',
    };
    const r = await data(['series', 'cpi', 'gold-price'], {
      tty,
      service: service([
        '/v1/data/cbank/cpi/series?indicator=gold-price',
        { status: 404, body: notFound },
      ]),
    });
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "error: NOT_FOUND: No series 'gold-price' in cpi.\nRequest ID: req_0123456789abcdef0123456789abcdef\n",
    );
  });

  it.each(MODES)('as %s, --param overrides the selector and the bounds', async (_mode, tty) => {
    const rates = FAMILIES.find((f) => f.name === 'interest-rates')!;
    const r = await data(
      [
        'series',
        'interest-rates',
        'base-rate',
        '--from',
        '2024-01',
        '--param',
        'metric=wavg-credit',
        '--param',
        'from=2025-01',
      ],
      {
        tty,
        service: service([
          '/v1/data/cbank/interest-rates/series?from=2025-01&metric=wavg-credit',
          envelope(seriesOf(rates)),
        ]),
      },
    );
    expect(r.code, r.stderr).toBe(0);
  });

  it.each(MODES)(
    'as %s, needs no SELECTOR argument (nor a question) when --param names it',
    async (_mode, tty) => {
      const cbs = FAMILIES.find((f) => f.name === 'cbs')!;
      const prompter = new ScriptedPrompter([]);
      const r = await data(['series', 'cbs', '--param', 'indicator=CBS.RM', '--from', '2026-06'], {
        tty,
        prompter,
        service: service([
          '/v1/data/cbank/cbs/series?from=2026-06&indicator=CBS.RM',
          envelope(seriesOf(cbs)),
        ]),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(prompter.asked).toEqual([]);
    },
  );

  it.each(MODES)(
    'as %s, a reply without months and values is shown as it comes',
    async (_mode, tty) => {
      const r = await data(['series', 'cpi', 'PCPI_IX'], {
        tty,
        columns: 200,
        service: service([
          '/v1/data/cbank/cpi/series?indicator=PCPI_IX',
          envelope({ indicator: 'PCPI_IX', status: 'discontinued' }),
        ]),
      });
      expect(r.code).toBe(0);
      // A person is told; a script gets the fields alone.
      if (tty)
        expect(plain(r.stdout)).toMatch(
          /^The reply holds no series of months and values; it holds:$/m,
        );
      else expect(r.stdout.split('\n')[0]).toBe('FIELD\tVALUE');
      expect(plain(r.stdout)).toMatch(/status\s.*discontinued/i);
      expect(tty ? lines(plain(r.stdout)).slice(-2) : lines(r.stderr)).toEqual(ATTRIBUTION);
    },
  );
});

describe('svc data series of no observations', () => {
  const EMPTY = envelope({
    key: 'income.interest-income',
    label: 'Interest income',
    unit: 'NPR_mn',
    points: [],
  });
  const empty = (tty: boolean, ...flags: string[]) =>
    data(
      ['series', 'pnl', 'income.interest-income', '--from', '2030-01', '--to', '2030-03', ...flags],
      {
        tty,
        service: service([
          '/v1/data/cbank/banking/pnl/series?from=2030-01&key=income.interest-income&to=2030-03',
          EMPTY,
        ]),
      },
    );

  it('as a person, says so in one line under the title, not as an empty field', async () => {
    const r = await empty(true);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(plain(r.stdout)).slice(0, 3)).toEqual([
      'Interest income · income.interest-income · NPR millions',
      'No observations of Interest income from 2030-01 up to 2030-03.',
      'Source: Nepal Rastra Bank — Current Macroeconomic and Financial Situation (table',
    ]);
    expect(plain(r.stdout)).not.toMatch(/points|FIELD/i);
  });

  it('as a script, writes the header line alone, and says so on stderr', async () => {
    const r = await empty(false);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('MONTH\tVALUE (NPR millions)\n');
    expect(lines(r.stderr)).toEqual([
      'No observations of Interest income from 2030-01 up to 2030-03.',
      ...ATTRIBUTION,
    ]);
  });

  it('-o csv writes the reply as one record, as before; --chart warns and shows the line', async () => {
    const csv = await empty(false, '-o', 'csv');
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'data.key,data.label,data.unit,data.points,meta.source,meta.source_url,meta.attribution,meta.as_of',
    );
    const chart = await empty(true, '--chart');
    expect(chart.code, chart.stderr).toBe(0);
    expect(chart.stderr).toBe('warning: the series holds no observations to draw\n');
    expect(plain(chart.stdout)).toContain(
      'No observations of Interest income from 2030-01 up to 2030-03.\n',
    );
  });
});

describe('svc data series --chart', () => {
  const RATES_SERIES = envelope({
    metric: 'base-rate',
    label: 'Base rate (average)',
    unit: 'percent',
    points: Array.from({ length: 40 }, (_, i) => ({
      month: `${2021 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`,
      value: 6 + Math.sin(i / 5) * 2,
    })),
  });
  const points = RATES_SERIES.data.points;
  const values = points.map((p) => p.value);
  const max = Math.max(...values);
  const min = Math.min(...values);
  const monthOf = (v: number) => points.find((p) => p.value === v)!.month;

  it.each([100, 64])(
    'on a terminal %i columns wide: a line chart that fits, its ends and extremes named, the attribution under it',
    async (columns) => {
      const r = await data(['series', 'interest-rates', 'base-rate', '--chart'], {
        tty: true,
        columns,
        service: service(['/v1/data/cbank/interest-rates/series?metric=base-rate', RATES_SERIES]),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\u001b\[/); // colour on a terminal
      const screen = lines(plain(r.stdout));
      expect(screen[0]).toBe('Base rate (average) · base-rate · percent · 2021-01 to 2024-04');
      // Every line fits: the chart, and the attribution wrapped between words.
      for (const line of screen) expect([...line].length, line).toBeLessThanOrEqual(columns);
      const axis = screen.find((line) => /^\s*└─+$/.test(line))!;
      expect([...axis].length).toBeGreaterThanOrEqual(columns - 2);
      expect(screen[screen.indexOf(axis) + 1]!.trim()).toMatch(/^2021-01 +2024-04$/);
      expect(plain(r.stdout)).toContain(`max ${max.toFixed(2)} (${monthOf(max)})`);
      expect(plain(r.stdout)).toContain(`min ${min.toFixed(2)} (${monthOf(min)})`);
      expect(screen.filter((line) => /[┤┼]/.test(line)).length).toBeGreaterThanOrEqual(10);
      const attribution = screen.slice(
        screen.findIndex((line) => line.startsWith(ATTRIBUTION[0]!.slice(0, 10))),
      );
      expect(attribution.join(' ')).toBe(ATTRIBUTION.join(' '));
    },
  );

  it('at 60 columns a title too long for the line wraps between words: no month is split (it was `2021` / `-01`)', async () => {
    const long = envelope({
      ...RATES_SERIES.data,
      label: 'Weighted average base rate of commercial banks',
    });
    const r = await data(['series', 'interest-rates', 'base-rate', '--chart'], {
      tty: true,
      columns: 60,
      service: service(['/v1/data/cbank/interest-rates/series?metric=base-rate', long]),
    });
    expect(r.code, r.stderr).toBe(0);
    const screen = lines(plain(r.stdout));
    expect(screen.slice(0, 2)).toEqual([
      'Weighted average base rate of commercial banks · base-rate ·',
      'percent · 2021-01 to 2024-04',
    ]);
    for (const line of screen) expect([...line].length, line).toBeLessThanOrEqual(60);
  });

  it('in a pipe: the same chart, without colour; the attribution a line on stderr, not the end of stdout', async () => {
    const r = await data(['series', 'interest-rates', 'base-rate', '--chart'], {
      service: service(['/v1/data/cbank/interest-rates/series?metric=base-rate', RATES_SERIES]),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\u001b\[/);
    expect(r.stdout).toContain('└──');
    expect(r.stdout).toContain(`max ${max.toFixed(2)}`);
    expect(r.stdout).not.toContain(META.attribution);
    expect(r.stderr).toBe(attributionOnStderr(false));
  });

  it.each(MODES)(
    'as %s, a reply with no series to draw: a warning, and the reply shown as it is',
    async (_mode, tty) => {
      const r = await data(['series', 'interest-rates', 'base-rate', '--chart'], {
        tty,
        columns: 240,
        service: service([
          '/v1/data/cbank/interest-rates/series?metric=base-rate',
          envelope({ metric: 'base-rate' }),
        ]),
      });
      expect(r.code).toBe(0);
      const warning =
        'warning: the reply holds no series of months and values to draw; showing it as it is';
      // A script is told the attribution on stderr too, after what was shown.
      expect(lines(r.stderr)).toEqual(tty ? [warning] : [warning, ...ATTRIBUTION]);
      expect(plain(r.stdout)).toMatch(/metric\s.*base-rate/i);
    },
  );
});

describe('picking a SELECTOR', () => {
  /** Types a search term, records what the list offers for it, and picks the first offer. */
  class TypingPrompter extends ScriptedPrompter {
    offered: Choice[] = [];
    constructor(private readonly typed: string) {
      super([]);
    }
    override search(
      message: string,
      source: (term: string | undefined) => Choice[],
    ): Promise<string> {
      this.asked.push(message);
      this.offered = source(this.typed);
      return Promise.resolve(this.offered[0]!.value);
    }
  }

  it('on a terminal, a missing SELECTOR is picked from a searchable list built from /latest', async () => {
    const prompter = new TypingPrompter('vegeta');
    const r = await data(['series', 'cpi', '--from', '2026-01'], {
      tty: true,
      prompter,
      service: service(
        ['/v1/data/cbank/cpi/latest', envelope(CPI)],
        [
          '/v1/data/cbank/cpi/series?from=2026-01&indicator=PCPI_CP_0117_IX',
          envelope({
            indicator: 'PCPI_CP_0117_IX',
            label: 'Vegetables, index',
            unit: 'index',
            observations: [{ month: '2026-01', value: 130.1 }],
          }),
        ],
      ),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(prompter.asked).toEqual(['Which indicator of cpi? (type to filter)']);
    // The list shows the codes with their labels and units, narrowed to what was typed.
    expect(prompter.offered).toEqual([
      {
        name: 'PCPI_CP_0117_IX  Vegetables, index (index)',
        value: 'PCPI_CP_0117_IX',
        short: 'PCPI_CP_0117_IX',
        description: undefined,
      },
    ]);
    expect(plain(r.stdout)).toContain('Vegetables, index · PCPI_CP_0117_IX · index · 2026-01');
  });

  it('offers every selector of the family, with its section, before anything is typed', async () => {
    let offered: Choice[] = [];
    const prompter = new ScriptedPrompter(['income.interest-income']);
    const search = prompter.search.bind(prompter);
    prompter.search = (message, source) => {
      offered = source(undefined);
      return search(message, source);
    };
    const r = await data(['series', 'pnl'], {
      tty: true,
      prompter,
      service: service(
        ['/v1/data/cbank/banking/pnl/latest', envelope(PNL)],
        [
          '/v1/data/cbank/banking/pnl/series?key=income.interest-income',
          envelope(seriesOf(FAMILIES[1]!)),
        ],
      ),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(offered.map((c) => [c.value, c.description])).toEqual([
      ['income.interest-income', 'Income'],
      ['expense.interest-expense', 'Expenses'],
    ]);
  });

  it('bank-pnl asks within the bank given, and the pick’s /latest is cached like any other', async () => {
    const cache = new MemoryCache();
    const r = await data(['series', 'bank-pnl', '--bank', 'NABIL'], {
      tty: true,
      cache,
      prompter: new ScriptedPrompter(['nabil.income.interest-income']),
      service: service(
        ['/v1/data/cbank/banks/pnl/latest?bank=NABIL', envelope(BANK_PNL)],
        [
          '/v1/data/cbank/banks/pnl/series?bank=NABIL&line=nabil.income.interest-income',
          envelope(seriesOf(FAMILIES.at(-1)!)),
        ],
      ),
    });
    expect(r.code, r.stderr).toBe(0);
    expect([...cache.entries.keys()]).toEqual([
      `${BASE_URL}/v1/data/cbank/banks/pnl/latest?bank=NABIL`,
      `${BASE_URL}/v1/data/cbank/banks/pnl/series?bank=NABIL&line=nabil.income.interest-income`,
    ]);
    // keys then needs no request.
    const keys = await data(['keys', 'bank-pnl', '--bank', 'NABIL'], { cache });
    expect(keys.code).toBe(0);
  });

  it('a /latest that names nothing to pick from: exit 10, asking for the SELECTOR argument', async () => {
    const prompter = new ScriptedPrompter([]);
    const r = await data(['series', 'macro'], {
      tty: true,
      prompter,
      service: service(['/v1/data/cbank/macro/latest', envelope({ month: '2026-02' })]),
    });
    expect(r.code).toBe(10);
    expect(unwrapped(r.stderr)).toMatch(
      /^error: the reply to GET \/v1\/data\/cbank\/macro\/latest names no indicator to pick from; give the SELECTOR argument\n/,
    );
    expect(prompter.asked).toEqual([]);
  });

  it('without a terminal a missing SELECTOR is exit 2, naming the argument and how to list them', async () => {
    const r = await data(['series', 'interest-rates']);
    expectUsageError(
      r,
      /^error: missing argument SELECTOR: the metric of one interest-rates series \(e\.g\. base-rate\)\nList them with `svc data keys interest-rates`\.\n$/,
    );
  });

  it('at a terminal with CI set: no question either, exit 2', async () => {
    const prompter = new ScriptedPrompter([]);
    const r = await data(['series', 'cpi'], { tty: true, prompter, env: { CI: 'true' } });
    expectUsageError(r, /missing argument SELECTOR: the indicator of one cpi series/);
    expect(prompter.asked).toEqual([]);
  });
});

// ---- keys and snapshot ----------------------------------------------------------------------

describe('svc data keys', () => {
  it.each(FAMILIES.map((f) => [f.name, f] as const))(
    '%s in a pipe: the selectors of /latest, headed by the parameter they are passed as, with labels and units',
    async (_name, f) => {
      const r = await data(['keys', f.name, ...(f.args ?? [])], {
        service: service([latestPath(f), envelope(f.latest)]),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(lines(r.stderr)).toEqual(ATTRIBUTION);
      const out = lines(r.stdout);
      expect(out).toHaveLength(1 + itemsOf(f.latest).length);
      expect(out.slice(0, 2)).toEqual(f.keys);
    },
  );

  it('on a terminal: titled by the parameter and the month, the attribution under it', async () => {
    const r = await data(['keys', 'indicators'], {
      tty: true,
      columns: 200,
      service: service(['/v1/data/cbank/banking/indicators/latest', envelope(INDICATORS)]),
    });
    expect(r.code).toBe(0);
    const screen = lines(plain(r.stdout));
    expect(screen[0]).toBe('Values of indicator for 2026-02');
    expect(
      screen.some((line) =>
        /^│ npl-ratio +│ Non-performing loans to total loans +│ percent +│$/.test(line),
      ),
    ).toBe(true);
    expect(screen.slice(-2)).toEqual(ATTRIBUTION);
  });

  it.each(MODES)(
    'as %s, -o ndjson gives the line items as received, for jq',
    async (_mode, tty) => {
      const r = await data(['keys', 'interest-rates', '-o', 'ndjson'], {
        tty,
        service: service(['/v1/data/cbank/interest-rates/latest', envelope(RATES)]),
      });
      expect(r.code).toBe(0);
      expect(jsonLines(r.stdout)).toEqual(RATES);
      expect(r.stdout).not.toMatch(/\u001b\[/);
    },
  );

  it.each(MODES)(
    'as %s, a reply naming no selectors says so and shows what it holds',
    async (_mode, tty) => {
      const r = await data(['keys', 'macro'], {
        tty,
        columns: 200,
        service: service(['/v1/data/cbank/macro/latest', envelope({ month: '2026-02', total: 3 })]),
      });
      expect(r.code).toBe(0);
      if (tty) expect(plain(r.stdout)).toMatch(/^The reply names no selectors; it holds:$/m);
      expect(plain(r.stdout)).toMatch(/total\s.*3/i);
      expect(tty ? lines(plain(r.stdout)).slice(-2) : lines(r.stderr)).toEqual(ATTRIBUTION);
    },
  );
});

describe('svc data snapshot', () => {
  const SNAPSHOT = { month: '2025-06', indicators: INDICATORS.indicators };

  it('takes --no-cache, as every data command does, and fetches anew as always', async () => {
    const r = await data(['snapshot', '--month', '2025-06', '--no-cache', '--json'], {
      service: service(['/v1/data/cbank/banking/snapshot?month=2025-06', envelope(SNAPSHOT)]),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(envelope(SNAPSHOT));
  });

  it.each(MODES)('as %s, shows every C4 indicator of the month asked for', async (_mode, tty) => {
    const r = await data(['snapshot', '--month', '2025-06'], {
      tty,
      columns: 200,
      service: service(['/v1/data/cbank/banking/snapshot?month=2025-06', envelope(SNAPSHOT)]),
    });
    expect(r.code, r.stderr).toBe(0);
    const out = lines(plain(r.stdout));
    if (tty) {
      expect(out[0]).toBe('2025-06');
      expect(
        out.some((line) =>
          /^│ npl-ratio +│ Non-performing loans to total loans +│ +4\.52 │ Asset quality │$/.test(
            line,
          ),
        ),
      ).toBe(true);
    } else {
      expect(out).toEqual([
        'MONTH\tINDICATOR\tITEM\tVALUE (percent)\tGROUP',
        '2025-06\tcapital-adequacy-ratio\tCapital adequacy ratio\t12.81\tCapital',
        '2025-06\tnpl-ratio\tNon-performing loans to total loans\t4.52\tAsset quality',
      ]);
    }
    expect(tty ? out.slice(-2) : lines(r.stderr)).toEqual(ATTRIBUTION);
  });

  it.each(MODES)(
    'as %s, asks for the latest month when none is given, and never caches',
    async (_mode, tty) => {
      const cache = new MemoryCache();
      for (let run = 0; run < 2; run++) {
        const r = await data(['snapshot', '-o', 'csv'], {
          tty,
          cache,
          service: service(['/v1/data/cbank/banking/snapshot', envelope(SNAPSHOT)]),
        });
        expect(r.code).toBe(0);
        expect(r.stdout.split('\r\n')[0]).toBe('indicator,label,group,value,unit');
      }
      expect(cache.entries.size).toBe(0);
    },
  );

  it.each(MODES)(
    'as %s, a month without data is the service’s 404 (exit 5)',
    async (_mode, tty) => {
      const notFound = {
        error_type: 'NOT_FOUND_ERROR',
        error_code: 'NOT_FOUND',
        error_message: 'No snapshot for 2019-01.',
      };
      const r = await data(['snapshot', '--month', '2019-01'], {
        tty,
        service: service([
          '/v1/data/cbank/banking/snapshot?month=2019-01',
          { status: 404, body: notFound },
        ]),
      });
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/^error: NOT_FOUND: No snapshot for 2019-01/);
    },
  );
});

// ---- checks ---------------------------------------------------------------------------------

describe('checks before any request (exit 2)', () => {
  const CASES: [string[], RegExp][] = [
    [
      ['series', 'cpi', 'PCPI_IX', '--from', '2024-13'],
      /--from takes a month written YYYY-MM .*"2024-13"/,
    ],
    [['series', 'cpi', 'PCPI_IX', '--from', '2024-1'], /--from .*"2024-1"/],
    [['series', 'cpi', 'PCPI_IX', '--to', '2024-13'], /--to .*"2024-13"/],
    [['series', 'cpi', 'PCPI_IX', '--to', '2024-1'], /--to .*"2024-1"/],
    [
      ['series', 'cpi', 'PCPI_IX', '--from', '2024-06', '--to', '2024-06'],
      /--from 2024-06 must come before --to 2024-06/,
    ],
    [
      ['series', 'cpi', 'PCPI_IX', '--from', '2025-01', '--to', '2024-06'],
      /--from 2025-01 must come before --to 2024-06/,
    ],
    [['snapshot', '--month', '2024-13'], /--month .*"2024-13"/],
    [['snapshot', '--month', '2024-1'], /--month .*"2024-1"/],
    [['latest', 'gold'], /unknown data family "gold" \(choose balance-sheet, pnl, credit, /],
    [['series', 'gold', 'x'], /unknown data family "gold"/],
    [['keys', 'Cpi'], /unknown data family "Cpi"/],
    [['series', 'cpi', ''], /the indicator \(SELECTOR\) is empty/],
    [['latest', 'cpi', '--param', 'lang'], /--param takes name=value, not "lang"/],
    [['latest', 'cpi', '--param', '=x'], /--param takes name=value, not "=x"/],
    [['latest', 'cpi', '--max-age', 'forever'], /--max-age takes a duration/],
    [
      ['latest', 'cpi', '--bank', 'NABIL'],
      /--bank goes with per-bank families \(bank-pnl\), not cpi/,
    ],
    [
      ['latest', 'bank-pnl', '--bank', 'NA BIL'],
      /--bank takes a bank code such as NABIL, not "NA BIL"/,
    ],
    [['series', 'cpi', 'PCPI_IX', '--chart', '-o', 'csv'], /--chart .* -o csv/],
    [['series', 'cpi', 'PCPI_IX', '--chart', '--json'], /--chart .* --json|--chart .* -o json/],
  ];
  describe.each(MODES)('as %s', (_mode, tty) => {
    it.each(CASES)('svc data %j', async (args, mentions) => {
      expectUsageError(await data(args, { tty, prompter: new ScriptedPrompter([]) }), mentions);
    });
  });
});

// ---- machine formats ------------------------------------------------------------------------

describe('machine formats', () => {
  it.each(MODES)(
    'as %s, -o csv of a series is the months and values; the attribution goes to stderr',
    async (_mode, tty) => {
      const cbs = FAMILIES.find((f) => f.name === 'cbs')!;
      const r = await data(['series', 'cbs', 'CBS.RM', '--from', '2025-01', '-o', 'csv'], {
        tty,
        columns: 240,
        service: service([
          '/v1/data/cbank/cbs/series?from=2025-01&indicator=CBS.RM',
          envelope(seriesOf(cbs)),
        ]),
      });
      expect(r.code, r.stderr).toBe(0);
      const rows = r.stdout.split('\r\n');
      expect(rows.slice(0, 3)).toEqual(['month,value', '2024-01,1000', '2024-02,1250.5']);
      expect(rows).toHaveLength(1 + 12 + 1);
      expect(r.stdout).not.toContain('Nepal Rastra Bank');
      expect(r.stderr.trimEnd().split('\n')).toEqual(ATTRIBUTION);
    },
  );

  it.each(MODES)(
    'as %s, -o csv of the latest month is every field of the line items, quoted where needed',
    async (_mode, tty) => {
      const r = await data(['latest', 'macro', '-o', 'csv'], {
        tty,
        columns: 240,
        service: service(['/v1/data/cbank/macro/latest', envelope(MACRO)]),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\r\n')).toEqual([
        'indicator,label,value,unit,source_quote',
        'inflation,Consumer price inflation (y-o-y),3.2,percent,The y-o-y consumer price inflation stood at 3.2 percent in mid-February 2026.',
        'forex-reserves,Gross foreign exchange reserves,2345.6,NPR_bn,Reserves stood at Rs.2345.6 billion.',
        '',
      ]);
      expect(r.stderr).toContain(META.attribution);
    },
  );

  it.each(MODES)(
    'as %s, -o ndjson gives the points and the line items as received, one a line, nothing on stderr',
    async (_mode, tty) => {
      const trade = FAMILIES.find((f) => f.name === 'trade')!;
      const body = envelope(seriesOf(trade));
      const series = await data(
        ['series', 'trade', 'imports-cif', '--to', '2021-07', '-o', 'ndjson'],
        { tty, service: service(['/v1/data/cbank/trade/series?key=imports-cif&to=2021-07', body]) },
      );
      expect(series.code, series.stderr).toBe(0);
      expect(jsonLines(series.stdout)).toEqual(body.data.points);
      expect(series.stderr).toBe('');

      const latest = await data(['latest', 'credit', '-o', 'ndjson'], {
        tty,
        service: service(['/v1/data/cbank/banking/credit/latest', envelope(CREDIT)]),
      });
      expect(jsonLines(latest.stdout)).toEqual(CREDIT.line_items);
    },
  );
});

describe('--debug: the documented fields a reply lacks (src/api/replies/data.ts)', () => {
  const debugLines = (stderr: string) =>
    lines(stderr).filter((line) => line.startsWith('debug: GET'));
  const lacks = (path: string, fields: string[]) =>
    fields.map((field) => `debug: GET ${path}: the reply has no documented field "${field}"`);

  it('a documented latest reply: the envelope, its meta and the month of its data, in that order', async () => {
    // A field set to undefined is left out of the reply's JSON.
    const r = await data(['latest', 'cpi', '--debug'], {
      service: service([
        '/v1/data/cbank/cpi/latest',
        { data: { ...CPI, month: undefined }, meta: { attribution: META.attribution } },
      ]),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(debugLines(r.stderr)).toEqual(
      lacks('/v1/data/cbank/cpi/latest', [
        'meta.as_of',
        'meta.source',
        'meta.source_url',
        'data.month',
      ]),
    );
  });

  it('bank-pnl names its bank; interest-rates, a list, has no month to lack', async () => {
    const bank = await data(['latest', 'bank-pnl', '--debug'], {
      service: service([
        '/v1/data/cbank/banks/pnl/latest',
        envelope({ ...BANK_PNL, bank: undefined }),
      ]),
    });
    expect(debugLines(bank.stderr)).toEqual(
      lacks('/v1/data/cbank/banks/pnl/latest', ['data.bank']),
    );
    const rates = await data(['latest', 'interest-rates', '--debug'], {
      service: service(['/v1/data/cbank/interest-rates/latest', envelope(RATES)]),
    });
    expect(debugLines(rates.stderr)).toEqual([]);
  });

  it('a payload the documents do not show lacks nothing but the envelope: no month is asked of a series or another family', async () => {
    const credit = await data(['latest', 'credit', '--debug'], {
      service: service([
        '/v1/data/cbank/banking/credit/latest',
        envelope({ ...CREDIT, month: undefined }),
      ]),
    });
    expect(debugLines(credit.stderr)).toEqual([]);
    const series = await data(['series', 'cpi', 'PCPI_IX', '--debug'], {
      service: service(['/v1/data/cbank/cpi/series?indicator=PCPI_IX', { points: [] }]),
    });
    expect(series.code, series.stderr).toBe(0);
    expect(debugLines(series.stderr)).toEqual(
      lacks('/v1/data/cbank/cpi/series', [
        'meta',
        'meta.attribution',
        'meta.as_of',
        'meta.source',
        'meta.source_url',
        'data',
      ]),
    );
  });
});

// ---- the reply cache ------------------------------------------------------------------------

describe('the reply cache', () => {
  const CPI_SERIES = envelope({
    indicator: 'PCPI_IX',
    label: 'Overall index, index',
    unit: 'index',
    observations: [
      { month: '2025-01', value: 104.2 },
      { month: '2025-02', value: 104.9 },
    ],
  });
  const SERIES_PATH = '/v1/data/cbank/cpi/series?from=2025-01&indicator=PCPI_IX';
  const ARGS = ['series', 'cpi', 'PCPI_IX', '--from', '2025-01'];

  it.each(MODES)(
    'as %s, a second run is answered from the cache without a request, saying so on stderr',
    async (_mode, tty) => {
      const cache = new MemoryCache();
      const first = await data(ARGS, { tty, cache, service: service([SERIES_PATH, CPI_SERIES]) });
      expect(first.code).toBe(0);
      expect(first.stderr).toBe(attributionOnStderr(tty));
      expect([...cache.entries.keys()]).toEqual([`${BASE_URL}${SERIES_PATH}`]);

      const second = await data(ARGS, { tty, cache });
      expect(second.code).toBe(0);
      expect(second.requests).toEqual([]);
      expect(second.stdout).toBe(first.stdout);
      expect(second.stderr).toBe(
        '(from the cache, fetched 0 s ago; --no-cache fetches it anew)\n' +
          attributionOnStderr(tty),
      );
    },
  );

  it('says how old the cached reply is, on the clock of the run', async () => {
    const cache = new MemoryCache();
    await data(ARGS, { cache, service: service([SERIES_PATH, CPI_SERIES]) });
    expect(cache.entries.get(`${BASE_URL}${SERIES_PATH}`)!.fetched_at).toBe(
      new Date(NOW).toISOString(),
    );
    const after = async (ms: number) => (await data(ARGS, { cache, now: NOW + ms })).stderr;
    const said = (age: string) =>
      `(from the cache, fetched ${age} ago; --no-cache fetches it anew)\n${attributionOnStderr(false)}`;
    expect(await after(42_000)).toBe(said('42 s'));
    expect(await after(5 * 60_000)).toBe(said('5 min'));
    expect(await after(150 * 60_000)).toBe(said('2.5 h'));
  });

  it('keeps a reply 12 hours by default, --max-age otherwise, and not into a new month', async () => {
    const cache = new MemoryCache();
    await data(ARGS, { cache, service: service([SERIES_PATH, CPI_SERIES]) });
    expect((await data(ARGS, { cache, now: NOW + 11 * 3_600_000 })).requests).toEqual([]);
    expect(
      (
        await data(ARGS, {
          cache,
          now: NOW + 13 * 3_600_000,
          service: service([SERIES_PATH, CPI_SERIES]),
        })
      ).code,
    ).toBe(0);
    // Fetched anew at NOW + 13 h: one hour later a --max-age of 30m is past, of 2h is not.
    const later = NOW + 14 * 3_600_000;
    expect(
      (
        await data([...ARGS, '--max-age', '30m'], {
          cache,
          now: later,
          service: service([SERIES_PATH, CPI_SERIES]),
        })
      ).code,
    ).toBe(0);
    expect(
      (await data([...ARGS, '--max-age', '2h'], { cache, now: later + 60_000 })).requests,
    ).toEqual([]);
    // A month begins (June): the central bank may have published; the reply is fetched anew.
    const june = Date.parse('2026-06-01T00:00:01Z');
    expect(
      (
        await data([...ARGS, '--max-age', '30d'], {
          cache,
          now: june,
          service: service([SERIES_PATH, CPI_SERIES]),
        })
      ).code,
    ).toBe(0);
  });

  it.each(MODES)(
    'as %s, --json from the cache is the body exactly as received; another URL is another entry',
    async (_mode, tty) => {
      const cache = new MemoryCache();
      const raw = JSON.stringify(CPI_SERIES);
      await data(ARGS, { tty, cache, service: service([SERIES_PATH, { raw }]) });
      const json = await data([...ARGS, '--json'], { tty, cache });
      expect(json.requests).toEqual([]);
      expect(plain(json.stdout)).toBe(JSON.stringify(CPI_SERIES, null, 2) + '\n');
      const other = await data(['series', 'cpi', 'PCPI_IX', '--from', '2025-02'], {
        tty,
        cache,
        service: service(['/v1/data/cbank/cpi/series?from=2025-02&indicator=PCPI_IX', CPI_SERIES]),
      });
      expect(other.code).toBe(0);
      expect(cache.entries.size).toBe(2);
    },
  );

  it.each(MODES)(
    'as %s, latest and keys share /latest, whatever the order of the --param flags',
    async (_mode, tty) => {
      const cache = new MemoryCache();
      await data(['latest', 'cbs', '--param', 'a=1', '--param', 'b=2'], {
        tty,
        cache,
        service: service(['/v1/data/cbank/cbs/latest?a=1&b=2', envelope(CBS)]),
      });
      const keys = await data(['keys', 'cbs', '--param', 'b=2', '--param', 'a=1'], { tty, cache });
      expect(keys.code).toBe(0);
      expect(keys.requests).toEqual([]);
      expect(plain(keys.stdout)).toContain('CBS.RM');
    },
  );

  it.each(MODES)(
    'as %s, --no-cache sends a request and refreshes the entry; --max-age 0 does too',
    async (_mode, tty) => {
      const cache = new MemoryCache();
      const path = '/v1/data/cbank/interest-rates/latest';
      const url = `${BASE_URL}${path}`;
      await data(['latest', 'interest-rates'], {
        tty,
        cache,
        service: service([path, envelope(RATES)]),
      });
      const changed = envelope([{ ...RATES[0], value: 5.5 }]);
      const fresh = await data(['latest', 'interest-rates', '--no-cache'], {
        tty,
        cache,
        now: NOW + 60_000,
        service: service([path, changed]),
      });
      expect(fresh.code).toBe(0);
      expect(fresh.stderr).toBe(attributionOnStderr(tty));
      expect(plain(fresh.stdout)).toContain(tty ? '5.50' : '\t5.5\n');
      expect(cache.entries.get(url)).toMatchObject({
        fetched_at: new Date(NOW + 60_000).toISOString(),
        raw: JSON.stringify(changed),
      });
      expect(
        (
          await data(['latest', 'interest-rates', '--max-age', '0'], {
            tty,
            cache,
            now: NOW + 60_000,
            service: service([path, changed]),
          })
        ).code,
      ).toBe(0);
      const cached = await data(['latest', 'interest-rates', '--max-age', '1h'], {
        tty,
        cache,
        now: NOW + 120_000,
      });
      expect(cached.requests).toEqual([]);
      expect(plain(cached.stdout)).toContain(tty ? '5.50' : '\t5.5\n');
    },
  );

  it.each(MODES)(
    'as %s, a reply holding the API key is shown masked and never cached',
    async (_mode, tty) => {
      const cache = new MemoryCache();
      const leaky = envelope({
        month: '2026-02',
        line_items: [{ key: 'x', label: `echo ${KEY}`, value: 1, unit: 'NPR_mn' }],
      });
      for (let run = 0; run < 2; run++) {
        const r = await data(['latest', 'trade'], {
          tty,
          cache,
          service: service(['/v1/data/cbank/trade/latest', leaky]),
        });
        expect(r.code).toBe(0);
        expect(r.stdout + r.stderr).not.toContain(KEY);
        expect(r.stdout).toContain('echo svc_sk_test_');
      }
      expect(cache.entries.size).toBe(0);
    },
  );

  it.each(MODES)('as %s, a failed call is not cached', async (_mode, tty) => {
    const cache = new MemoryCache();
    const notFound = {
      status: 404,
      body: { error_code: 'NOT_FOUND', error_message: "No series 'nope' in cpi." },
    };
    for (let run = 0; run < 2; run++) {
      expect(
        (
          await data(['series', 'cpi', 'nope'], {
            tty,
            cache,
            service: service(['/v1/data/cbank/cpi/series?indicator=nope', notFound]),
          })
        ).code,
      ).toBe(5);
    }
    expect(cache.entries.size).toBe(0);
  });

  describe('on disk (SVC_CACHE_DIR)', () => {
    /** The reply cache of svc itself, in this folder. */
    const onDisk = (dir: string, args: string[], options: InProcessOptions = {}) =>
      data(args, { ...options, cache: 'disk', env: { SVC_CACHE_DIR: dir, ...options.env } });
    const freshDir = () => mkdtempSync(join(scratchDir(), 'cache-'));

    it('keeps each reply in a 0600 file in 0700 folders, in the profile’s folder, by URL, without the API key', async () => {
      const dir = freshDir();
      const raw = JSON.stringify(envelope(TRADE));
      await onDisk(dir, ['latest', 'trade'], {
        service: service(['/v1/data/cbank/trade/latest', { raw }]),
      });
      const folder = join(dir, 'replies', 'default');
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      const files = readdirSync(folder);
      expect(files).toHaveLength(1);
      const file = join(folder, files[0]!);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const text = readFileSync(file, 'utf8');
      expect(text).not.toContain(KEY);
      expect(JSON.parse(text)).toEqual({
        url: `${BASE_URL}/v1/data/cbank/trade/latest`,
        fetched_at: new Date(NOW).toISOString(),
        as_of: META.as_of,
        raw,
      });
      // The next run reads it back.
      const again = await onDisk(dir, ['latest', 'trade', '--json']);
      expect(again.requests).toEqual([]);
      expect(again.stdout).toBe(JSON.stringify(envelope(TRADE), null, 2) + '\n');
    });

    it.each(MODES)(
      'as %s, a cache folder that cannot be written costs a warning, not the result',
      async (_mode, tty) => {
        const notAFolder = join(freshDir(), 'file');
        writeFileSync(notAFolder, '');
        const r = await onDisk(notAFolder, ['latest', 'cpi'], {
          tty,
          columns: 240,
          service: service(['/v1/data/cbank/cpi/latest', envelope(CPI)]),
        });
        expect(r.code).toBe(0);
        expect(plain(r.stdout)).toContain('PCPI_IX');
        expect(r.stderr).toBe(
          'warning: could not write the reply cache (ENOTDIR); use --no-cache or set SVC_CACHE_DIR\n' +
            attributionOnStderr(tty),
        );
      },
    );

    it('--debug says which cache file answered', async () => {
      const dir = freshDir();
      await onDisk(dir, ['keys', 'pnl'], {
        service: service(['/v1/data/cbank/banking/pnl/latest', envelope(PNL)]),
      });
      const r = await onDisk(dir, ['keys', 'pnl', '--debug']);
      expect(r.requests).toEqual([]);
      expect(r.stderr).toMatch(
        new RegExp(
          `^debug: cache hit ${join(dir, 'replies', 'default')}/[0-9a-f]{28}\\.json$`,
          'm',
        ),
      );
      expect(r.stderr).not.toContain(KEY);
    });

    it('a cache folder others may write in is not used; --debug says why', async () => {
      const dir = freshDir();
      mkdirSync(join(dir, 'replies'), { mode: 0o777 });
      const { chmodSync } = await import('node:fs');
      chmodSync(join(dir, 'replies'), 0o777);
      for (let run = 0; run < 2; run++) {
        const r = await onDisk(dir, ['latest', 'cpi', '--debug'], {
          service: service(['/v1/data/cbank/cpi/latest', envelope(CPI)]),
        });
        expect(r.code).toBe(0);
        expect(r.stderr).toMatch(
          /^debug: reply cache not used: other users can write in .*replies \(mode 0777\)$/m,
        );
      }
    });
  });
});

// ---- quota ----------------------------------------------------------------------------------

describe('Data API quota', () => {
  const QUOTA_EXCEEDED = {
    error_type: 'RATE_LIMIT_ERROR',
    error_code: 'QUOTA_EXCEEDED',
    error_message: 'The monthly data_api quota of 500 is used up.',
    display_message: null,
    request_id: 'req_0123456789abcdef0123456789abcdef',
    suggested_action: 'Wait for the quota to reset or upgrade the plan.',
  };
  const refused = { status: 429, body: QUOTA_EXCEEDED };

  /**
   * The quota error in lines, with when usage resets: the same whether stdout is a terminal or a
   * pipe.
   */
  const QUOTA_LINES = [
    'error: QUOTA_EXCEEDED: The monthly data_api quota of 500 is used up.',
    'Wait for the quota to reset or upgrade the plan.',
    'Request ID: req_0123456789abcdef0123456789abcdef',
    'Usage resets at 2026-06-01 00:00 UTC (see `svc usage`).',
    '',
  ];

  it.each(MODES)(
    'as %s, a 429 QUOTA_EXCEEDED says when usage resets, from GET /v1/usage (exit 7)',
    async (_mode, tty) => {
      const r = await data(['latest', 'cpi', '--retries', '0'], {
        tty,
        service: service(
          ['/v1/data/cbank/cpi/latest', refused],
          ['/v1/usage', documented('usage')],
        ),
      });
      expect(r.code).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')).toEqual(QUOTA_LINES);
    },
  );

  it('with the default retries, the refused GET is sent once and usage asked once: a used-up quota is not retried, Retry-After or not', async () => {
    const r = await data(['latest', 'cpi'], {
      service: service(
        ['/v1/data/cbank/cpi/latest', { ...refused, headers: { 'retry-after': '3' } }],
        ['/v1/usage', documented('usage')],
      ),
    });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual(QUOTA_LINES);
    expect(r.requests.map((request) => request.path)).toEqual([
      '/v1/data/cbank/cpi/latest',
      '/v1/usage',
    ]);
    expect(r.waits).toEqual([]);
  });

  it('prefers the Data API counter’s own reset, where the usage reply has one', async () => {
    const usage = {
      ...documented('usage'),
      data_api: { quota: 500, used: 500, remaining: 0, resets_at: '2026-05-23T06:30:00Z' },
    };
    const r = await data(['series', 'cpi', 'PCPI_IX', '--retries', '0'], {
      service: service(
        ['/v1/data/cbank/cpi/series?indicator=PCPI_IX', refused],
        ['/v1/usage', usage],
      ),
    });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('Usage resets at 2026-05-23 06:30 UTC (see `svc usage`).\n');
  });

  it('a usage reply that fails or names no reset leaves the error as it is', async () => {
    for (const usage of [
      { status: 500, body: { error_code: 'API_ERROR', error_message: 'boom' } },
      { plan: 'sandbox' },
    ]) {
      const r = await data(['latest', 'cpi', '--retries', '0'], {
        service: service(['/v1/data/cbank/cpi/latest', refused], ['/v1/usage', usage]),
      });
      expect(r.code).toBe(7);
      expect(r.stderr).not.toContain('resets');
      expect(r.stderr.split('\n')[0]).toBe(
        'error: QUOTA_EXCEEDED: The monthly data_api quota of 500 is used up.',
      );
    }
  });

  it.each(['--json', '-o csv'])(
    'in a script, with %s stderr keeps the envelope alone, and usage is not asked',
    async (format) => {
      const r = await data(['series', 'cpi', 'PCPI_IX', ...format.split(' '), '--retries', '0'], {
        service: service(['/v1/data/cbank/cpi/series?indicator=PCPI_IX', refused]),
      });
      expect(r.code).toBe(7);
      expect(r.stdout).toBe('');
      expect(jsonLines(r.stderr)).toEqual([QUOTA_EXCEEDED]);
    },
  );

  it('as a person, with --json piped on: stderr is the error in lines, with when usage resets', async () => {
    const r = await data(['latest', 'cpi', '--json', '--retries', '0'], {
      tty: true,
      stdoutTTY: false,
      service: service(['/v1/data/cbank/cpi/latest', refused], ['/v1/usage', documented('usage')]),
    });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual(QUOTA_LINES);
  });
});
