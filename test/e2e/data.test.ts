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
const cbank = (f: DataFamily, leaf: string) => `/v1/data/cbank/${f.path}/${leaf}`;

describe('data latest', () => {
  it.each(DATA_FAMILIES.map((f) => [f.name, f] as const))('%s: one row per line item, by section, with the attribution', async (_name, f) => {
    const r = await data(['latest', f.name]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(await world.requests()).toMatchObject([{ method: 'GET', path: cbank(f, 'latest'), query: {} }]);

    const body = await direct(cbank(f, 'latest'));
    const lines = r.stdout.trimEnd().split('\n');
    const header = lines[0]!.split('\t');
    expect(header.slice(0, 6)).toEqual(['SECTION', 'PERIOD', 'KEY', 'ITEM', 'VALUE', 'UNIT']);
    const rows = lines.slice(1, 1 + body.data.items.length).map((line) => line.split('\t'));
    expect(rows.map((row) => row[2])).toEqual(body.data.items.map((i: any) => i.key));
    expect(rows.map((row) => row[0])).toEqual(body.data.items.map((i: any) => i.section));
    expect(rows.every((row) => row[1] === body.data.period)).toBe(true);
    expectAttribution(r.stdout, body.meta);
  });

  it('writes NPR millions with grouping and names the unit', async () => {
    const r = await data(['latest', 'balance-sheet']);
    const body = await direct(cbank(family('balance-sheet'), 'latest'));
    const deposits = body.data.items.find((i: any) => i.key === 'total-deposits');
    const row = r.stdout.split('\n').find((line) => line.includes('\ttotal-deposits\t'))!.split('\t');
    expect(row[4]).toBe(new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(deposits.value));
    expect(row[4]).toMatch(/^\d{1,2}(,\d\d)*,\d{3}\.\d\d$/);
    expect(row[5]).toBe('NPR millions');
  });

  it('shows each macro indicator with its source quote', async () => {
    const r = await data(['latest', 'macro']);
    expect(r.stdout.split('\n')[0]).toBe('SECTION\tPERIOD\tKEY\tITEM\tVALUE\tUNIT\tSOURCE QUOTE');
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
  it.each(DATA_FAMILIES.map((f) => [f.name, f] as const))('%s: period/value rows of one line item, by its selector parameter', async (_name, f) => {
    const r = await data(['series', f.name, f.example, '--from', '2024-01', '--to', '2025-01']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const [request] = await world.requests();
    expect(request).toMatchObject({ method: 'GET', path: cbank(f, 'series'), query: { [f.selector]: f.example, from: '2024-01', to: '2025-01' } });

    const body = await direct(`${cbank(f, 'series')}?${f.selector}=${encodeURIComponent(f.example)}&from=2024-01&to=2025-01`);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^PERIOD\tVALUE/);
    const rows = lines.slice(1, 13).map((line) => line.split('\t'));
    expect(rows.map((row) => row[0])).toEqual(Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}`));
    expect(rows.map((row) => Number(row[1]!.replaceAll(',', '')))).toEqual(body.data.points.map((p: any) => p.value));
    expect(lines).toHaveLength(1 + 12 + 2);
    expectAttribution(r.stdout, body.meta);
  });

  it('serves the P&L series too, which the service lists only as latest', async () => {
    const r = await data(['series', 'pnl', 'net-profit', '--from', '2026-01']);
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
  it.each(DATA_FAMILIES.map((f) => [f.name, f] as const))('%s: the selectors of /latest with labels and units', async (_name, f) => {
    const r = await data(['keys', f.name]);
    expect(r.code, r.stderr).toBe(0);
    expect(await world.requests()).toMatchObject([{ path: cbank(f, 'latest') }]);
    const body = await direct(cbank(f, 'latest'));
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`SECTION\t${f.selector.toUpperCase()}\tLABEL\tUNIT`);
    const rows = lines.slice(1, 1 + body.data.items.length).map((line) => line.split('\t'));
    expect(rows).toEqual(body.data.items.map((i: any) => [i.section, i.key, i.label, i.unit]));
    expectAttribution(r.stdout, body.meta);
  });

  it('lists keys for jq with -o ndjson', async () => {
    const r = await data(['keys', 'interest-rates', '-o', 'ndjson']);
    const keys = r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line).key);
    expect(keys).toEqual(expect.arrayContaining(['base-rate', 'spread-rate', 'wavg-deposit', 'wavg-credit']));
  });
});

describe('data snapshot', () => {
  it('shows every C4 indicator of the month asked for', async () => {
    const r = await data(['snapshot', '--month', '2025-06']);
    expect(r.code, r.stderr).toBe(0);
    expect(await world.requests()).toMatchObject([{ path: '/v1/data/cbank/banking/snapshot', query: { month: '2025-06' } }]);
    const body = await direct('/v1/data/cbank/banking/snapshot?month=2025-06');
    const rows = r.stdout.trimEnd().split('\n').slice(1, 1 + body.data.items.length).map((line) => line.split('\t'));
    expect(rows.map((row) => [row[1], row[2]])).toEqual(body.data.items.map((i: any) => ['2025-06', i.key]));
    expect(rows.map((row) => row[2])).toEqual(expect.arrayContaining(['capital-adequacy-ratio', 'npl-ratio', 'ccd-ratio']));
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
    [['series', 'cpi', 'overall', '--from', '2024-13'], /--from .*"2024-13"/],
    [['series', 'cpi', 'overall', '--from', '2024-1'], /--from .*"2024-1"/],
    [['series', 'cpi', 'overall', '--to', '2024-13'], /--to .*"2024-13"/],
    [['series', 'cpi', 'overall', '--to', '2024-1'], /--to .*"2024-1"/],
    [['series', 'cpi', 'overall', '--from', '2024-06', '--to', '2024-06'], /--from 2024-06 must come before --to 2024-06/],
    [['series', 'cpi', 'overall', '--from', '2025-01', '--to', '2024-06'], /--from 2025-01 must come before --to 2024-06/],
    [['snapshot', '--month', '2024-13'], /--month .*"2024-13"/],
    [['snapshot', '--month', '2024-1'], /--month .*"2024-1"/],
    [['latest', 'gold'], /unknown data family "gold" \(choose balance-sheet, pnl, credit, /],
    [['series', 'gold', 'x'], /unknown data family "gold"/],
    [['keys', 'Cpi'], /unknown data family "Cpi"/],
    [['series', 'cpi'], /missing argument SELECTOR: the indicator of one cpi series/],
    [['series', 'cpi', ''], /the indicator \(SELECTOR\) is empty/],
    [['latest', 'cpi', '--param', 'lang'], /--param takes name=value, not "lang"/],
    [['latest', 'cpi', '--max-age', 'forever'], /--max-age takes a duration/],
    [['series', 'cpi', 'overall', '--chart', '-o', 'csv'], /--chart .* -o csv/],
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
    expect(rows.map((row) => ({ period: row.period, value: Number(row.value) }))).toEqual(body.data.points);
    expect(r.stdout).not.toContain('Nepal Rastra Bank');
    expect(r.stderr.trimEnd().split('\n')).toEqual([body.meta.attribution, expect.stringContaining(`As of ${body.meta.as_of}`)]);
  });

  it('-o csv of the latest month parses back to the JSON line items', async () => {
    const r = await data(['latest', 'macro', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const body = await direct('/v1/data/cbank/macro/latest');
    const rows = parseCsv(r.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['section', 'period', 'key', 'label', 'value', 'unit', 'source_quote']);
    expect(rows.map((row) => ({ key: row.key, label: row.label, section: row.section, value: Number(row.value), unit: row.unit, source_quote: row.source_quote }))).toEqual(
      body.data.items.map((i: any) => ({ key: i.key, label: i.label, section: i.section, value: i.value, unit: i.unit, source_quote: i.source_quote })),
    );
    expect(rows.every((row) => row.period === body.data.period)).toBe(true);
    expect(r.stderr).toContain(body.meta.attribution);
  });

  it('-o ndjson gives the points and the line items as received, one per line', async () => {
    const series = await data(['series', 'trade', 'imports-cif', '--to', '2021-07', '-o', 'ndjson']);
    expect(series.code, series.stderr).toBe(0);
    const body = await direct('/v1/data/cbank/trade/series?key=imports-cif&to=2021-07');
    expect(series.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(body.data.points);
    expect(series.stderr).toBe('');

    const latest = await data(['latest', 'credit', '-o', 'ndjson']);
    const items = (await direct('/v1/data/cbank/banking/credit/latest')).data.items;
    expect(latest.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(items);
  });
});

describe('the reply cache', () => {
  it('answers a second call from the cache without a request, saying so on stderr', async () => {
    const cache = world.tempDir('svc-cache-');
    const first = await data(['series', 'cpi', 'overall', '--from', '2025-01'], { env: { SVC_CACHE_DIR: cache } });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(await dataRequests()).toHaveLength(1);
    await world.reset();

    const second = await data(['series', 'cpi', 'overall', '--from', '2025-01'], { env: { SVC_CACHE_DIR: cache } });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/^\(from the cache, fetched \d+ s ago; --no-cache fetches it anew\)\n$/);
    expect(await world.requests()).toEqual([]);

    // The same reply serves --json exactly as received; another URL is another entry.
    const json = await data(['series', 'cpi', 'overall', '--from', '2025-01', '--json'], { env: { SVC_CACHE_DIR: cache } });
    expect(JSON.parse(json.stdout)).toEqual(await direct('/v1/data/cbank/cpi/series?indicator=overall&from=2025-01'));
    await world.reset();
    await data(['series', 'cpi', 'overall', '--from', '2025-02'], { env: { SVC_CACHE_DIR: cache } });
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
    expect(r.stdout).toContain('overall');
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
    const resets = usage.quotas.find((q: any) => q.name === 'data_api').resets_at as string;
    const [date, time] = [resets.slice(0, 10), resets.slice(11, 16)];
    expect(r.stderr.split('\n')).toEqual([
      'error: QUOTA_EXCEEDED: The monthly data_api quota of 500 is used up.',
      'Wait for the quota to reset or upgrade the plan.',
      'Request ID: req_0123456789abcdef',
      `The Data API quota resets at ${date} ${time} UTC (see \`svc usage\`).`,
      '',
    ]);
    expect((await world.requests()).map((q) => q.path)).toEqual(['/v1/data/cbank/cpi/latest', '/v1/usage', '/v1/usage']);
  });

  it('with --json stderr keeps the envelope alone', async () => {
    await world.fault({ path: '/v1/data/', status: 429, json: QUOTA_EXCEEDED });
    const r = await data(['series', 'cpi', 'overall', '--json', '--retries', '0']);
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
      const periodOf = (v: number) => body.data.points.find((p: any) => p.value === v).period;
      expect(lines[0]).toBe(`Base rate (average) · base-rate · percent · monthly · 2021-01 to ${body.data.points.at(-1).period}`);
      // The chart itself fits; the title and the attribution are text the terminal may wrap.
      for (const line of lines.slice(1, -2)) expect([...line].length, line).toBeLessThanOrEqual(columns);
      const axis = lines.find((line) => /^\s*└─+$/.test(line))!;
      expect([...axis].length).toBeGreaterThanOrEqual(columns - 2);
      const ends = lines[lines.indexOf(axis) + 1]!;
      expect(ends.trim()).toMatch(new RegExp(`^2021-01 +${body.data.points.at(-1).period}$`));
      expect(plain(r.stdout)).toContain(`max ${max.toFixed(2)} (${periodOf(max)})`);
      expect(plain(r.stdout)).toContain(`min ${min.toFixed(2)} (${periodOf(min)})`);
      expect(lines.filter((line) => /[┤┼]/.test(line)).length).toBeGreaterThanOrEqual(10);
      expectAttribution(plain(r.stdout), body.meta);
    }
  });

  it('tables are boxed, grouped by section, with the month in the title and the attribution under them', async () => {
    const r = await terminal(`${svcCommand} data latest balance-sheet`, 120, { NO_COLOR: '1' });
    expect(r.code, r.stdout).toBe(0);
    const body = await direct('/v1/data/cbank/banking/balance-sheet/latest');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`${body.data.title} · ${body.data.period}`);
    expect(lines[1]).toBe('Capital and liabilities');
    expect(r.stdout).toContain('│ KEY ');
    expect(r.stdout).toContain('VALUE (NPR millions)');
    expect(lines).toContain('Assets');
    expect(r.stdout).not.toMatch(ANSI);
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
    await shows(/❯ vegetables +Vegetables/); // the list narrowed to the match, the pointer on it
    child.stdin.write('\r');
    const code = await closed;
    clearTimeout(killer);
    child.stdin.end();

    expect(code, plain(screen)).toBe(0);
    expect(plain(screen)).toContain('Vegetables · vegetables · index, 2014/15 = 100 · monthly · 2026-07 to');
    expect((await world.requests()).map((r) => [r.path, r.query])).toEqual([
      ['/v1/data/cbank/cpi/latest', {}],
      ['/v1/data/cbank/cpi/series', { indicator: 'vegetables', from: '2026-07' }],
    ]);
  });
});
