// `svc data` as the built binary against `svc mock`: one round trip per verb, checked against the
// mock's own reply, and what needs a real terminal (its width, a question in a pseudo-terminal).
// Every other check of the data commands runs in-process: test/commands/data.test.ts.
import { spawn } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { DATA_FAMILIES, type DataFamily } from '../../src/commands/data/families.js';
import {
  ANSI,
  baseEnv,
  type Result,
  ROOT,
  type RunOptions,
  svcCommand,
  useWorld,
} from './harness.js';

const world = useWorld();

/** `svc data …` with a fresh cache folder. */
function data(args: string[], options: RunOptions = {}): Promise<Result> {
  return world.svc(['data', ...args], {
    ...options,
    env: { SVC_CACHE_DIR: world.tempDir('svc-cache-'), ...options.env },
  });
}

/**
 * The reply the mock gives for a path, fetched directly (after the CLI's requests were checked).
 */
async function direct(path: string): Promise<any> {
  const reply = await fetch(`${world.mock.url}${path}`, {
    headers: { Authorization: `Bearer ${world.key().key}` },
  });
  expect(reply.status).toBe(200);
  return reply.json();
}

/**
 * The attribution, then its date, as the last lines (of stderr in a pipe, of the screen on a
 * terminal, which may have them wrapped between words).
 */
function expectAttribution(text: string, meta: { attribution: string; as_of: string }): void {
  const lines = text.trimEnd().split('\n');
  const start = lines.findIndex((line) => line !== '' && meta.attribution.startsWith(line));
  const tail = lines.slice(start).join(' ');
  expect(tail.startsWith(meta.attribution), tail).toBe(true);
  expect(tail.slice(meta.attribution.length)).toContain(`As of ${meta.as_of}`);
}

const family = (name: string) => DATA_FAMILIES.find((f) => f.name === name)!;
const cbank = (f: DataFamily, leaf: string, query: Record<string, string> = {}) => {
  const search = new URLSearchParams(query).toString();
  return `/v1/data/cbank/${f.path}/${leaf}${search ? `?${search}` : ''}`;
};

/** A value as the mock sent it (JSON.stringify's text): what a pipe's table shows. */
const asSent = (value: number) => JSON.stringify(value);

describe('one round trip per verb against svc mock', () => {
  it('latest: each macro indicator with its source quote', async () => {
    const r = await data(['latest', 'macro']);
    expect(r.code, r.stderr).toBe(0);
    expect(await world.requests()).toMatchObject([
      { method: 'GET', path: '/v1/data/cbank/macro/latest', query: {} },
    ]);
    expect(r.stdout.split('\n')[0]).toBe('MONTH\tINDICATOR\tITEM\tVALUE\tUNIT\tSOURCE QUOTE');
    const inflation = r.stdout.split('\n').find((line) => line.includes('\tinflation\t'))!;
    expect(inflation).toMatch(/\tThe y-o-y consumer price inflation stood at [\d.]+ percent in /);
    // In a pipe stdout keeps to the indicators; the attribution is said on stderr.
    const meta = (await direct('/v1/data/cbank/macro/latest')).meta;
    expect(r.stdout).not.toContain(meta.attribution);
    expectAttribution(r.stderr, meta);
  });

  it('series: one bank’s line item, month/value rows, what else `data` holds as fields', async () => {
    const f = family('bank-pnl');
    const r = await data([
      'series',
      f.name,
      f.example,
      '--from',
      '2024-01',
      '--to',
      '2025-01',
      '--bank',
      'NABIL',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const query = { line: f.example, from: '2024-01', to: '2025-01', bank: 'NABIL' };
    expect(await world.requests()).toMatchObject([
      { method: 'GET', path: cbank(f, 'series'), query },
    ]);

    const body = await direct(cbank(f, 'series', query));
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('MONTH\tVALUE (NPR millions)');
    const rows = lines.slice(1, 13).map((line) => line.split('\t'));
    expect(rows.map((row) => row[0])).toEqual(
      Array.from({ length: 12 }, (_, i) => `2024-${String(i + 1).padStart(2, '0')}`),
    );
    expect(body.data.points.map((p: any) => p.month)).toEqual(rows.map((row) => row[0]));
    expect(rows.map((row) => row[1])).toEqual(body.data.points.map((p: any) => asSent(p.value)));
    // The months alone, the last one last (`| tail -1`); what else `data` holds, then the
    // attribution, on stderr.
    expect(lines).toHaveLength(13);
    expect(r.stderr.split('\n')[0]).toBe(`data.bank: ${body.data.bank}`);
    expectAttribution(r.stderr, body.meta);
  });

  it('keys: the selectors of /latest, headed by the parameter they are passed as (cbs items call it code)', async () => {
    const f = family('cbs');
    const r = await data(['keys', f.name]);
    expect(r.code, r.stderr).toBe(0);
    expect(await world.requests()).toMatchObject([{ path: cbank(f, 'latest'), query: {} }]);
    const body = await direct(cbank(f, 'latest'));
    const items: any[] = body.data.accounts;
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('SECTION\tINDICATOR\tLABEL\tUNIT');
    expect(lines).toHaveLength(1 + items.length);
    expect(lines.slice(1, 1 + items.length).map((line) => line.split('\t'))).toEqual(
      items.map((i) => [i.section, i.code, i.label, i.unit === 'NPR_mn' ? 'NPR millions' : i.unit]),
    );
    expectAttribution(r.stderr, body.meta);
  });

  it('snapshot: every C4 indicator of the month asked for', async () => {
    const r = await data(['snapshot', '--month', '2025-06']);
    expect(r.code, r.stderr).toBe(0);
    expect(await world.requests()).toMatchObject([
      { path: '/v1/data/cbank/banking/snapshot', query: { month: '2025-06' } },
    ]);
    const body = await direct('/v1/data/cbank/banking/snapshot?month=2025-06');
    expect(body.data.month).toBe('2025-06');
    const items = body.data.indicators;
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('MONTH\tINDICATOR\tITEM\tVALUE (percent)\tGROUP');
    expect(lines).toHaveLength(1 + items.length);
    const rows = lines.slice(1, 1 + items.length).map((line) => line.split('\t'));
    expect(rows).toEqual(
      items.map((i: any) => ['2025-06', i.indicator, i.label, asSent(i.value), i.group]),
    );
    // The figures are those of the month asked for, not of the latest month.
    const latest = await direct('/v1/data/cbank/banking/indicators/latest');
    expect(rows.map((row) => row[3])).not.toEqual(
      latest.data.indicators.map((i: any) => asSent(i.value)),
    );
    expect(rows.map((row) => row[1])).toEqual(
      expect.arrayContaining(['capital-adequacy-ratio', 'npl-ratio', 'ccd-ratio']),
    );
    expectAttribution(r.stderr, body.meta);
  });
});

describe('in a real terminal', () => {
  const plain = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

  it('--chart is drawn as wide as the terminal the process finds itself in', async () => {
    const columns = 64;
    const r = await new Promise<Result>((resolve, reject) => {
      const child = spawn(
        'script',
        [
          '-qfec',
          `stty cols ${columns} rows 40; ${svcCommand} data series interest-rates base-rate --chart`,
          '/dev/null',
        ],
        {
          env: {
            ...baseEnv(world.dir),
            TERM: 'xterm-256color',
            SVC_BASE_URL: world.mock.url,
            SVC_API_KEY: world.key().key,
            SVC_CACHE_DIR: world.tempDir('svc-cache-'),
          },
          cwd: ROOT,
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ stdout: stdout.replaceAll('\r\n', '\n'), stderr: '', code });
      });
    });
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(ANSI); // colour on a terminal
    const lines = plain(r.stdout).trimEnd().split('\n');
    const body = await direct('/v1/data/cbank/interest-rates/series?metric=base-rate');
    expect(lines[0]).toBe(
      `Base rate (average) · base-rate · percent · 2021-01 to ${body.data.points.at(-1).month}`,
    );
    // Every line fits but the title: the chart, and the attribution wrapped between words.
    for (const line of lines.slice(1)) expect([...line].length, line).toBeLessThanOrEqual(columns);
    const axis = lines.find((line) => /^\s*└─+$/.test(line))!;
    expect([...axis].length).toBeGreaterThanOrEqual(columns - 2);
    expectAttribution(plain(r.stdout), body.meta);
  });

  it('a missing SELECTOR is picked from a searchable list built from /latest', async () => {
    const child = spawn(
      'script',
      ['-qfec', `stty cols 100 rows 40; ${svcCommand} data series cpi --from 2026-07`, '/dev/null'],
      {
        env: {
          ...baseEnv(world.dir),
          TERM: 'xterm-256color',
          NO_COLOR: '1',
          SVC_BASE_URL: world.mock.url,
          SVC_API_KEY: world.key().key,
          SVC_CACHE_DIR: world.tempDir('svc-cache-'),
        },
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
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
