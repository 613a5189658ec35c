// Property-based tests of reading replies (docs/reference/output.md, "Reading replies"),
// in-process: one loopback HTTP server in this process answers every request with the body the
// current case sets, and `main()` runs the command with a test IO. For each command that reads a
// reply, the replies generated keep only the fields the documents show (test/fixtures/documented/)
// — each present, absent or null, of its documented type — plus arbitrary extra, renamed, null and
// nested fields. Whatever arrives: --json prints it unchanged, tables never fail nor print
// undefined/NaN/ [object Object], NDJSON and CSV stay well formed, and no CSV cell of a view holds
// a JSON object or array. Exit 10 only when the structure a command must walk is missing or of the
// wrong JSON type, or the body is not JSON.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { svcAgainst } from '../support/in-process.js';

// ---------------------------------------------------------------------------------------------
// The loopback server, and svc run in-process against it

interface Answer {
  status: number;
  body: string;
  contentType: string;
}

let answer: Answer = { status: 200, body: '{}', contentType: 'application/json' };
let server: Server;
let baseUrl = '';
let dir = '';
let pdf = '';
const KEY = 'svc_sk_test_00112233445566778899aabbccddeeff';
let env: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-replies-'));
  pdf = join(dir, 'statement.pdf');
  writeFileSync(pdf, '%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n');
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { 'Content-Type': answer.contentType });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env = {
    SVC_BASE_URL: baseUrl,
    SVC_API_KEY: KEY,
    SVC_CONFIG_DIR: join(dir, 'config'),
    SVC_CACHE_DIR: join(dir, 'cache'),
    CI: 'true',
  };
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Outcome = Awaited<ReturnType<typeof svcAgainst>>;

interface RunOptions {
  /** stdout is a terminal. */
  tty?: boolean;
  status?: number;
  /** The reply body as raw text (not JSON-encoded), with this content type. */
  raw?: { contentType: string };
  stdin?: string;
}

/** Runs `svc ARGS` in-process while the server answers `body`. */
function svc(args: string[], body: unknown, options: RunOptions = {}): Promise<Outcome> {
  answer = {
    status: options.status ?? 200,
    body: options.raw ? String(body) : JSON.stringify(body),
    contentType: options.raw?.contentType ?? 'application/json; charset=utf-8',
  };
  return svcAgainst(args, env, { stdin: options.stdin, stdoutTTY: options.tty === true });
}

const BAD_WORDS = /undefined|NaN|\[object Object\]/;

/** The reply as the CLI received it: what JSON keeps of the generated value. */
const wire = (body: unknown): unknown => JSON.parse(JSON.stringify(body));

const show = (what: string, o: Outcome) =>
  `${what}: exit ${o.code}\n--- stdout ---\n${o.stdout}\n--- stderr ---\n${o.stderr}`;

/**
 * What --json must print of a reply: the reply itself. `merchants resolve` merges its calls'
 * replies into one reply of the documented shape (docs/guides/merchants.md, "Output"), which may
 * recompute `data.count` and `data.matched` and leave out what is not documented; the results, each
 * as received, and the source must survive.
 */
type AsPrinted = (reply: unknown) => unknown;
const asReceived: AsPrinted = (reply) => reply;
const mergedShape: AsPrinted = (reply) => {
  const r = reply as { data?: { results?: unknown }; meta?: { source?: unknown } } | null;
  const source = r?.meta?.source;
  return { results: r?.data?.results, source: typeof source === 'string' ? source : undefined };
};

/** --json, table on a terminal and in a pipe, NDJSON and CSV: all succeed and stay well formed. */
async function expectReadable(
  args: string[],
  body: unknown,
  options: { stdin?: string; printed?: AsPrinted } = {},
): Promise<void> {
  const printed = options.printed ?? asReceived;
  const json = await svc([...args, '--json'], body, options);
  expect(json.code, show('--json', json)).toBe(0);
  expect(printed(JSON.parse(json.stdout)), show('--json', json)).toEqual(printed(wire(body)));

  for (const tty of [true, false]) {
    const table = await svc(args, body, { ...options, tty });
    const what = tty ? 'table (terminal)' : 'table (pipe)';
    expect(table.code, show(what, table)).toBe(0);
    // A reply that itself says "NaN" or "undefined" (a key, a string) may show it.
    if (!BAD_WORDS.test(JSON.stringify(body) ?? ''))
      expect(table.stdout, show(what, table)).not.toMatch(BAD_WORDS);
  }

  const ndjson = await svc([...args, '-o', 'ndjson'], body, options);
  expect(ndjson.code, show('ndjson', ndjson)).toBe(0);
  const lines = ndjson.stdout.split('\n').filter((line) => line !== '');
  for (const line of lines) expect(() => JSON.parse(line), show('ndjson', ndjson)).not.toThrow();

  const csv = await svc([...args, '-o', 'csv'], body, options);
  expect(csv.code, show('csv', csv)).toBe(0);
  expect(() => parseCsv(csv.stdout, { relax_column_count: false }), show('csv', csv)).not.toThrow();
  expect(csv.stdout, show('csv', csv)).not.toMatch(/undefined|\[object Object\]/);
}

/**
 * Table output (terminal or pipe) of a reply whose walked structure is missing or mistyped: exit
 * 10, nothing on stdout.
 */
async function expectUnexpected(args: string[], body: unknown, tty: boolean): Promise<void> {
  const table = await svc(args, body, { tty });
  expect(table.code, show('table', table)).toBe(10);
  expect(table.stdout, show('table', table)).toBe('');
}

const RUNS = 30;
/** Keeps a failing property's shrinking short: the counterexample found so far is reported. */
const params = (numRuns = RUNS): fc.Parameters<unknown> => ({
  numRuns,
  includeErrorInReport: true,
  plugins: [fc.interruptAfterTimeLimit(15_000)],
});
const TIMEOUT = 60_000;

// ---------------------------------------------------------------------------------------------
// Arbitrary JSON, with printable-ish text, some unicode and control characters. No generated text
// can spell `undefined`, `null`, `NaN` or `[object Object]` (no n, N, [ or ]): finding one of
// those in the output means svc wrote it.

const SAFE = [...'abcdefghijklmopqrstuvwxyzABCDEFGHIJKLMOPQRSTUVWXYZ0123456789 -_.,:/#@&()+*%$'];
const SPECIAL = [
  'é',
  'ü',
  'ß',
  'ñ',
  'Ω',
  'नेपाल',
  '日本',
  '😀',
  '👍🏽',
  '\u0301',
  '\u200b',
  '\u202e',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\u0000',
  '\u0007',
  '\u001b',
  '\u001b[31m',
  '\u007f',
  '\u0085',
  '\u2028',
  '"',
  "'",
  '\\',
  ';',
  '|',
  '{',
  '}',
];
const char = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom(...SAFE) },
  { weight: 2, arbitrary: fc.constantFrom(...SPECIAL) },
);
const text = fc.string({ unit: char, maxLength: 12 });

const plainKey = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmopqrstuvwxyz_'),
  minLength: 1,
  maxLength: 10,
});
const anyKey = fc
  .oneof({ weight: 4, arbitrary: plainKey }, { weight: 1, arbitrary: text })
  .filter((k) => k !== '__proto__');

const number = fc.oneof(
  fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }),
);
const scalar = fc.oneof(text, number, fc.boolean(), fc.constant(null));

const { value: jsonValue } = fc.letrec<{
  value: unknown;
  array: unknown[];
  object: Record<string, unknown>;
}>((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 3 }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(anyKey, tie('value'), { maxKeys: 4, noNullPrototype: true }),
}));

const objectOf = (value: fc.Arbitrary<unknown>, maxKeys = 4) =>
  fc.dictionary(anyKey, value, { maxKeys, noNullPrototype: true });
const arrayOfObjects = fc.array(objectOf(jsonValue), { maxLength: 4 });
/** A reply nothing documents: any object, its values often lists of records. */
const anyObject = objectOf(fc.oneof(jsonValue, arrayOfObjects), 5);
/** Dataset `data` nothing documents: any JSON. */
const anyData = fc.oneof(jsonValue, anyObject, arrayOfObjects);

/** Documented fields, each present (of its type), null, or absent. */
function fields(
  spec: Record<string, fc.Arbitrary<unknown>>,
): fc.Arbitrary<Record<string, unknown>> {
  const nullable = Object.fromEntries(
    Object.entries(spec).map(([k, arb]) => [
      k,
      fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) }),
    ]),
  );
  return fc.record(nullable, { requiredKeys: [] });
}

/**
 * Adds extra fields: arbitrary keys and renamed variants of documented ones, never a documented
 * key.
 */
function withExtras<T extends Record<string, unknown>>(
  base: fc.Arbitrary<T>,
  documented: readonly string[],
  renamed: readonly string[] = [],
): fc.Arbitrary<T> {
  const renames = [
    ...renamed,
    ...documented.flatMap((k) => [k.toUpperCase(), camel(k), `${k}_v2`]),
  ].filter((k) => !documented.includes(k));
  const extraKey = (
    renames.length > 0 ? fc.oneof(anyKey, fc.constantFrom(...renames)) : anyKey
  ).filter((k) => !documented.includes(k));
  return fc
    .tuple(base, fc.dictionary(extraKey, jsonValue, { maxKeys: 3, noNullPrototype: true }))
    .map(([b, extra]) => ({ ...extra, ...b }));
}

function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

/** An object of documented fields (present, null or absent) plus extras. */
function doc(
  spec: Record<string, fc.Arbitrary<unknown>>,
  renamed: readonly string[] = [],
): fc.Arbitrary<Record<string, unknown>> {
  return withExtras(fields(spec), Object.keys(spec), renamed);
}

const oneOfOr = (...values: string[]) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: text });
const when = fc.date({
  min: new Date('1990-01-01T00:00:00Z'),
  max: new Date('2099-12-31T00:00:00Z'),
  noInvalidDate: true,
});
const dateTime = fc.oneof(
  { weight: 3, arbitrary: when.map((d) => d.toISOString()) },
  { weight: 1, arbitrary: text },
);
const day = fc.oneof(
  { weight: 3, arbitrary: when.map((d) => d.toISOString().slice(0, 10)) },
  { weight: 1, arbitrary: text },
);
const month = fc.oneof(
  { weight: 3, arbitrary: when.map((d) => d.toISOString().slice(0, 7)) },
  { weight: 1, arbitrary: text },
);
const count = fc.integer({ min: 0, max: 1_000_000 });
const money = fc.oneof(
  fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
  fc.double({ min: -1e12, max: 1e12, noNaN: true, noDefaultInfinity: true }),
);
const list = <T>(item: fc.Arbitrary<T>, maxLength = 4) => fc.array(item, { maxLength });

// ---------------------------------------------------------------------------------------------
// Documented replies

const CATEGORIES = [
  'salary',
  'loan_repayment',
  'utility',
  'wallet',
  'merchant_payment',
  'refund',
  'remittance',
  'cash_withdrawal',
  'transfer',
  'investment',
  'interest',
  'tax',
  'fee',
  'other',
];

const period = doc({ from: day, to: day });

const statement = doc({
  bank: text,
  bank_code: oneOfOr('NABIL', 'nabil', 'NIC_ASIA'),
  currency: oneOfOr('NPR'),
  period,
  opening_balance: money,
  closing_balance: money,
  total_transactions: count,
});

const olderTransaction = doc({
  date: day,
  description: text,
  debit: money,
  credit: money,
  balance: money,
  category: oneOfOr(...CATEGORIES),
  merchant: text,
  merchantTerminal: text,
  mcc: text,
  merchantCategory: text,
});

const newerTransaction = doc({
  transaction_id: text,
  date: day,
  name: text,
  amount: money,
  iso_currency_code: oneOfOr('NPR'),
  balance: money,
  merchant_name: text,
  payment_terminal_id: text,
  mcc: text,
  personal_finance_category: doc({ primary: text, detailed: text }),
  counterparties: list(doc({ type: text, name: text, confidence_level: text }), 2),
  payment_channel: text,
  pending: fc.boolean(),
});

/** The full report: GET /v1/reports/{id}, the parse reply, the sandbox report. */
const fullReport = doc(
  {
    report_id: text,
    status: oneOfOr('complete', 'processing', 'failed'),
    bank_code: text,
    created_at: dateTime,
    statement,
    signals: jsonValue,
    monthly_summary: jsonValue,
    categories: jsonValue,
    merchant_categories: objectOf(doc({ count, total: money }), 3),
    transactions: list(fc.oneof(olderTransaction, newerTransaction), 3),
    data_source: oneOfOr('PARSED_STATEMENT'),
    tamper_verifiable: fc.boolean(),
  },
  ['account_holder', 'statement_period', 'reportId', 'error'],
);

const reportItem = doc({
  report_id: text,
  status: oneOfOr('complete', 'processing', 'failed'),
  bank_code: text,
  created_at: dateTime,
});
const reportList = withExtras(
  fc.record({ data: list(reportItem) }),
  ['data'],
  ['items', 'reports', 'has_more', 'next_cursor'],
);

const nameMatch = doc({
  match_score: fc.integer({ min: 0, max: 100 }),
  result: oneOfOr('match', 'partial_match', 'no_match', 'no_data'),
  statement_name: text,
  reasons: list(text, 3),
});

const authView = doc({ swift_note: text, verification_status: text }, [
  'account_holder',
  'account_number',
  'swift_bic',
  'holder_name',
  'acct_no',
  'bic',
]);

const identityView = doc({
  bank: text,
  bank_code: text,
  account_holder: text,
  account_number: text,
  currency: oneOfOr('NPR'),
  period,
  statement_period: period,
});

const statementItem = doc(
  { content_hash: text, verify_url: text, status: oneOfOr('issued', 'revoked') },
  ['statement_id', 'id', 'ref'],
);
const statementList = withExtras(
  fc.record({ statements: list(statementItem) }),
  ['statements'],
  ['data', 'items', 'total'],
);

const TERMINALS = ['9756038350856888', '2222020006840462'];
const NAMES = ['Bhat-Bhateni Supermarket'];
const LOOKUPS = [...TERMINALS, ...NAMES];
const MERCHANT_ARGS = [
  'merchants',
  'resolve',
  ...TERMINALS,
  ...NAMES.flatMap((n) => ['--name', n]),
];

/** One result per lookup, in order, each naming its lookup in `input`. */
const lookupResult = (input: string) =>
  doc({
    type: oneOfOr('terminal', 'name'),
    matched: fc.boolean(),
    merchant: text,
    mcc: text,
    category: text,
    city: text,
    terminal: text,
  }).map((r) => {
    const result: Record<string, unknown> = { ...r };
    delete result.input;
    return { input, ...result };
  });
const merchantReply = withExtras(
  fc.record(
    {
      data: withExtras(
        fc
          .tuple(fields({ count, matched: count }), fc.tuple(...LOOKUPS.map(lookupResult)))
          .map(([f, results]) => ({ ...f, results })),
        ['count', 'matched', 'results'],
      ),
      meta: fc.oneof(doc({ source: text }), fc.constant(null)),
    },
    { requiredKeys: ['data'] },
  ),
  ['data', 'meta'],
);

const connectReply = doc({ request_token: text, connect_url: text });
const usageReply = doc(
  {
    plan: oneOfOr('sandbox', 'growth', 'scale'),
    quota: count,
    used: count,
    remaining: count,
    period: month,
    resets_at: dateTime,
  },
  ['organization_id', 'data_api'],
);
const fireReply = doc({ fired: text, report_id: text, environment: oneOfOr('test', 'live') });
const asyncParseReply = doc({ poll_url: text }, ['report_id', 'status']);

const meta = doc({ source: text, source_url: text, attribution: text, as_of: day });
const dataset = (data: fc.Arbitrary<unknown>) => doc({ data, meta }, ['items', 'period']);

const cpiData = doc({
  month,
  indicators: list(
    doc({
      indicator: text,
      label: text,
      value: money,
      scale: fc.integer({ min: -6, max: 6 }),
      absolute: money,
      unit: text,
    }),
    3,
  ),
});
const ratesData = list(
  doc({ metric: text, label: text, value: money, unit: oneOfOr('percent') }),
  3,
);
const pnlData = doc({
  month,
  line_items: list(
    doc({
      key: text,
      label: text,
      value: money,
      unit: oneOfOr('NPR_mn'),
      section: text,
      code: text,
    }),
    3,
  ),
});

// ---------------------------------------------------------------------------------------------
// The commands

interface Command {
  name: string;
  args: () => string[];
  reply: fc.Arbitrary<unknown>;
  printed?: AsPrinted;
}

const ID = 'cl_abc123';

const COMMANDS: Command[] = [
  { name: 'usage', args: () => ['usage'], reply: usageReply },
  { name: 'reports list', args: () => ['reports', 'list'], reply: reportList },
  { name: 'reports get', args: () => ['reports', 'get', ID], reply: fullReport },
  {
    name: 'reports match',
    args: () => ['reports', 'match', ID, '--name', 'Ram Prasad Sharma'],
    reply: nameMatch,
  },
  { name: 'reports auth', args: () => ['reports', 'auth', ID], reply: authView },
  { name: 'reports identity', args: () => ['reports', 'identity', ID], reply: identityView },
  {
    name: 'reports counterparties',
    args: () => ['reports', 'counterparties', ID],
    reply: anyObject,
  },
  { name: 'reports recurring', args: () => ['reports', 'recurring', ID], reply: anyObject },
  { name: 'parse', args: () => ['parse', pdf], reply: fullReport },
  { name: 'parse --async', args: () => ['parse', pdf, '--async'], reply: asyncParseReply },
  { name: 'statements list', args: () => ['statements', 'list'], reply: statementList },
  {
    name: 'merchants resolve',
    args: () => MERCHANT_ARGS,
    reply: merchantReply,
    printed: mergedShape,
  },
  {
    name: 'connect',
    args: () => [
      'connect',
      '--scopes',
      'identity,income',
      '--redirect-uri',
      'https://app.example.com/done',
    ],
    reply: connectReply,
  },
  {
    name: 'data latest cpi',
    args: () => ['data', 'latest', 'cpi', '--no-cache'],
    reply: dataset(cpiData),
  },
  {
    name: 'data latest interest-rates',
    args: () => ['data', 'latest', 'interest-rates', '--no-cache'],
    reply: dataset(ratesData),
  },
  {
    name: 'data latest pnl',
    args: () => ['data', 'latest', 'pnl', '--no-cache'],
    reply: dataset(pnlData),
  },
  {
    name: 'data latest balance-sheet',
    args: () => ['data', 'latest', 'balance-sheet', '--no-cache'],
    reply: dataset(anyData),
  },
  {
    name: 'data latest macro',
    args: () => ['data', 'latest', 'macro', '--no-cache'],
    reply: dataset(anyData),
  },
  {
    name: 'data series cpi',
    args: () => [
      'data',
      'series',
      'cpi',
      'PCPI_IX',
      '--from',
      '2024-01',
      '--to',
      '2025-01',
      '--no-cache',
    ],
    reply: dataset(anyData),
  },
  {
    name: 'data series interest-rates',
    args: () => ['data', 'series', 'interest-rates', 'base-rate', '--no-cache'],
    reply: dataset(anyData),
  },
  {
    name: 'data snapshot',
    args: () => ['data', 'snapshot', '--month', '2025-07'],
    reply: dataset(anyData),
  },
  {
    name: 'data keys cpi',
    args: () => ['data', 'keys', 'cpi', '--no-cache'],
    reply: dataset(cpiData),
  },
  {
    name: 'data keys interest-rates',
    args: () => ['data', 'keys', 'interest-rates', '--no-cache'],
    reply: dataset(ratesData),
  },
  {
    name: 'data keys pnl',
    args: () => ['data', 'keys', 'pnl', '--no-cache'],
    reply: dataset(pnlData),
  },
  {
    name: 'sandbox create',
    args: () => ['sandbox', 'create', '--scenario', 'salaried'],
    reply: fullReport,
  },
  { name: 'sandbox scenarios', args: () => ['sandbox', 'scenarios'], reply: anyObject },
  { name: 'sandbox fire', args: () => ['sandbox', 'fire', ID], reply: fireReply },
];

describe('every documented form of a reply, with anything else around it, is read', () => {
  it.each(COMMANDS.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, command) => {
      await fc.assert(
        fc.asyncProperty(command.reply, async (body) => {
          await expectReadable(command.args(), body, { printed: command.printed });
        }),
        params(),
      );
    },
    TIMEOUT,
  );

  it(
    'api prints any JSON reply as received',
    async () => {
      await fc.assert(
        fc.asyncProperty(jsonValue, async (body) => {
          const result = await svc(['api', 'GET', '/v1/usage'], body);
          expect(result.code, show('api', result)).toBe(0);
          expect(JSON.parse(result.stdout), show('api', result)).toEqual(wire(body));
        }),
        params(40),
      );
    },
    TIMEOUT,
  );

  it(
    'login --with-key accepts a key whatever the usage reply',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(usageReply, jsonValue), async (body) => {
          const result = await svc(['login', '--with-key', '--base-url', baseUrl], body, {
            stdin: `${KEY}\n`,
          });
          expect(result.code, show('login', result)).toBe(0);
          if (!BAD_WORDS.test(JSON.stringify(body) ?? ''))
            expect(`${result.stdout}${result.stderr}`).not.toMatch(BAD_WORDS);
          expect(readFileSync(join(env.SVC_CONFIG_DIR!, 'config.json'), 'utf8')).toContain(KEY);
        }),
        params(25),
      );
    },
    TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------------
// The structure a command must walk, missing or of the wrong JSON type

const notArray = jsonValue.filter((v) => !Array.isArray(v));
const notObject = jsonValue.filter((v) => v === null || typeof v !== 'object' || Array.isArray(v));

/** Extras (never `key`) with `key` set to `value`, or left out when the value is undefined. */
function mistyped(
  key: string,
  value: fc.Arbitrary<unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  const extras = fc.dictionary(
    anyKey.filter((k) => k !== key),
    jsonValue,
    { maxKeys: 3, noNullPrototype: true },
  );
  return fc
    .tuple(extras, fc.option(value, { nil: undefined, freq: 4 }))
    .map(([e, v]) => (v === undefined ? e : { ...e, [key]: v }));
}

const WALKED: {
  name: string;
  args: string[];
  reply: fc.Arbitrary<unknown>;
  jsonStillPrints: boolean;
}[] = [
  {
    name: 'reports list without an array `data`',
    args: ['reports', 'list'],
    reply: mistyped('data', notArray),
    jsonStillPrints: true,
  },
  {
    name: 'statements list without an array `statements`',
    args: ['statements', 'list'],
    reply: mistyped('statements', notArray),
    jsonStillPrints: true,
  },
  {
    name: 'merchants resolve without an array `data.results`',
    args: MERCHANT_ARGS,
    reply: fc.oneof(mistyped('data', notObject), mistyped('data', mistyped('results', notArray))),
    jsonStillPrints: false,
  },
];

describe('a reply without the structure the command walks', () => {
  it.each(WALKED.map((w) => [w.name, w] as const))(
    '%s: a table exits 10 and prints nothing',
    async (_name, walked) => {
      await fc.assert(
        fc.asyncProperty(walked.reply, fc.boolean(), async (body, tty) => {
          await expectUnexpected(walked.args, body, tty);
        }),
        params(),
      );
    },
    TIMEOUT,
  );

  it.each(WALKED.filter((w) => w.jsonStillPrints).map((w) => [w.name, w] as const))(
    '%s: --json still prints it as received (exit 0)',
    async (_name, walked) => {
      await fc.assert(
        fc.asyncProperty(walked.reply, async (body) => {
          const json = await svc([...walked.args, '--json'], body);
          expect(json.code, show('--json', json)).toBe(0);
          expect(JSON.parse(json.stdout)).toEqual(wire(body));
        }),
        params(25),
      );
    },
    TIMEOUT,
  );
});

describe('a success whose body is not JSON', () => {
  const notJson = fc
    .oneof(
      text.map((t) => `<!DOCTYPE html><html><body>${t}</body></html>`),
      text.map((t) => `{"report_id": "${t}`),
      fc.string({ unit: char, minLength: 1, maxLength: 20 }),
    )
    .filter((t) => {
      try {
        JSON.parse(t);
        return false;
      } catch {
        return true;
      }
    });
  const commands: [string, string[]][] = [
    ['usage', ['usage']],
    ['reports get', ['reports', 'get', ID]],
    ['reports list', ['reports', 'list']],
    ['data latest cpi', ['data', 'latest', 'cpi', '--no-cache']],
    ['sandbox scenarios', ['sandbox', 'scenarios']],
  ];

  it.each(commands)(
    '%s exits 10 with nothing on stdout, in every output format',
    async (_name, args) => {
      await fc.assert(
        fc.asyncProperty(
          notJson,
          fc.constantFrom('text/html', 'application/json', 'text/plain'),
          fc.constantFrom([], ['--json'], ['-o', 'csv'], ['-o', 'ndjson']),
          async (body, contentType, format) => {
            const result = await svc([...args, ...format], body, { raw: { contentType } });
            expect(result.code, show(format.join(' ') || 'table', result)).toBe(10);
            expect(result.stdout).toBe('');
          },
        ),
        params(25),
      );
    },
    TIMEOUT,
  );
});

// --------------------------------------------------------------------------------------------- The
// CSV of a view (docs/reference/output.md, "Reading replies"): one record per item of its lists, or
// the view as one record; either way no cell holds a JSON object or array, whatever the reply of
// the documented shape holds.

const incomeView = doc({
  salary_detected: fc.boolean(),
  salary_amount: money,
  salary_regularity: oneOfOr('monthly', 'irregular'),
  salary_day_of_month: fc.integer({ min: 1, max: 31 }),
  avg_monthly_credit: money,
  income_stability_score: fc.integer({ min: 0, max: 100 }),
  remittance_detected: fc.boolean(),
  monthly_credits: list(doc({ month, total_credits: money })),
  income_transactions: list(fc.oneof(olderTransaction, newerTransaction), 3),
});
const balanceView = doc({
  currency: oneOfOr('NPR'),
  period,
  opening_balance: money,
  closing_balance: money,
  avg_daily_balance: money,
  trend: oneOfOr('growing', 'stable', 'declining'),
});
const liabilitiesView = doc({
  monthly_emi_total: money,
  emi_load_pct: money,
  bounce_count: count,
  lenders: list(doc({ lender: text, total: money, count, monthly_avg: money })),
  liability_transactions: list(fc.oneof(olderTransaction, newerTransaction), 3),
});
const scoreView = doc({
  score: fc.integer({ min: 0, max: 1000 }),
  band: oneOfOr('excellent', 'good', 'fair', 'poor', 'very_poor'),
  factors: list(doc({ factor: text, impact: money, detail: text })),
});
const verifyView = doc({
  verdict: oneOfOr('authentic', 'review', 'suspicious'),
  confidence: fc.double({ min: 0, max: 1, noNaN: true }),
  checks: list(
    doc({ check: text, passed: fc.boolean(), severity: oneOfOr('high', 'medium', 'low') }),
  ),
});
const consentCreated = doc({
  id: text,
  token: text,
  data_url: text,
  scopes: list(oneOfOr('identity', 'income')),
  expires_at: dateTime,
});
const scopedData = doc({
  scopes: list(oneOfOr('identity', 'income', 'liabilities', 'verify')),
  data: doc({
    identity: identityView,
    income: incomeView,
    liabilities: liabilitiesView,
    verify: verifyView,
  }),
});
/**
 * The enrich reply: its transactions are what the command walks (a reply without them is exit 10).
 */
const enrichReply = fc
  .tuple(
    doc({ count, signals: jsonValue, monthly_summary: jsonValue, categories: jsonValue }),
    list(fc.oneof(olderTransaction, newerTransaction), 3),
  )
  .map(([rest, transactions]) => ({ ...rest, transactions }));

const VIEWS: Command[] = [
  ...COMMANDS.filter((c) =>
    [
      'usage',
      'reports get',
      'reports match',
      'reports auth',
      'reports identity',
      'reports counterparties',
      'reports recurring',
      'parse',
      'parse --async',
      'connect',
      'sandbox create',
      'sandbox scenarios',
      'sandbox fire',
    ].includes(c.name),
  ),
  { name: 'reports income', args: () => ['reports', 'income', ID], reply: incomeView },
  { name: 'reports balance', args: () => ['reports', 'balance', ID], reply: balanceView },
  {
    name: 'reports liabilities',
    args: () => ['reports', 'liabilities', ID],
    reply: liabilitiesView,
  },
  { name: 'reports score', args: () => ['reports', 'score', ID], reply: scoreView },
  { name: 'reports verify', args: () => ['reports', 'verify', ID], reply: verifyView },
  {
    name: 'reports underwrite',
    args: () => [
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
    reply: anyObject,
  },
  {
    name: 'consents create',
    args: () => ['consents', 'create', ID, '--scopes', 'identity,income'],
    reply: consentCreated,
  },
  {
    name: 'consents data',
    args: () => ['consents', 'data', 'cns_1', '--token', 'cst_0123456789abcdef'],
    reply: scopedData,
  },
  {
    name: 'grants data',
    args: () => ['grants', 'data', 'grt_1', '--access-token', 'cat_0123456789abcdef'],
    reply: scopedData,
  },
  {
    name: 'enrich',
    args: () => ['enrich', '--file', pdf.replace(/statement\.pdf$/, 'transactions.json')],
    reply: enrichReply,
  },
];

/** Every string the reply holds, keys too: a cell may be one of them, whatever it reads as. */
function stringsOf(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) stringsOf(item, stringsOf(key, into));
  return into;
}

/** A cell that is a JSON object or array svc wrote: no string of the reply reads so. */
function holdsJson(cell: string, strings: Set<string>): boolean {
  if (!/^'?[[{]/.test(cell) || strings.has(cell) || strings.has(cell.replace(/^'/, '')))
    return false;
  try {
    const parsed = JSON.parse(cell.replace(/^'/, '')) as unknown;
    return parsed !== null && typeof parsed === 'object';
  } catch {
    return false;
  }
}

describe('-o csv of a view holds no JSON object or array in a cell', () => {
  beforeAll(() =>
    writeFileSync(
      join(dir, 'transactions.json'),
      JSON.stringify([
        { date: '2026-03-25', description: 'SALARY', credit: 72000, balance: 145200 },
      ]),
    ),
  );

  it.each(VIEWS.map((c) => [c.name, c] as const))(
    '%s',
    async (_name, command) => {
      await fc.assert(
        fc.asyncProperty(command.reply, async (body) => {
          const csv = await svc([...command.args(), '-o', 'csv'], body);
          expect(csv.code, show('csv', csv)).toBe(0);
          const rows = parseCsv(csv.stdout, { relax_column_count: false });
          const strings = stringsOf(wire(body));
          for (const cell of rows.flat())
            expect(holdsJson(cell, strings), show('csv', csv)).toBe(false);
        }),
        params(),
      );
    },
    TIMEOUT,
  );
});
