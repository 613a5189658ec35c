// `svc` in-process against a service that is not its own mock (../support/foreign-server.ts):
// documented shapes where the documentation shows one, other field names than the mock's everywhere
// else. Every command that reads a reply must work unchanged (docs/reference/output.md, "Reading
// replies"): exit 0, documented values shown, --json exactly as received, CSV and NDJSON well
// formed. Exit 10 only for a success that is not JSON or lacks the structure the command walks.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { baseEnv, STACK_LINE, TINY_PDF } from '../e2e/harness.js';
import {
  FOREIGN_IDS,
  FOREIGN_KEYS,
  type ForeignRequest,
  type ForeignServer,
  KNOWN_TERMINAL,
  startForeignServer,
} from '../support/foreign-server.js';
import { svcAgainst } from '../support/in-process.js';

type Result = Awaited<ReturnType<typeof svcAgainst>>;

let server: ForeignServer;
let pdf: string;
const temps: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-foreign-'));
  temps.push(dir);
  return dir;
}

beforeAll(async () => {
  server = await startForeignServer();
  pdf = join(tempDir(), 'statement.pdf');
  writeFileSync(pdf, TINY_PDF);
});

afterAll(async () => {
  await server?.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/**
 * A key of the given form that no other run uses: the server treats it as a plain key of its mode,
 * and a run's requests are told apart from those of runs going on at the same time by it.
 */
function freshKey(prefix: 'svc_sk_test_' | 'sk_test_' | 'sk_live_' = 'svc_sk_test_'): string {
  return `${prefix}${randomBytes(16).toString('hex')}`;
}

interface SvcOptions {
  /** The API key in SVC_API_KEY (default: a fresh test key). */
  key?: string;
  /** No SVC_API_KEY at all. */
  noKey?: boolean;
  env?: Record<string, string | undefined>;
  input?: string;
  configDir?: string;
}

/**
 * svc, in-process as a script, against the foreign server, with a fresh config and cache folder
 * unless one is given.
 */
async function svc(args: string[], options: SvcOptions = {}): Promise<Result> {
  const key = options.noKey ? undefined : (options.key ?? freshKey());
  const env: Record<string, string | undefined> = {
    ...baseEnv(options.configDir ?? tempDir()),
    SVC_BASE_URL: server.url,
    SVC_API_KEY: key,
    ...options.env,
  };
  for (const name of Object.keys(env)) if (env[name] === undefined) delete env[name];
  const result = await svcAgainst(args, env, { stdin: options.input });
  // Every run is also a secrets test: the key in use never appears in full.
  if (key && key.length >= 12) expect(`${result.stdout}${result.stderr}`).not.toContain(key);
  return result;
}

/**
 * Runs svc and returns the requests the server received meanwhile that carry its key (the key is
 * fresh unless given or left out; without a key, every request received meanwhile).
 */
async function svcSeen(
  args: string[],
  options: SvcOptions = {},
): Promise<{ result: Result; seen: ForeignRequest[] }> {
  const key = options.noKey ? undefined : (options.key ?? freshKey());
  const start = server.requests.length;
  const result = await svc(args, { ...options, key });
  const seen = server.requests.slice(start);
  return {
    result,
    seen:
      key === undefined ? seen : seen.filter((r) => r.headers.authorization === `Bearer ${key}`),
  };
}

const BAD_WORDS = /undefined|NaN|\[object Object\]/;
const BARE_NULL = /\bnull\b/;

const ATTRIBUTION =
  'Source: Central Bank — Monthly Banking Statistics (Table C6). Republished by the service with attribution.';
const CPI_ATTRIBUTION =
  'Source: Central Bank — Consumer Price Index, SDMX feed (CPI). Republished with attribution.';

interface Case {
  name: string;
  args: string[];
  /** The request whose reply --json must print. */
  method: 'GET' | 'POST';
  path: string;
  /** Values the table must show. */
  shows: string[];
  /**
   * Values a script is told on stderr, not on stdout, which keeps to the items of a list
   * (docs/reference/output.md, "Tables"): the attribution of a dataset, and what a reply holds
   * beside its line items.
   */
  aside?: string[];
  /**
   * How many CSV rows / NDJSON lines, where docs/reference/output.md leaves no doubt: the list it
   * names (`data`, `statements`, `data.results`), an array `data`, or one record for a reply that
   * holds no list.
   */
  records?: number;
  /** The form of the key (default: svc_sk_test_). */
  keyForm?: 'sk_test_' | 'sk_live_';
}

const NEWER = FOREIGN_IDS.newer;
const OLDER = FOREIGN_IDS.older;
const cbank = (path: string) => `/v1/data/cbank/${path}`;

const CASES: Case[] = [
  {
    name: 'reports list',
    args: ['reports', 'list'],
    method: 'GET',
    path: '/v1/reports',
    shows: [NEWER, OLDER, 'NABIL', 'NIC_ASIA', 'processing', 'failed', '2026-05-27'],
    records: 4,
  },
  {
    name: 'reports get (newer shape)',
    args: ['reports', 'get', NEWER],
    method: 'GET',
    path: `/v1/reports/${NEWER}`,
    shows: [NEWER, 'complete', 'NABIL', '2026-01-01', '2026-03-31'],
  },
  {
    name: 'reports get (older shape)',
    args: ['reports', 'get', OLDER],
    method: 'GET',
    path: `/v1/reports/${OLDER}`,
    shows: [OLDER, 'complete', 'NIC_ASIA', '2025-11-01', '2025-11-30'],
  },
  {
    name: 'reports match',
    args: ['reports', 'match', NEWER, '--name', 'Sharma Ram Prasad'],
    method: 'POST',
    path: `/v1/reports/${NEWER}/identity/match`,
    shows: ['match', '94', 'RAM PRASAD SHARMA', 'word order differs'],
    records: 1,
  },
  {
    name: 'match (shortcut)',
    args: ['match', NEWER, '--name', 'Sharma Ram Prasad'],
    method: 'POST',
    path: `/v1/reports/${NEWER}/identity/match`,
    shows: ['match', '94', 'RAM PRASAD SHARMA'],
    records: 1,
  },
  {
    name: 'reports auth',
    args: ['reports', 'auth', NEWER],
    method: 'GET',
    path: `/v1/reports/${NEWER}/auth`,
    shows: ['RAM PRASAD SHARMA', '09810017508391', 'DOCUMENT_EXTRACTED', 'SWIFT/BIC withheld'],
    records: 1,
  },
  {
    name: 'auth (shortcut)',
    args: ['auth', OLDER],
    method: 'GET',
    path: `/v1/reports/${OLDER}/auth`,
    shows: ['SITA KUMARI THAPA', '04410017700231', 'DOCUMENT_EXTRACTED'],
    records: 1,
  },
  {
    name: 'reports identity (period)',
    args: ['reports', 'identity', NEWER],
    method: 'GET',
    path: `/v1/reports/${NEWER}/identity`,
    shows: [
      'RAM PRASAD SHARMA',
      '09810017508391',
      'Nabil Bank',
      'NABIL',
      'NPR',
      '2026-01-01',
      '2026-03-31',
    ],
    records: 1,
  },
  {
    name: 'reports identity (statement_period)',
    args: ['reports', 'identity', OLDER],
    method: 'GET',
    path: `/v1/reports/${OLDER}/identity`,
    shows: ['SITA KUMARI THAPA', '04410017700231', 'NIC_ASIA', '2025-11-01', '2025-11-30'],
    records: 1,
  },
  {
    name: 'reports counterparties',
    args: ['reports', 'counterparties', NEWER],
    method: 'GET',
    path: `/v1/reports/${NEWER}/counterparties`,
    shows: ['merchant', 'individual', 'wallet', 'HARI BAHADUR KC', 'BHAT-BHATENI SUPERMARKET'],
  },
  {
    name: 'reports recurring',
    args: ['reports', 'recurring', NEWER],
    method: 'GET',
    path: `/v1/reports/${NEWER}/recurring`,
    shows: ['NMB BANK EMI', 'HIMALAYAN TRADERS SALARY', 'MATURE', 'EARLY_DETECTION', '2026-04-30'],
  },
  {
    name: 'recurring (shortcut)',
    args: ['recurring', OLDER],
    method: 'GET',
    path: `/v1/reports/${OLDER}/recurring`,
    shows: ['NMB BANK EMI', 'MATURE'],
  },
  {
    name: 'parse',
    args: ['parse', '<pdf>'],
    method: 'POST',
    path: '/v1/parse',
    shows: [NEWER, 'complete', 'NABIL'],
  },
  {
    name: 'parse --async',
    args: ['parse', '<pdf>', '--async'],
    method: 'POST',
    path: '/v1/parse',
    shows: [`/v1/reports/${FOREIGN_IDS.pending}`],
    records: 1,
  },
  {
    name: 'statements list',
    args: ['statements', 'list'],
    method: 'GET',
    path: '/v1/statements',
    shows: [
      'https://verify.example.com/s/stm_7c1f',
      'https://verify.example.com/s/stm_0a9e',
      'issued',
      'revoked',
      'sha256:9f86d0',
    ],
    records: 2,
  },
  {
    name: 'merchants resolve',
    args: ['merchants', 'resolve', KNOWN_TERMINAL, '1111222233334444'],
    method: 'POST',
    path: '/v1/merchants/resolve',
    shows: [
      'BHAT-BHATENI SUPERMARKET',
      '5411',
      'groceries',
      'Kathmandu',
      KNOWN_TERMINAL,
      '1111222233334444',
    ],
    records: 2,
  },
  {
    name: 'connect',
    args: [
      'connect',
      '--scopes',
      'identity,income',
      '--redirect-uri',
      'https://app.example.com/done',
    ],
    method: 'POST',
    path: '/v1/connect/request',
    shows: ['/connect?token=creq_4f1d9a0b7c'],
    records: 1,
  },
  {
    name: 'usage',
    args: ['usage'],
    method: 'GET',
    path: '/v1/usage',
    shows: ['sandbox', '23', '100', '77', '2026-05', '2026-06-01'],
    records: 1,
  },
  {
    name: 'data latest cpi',
    args: ['data', 'latest', 'cpi', '--no-cache'],
    method: 'GET',
    path: cbank('cpi/latest'),
    shows: ['PCPI_IX', '106.96', 'Overall index'],
    aside: [CPI_ATTRIBUTION],
  },
  {
    name: 'data latest interest-rates',
    args: ['data', 'latest', 'interest-rates', '--no-cache'],
    method: 'GET',
    path: cbank('interest-rates/latest'),
    shows: ['base-rate', 'Base Rate', 'wavg-deposit'],
    aside: [ATTRIBUTION],
    records: 2,
  },
  {
    name: 'data latest pnl',
    args: ['data', 'latest', 'pnl', '--no-cache'],
    method: 'GET',
    path: cbank('banking/pnl/latest'),
    shows: ['Interest Income', 'income.interest-income', 'Interest Expense'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data latest bank-pnl',
    args: ['data', 'latest', 'bank-pnl', '--bank', 'NABIL', '--no-cache'],
    method: 'GET',
    path: cbank('banks/pnl/latest'),
    shows: ['Interest Income', 'nabil.income.interest-income'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data latest balance-sheet',
    args: ['data', 'latest', 'balance-sheet', '--no-cache'],
    method: 'GET',
    path: cbank('banking/balance-sheet/latest'),
    shows: ['Cash in hand', 'Total deposits'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data latest credit',
    args: ['data', 'latest', 'credit', '--no-cache'],
    method: 'GET',
    path: cbank('banking/credit/latest'),
    shows: ['Agriculture'],
    aside: ['Trust receipt loan', ATTRIBUTION],
  },
  {
    name: 'data latest indicators',
    args: ['data', 'latest', 'indicators', '--no-cache'],
    method: 'GET',
    path: cbank('banking/indicators/latest'),
    shows: ['Capital adequacy ratio', 'Non-performing loans to total loans'],
    aside: [ATTRIBUTION],
    records: 2,
  },
  {
    name: 'data latest cbs',
    args: ['data', 'latest', 'cbs', '--no-cache'],
    method: 'GET',
    path: cbank('cbs/latest'),
    shows: ['CBS.RM', 'Reserve money', 'Net foreign assets'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data latest trade',
    args: ['data', 'latest', 'trade', '--no-cache'],
    method: 'GET',
    path: cbank('trade/latest'),
    shows: ['Food and live animals', 'Machinery and transport equipment'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data latest macro',
    args: ['data', 'latest', 'macro', '--no-cache'],
    method: 'GET',
    path: cbank('macro/latest'),
    shows: ['inflation', 'The y-o-y consumer price inflation stood at 4.82 percent'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data series cpi',
    args: [
      'data',
      'series',
      'cpi',
      'PCPI_IX',
      '--from',
      '2024-01',
      '--to',
      '2024-07',
      '--no-cache',
    ],
    method: 'GET',
    path: cbank('cpi/series'),
    shows: ['2024-01', '2024-06', '101.25'],
    aside: [CPI_ATTRIBUTION],
  },
  {
    name: 'data series interest-rates',
    args: [
      'data',
      'series',
      'interest-rates',
      'base-rate',
      '--from',
      '2024-01',
      '--to',
      '2024-07',
      '--no-cache',
    ],
    method: 'GET',
    path: cbank('interest-rates/series'),
    shows: ['2024-01', '2024-06'],
    aside: [ATTRIBUTION],
    records: 6,
  },
  {
    name: 'data series balance-sheet',
    args: [
      'data',
      'series',
      'balance-sheet',
      'L3',
      '--from',
      '2024-01',
      '--to',
      '2024-04',
      '--no-cache',
    ],
    method: 'GET',
    path: cbank('banking/balance-sheet/series'),
    shows: ['2024-01', '2024-03'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data series pnl',
    args: ['data', 'series', 'pnl', 'income.interest-income', '--from', '2025-01', '--no-cache'],
    method: 'GET',
    path: cbank('banking/pnl/series'),
    shows: ['2025-01', '2026-03', '101.25'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data series macro',
    args: ['data', 'series', 'macro', 'inflation', '--to', '2023-04', '--no-cache'],
    method: 'GET',
    path: cbank('macro/series'),
    shows: ['2023-01', '2023-03', '101.25'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data series cbs',
    args: ['data', 'series', 'cbs', 'CBS.RM', '--from', '2025-10', '--to', '2026-01', '--no-cache'],
    method: 'GET',
    path: cbank('cbs/series'),
    shows: ['2025-10', '2025-12', '101.25'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data series bank-pnl',
    args: [
      'data',
      'series',
      'bank-pnl',
      'nabil.income.interest-income',
      '--bank',
      'NABIL',
      '--from',
      '2025-01',
      '--to',
      '2025-03',
      '--no-cache',
    ],
    method: 'GET',
    path: cbank('banks/pnl/series'),
    shows: ['2025-01', '2025-02', '101.25'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data snapshot',
    args: ['data', 'snapshot', '--month', '2025-07'],
    method: 'GET',
    path: cbank('banking/snapshot'),
    shows: ['Capital adequacy ratio', '12.6'],
    aside: [ATTRIBUTION],
  },
  {
    name: 'data keys cpi',
    args: ['data', 'keys', 'cpi', '--no-cache'],
    method: 'GET',
    path: cbank('cpi/latest'),
    shows: ['PCPI_IX', 'PCPI_FOOD_IX'],
  },
  {
    name: 'data keys interest-rates',
    args: ['data', 'keys', 'interest-rates', '--no-cache'],
    method: 'GET',
    path: cbank('interest-rates/latest'),
    shows: ['base-rate', 'wavg-deposit'],
  },
  {
    name: 'data keys pnl',
    args: ['data', 'keys', 'pnl', '--no-cache'],
    method: 'GET',
    path: cbank('banking/pnl/latest'),
    shows: ['income.interest-income', 'expense.interest-expense'],
  },
  {
    name: 'sandbox create',
    args: ['sandbox', 'create', '--scenario', 'thin_file'],
    method: 'POST',
    path: '/v1/sandbox/reports',
    shows: [FOREIGN_IDS.sandbox, 'complete'],
  },
  {
    name: 'sandbox scenarios',
    args: ['sandbox', 'scenarios'],
    method: 'GET',
    path: '/v1/sandbox/scenarios',
    shows: ['salaried', 'thin_file', 'remittance', 'error_image_not_readable'],
  },
  {
    name: 'sandbox fire',
    args: ['sandbox', 'fire', NEWER],
    method: 'POST',
    path: `/v1/sandbox/reports/${NEWER}/fire_webhook`,
    shows: ['report.ready', NEWER, 'test'],
    records: 1,
  },
  {
    name: 'sandbox create (sk_test_ key)',
    args: ['sandbox', 'create'],
    method: 'POST',
    path: '/v1/sandbox/reports',
    shows: [FOREIGN_IDS.sandbox],
    keyForm: 'sk_test_',
  },
  {
    name: 'usage (sk_live_ key)',
    args: ['usage'],
    method: 'GET',
    path: '/v1/usage',
    shows: ['23', '100', '77'],
    records: 1,
    keyForm: 'sk_live_',
  },
];

const argsOf = (c: Case) => c.args.map((a) => (a === '<pdf>' ? pdf : a));

/** The reply the server gave to the case's request, among the requests of one run. */
function replyFor(c: Case, seen: ForeignRequest[]): unknown {
  const request = seen.filter((r) => r.method === c.method && r.pathname === c.path).at(-1);
  if (!request) throw new Error(`svc ${c.args.join(' ')} sent no ${c.method} ${c.path}`);
  return JSON.parse(request.reply);
}

describe.concurrent.each(CASES)('$name', (c) => {
  it('table: exit 0, documented values shown, no undefined/NaN/[object Object]/null', async ({
    expect,
  }) => {
    const { result } = await svcSeen(argsOf(c), { key: freshKey(c.keyForm) });
    expect(result.code, result.stderr).toBe(0);
    expect.soft(result.stdout.trim(), 'stdout is empty').not.toBe('');
    expect.soft(result.stdout).not.toMatch(BAD_WORDS);
    expect.soft(result.stdout).not.toMatch(BARE_NULL);
    expect.soft(result.stderr).not.toMatch(STACK_LINE);
    for (const value of c.shows) expect.soft(result.stdout, `shows ${value}`).toContain(value);
    for (const value of c.aside ?? []) {
      expect.soft(result.stderr, `says ${value} on stderr`).toContain(value);
      expect.soft(result.stdout, `keeps ${value} off stdout`).not.toContain(value);
    }
  });

  it('--json: exit 0, the body exactly as received', async ({ expect }) => {
    const { result, seen } = await svcSeen([...argsOf(c), '--json'], { key: freshKey(c.keyForm) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).not.toBe('');
    expect(JSON.parse(result.stdout)).toEqual(replyFor(c, seen));
  });

  it('-o csv: exit 0, RFC 4180 with a header row', async ({ expect }) => {
    const { result } = await svcSeen([...argsOf(c), '-o', 'csv'], { key: freshKey(c.keyForm) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).not.toBe('');
    const rows = parseCsv(result.stdout, { relax_column_count: false, skip_empty_lines: true });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const header = rows[0]!;
    expect(header.length).toBeGreaterThan(0);
    expect(header.every((h) => h !== '')).toBe(true);
    expect(new Set(header).size).toBe(header.length);
    expect.soft(result.stdout).not.toMatch(BAD_WORDS);
    if (c.records !== undefined) expect.soft(rows.length - 1, 'data rows').toBe(c.records);
  });

  it('-o ndjson: exit 0, one JSON object per line', async ({ expect }) => {
    const { result } = await svcSeen([...argsOf(c), '-o', 'ndjson'], { key: freshKey(c.keyForm) });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines.at(-1), 'ends with a newline').toBe('');
    const records = lines.slice(0, -1);
    expect(records.length).toBeGreaterThan(0);
    for (const line of records) {
      const value: unknown = JSON.parse(line);
      expect(value !== null && typeof value === 'object' && !Array.isArray(value), line).toBe(true);
    }
    if (c.records !== undefined) expect.soft(records.length, 'lines').toBe(c.records);
  });
});

describe('what svc sends to a service that is not its mock', () => {
  const header = (r: ForeignRequest, name: string) =>
    r.headers[name.toLowerCase()] as string | undefined;

  it('every request carries the key, Accept and User-Agent; a JSON POST its Content-Type and an Idempotency-Key', async () => {
    const { result, seen } = await svcSeen(
      ['reports', 'match', NEWER, '--name', 'Ram Prasad Sharma'],
      { key: FOREIGN_KEYS.test },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(header(request!, 'authorization')).toBe(`Bearer ${FOREIGN_KEYS.test}`);
    expect(header(request!, 'accept')).toMatch(/application\/json/);
    expect(header(request!, 'user-agent')).toMatch(/^svc\/\S+ node\/\S+/);
    expect(header(request!, 'content-type')).toMatch(/^application\/json/);
    expect(header(request!, 'idempotency-key')?.length).toBeGreaterThanOrEqual(8);
    expect(JSON.parse(request!.body)).toEqual({ name: 'Ram Prasad Sharma' });
  });

  it('reports list sends limit and status', async () => {
    const { result, seen } = await svcSeen([
      'reports',
      'list',
      '--limit',
      '2',
      '--status',
      'complete',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(seen.map((r) => [r.method, r.pathname, r.query])).toEqual([
      ['GET', '/v1/reports', { limit: '2', status: 'complete' }],
    ]);
    expect(result.stdout).toContain(NEWER);
    expect(result.stdout).not.toContain(FOREIGN_IDS.pending);
  });

  it('statements list sends status', async () => {
    const { result, seen } = await svcSeen(['statements', 'list', '--status', 'revoked']);
    expect(result.code, result.stderr).toBe(0);
    expect(seen.map((r) => [r.pathname, r.query])).toEqual([
      ['/v1/statements', { status: 'revoked' }],
    ]);
    expect(result.stdout).toContain('stm_0a9e');
    expect(result.stdout).not.toContain('stm_7c1f');
  });

  it('parse uploads the file as multipart with bank and async', async () => {
    const sync = await svcSeen(['parse', pdf]);
    expect(sync.result.code, sync.result.stderr).toBe(0);
    expect(sync.seen).toHaveLength(1);
    expect(header(sync.seen[0]!, 'content-type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(sync.seen[0]!.body).toMatch(/name="bank"\r\n\r\nauto\r\n/);
    expect(sync.seen[0]!.body).toMatch(/name="async"\r\n\r\nfalse\r\n/);
    expect(sync.seen[0]!.body).toContain('%PDF-');

    const background = await svcSeen(['parse', pdf, '--async', '--bank', 'NABIL']);
    expect(background.result.code, background.result.stderr).toBe(0);
    expect(background.seen, 'no poll after --async').toHaveLength(1);
    expect(background.seen[0]!.body).toMatch(/name="bank"\r\n\r\nNABIL\r\n/);
    expect(background.seen[0]!.body).toMatch(/name="async"\r\n\r\ntrue\r\n/);
    expect(background.seen[0]!.status).toBe(202);
  });

  it('merchants resolve posts terminals and names', async () => {
    const { result, seen } = await svcSeen([
      'merchants',
      'resolve',
      KNOWN_TERMINAL,
      '--name',
      'Bhat-Bhateni Kathmandu',
      '--json',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(seen).toHaveLength(1);
    expect(JSON.parse(seen[0]!.body)).toEqual({
      terminals: [KNOWN_TERMINAL],
      names: ['Bhat-Bhateni Kathmandu'],
    });
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(seen[0]!.reply));
  });

  it('connect posts scopes and redirect_uri', async () => {
    const { result, seen } = await svcSeen([
      'connect',
      '--scopes',
      'identity,income',
      '--redirect-uri',
      'https://app.example.com/done',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(seen[0]!.body)).toEqual({
      scopes: ['identity', 'income'],
      redirect_uri: 'https://app.example.com/done',
    });
  });

  it('sandbox create posts the scenario; fire leaves absent fields out', async () => {
    const created = await svcSeen(['sandbox', 'create', '--scenario', 'remittance']);
    expect(created.result.code, created.result.stderr).toBe(0);
    expect(JSON.parse(created.seen[0]!.body)).toEqual({ scenario: 'remittance' });
    expect(created.seen[0]!.status).toBe(201);

    const plain = await svcSeen(['sandbox', 'fire', NEWER]);
    expect(plain.result.code, plain.result.stderr).toBe(0);
    expect(plain.seen[0]!.body === '' ? {} : JSON.parse(plain.seen[0]!.body)).toEqual({});

    const failed = await svcSeen([
      'sandbox',
      'fire',
      NEWER,
      '--event',
      'report.failed',
      '--error-code',
      'TAMPER_DETECTED',
    ]);
    expect(failed.result.code, failed.result.stderr).toBe(0);
    expect(JSON.parse(failed.seen[0]!.body)).toEqual({
      event: 'report.failed',
      error_code: 'TAMPER_DETECTED',
    });
    expect(failed.result.stdout).toContain('report.failed');
  });

  it.each([
    [
      ['data', 'series', 'cpi', 'PCPI_IX', '--from', '2024-01', '--to', '2024-07'],
      cbank('cpi/series'),
      { indicator: 'PCPI_IX', from: '2024-01', to: '2024-07' },
    ],
    [
      ['data', 'series', 'interest-rates', 'base-rate'],
      cbank('interest-rates/series'),
      { metric: 'base-rate' },
    ],
    [
      ['data', 'series', 'pnl', 'income.interest-income', '--from', '2025-01'],
      cbank('banking/pnl/series'),
      { key: 'income.interest-income', from: '2025-01' },
    ],
    [
      ['data', 'series', 'bank-pnl', 'nabil.income.interest-income', '--bank', 'NABIL'],
      cbank('banks/pnl/series'),
      { line: 'nabil.income.interest-income', bank: 'NABIL' },
    ],
    [
      ['data', 'latest', 'bank-pnl', '--bank', 'NABIL'],
      cbank('banks/pnl/latest'),
      { bank: 'NABIL' },
    ],
    [['data', 'snapshot', '--month', '2025-07'], cbank('banking/snapshot'), { month: '2025-07' }],
    [['data', 'keys', 'interest-rates'], cbank('interest-rates/latest'), {}],
  ] as const)('svc %j sends its selector and bounds', async (args, path, query) => {
    const { result, seen } = await svcSeen([
      ...args,
      ...(args[1] === 'snapshot' ? [] : ['--no-cache']),
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(seen.map((r) => [r.method, r.pathname, r.query])).toEqual([['GET', path, query]]);
  });
});

describe('api', () => {
  it('GET prints the reply as received', async () => {
    const { result, seen } = await svcSeen(['api', 'GET', '/v1/usage']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(seen[0]!.reply));
  });

  it('GET with a query prints a list reply as received', async () => {
    const { result, seen } = await svcSeen(['api', 'GET', 'reports', '-q', 'limit=2']);
    expect(result.code, result.stderr).toBe(0);
    expect(seen[0]!.query).toEqual({ limit: '2' });
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(seen[0]!.reply));
  });

  it('POST sends fields as the JSON body and prints the reply', async () => {
    const { result, seen } = await svcSeen([
      'api',
      'POST',
      `reports/${NEWER}/identity/match`,
      '-f',
      'name=Ram Prasad Sharma',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(seen[0]!.body)).toEqual({ name: 'Ram Prasad Sharma' });
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(seen[0]!.reply));
  });

  it('a dataset reply prints as received', async () => {
    const { result, seen } = await svcSeen(['api', 'GET', 'data/cbank/interest-rates/latest']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(seen[0]!.reply));
  });

  it('an error status prints the nested envelope on stdout and exits 5', async () => {
    const { result } = await svcSeen(['api', 'GET', `reports/${FOREIGN_IDS.nested}`]);
    expect(result.code).toBe(5);
    expect(JSON.parse(result.stdout)).toEqual({
      error: { code: 'not_found', message: 'No report with this id.' },
    });
  });
});

describe('keys', () => {
  function savedConfig(configDir: string): string {
    return readFileSync(join(configDir, 'config', 'config.json'), 'utf8');
  }

  it('login --with-key checks the key with GET /v1/usage and saves it', async () => {
    const configDir = tempDir();
    const { result, seen } = await svcSeen(['login', '--with-key', '--base-url', server.url], {
      noKey: true,
      env: { SVC_BASE_URL: undefined },
      input: `${FOREIGN_KEYS.test}\n`,
      configDir,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(BAD_WORDS);
    expect(seen.map((r) => [r.method, r.pathname, r.headers.authorization])).toEqual([
      ['GET', '/v1/usage', `Bearer ${FOREIGN_KEYS.test}`],
    ]);
    expect(savedConfig(configDir)).toContain(FOREIGN_KEYS.test);

    const usage = await svc(['usage'], {
      noKey: true,
      env: { SVC_BASE_URL: undefined },
      configDir,
    });
    expect(usage.code, usage.stderr).toBe(0);
    expect(usage.stdout).toContain('77');
  });

  it('login --with-key accepts a key whose usage reply is {}', async () => {
    const configDir = tempDir();
    const { result, seen } = await svcSeen(['login', '--with-key', '--base-url', server.url], {
      noKey: true,
      env: { SVC_BASE_URL: undefined },
      input: FOREIGN_KEYS.emptyUsage,
      configDir,
    });
    expect(seen.map((r) => [r.pathname, r.reply])).toEqual([['/v1/usage', '{}']]);
    expect(result.code, result.stderr).toBe(0);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(BAD_WORDS);
    expect(savedConfig(configDir)).toContain(FOREIGN_KEYS.emptyUsage);
  });

  it('login --with-key refuses a rejected key (exit 3) and saves nothing', async () => {
    const configDir = tempDir();
    const { result } = await svcSeen(['login', '--with-key', '--base-url', server.url], {
      noKey: true,
      env: { SVC_BASE_URL: undefined },
      input: FOREIGN_KEYS.rejected,
      configDir,
    });
    expect(result.code).toBe(3);
    let saved = '';
    try {
      saved = savedConfig(configDir);
    } catch {
      // no config file at all: nothing saved
    }
    expect(saved).not.toContain(FOREIGN_KEYS.rejected);
  });

  it('whoami with an sk_test_ key says test', async () => {
    const table = await svc(['whoami'], { key: FOREIGN_KEYS.bareTest });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/\btest\b/);
    expect(table.stdout).not.toMatch(/\blive\b/);
    expect(table.stdout).not.toMatch(BAD_WORDS);
    const json = await svc(['whoami', '--json'], { key: FOREIGN_KEYS.bareTest });
    expect(json.code, json.stderr).toBe(0);
    const values = Object.values(JSON.parse(json.stdout) as Record<string, unknown>);
    expect(values).toContain('test');
    expect(values).not.toContain('live');
  });

  it('whoami with an sk_live_ key says live', async () => {
    const table = await svc(['whoami'], { key: FOREIGN_KEYS.bareLive });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/\blive\b/);
    const json = await svc(['whoami', '--json'], { key: FOREIGN_KEYS.bareLive });
    expect(Object.values(JSON.parse(json.stdout) as Record<string, unknown>)).toContain('live');
  });

  it.each([
    ['sk_live_', FOREIGN_KEYS.bareLive],
    ['svc_sk_live_', FOREIGN_KEYS.live],
  ])('sandbox fire with an %s key exits 4 and sends nothing', async (_form, key) => {
    const { result, seen } = await svcSeen(['sandbox', 'fire', NEWER], { key });
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: /m);
    expect(seen.filter((r) => r.headers.authorization === `Bearer ${key}`)).toEqual([]);
  });

  it('an sk_test_ key is sent as given', async () => {
    const { result, seen } = await svcSeen(['sandbox', 'scenarios'], {
      key: FOREIGN_KEYS.bareTest,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(seen.map((r) => r.headers.authorization)).toEqual([`Bearer ${FOREIGN_KEYS.bareTest}`]);
  });
});

describe('unexpected replies: exit 10', () => {
  it.each([
    ['a 200 HTML page', ['reports', 'get', FOREIGN_IDS.html]],
    ['a 200 HTML page, with --json', ['reports', 'get', FOREIGN_IDS.html, '--json']],
    ['a 200 HTML page for a view', ['reports', 'identity', FOREIGN_IDS.html]],
    ['a 200 truncated JSON body', ['reports', 'get', FOREIGN_IDS.garbled]],
    ['a 200 truncated JSON body, -o csv', ['reports', 'get', FOREIGN_IDS.garbled, '-o', 'csv']],
  ])('%s', async (_what, args) => {
    const result = await svc(args);
    expect(result.code, result.stderr).toBe(10);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).not.toBe('');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it.each([
    ['reports list whose data is an object', ['reports', 'list']],
    ['statements list whose statements is an object', ['statements', 'list']],
    ['merchants resolve whose data is an array', ['merchants', 'resolve', KNOWN_TERMINAL]],
  ])('%s', async (_what, args) => {
    const result = await svc(args, { key: FOREIGN_KEYS.broken });
    expect(result.code, result.stderr).toBe(10);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it.each([
    ['reports list', ['reports', 'list'], '/v1/reports'],
    ['statements list', ['statements', 'list'], '/v1/statements'],
  ])(
    '%s --json still prints a wrong-shaped JSON reply as received (exit 0)',
    async (_what, args, path) => {
      const { result, seen } = await svcSeen([...args, '--json'], { key: FOREIGN_KEYS.broken });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual(
        JSON.parse(seen.find((r) => r.pathname === path)!.reply),
      );
    },
  );
});

describe('error replies', () => {
  it('a 404 in the older nested envelope exits 5 with one error: line', async () => {
    const result = await svc(['reports', 'get', FOREIGN_IDS.nested]);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(/^error: NOT_FOUND: No report with this id\./);
    expect(lines.filter((l) => l.startsWith('error:'))).toHaveLength(1);
    expect(result.stderr).not.toMatch(BAD_WORDS);
    expect(result.stderr).not.toMatch(STACK_LINE);
  });

  it('the nested envelope with --json: one compact JSON line on stderr, exit 5', async () => {
    const result = await svc(['reports', 'auth', FOREIGN_IDS.nested, '--json']);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toBeTypeOf('object');
  });

  it('a 404 in the flat envelope exits 5 with its code, message and request id', async () => {
    const result = await svc(['reports', 'get', 'cl_nope']);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe('error: NOT_FOUND: The report was not found.');
    expect(result.stderr).toMatch(/req_[0-9a-f]{32}/);
  });

  it('a rejected key exits 3', async () => {
    const result = await svc(['usage'], { key: FOREIGN_KEYS.rejected });
    expect(result.code).toBe(3);
    expect(result.stderr.split('\n')[0]).toMatch(/^error: INVALID_API_KEY: Unknown API key\./);
  });
});
