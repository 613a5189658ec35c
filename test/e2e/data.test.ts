// `svc data`: the central bank's datasets, run as a script and as a person at a terminal would,
// against `svc mock`. Every test gets its own SVC_CACHE_DIR unless it tests the cache itself.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { DATA_FAMILIES, type DataFamily } from '../../src/commands/data/families.js';
import { ANSI, baseEnv, ROOT, STACK_LINE, svcCommand, useWorld, type Result, type RunOptions } from './harness.js';

const world = useWorld();

/** `svc data …` with a fresh cache folder (unless the options name one). */
function data(args: string[], options: RunOptions = {}): Promise<Result> {
  return world.svc(['data', ...args], { ...options, env: { SVC_CACHE_DIR: world.tempDir('svc-cache-'), ...options.env } });
}

/** The reply the mock gives for a path, fetched directly (after the CLI's requests were checked). */
async function direct(path: string): Promise<any> {
  const reply = await fetch(`${world.mock.url}${path}`, { headers: { Authorization: `Bearer ${world.key().key}` } });
  expect(reply.status).toBe(200);
  return reply.json();
}

const dataRequests = async () => (await world.requests()).filter((r) => r.path.startsWith('/v1/data/'));

function expectUsageError(result: Result, mentions: string | RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^error: /);
  expect(result.stderr).toMatch(mentions);
  expect(result.stderr).not.toMatch(STACK_LINE);
}

/** The last two lines of a table: the attribution and the date of the data. */
function expectAttribution(text: string, meta: { attribution: string; as_of: string }): void {
  const lines = text.trimEnd().split('\n');
  expect(lines.at(-2)).toBe(meta.attribution);
  expect(lines.at(-1)).toContain(`As of ${meta.as_of}`);
}

const family = (name: string) => DATA_FAMILIES.find((f) => f.name === name)!;
const cbank = (f: DataFamily, leaf: string, query: Record<string, string> = {}) => {
  const search = new URLSearchParams(query).toString();
  return `/v1/data/cbank/${f.path}/${leaf}${search ? `?${search}` : ''}`;
};

/** Amounts as svc writes them for people: Indian grouping, two decimals. */
const amount = (value: number) => new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
/** Unit codes as svc writes them for people: NPR_mn is NPR millions. */
const UNIT_WORDS: Record<string, string> = { NPR_mn: 'NPR millions', NPR_bn: 'NPR billions', USD_mn: 'USD millions' };
const unitWords = (unit: string) => UNIT_WORDS[unit] ?? unit;

/**
 * How the mock answers each family (the documents' shapes for cpi, interest-rates, pnl and
 * bank-pnl, its own for the rest: src/mock/fixtures/README.md), and what svc shows of it in a pipe.
 */
interface Layout {
  /** Where /latest lists its line items under `data`; null: `data` is the list. */
  list: string | null;
  /** The field naming each line item: a value of the series selector. */
  selector: string;
  /** The columns of `svc data latest` in a pipe: header, and the item field it shows. */
  columns: [header: string, field: string][];
  /** Where /series lists its months. */
  points: 'points' | 'observations';
  /** Fields of a series' `data` that svc shows under the table, as a FIELD/VALUE list. */
  seriesRest?: string[];
}

const LAYOUTS: Record<string, Layout> = {
  'balance-sheet': { list: 'line_items', selector: 'key', columns: [['SECTION', 'section'], ['KEY', 'key'], ['ITEM', 'label'], ['VALUE (NPR millions)', 'value']], points: 'points' },
  pnl: { list: 'line_items', selector: 'key', columns: [['SECTION', 'section'], ['KEY', 'key'], ['ITEM', 'label'], ['VALUE (NPR millions)', 'value'], ['CODE', 'code']], points: 'points' },
  credit: { list: 'line_items', selector: 'key', columns: [['KEY', 'key'], ['ITEM', 'label'], ['VALUE (NPR millions)', 'value'], ['BREAKDOWN', 'breakdown']], points: 'points', seriesRest: ['breakdown'] },
  indicators: { list: 'indicators', selector: 'indicator', columns: [['INDICATOR', 'indicator'], ['ITEM', 'label'], ['VALUE (percent)', 'value'], ['GROUP', 'group']], points: 'observations' },
  cbs: { list: 'accounts', selector: 'code', columns: [['SECTION', 'section'], ['CODE', 'code'], ['ITEM', 'label'], ['VALUE (NPR millions)', 'value']], points: 'observations' },
  cpi: { list: 'indicators', selector: 'indicator', columns: [['INDICATOR', 'indicator'], ['ITEM', 'label'], ['VALUE (index)', 'value'], ['SCALE', 'scale'], ['ABSOLUTE', 'absolute']], points: 'observations' },
  'interest-rates': { list: null, selector: 'metric', columns: [['METRIC', 'metric'], ['ITEM', 'label'], ['VALUE (percent)', 'value']], points: 'points' },
  trade: { list: 'line_items', selector: 'key', columns: [['KEY', 'key'], ['ITEM', 'label'], ['VALUE (NPR millions)', 'value'], ['FLOW', 'flow'], ['SITC SECTION', 'sitc_section']], points: 'points' },
  'bank-pnl': { list: 'line_items', selector: 'key', columns: [['SECTION', 'section'], ['KEY', 'key'], ['ITEM', 'line_item'], ['VALUE (NPR millions)', 'value'], ['BANK', 'bank'], ['CODE', 'code']], points: 'points', seriesRest: ['bank'] },
  macro: { list: 'indicators', selector: 'indicator', columns: [['INDICATOR', 'indicator'], ['ITEM', 'label'], ['VALUE', 'value'], ['UNIT', 'unit'], ['SOURCE QUOTE', 'source_quote']], points: 'observations' },
};

/** The line items of a /latest reply, where the family's layout says they are. */
const lineItems = (f: DataFamily, body: any): any[] => {
  const { list } = LAYOUTS[f.name]!;
  return list === null ? body.data : body.data[list];
};

/** A cell as svc writes it in a pipe: amounts grouped, units in words, anything else as text. */
function cell(item: any, field: string): string {
  if (field === 'value') return amount(item.value);
  if (field === 'unit') return unitWords(item.unit);
  return item[field] === null || item[field] === undefined ? '' : String(item[field]);
}

/** Every family as `latest` and `keys` take it, and bank-pnl for one bank as well as for all. */
const LATEST_CASES: [string, DataFamily, Record<string, string>][] = [
  ...DATA_FAMILIES.map((f): [string, DataFamily, Record<string, string>] => [f.name, f, {}]),
  ['bank-pnl --bank NABIL', family('bank-pnl'), { bank: 'NABIL' }],
];
const bankArgs = (query: Record<string, string>) => (query.bank ? ['--bank', query.bank] : []);

describe('data latest', () => {
  it.each(LATEST_CASES)('%s: one row per line item, by section, every field of it, with the attribution', async (_name, f, query) => {
    const r = await data(['latest', f.name, ...bankArgs(query)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(await world.requests()).toMatchObject([{ method: 'GET', path: cbank(f, 'latest'), query }]);

    const body = await direct(cbank(f, 'latest', query));
    const { columns, selector } = LAYOUTS[f.name]!;
    const items = lineItems(f, body);
    expect(items.length).toBeGreaterThan(0);
    const lines = r.stdout.trimEnd().split('\n');
    // One header line, one line per item, the attribution. In a pipe the month every row shares is
    // the first column (interest-rates, a bare list, has none); on a terminal it is the title (below).
    const month: string | undefined = body.data.month;
    const shared = month ? [month] : [];
    expect(lines).toHaveLength(1 + items.length + 2);
    expect(lines[0]!.split('\t')).toEqual([...(month ? ['MONTH'] : []), ...columns.map(([header]) => header)]);
    const rows = lines.slice(1, 1 + items.length).map((line) => line.split('\t'));
    expect(rows).toEqual(items.map((i) => [...shared, ...columns.map(([, field]) => cell(i, field))]));
    expect(rows.map((row) => row[shared.length + columns.findIndex(([, field]) => field === selector)])).toEqual(items.map((i) => i[selector]));
    if (query.bank) expect(items.every((i) => i.bank === query.bank)).toBe(true);
    expectAttribution(r.stdout, body.meta);
  });

  it('writes NPR millions with grouping and names the unit', async () => {
    const r = await data(['latest', 'balance-sheet']);
    const body = await direct(cbank(family('balance-sheet'), 'latest'));
    expect(body.data.line_items.every((i: any) => i.unit === 'NPR_mn')).toBe(true);
    const deposits = body.data.line_items.find((i: any) => i.key === 'total-deposits');
    // MONTH, SECTION, KEY, ITEM, VALUE
    const row = r.stdout.split('\n').find((line) => line.includes('\ttotal-deposits\t'))!.split('\t');
    expect(row[4]).toBe(new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(deposits.value));
    expect(row[4]).toMatch(/^\d{1,2}(,\d\d)*,\d{3}\.\d\d$/);
    // Every row has the same unit: it is named once, in the header of the values.
    expect(r.stdout.split('\n')[0]!.split('\t')[4]).toBe('VALUE (NPR millions)');
  });

  it('shows each macro indicator with its source quote', async () => {
    const r = await data(['latest', 'macro']);
    expect(r.stdout.split('\n')[0]).toBe('MONTH\tINDICATOR\tITEM\tVALUE\tUNIT\tSOURCE QUOTE');
    const inflation = r.stdout.split('\n').find((line) => line.includes('\tinflation\t'))!;
    expect(inflation).toMatch(/\tThe y-o-y consumer price inflation stood at [\d.]+ percent in /);
  });

  it('--json is the envelope as received', async () => {
    const r = await data(['latest', 'cpi', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(await direct(cbank(family('cpi'), 'latest')));
    expect(r.stdout.startsWith('{\n  "data": {')).toBe(true);
  });

  it('--param adds query parameters', async () => {
    const r = await data(['latest', 'trade', '--param', 'lang=en', '--param', 'lang=ne', '--param', 'basis=provisional']);
    expect(r.code, r.stderr).toBe(0);
    expect((await world.requests())[0]!.query).toEqual({ lang: 'ne', basis: 'provisional' });
  });
});

describe('data series', () => {
  // A series of bank-pnl is one bank's: the service needs the bank (see the next test).
  const SERIES_CASES = DATA_FAMILIES.map((f): [string, DataFamily, Record<string, string>] => [f.perBank ? `${f.name} --bank NABIL` : f.name, f, f.perBank ? { bank: 'NABIL' } : {}]);

  it.each(SERIES_CASES)('%s: month/value rows of one line item, by its selector parameter', async (_name, f, bank) => {
    const r = await data(['series', f.name, f.example, '--from', '2024-01', '--to', '2025-01', ...bankArgs(bank)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const query = { [f.selector]: f.example, from: '2024-01', to: '2025-01', ...bank };
    expect(await world.requests()).toMatchObject([{ method: 'GET', path: cbank(f, 'series'), query }]);

    const body = await direct(cbank(f, 'series', query));
    const { points, seriesRest = [] } = LAYOUTS[f.name]!;
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`MONTH\tVALUE (${unitWords(body.data.unit)})`);
    const rows = lines.slice(1, 13).map((line) => line.split('\t'));
    expect(rows.map((row) => row[0])).toEqual(Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}`));
    expect(body.data[points].map((p: any) => p.month)).toEqual(rows.map((row) => row[0]));
    expect(rows.map((row) => row[1])).toEqual(body.data[points].map((p: any) => amount(p.value)));
    // What `data` holds beside the points, the selector, the label and the unit follows as fields.
    const rest = seriesRest.length ? ['', 'FIELD\tVALUE', ...seriesRest.map((name) => `data.${name}\t${body.data[name]}`)] : [];
    expect(lines.slice(13, -2)).toEqual(rest);
    expect(lines).toHaveLength(1 + 12 + rest.length + 2);
    expectAttribution(r.stdout, body.meta);
  });

  it('bank-pnl without --bank sends no bank and passes on the service’s refusal (exit 6)', async () => {
    const f = family('bank-pnl');
    const r = await data(['series', f.name, f.example]);
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: INVALID_REQUEST: 'bank' is required/);
    expect((await world.requests()).map((q) => [q.path, q.query])).toEqual([[cbank(f, 'series'), { line: f.example }]]);
  });

  it('serves the P&L series too, which the service lists only as latest', async () => {
    const r = await data(['series', 'pnl', 'profit.net-profit', '--from', '2026-01']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^2026-01\t/);
  });

  it('an unknown selector is the service’s 404 (exit 5)', async () => {
    const r = await data(['series', 'cpi', 'gold-price']);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: NOT_FOUND: No series 'gold-price' in cpi/);
  });

  it('--param overrides the selector and the bounds', async () => {
    const r = await data(['series', 'interest-rates', 'base-rate', '--from', '2024-01', '--param', 'metric=wavg-credit', '--param', 'from=2025-01']);
    expect(r.code, r.stderr).toBe(0);
    expect((await world.requests())[0]!.query).toEqual({ metric: 'wavg-credit', from: '2025-01' });
    expect(r.stdout.split('\n')[1]).toMatch(/^2025-01\t/);
  });

  it('needs no SELECTOR argument when --param names it', async () => {
    const r = await data(['series', 'cbs', '--param', 'indicator=CBS.RM', '--from', '2026-06']);
    expect(r.code, r.stderr).toBe(0);
    expect((await world.requests())[0]!.query).toEqual({ indicator: 'CBS.RM', from: '2026-06' });
  });
});

describe('data keys', () => {
  it.each(LATEST_CASES)('%s: the selectors of /latest with labels and units', async (_name, f, query) => {
    const r = await data(['keys', f.name, ...bankArgs(query)]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(await world.requests()).toMatchObject([{ path: cbank(f, 'latest'), query }]);
    const body = await direct(cbank(f, 'latest', query));
    const { columns, selector } = LAYOUTS[f.name]!;
    const sections = columns.some(([, field]) => field === 'section');
    const items = lineItems(f, body);
    const lines = r.stdout.trimEnd().split('\n');
    // The selector column is named by the query parameter the value is passed as (cbs items carry
    // theirs as `code`, bank-pnl items as `key`).
    expect(lines[0]).toBe([...(sections ? ['SECTION'] : []), f.selector.toUpperCase(), 'LABEL', 'UNIT'].join('\t'));
    expect(lines).toHaveLength(1 + items.length + 2);
    const rows = lines.slice(1, 1 + items.length).map((line) => line.split('\t'));
    expect(rows).toEqual(items.map((i) => [...(sections ? [i.section] : []), i[selector], i.label ?? i.line_item, unitWords(i.unit)]));
    expectAttribution(r.stdout, body.meta);
  });

  it('lists keys for jq with -o ndjson: the line items as received', async () => {
    const r = await data(['keys', 'interest-rates', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const records = r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(records).toEqual((await direct(cbank(family('interest-rates'), 'latest'))).data);
    expect(records.map((i) => i.metric)).toEqual(expect.arrayContaining(['base-rate', 'spread-rate', 'wavg-deposit', 'wavg-credit']));
  });
});

describe('data snapshot', () => {
  it('shows every C4 indicator of the month asked for', async () => {
    const r = await data(['snapshot', '--month', '2025-06']);
    expect(r.code, r.stderr).toBe(0);
    expect(await world.requests()).toMatchObject([{ path: '/v1/data/cbank/banking/snapshot', query: { month: '2025-06' } }]);
    const body = await direct('/v1/data/cbank/banking/snapshot?month=2025-06');
    expect(body.data.month).toBe('2025-06');
    const items = body.data.indicators;
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('MONTH\tINDICATOR\tITEM\tVALUE (percent)\tGROUP');
    expect(lines).toHaveLength(1 + items.length + 2);
    const rows = lines.slice(1, 1 + items.length).map((line) => line.split('\t'));
    expect(rows).toEqual(items.map((i: any) => ['2025-06', i.indicator, i.label, amount(i.value), i.group]));
    // The figures are those of the month asked for, not of the latest month.
    const latest = await direct('/v1/data/cbank/banking/indicators/latest');
    expect(rows.map((row) => row[3])).not.toEqual(latest.data.indicators.map((i: any) => amount(i.value)));
    expect(rows.map((row) => row[1])).toEqual(expect.arrayContaining(['capital-adequacy-ratio', 'npl-ratio', 'ccd-ratio']));
    expectAttribution(r.stdout, body.meta);
  });

  it('asks for the latest month when none is given', async () => {
    const r = await data(['snapshot']);
    expect(r.code, r.stderr).toBe(0);
    expect((await world.requests())[0]!.query).toEqual({});
  });

  it('a month without data is the service’s 404 (exit 5)', async () => {
    const r = await data(['snapshot', '--month', '2019-01']);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^error: NOT_FOUND: No snapshot for 2019-01/);
  });
});

describe('checks before any request (exit 2)', () => {
  it.each([
    [['series', 'cpi', 'PCPI_IX', '--from', '2024-13'], /--from .*"2024-13"/],
    [['series', 'cpi', 'PCPI_IX', '--from', '2024-1'], /--from .*"2024-1"/],
    [['series', 'cpi', 'PCPI_IX', '--to', '2024-13'], /--to .*"2024-13"/],
    [['series', 'cpi', 'PCPI_IX', '--to', '2024-1'], /--to .*"2024-1"/],
    [['series', 'cpi', 'PCPI_IX', '--from', '2024-06', '--to', '2024-06'], /--from 2024-06 must come before --to 2024-06/],
    [['series', 'cpi', 'PCPI_IX', '--from', '2025-01', '--to', '2024-06'], /--from 2025-01 must come before --to 2024-06/],
    [['snapshot', '--month', '2024-13'], /--month .*"2024-13"/],
    [['snapshot', '--month', '2024-1'], /--month .*"2024-1"/],
    [['latest', 'gold'], /unknown data family "gold" \(choose balance-sheet, pnl, credit, /],
    [['series', 'gold', 'x'], /unknown data family "gold"/],
    [['keys', 'Cpi'], /unknown data family "Cpi"/],
    [['series', 'cpi'], /missing argument SELECTOR: the indicator of one cpi series/],
    [['series', 'cpi', ''], /the indicator \(SELECTOR\) is empty/],
    [['latest', 'cpi', '--param', 'lang'], /--param takes name=value, not "lang"/],
    [['latest', 'cpi', '--max-age', 'forever'], /--max-age takes a duration/],
    [['series', 'cpi', 'PCPI_IX', '--chart', '-o', 'csv'], /--chart .* -o csv/],
  ])('svc data %j', async (args, mentions) => {
    expectUsageError(await data(args), mentions);
    expect(await world.requests()).toEqual([]);
  });

  it('without a terminal a missing SELECTOR names the argument and how to list them', async () => {
    const r = await data(['series', 'interest-rates']);
    expectUsageError(r, /SELECTOR/);
    expect(r.stderr).toContain('svc data keys interest-rates');
  });
});

describe('machine formats', () => {
  it('-o csv of a series parses back to the JSON values; the attribution goes to stderr', async () => {
    const r = await data(['series', 'cbs', 'CBS.RM', '--from', '2025-01', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const body = await direct('/v1/data/cbank/cbs/series?indicator=CBS.RM&from=2025-01');
    const rows = parseCsv(r.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['month', 'value']);
    expect(rows.map((row) => ({ month: row.month, value: Number(row.value) }))).toEqual(body.data.observations);
    expect(r.stdout).not.toContain('Nepal Rastra Bank');
    expect(r.stderr.trimEnd().split('\n')).toEqual([body.meta.attribution, expect.stringContaining(`As of ${body.meta.as_of}`)]);
  });

  it('-o csv of the latest month parses back to the JSON line items, every field of them', async () => {
    const r = await data(['latest', 'macro', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const body = await direct('/v1/data/cbank/macro/latest');
    const rows = parseCsv(r.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['indicator', 'label', 'value', 'unit', 'source_quote']);
    expect(rows.map((row) => ({ ...row, value: Number(row.value) }))).toEqual(body.data.indicators);
    expect(r.stderr).toContain(body.meta.attribution);
  });

  it('-o ndjson gives the points and the line items as received, one per line', async () => {
    const series = await data(['series', 'trade', 'imports-cif', '--to', '2021-07', '-o', 'ndjson']);
    expect(series.code, series.stderr).toBe(0);
    const body = await direct('/v1/data/cbank/trade/series?key=imports-cif&to=2021-07');
    expect(series.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(body.data.points);
    expect(series.stderr).toBe('');

    const latest = await data(['latest', 'credit', '-o', 'ndjson']);
    const items = (await direct('/v1/data/cbank/banking/credit/latest')).data.line_items;
    expect(latest.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(items);
  });
});

describe('the reply cache', () => {
  it('answers a second call from the cache without a request, saying so on stderr', async () => {
    const cache = world.tempDir('svc-cache-');
    const first = await data(['series', 'cpi', 'PCPI_IX', '--from', '2025-01'], { env: { SVC_CACHE_DIR: cache } });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(await dataRequests()).toHaveLength(1);
    await world.reset();

    const second = await data(['series', 'cpi', 'PCPI_IX', '--from', '2025-01'], { env: { SVC_CACHE_DIR: cache } });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/^\(from the cache, fetched \d+ s ago; --no-cache fetches it anew\)\n$/);
    expect(await world.requests()).toEqual([]);

    // The same reply serves --json exactly as received; another URL is another entry.
    const json = await data(['series', 'cpi', 'PCPI_IX', '--from', '2025-01', '--json'], { env: { SVC_CACHE_DIR: cache } });
    expect(JSON.parse(json.stdout)).toEqual(await direct('/v1/data/cbank/cpi/series?indicator=PCPI_IX&from=2025-01'));
    await world.reset();
    await data(['series', 'cpi', 'PCPI_IX', '--from', '2025-02'], { env: { SVC_CACHE_DIR: cache } });
    expect(await dataRequests()).toHaveLength(1);
  });

  it('shares /latest between latest and keys, and orders --param flags out of the key', async () => {
    const cache = world.tempDir('svc-cache-');
    await data(['latest', 'cbs', '--param', 'a=1', '--param', 'b=2'], { env: { SVC_CACHE_DIR: cache } });
    await data(['keys', 'cbs', '--param', 'b=2', '--param', 'a=1'], { env: { SVC_CACHE_DIR: cache } });
    expect(await dataRequests()).toHaveLength(1);
  });

  it('--no-cache sends one request and refreshes the entry; --max-age 0 does too', async () => {
    const cache = world.tempDir('svc-cache-');
    const args = ['latest', 'interest-rates'];
    await data(args, { env: { SVC_CACHE_DIR: cache } });
    await world.reset();
    const fresh = await data([...args, '--no-cache'], { env: { SVC_CACHE_DIR: cache } });
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toBe('');
    expect(await dataRequests()).toHaveLength(1);
    await world.reset();
    await data([...args, '--max-age', '0'], { env: { SVC_CACHE_DIR: cache } });
    expect(await dataRequests()).toHaveLength(1);
    await world.reset();
    await data([...args, '--max-age', '1h'], { env: { SVC_CACHE_DIR: cache } });
    expect(await dataRequests()).toHaveLength(0);
  });

  it('keeps each reply in a 0600 file, per profile and URL, without the API key', async () => {
    const cache = world.tempDir('svc-cache-');
    await data(['latest', 'trade'], { env: { SVC_CACHE_DIR: cache } });
    const folder = join(cache, 'replies', 'default');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    expect(files).toHaveLength(1);
    const file = join(folder, files[0]!);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(world.key().key);
    const entry = JSON.parse(text);
    expect(entry.url).toBe(`${world.mock.url}/v1/data/cbank/trade/latest`);
    expect(JSON.parse(entry.raw)).toEqual(await direct('/v1/data/cbank/trade/latest'));
  });

  it('an unwritable cache folder costs a warning, not the result', async () => {
    const notAFolder = join(world.tempDir('svc-cache-'), 'file');
    writeFileSync(notAFolder, '');
    const r = await data(['latest', 'cpi'], { env: { SVC_CACHE_DIR: notAFolder } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('PCPI_IX');
    expect(r.stderr).toMatch(/^warning: could not write the reply cache \(ENOTDIR\); use --no-cache or set SVC_CACHE_DIR\n$/);
  });

  it('--debug says which cache file answered', async () => {
    const cache = world.tempDir('svc-cache-');
    await data(['keys', 'pnl'], { env: { SVC_CACHE_DIR: cache } });
    const r = await data(['keys', 'pnl', '--debug'], { env: { SVC_CACHE_DIR: cache } });
    expect(r.stderr).toContain(`debug: cache hit ${join(cache, 'replies', 'default')}/`);
    expect(r.stderr).not.toContain(world.key().key);
  });

  it('does not cache a failed call', async () => {
    const cache = world.tempDir('svc-cache-');
    await data(['series', 'cpi', 'nope'], { env: { SVC_CACHE_DIR: cache } });
    await data(['series', 'cpi', 'nope'], { env: { SVC_CACHE_DIR: cache } });
    expect(await dataRequests()).toHaveLength(2);
  });
});

describe('Data API quota', () => {
  const QUOTA_EXCEEDED = {
    error_type: 'RATE_LIMIT_ERROR',
    error_code: 'QUOTA_EXCEEDED',
    error_message: 'The monthly data_api quota of 500 is used up.',
    display_message: null,
    request_id: 'req_0123456789abcdef',
    suggested_action: 'Wait for the quota to reset or upgrade the plan.',
  };

  it('a 429 QUOTA_EXCEEDED says when the quota resets, from GET /v1/usage (exit 7)', async () => {
    await world.fault({ path: '/v1/data/', status: 429, json: QUOTA_EXCEEDED });
    const r = await data(['latest', 'cpi', '--retries', '0']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    const usage = await direct('/v1/usage');
    // The Data API counter's own date where the reply has one, else the documented `resets_at`.
    const resets = (usage.data_api?.resets_at ?? usage.resets_at) as string;
    expect(resets).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    const [date, time] = [resets.slice(0, 10), resets.slice(11, 16)];
    expect(r.stderr.split('\n')).toEqual([
      'error: QUOTA_EXCEEDED: The monthly data_api quota of 500 is used up.',
      'Wait for the quota to reset or upgrade the plan.',
      'Request ID: req_0123456789abcdef',
      `Usage resets at ${date} ${time} UTC (see \`svc usage\`).`,
      '',
    ]);
    expect((await world.requests()).map((q) => q.path)).toEqual(['/v1/data/cbank/cpi/latest', '/v1/usage', '/v1/usage']);
  });

  it('with --json stderr keeps the envelope alone', async () => {
    await world.fault({ path: '/v1/data/', status: 429, json: QUOTA_EXCEEDED });
    const r = await data(['series', 'cpi', 'PCPI_IX', '--json', '--retries', '0']);
    expect(r.code).toBe(7);
    expect(r.stderr.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual([QUOTA_EXCEEDED]);
  });
});

describe('on a terminal', () => {
  /** Runs a command in a pseudo-terminal of the given width. */
  function terminal(command: string, columns: number, env: Record<string, string> = {}): Promise<Result> {
    return new Promise((resolve, reject) => {
      const child = spawn('script', ['-qfec', `stty cols ${columns} rows 40; ${command}`, '/dev/null'], {
        env: { ...baseEnv(world.dir), TERM: 'xterm-256color', SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key, SVC_CACHE_DIR: world.tempDir('svc-cache-'), ...env },
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ stdout: stdout.replaceAll('\r\n', '\n'), stderr: '', code });
      });
    });
  }

  const plain = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

  it('--chart draws a line chart as wide as the terminal, with its ends and extremes named', async () => {
    for (const columns of [100, 64]) {
      const r = await terminal(`${svcCommand} data series interest-rates base-rate --chart`, columns);
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toMatch(ANSI); // colour on a terminal
      const lines = plain(r.stdout).trimEnd().split('\n');
      const body = await direct('/v1/data/cbank/interest-rates/series?metric=base-rate');
      const values: number[] = body.data.points.map((p: any) => p.value);
      const max = Math.max(...values);
      const min = Math.min(...values);
      const monthOf = (v: number) => body.data.points.find((p: any) => p.value === v).month;
      expect(lines[0]).toBe(`Base rate (average) · base-rate · percent · 2021-01 to ${body.data.points.at(-1).month}`);
      // The chart itself fits; the title and the attribution are text the terminal may wrap.
      for (const line of lines.slice(1, -2)) expect([...line].length, line).toBeLessThanOrEqual(columns);
      const axis = lines.find((line) => /^\s*└─+$/.test(line))!;
      expect([...axis].length).toBeGreaterThanOrEqual(columns - 2);
      const ends = lines[lines.indexOf(axis) + 1]!;
      expect(ends.trim()).toMatch(new RegExp(`^2021-01 +${body.data.points.at(-1).month}$`));
      expect(plain(r.stdout)).toContain(`max ${max.toFixed(2)} (${monthOf(max)})`);
      expect(plain(r.stdout)).toContain(`min ${min.toFixed(2)} (${monthOf(min)})`);
      expect(lines.filter((line) => /[┤┼]/.test(line)).length).toBeGreaterThanOrEqual(10);
      expectAttribution(plain(r.stdout), body.meta);
    }
  });

  it('tables are boxed, grouped by section, with the month in the title and the attribution under them', async () => {
    const r = await terminal(`${svcCommand} data latest balance-sheet`, 120, { NO_COLOR: '1' });
    expect(r.code, r.stdout).toBe(0);
    const body = await direct('/v1/data/cbank/banking/balance-sheet/latest');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(body.data.month);
    expect(lines[1]).toBe('Capital and liabilities');
    expect(r.stdout).toContain('│ KEY ');
    expect(r.stdout).toContain('VALUE (NPR millions)');
    expect(lines).toContain('Assets');
    expect(r.stdout).not.toMatch(ANSI);
    expectAttribution(r.stdout, body.meta);
  });

  it.each(LATEST_CASES)('%s: the month of the data, and the bank asked for, title the table', async (_name, f, query) => {
    const r = await terminal([svcCommand, 'data', 'latest', f.name, ...bankArgs(query)].join(' '), 200, { NO_COLOR: '1' });
    expect(r.code, r.stdout).toBe(0);
    const body = await direct(cbank(f, 'latest', query));
    const lines = r.stdout.trimEnd().split('\n');
    // interest-rates' `data` is the list alone, with no month to show.
    if (Array.isArray(body.data)) expect(lines[0]).toMatch(/^┌─/);
    else expect(lines[0]).toBe([body.data.month, ...(query.bank ? [body.data.bank] : [])].join(' · '));
    const { selector } = LAYOUTS[f.name]!;
    for (const i of lineItems(f, body)) expect(lines.some((line) => line.startsWith(`│ ${i[selector]} `)), i[selector]).toBe(true);
    expectAttribution(r.stdout, body.meta);
  });

  it('a missing SELECTOR is picked from a searchable list built from /latest', async () => {
    const child = spawn('script', ['-qfec', `stty cols 100 rows 40; ${svcCommand} data series cpi --from 2026-07`, '/dev/null'], {
      env: { ...baseEnv(world.dir), TERM: 'xterm-256color', NO_COLOR: '1', SVC_BASE_URL: world.mock.url, SVC_API_KEY: world.key().key, SVC_CACHE_DIR: world.tempDir('svc-cache-') },
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // Keys are typed when the screen shows what a person would wait for, never after a delay.
    let screen = '';
    let waiting: { pattern: RegExp; resolve: () => void } | undefined;
    child.stdout.setEncoding('utf8').on('data', (d) => {
      screen += d;
      if (waiting && waiting.pattern.test(plain(screen))) waiting.resolve();
    });
    const shows = (pattern: RegExp) =>
      new Promise<void>((resolve) => {
        waiting = { pattern, resolve };
        if (pattern.test(plain(screen))) resolve();
      });
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));

    await shows(/Which indicator of cpi\?/);
    child.stdin.write('vegeta');
    // The list shows the SDMX codes with their labels; it narrowed to the match, the pointer on it.
    await shows(/❯ PCPI_CP_0117_IX +Vegetables, index/);
    child.stdin.write('\r');
    const code = await closed;
    clearTimeout(killer);
    child.stdin.end();

    expect(code, plain(screen)).toBe(0);
    expect(plain(screen)).toContain('Vegetables, index · PCPI_CP_0117_IX · index · 2026-07 to');
    expect((await world.requests()).map((r) => [r.path, r.query])).toEqual([
      ['/v1/data/cbank/cpi/latest', {}],
      ['/v1/data/cbank/cpi/series', { indicator: 'PCPI_CP_0117_IX', from: '2026-07' }],
    ]);
  });
});
