// `svc merchants resolve` in-process, as a person at a terminal and as a script: lookups from
// arguments, --name, --file and stdin, kept once each in the order of their first appearance, cut
// into calls of at most 1000 run a few at a time and merged back into one reply of the documented
// shape (`data` {count, matched, results[]}, `meta` {source}); a run that stops says what was done
// and lists what was not; the service's refusals become exit codes.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parse as parseCsv } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';

import { envelope } from '../support/errors.js';
import {
  type FakeReply,
  FakeService,
  type InProcessOptions,
  type InProcessResult,
  KEY,
  plain,
  scratchDir,
  type SeenRequest,
  svc,
  unwrapped,
} from '../support/in-process.js';
import { jsonLines } from '../support/json-lines.js';

const RESOLVE = '/v1/merchants/resolve';
const MODES = [
  ['a script', false],
  ['a person', true],
] as const;

// ---- the fake merchant directory ------------------------------------------------------------

interface Result {
  input: string;
  type: string;
  matched: boolean;
  merchant?: string;
  mcc?: string;
  category?: string;
  city?: string;
  terminal?: string;
}

/** Terminals starting with 9 are known; names saying "Pvt" are known. */
function resultOf(input: string, type: 'terminal' | 'name'): Result {
  const known = type === 'terminal' ? input.startsWith('9') : /pvt/i.test(input);
  if (!known) return { input, type, matched: false };
  const merchant =
    type === 'terminal'
      ? `Merchant ${input.slice(-4)}`
      : input.replace(/\s*pvt\.?\s*ltd\.?/i, '').trim();
  return {
    input,
    type,
    matched: true,
    merchant,
    mcc: '5411',
    category: 'groceries',
    city: 'Pokhara',
    ...(type === 'terminal' && { terminal: input }),
  };
}

const META = { source: 'svc merchant directory' };

interface Body {
  terminals?: string[];
  names?: string[];
}
const bodyOf = (request: SeenRequest) => request.json as Body;
const lookupsOf = (request: SeenRequest) => [
  ...(bodyOf(request).terminals ?? []),
  ...(bodyOf(request).names ?? []),
];

/**
 * The service's answer to one call: a result per lookup, in reverse order (svc matches them by
 * `input`).
 */
function answer(request: SeenRequest): FakeReply {
  const body = bodyOf(request);
  const results = [
    ...(body.terminals ?? []).map((t) => resultOf(t, 'terminal')),
    ...(body.names ?? []).map((n) => resultOf(n, 'name')),
  ].reverse();
  return {
    body: {
      data: { count: results.length, matched: results.filter((r) => r.matched).length, results },
      meta: META,
    },
  };
}

/**
 * A service expecting `calls` resolve calls, each answered by `reply` (the directory's answer by
 * default).
 */
function resolving(
  calls: number,
  reply: (request: SeenRequest) => FakeReply | Promise<FakeReply> = answer,
): FakeService {
  const fake = new FakeService();
  for (let i = 0; i < calls; i++) fake.expect('POST', RESOLVE, reply);
  return fake;
}

/** The results svc should show for these lookups, in this order. */
const expected = (lookups: [string, 'terminal' | 'name'][]) =>
  lookups.map(([input, type]) => resultOf(input, type));

const screenLines = (text: string) => text.trimEnd().split('\n');
/**
 * Text as words: colour gone, and every run of spaces and line breaks one space (a terminal wraps
 * notes).
 */
const words = (text: string) => plain(text).replace(/\s+/g, ' ');
/** A count as svc writes it for people: 1,234. */
const count = (n: number) => n.toLocaleString('en-IN');

/**
 * stderr without the line that sums a run up, which a person at the terminal is left with when the
 * results go elsewhere (the fake clock stands still: the calls take no time); a script gets none.
 */
function withoutSummary(stderr: string, tty: boolean): string {
  const summary = /^[\d,]+ lookups?, [\d,]+ matched, .*, [\d,]+ calls? in 0\.0s\n$/m;
  if (tty) expect(stderr).toMatch(summary);
  return stderr.replace(summary, '');
}
const ndjson = (text: string): Result[] =>
  text
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

/** Runs `svc merchants resolve …`; whatever happens, the key of the run is never shown in full. */
async function resolve(args: string[], options: InProcessOptions = {}): Promise<InProcessResult> {
  const result = await svc(['merchants', 'resolve', ...args], options);
  expect(result.stdout + result.stderr).not.toContain(KEY);
  return result;
}

let files = 0;
/** A file of these lines under the scratch folder. */
function file(text: string, name = `lookups-${++files}.txt`): string {
  const dir = join(scratchDir(), 'files');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** An empty folder of its own, for the files a run leaves. */
const folder = (prefix = 'run-') => mkdtempSync(join(scratchDir(), prefix));

/**
 * Runs with the process's working folder moved to `dir`: where the default unresolved file goes.
 */
async function inFolder<T>(dir: string, run: () => Promise<T>): Promise<T> {
  const before = process.cwd();
  process.chdir(dir);
  try {
    return await run();
  } finally {
    process.chdir(before);
  }
}

const T1 = '9756038350856888';
const T2 = '9756038350851234';
const UNKNOWN = '1000000000000007';

/**
 * 2,500 distinct lookups (known and unknown terminals, names as statements write them) with
 * repeats, spaces and blank lines mixed in: the input order is the order of first appearance.
 */
function manyLookups(): { text: string; distinct: string[]; given: number } {
  const distinct: string[] = [];
  for (let i = 0; distinct.length < 2500; i++) {
    if (i % 8 === 3) distinct.push(i % 16 === 3 ? `M/S Shop ${i} Pvt. Ltd.` : `Shop ${i} Traders`);
    else if (i % 7 === 5) distinct.push(String(1_000_000_000_000_000n + BigInt(i)));
    else distinct.push(String(9_000_000_000_000_000n + BigInt(i)));
  }
  const lines: string[] = [];
  let given = 0;
  distinct.forEach((value, i) => {
    lines.push(i % 3 === 0 ? `  ${value} ` : value);
    given++;
    if (i % 6 === 5) {
      lines.push(distinct[i - 4]!, '');
      given++;
    }
  });
  return { text: lines.join('\r\n') + '\r\n', distinct, given };
}
const MANY = manyLookups();
const typeOf = (value: string): 'terminal' | 'name' =>
  /^\d{16,}$/.test(value) ? 'terminal' : 'name';
const MANY_RESULTS = MANY.distinct.map((value) => resultOf(value, typeOf(value)));

/**
 * Holds the replies of calls until no new call has come for a while (a few turns of the event
 * loop, no real time), then answers the held ones, the latest first. `mostAtOnce` is then how many
 * calls svc had in flight together.
 */
class HeldReplies {
  mostAtOnce = 0;
  private held: (() => void)[] = [];
  private arrivals = 0;

  constructor(
    private readonly reply: (request: SeenRequest) => FakeReply = answer,
    /**
     * Hold until this many calls are waiting, however slowly they come (a file read on a busy
     * machine); else until no call comes for a while.
     */
    private readonly until?: number,
  ) {}

  readonly hold = (request: SeenRequest): Promise<FakeReply> =>
    new Promise((resolve) => {
      this.held.push(() => resolve(this.reply(request)));
      this.mostAtOnce = Math.max(this.mostAtOnce, this.held.length);
      if (this.until === undefined) this.answerWhenQuiet(++this.arrivals);
      else if (this.held.length === this.until) this.releaseAll();
    });

  private releaseAll(): void {
    for (const release of this.held.splice(0).reverse()) release();
  }

  private answerWhenQuiet(arrival: number, turns = 0): void {
    setImmediate(() => {
      if (arrival !== this.arrivals) return; // a later call starts its own count
      if (turns < 25) return this.answerWhenQuiet(arrival, turns + 1);
      this.releaseAll();
    });
  }
}

// ---- lookups --------------------------------------------------------------------------------

describe('lookups from the command line', () => {
  it.each(MODES)(
    'as %s, sends terminals and --name values in one call and prints a result for each, in input order',
    async (_mode, tty) => {
      const r = await resolve(
        [
          T1,
          UNKNOWN,
          '--name',
          'Bhatbhateni Supermarket Pvt. Ltd.',
          '--name',
          'Nowhere Known Shop',
          '-o',
          'ndjson',
        ],
        { tty, service: resolving(1) },
      );
      expect(r.code, r.stderr).toBe(0);
      // A person at the terminal is left one line that sums the run up.
      expect(r.stderr).toBe(
        tty ? '4 lookups, 2 matched, 2 not found, 0 duplicates, 1 call in 0.0s\n' : '',
      );
      expect(r.requests).toHaveLength(1);
      const [call] = r.requests;
      expect(call!.json).toEqual({
        terminals: [T1, UNKNOWN],
        names: ['Bhatbhateni Supermarket Pvt. Ltd.', 'Nowhere Known Shop'],
      });
      expect(call!.headers['content-type']).toBe('application/json');
      expect(call!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(ndjson(r.stdout)).toEqual([
        {
          input: T1,
          type: 'terminal',
          matched: true,
          merchant: 'Merchant 6888',
          mcc: '5411',
          category: 'groceries',
          city: 'Pokhara',
          terminal: T1,
        },
        { input: UNKNOWN, type: 'terminal', matched: false },
        {
          input: 'Bhatbhateni Supermarket Pvt. Ltd.',
          type: 'name',
          matched: true,
          merchant: 'Bhatbhateni Supermarket',
          mcc: '5411',
          category: 'groceries',
          city: 'Pokhara',
        },
        { input: 'Nowhere Known Shop', type: 'name', matched: false },
      ]);
    },
  );

  it.each(MODES)(
    'as %s, sends only the list it has: terminals alone, or names alone',
    async (_mode, tty) => {
      const terminals = await resolve([T1, '-o', 'ndjson'], { tty, service: resolving(1) });
      expect(terminals.requests[0]!.json).toEqual({ terminals: [T1] });
      const names = await resolve(['--name', 'Cafe Pvt Ltd', '-o', 'ndjson'], {
        tty,
        service: resolving(1),
      });
      expect(names.requests[0]!.json).toEqual({ names: ['Cafe Pvt Ltd'] });
    },
  );

  it.each(MODES)(
    'as %s, looks a duplicate up once, trimmed, in the place of its first appearance',
    async (_mode, tty) => {
      const r = await resolve([T2, ` ${T1} `, T2, '--name', ' Cafe ', '--name', 'Cafe', '--json'], {
        tty,
        service: resolving(1),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.requests[0]!.json).toEqual({ terminals: [T2, T1], names: ['Cafe'] });
      expect(JSON.parse(r.stdout)).toEqual({
        data: {
          results: expected([
            [T2, 'terminal'],
            [T1, 'terminal'],
            ['Cafe', 'name'],
          ]),
          count: 3,
          matched: 2,
        },
        meta: META,
      });
    },
  );

  it.each(MODES)(
    'as %s, the same digits as a terminal and as a name are two lookups, told apart by type',
    async (_mode, tty) => {
      const r = await resolve([T1, '--name', T1, '-o', 'ndjson'], { tty, service: resolving(1) });
      expect(r.requests[0]!.json).toEqual({ terminals: [T1], names: [T1] });
      expect(ndjson(r.stdout).map((x) => [x.input, x.type])).toEqual([
        [T1, 'terminal'],
        [T1, 'name'],
      ]);
    },
  );

  it.each(MODES)('as %s, --unmatched shows only what matched nothing', async (_mode, tty) => {
    const r = await resolve(
      [
        T1,
        UNKNOWN,
        '--name',
        'Cafe Pvt Ltd',
        '--name',
        'Nowhere Known Shop',
        '--unmatched',
        '--json',
      ],
      { tty, service: resolving(1) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      data: {
        results: [
          { input: UNKNOWN, type: 'terminal', matched: false },
          { input: 'Nowhere Known Shop', type: 'name', matched: false },
        ],
        count: 2,
        matched: 0,
      },
      meta: META,
    });
  });
});

describe('lookups from a file or stdin', () => {
  // A byte-order mark, CRLF and lone CR line ends, spaces, blank lines, 15 digits (a name),
  // repeats.
  const TEXT = `\uFEFF${T2}\r\n  Cafe Pvt Ltd \r\n\r\n123456789012345\r${T1}\n${T2}\n   \nCafe Pvt Ltd\n${UNKNOWN}`;
  const ORDER: [string, 'terminal' | 'name'][] = [
    [T2, 'terminal'],
    ['Cafe Pvt Ltd', 'name'],
    ['123456789012345', 'name'],
    [T1, 'terminal'],
    [UNKNOWN, 'terminal'],
  ];

  it.each(MODES)(
    'as %s, --file: one lookup a line, 16+ digits a terminal, anything else a name, blank lines skipped',
    async (_mode, tty) => {
      const r = await resolve(['--file', file(TEXT), '-o', 'ndjson'], {
        tty,
        service: resolving(1),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.requests[0]!.json).toEqual({
        terminals: [T2, T1, UNKNOWN],
        names: ['Cafe Pvt Ltd', '123456789012345'],
      });
      expect(ndjson(r.stdout)).toEqual(expected(ORDER));
    },
  );

  it.each(MODES)('as %s, --file - reads stdin', async (_mode, tty) => {
    const r = await resolve(['--file', '-', '-o', 'ndjson'], {
      tty,
      stdin: TEXT,
      service: resolving(1),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r.stdout)).toEqual(expected(ORDER));
  });

  it.each(MODES)(
    'as %s, arguments and --name come first, then the file; a repeat across them is looked up once',
    async (_mode, tty) => {
      const r = await resolve(
        [T1, '--name', 'Cafe Pvt Ltd', '--file', file(TEXT), '-o', 'ndjson'],
        { tty, service: resolving(1) },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(ndjson(r.stdout).map((x) => x.input)).toEqual([
        T1,
        'Cafe Pvt Ltd',
        T2,
        '123456789012345',
        UNKNOWN,
      ]);
    },
  );

  it.each(MODES)(
    'as %s, --column reads one column of a CSV file with a header row',
    async (_mode, tty) => {
      const csv = file(
        `date,narration,amount\n2026-10-01,"Bhatbhateni Supermarket, Pvt. Ltd.",120\n2026-10-02,${T1},450\n2026-10-03,,10\n2026-10-04,"${T1}",5\n`,
        'statement.csv',
      );
      const r = await resolve(['--file', csv, '--column', 'narration', '-o', 'ndjson'], {
        tty,
        service: resolving(1),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.requests[0]!.json).toEqual({
        terminals: [T1],
        names: ['Bhatbhateni Supermarket, Pvt. Ltd.'],
      });
      expect(ndjson(r.stdout).map((x) => [x.type, x.input])).toEqual([
        ['name', 'Bhatbhateni Supermarket, Pvt. Ltd.'],
        ['terminal', T1],
      ]);
    },
  );

  it.each(MODES)(
    'as %s, --column refuses a record longer than 1 MiB (exit 2), naming its line, before anything is sent',
    async (_mode, tty) => {
      const csv = file(
        `date,narration,amount\n2026-10-01,Bhatbhateni Supermarket,120\n2026-10-02,Cafe Pvt Ltd,"${'9'.repeat(2 * 1024 * 1024)}"\n`,
        'long-record.csv',
      );
      const r = await resolve(['--file', csv, '--column', 'narration'], {
        tty,
        service: new FakeService(),
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(unwrapped(r.stderr)).toBe(
        `error: ${csv}, line 3: a record of more than 1 MiB, the most --column reads\n`,
      );
      expect(r.requests).toEqual([]);
    },
  );

  it.each(MODES)(
    'as %s, --dry-run prints the plan and sends nothing (no key needed)',
    async (_mode, tty) => {
      const path = file(MANY.text);
      const json = await resolve(['--file', path, '--dry-run', '--json'], {
        tty,
        env: { SVC_API_KEY: undefined },
      });
      expect(json.code, json.stderr).toBe(0);
      // On a terminal JSON is coloured.
      expect(JSON.parse(plain(json.stdout))).toEqual({
        dry_run: true,
        lookups: 2500,
        terminals: MANY.distinct.filter((v) => typeOf(v) === 'terminal').length,
        names: MANY.distinct.filter((v) => typeOf(v) === 'name').length,
        duplicates: MANY.given - 2500,
        calls: 3,
        units: 3,
        concurrency: 3,
      });
      const table = await resolve(['--file', path, '--dry-run', '--concurrency', '2'], {
        tty,
        env: { SVC_API_KEY: undefined },
      });
      expect(table.code).toBe(0);
      const text = plain(table.stdout);
      if (tty) {
        expect(text).toContain('Dry run: nothing was sent.');
        expect(text).toMatch(/Calls\s+3 of at most 1,000 lookups, 2 at a time/);
      } else {
        expect(text).toMatch(/^calls\t3 of at most 1,000 lookups, 2 at a time$/m);
        expect(text).toMatch(/^units\t3$/m);
      }
    },
  );
});

describe('a CSV file given without --column', () => {
  const STATEMENT = `date,narration,amount\r\n2026-10-01,"Bhat-Bhateni Supermarket, Pvt. Ltd.",120\r\n2026-10-02,${T1},450\r\n2026-10-03,Himalayan Java,90\r\n`;
  const refusal = (where: string) =>
    `error: ${where} looks like CSV with a header row (date, narration, amount): give --column NAME to take one column`;

  it.each(MODES)(
    'as %s, is refused before anything is sent (exit 2), naming --column and the columns found, with an example',
    async (_mode, tty) => {
      const path = file(STATEMENT, 'statement.csv');
      const r = await resolve(['--file', path], { tty, service: new FakeService() });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(unwrapped(r.stderr)).toBe(
        `${refusal(path)}\nExample: svc merchants resolve --file ${path} --column narration\nIf each line is one lookup, commas and all, give --no-header.\n`,
      );
      expect(r.requests).toEqual([]);
    },
  );

  it.each(MODES)('as %s, from standard input too, and with --dry-run', async (_mode, tty) => {
    const piped = await resolve(['--file', '-', '-o', 'ndjson'], { tty, stdin: STATEMENT });
    expect(piped.code).toBe(2);
    expect(piped.stdout).toBe('');
    // -o ndjson: a script reads the error as one JSON line.
    const said = tty
      ? unwrapped(piped.stderr).split('\n')[0]
      : `error: ${JSON.parse(piped.stderr).error_message}`;
    expect(said).toBe(refusal('standard input'));
    const planned = await resolve(['--file', file(STATEMENT, 'planned.csv'), '--dry-run'], { tty });
    expect(planned.code).toBe(2);
    expect(planned.stdout).toBe('');
    expect(unwrapped(planned.stderr)).toMatch(
      /^error: .*planned\.csv looks like CSV with a header row \(date, narration, amount\)/,
    );
  });

  it('is refused as such with no key configured: the file is wrong before the configuration is', async () => {
    const r = await resolve(['--file', file(STATEMENT, 'no-key.csv')], {
      env: { SVC_API_KEY: undefined },
    });
    expect(r.code).toBe(2);
    expect(unwrapped(r.stderr)).toMatch(/looks like CSV with a header row/);
  });

  it.each(MODES)(
    'as %s, a semicolon or tab separated statement is refused too, and read with --column',
    async (_mode, tty) => {
      for (const separator of [';', '\t']) {
        const rows = [
          ['date', 'narration', 'amount'],
          ['2026-10-01', '"Bhat-Bhateni Supermarket; Pvt. Ltd."', '120'],
          ['2026-10-02', T1, '450'],
          ['2026-10-03', 'Himalayan Java', '90'],
        ];
        const text = rows.map((row) => row.join(separator) + '\r\n').join('');
        const path = file(text, `statement-${separator === ';' ? 'semicolon' : 'tab'}.csv`);
        const refused = await resolve(['--file', path], { tty });
        expect(refused.code, text).toBe(2);
        expect(unwrapped(refused.stderr).split('\n')[0]).toBe(refusal(path));
        const read = await resolve(['--file', path, '--column', 'narration', '-o', 'ndjson'], {
          tty,
          service: resolving(1),
        });
        expect(read.code, read.stderr).toBe(0);
        expect(read.requests[0]!.json).toEqual({
          terminals: [T1],
          names: ['Bhat-Bhateni Supermarket; Pvt. Ltd.', 'Himalayan Java'],
        });
      }
    },
  );

  it.each(MODES)(
    'as %s, a names file whose first name holds a comma is read one name a line, while the statement is refused',
    async (_mode, tty) => {
      expect((await resolve(['--file', file(STATEMENT, 'beside.csv')], { tty })).code).toBe(2);
      const names = file(
        `Bhat-Bhateni Supermarket, Pvt. Ltd.\nHimalayan Java Pvt Ltd\n${T1}\n`,
        'names.txt',
      );
      const r = await resolve(['--file', names, '-o', 'ndjson'], { tty, service: resolving(1) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.requests[0]!.json).toEqual({
        terminals: [T1],
        names: ['Bhat-Bhateni Supermarket, Pvt. Ltd.', 'Himalayan Java Pvt Ltd'],
      });
    },
  );

  it.each(MODES)(
    'as %s, --no-header reads such a file one lookup a line, each whole line sent',
    async (_mode, tty) => {
      const r = await resolve(
        [
          '--file',
          file('Cash Deposit,Kathmandu,Branch\nSalary,Office,Transfer\n', 'lines.txt'),
          '--no-header',
          '-o',
          'ndjson',
        ],
        { tty, service: resolving(1) },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.requests[0]!.json).toEqual({
        names: ['Cash Deposit,Kathmandu,Branch', 'Salary,Office,Transfer'],
      });
    },
  );

  it.each(MODES)(
    'as %s, --no-header needs --file and cannot go with --column',
    async (_mode, tty) => {
      const alone = await resolve([T1, '--no-header'], { tty });
      expect(alone.code).toBe(2);
      expect(alone.stderr.split('\n')[0]).toBe(
        'error: --no-header needs --file: it says how to read a file',
      );
      const both = await resolve(
        ['--file', file(STATEMENT, 'both.csv'), '--column', 'narration', '--no-header'],
        { tty },
      );
      expect(both.code).toBe(2);
      expect(unwrapped(both.stderr).split('\n')[0]).toBe(
        'error: --no-header conflicts with --column: --column reads a CSV file by its header row',
      );
    },
  );
});

describe('a bank statement given without --column: a heading above its table (test/fixtures/statements)', () => {
  const statement = (name: string) =>
    new URL(`../fixtures/statements/${name}`, import.meta.url).pathname;
  const HEADING = "With --column, the lines above the header row (the bank's heading) are skipped.";
  const NO_HEADER = 'If each line is one lookup, commas and all, give --no-header.';
  const STATEMENTS = [
    {
      name: 'nic-asia.csv',
      header: 'on line 9 (Tran Date, Value Date, Particulars, Cheque No., Debit, Credit, Balance)',
      column: 'Particulars',
      example: 'Particulars',
      line: 9,
      names: [
        'Opening Balance',
        'POS PURCHASE BHAT-BHATENI SUPERMARKET, KOTESHWOR',
        'QR PAY 9756038350856888 HIMALAYAN JAVA',
        'SALARY JUL 2024',
        'ESEWA LOAD 9801234567',
        'CHQ WDL 000123',
        'Total',
      ],
    },
    {
      name: 'nabil.txt',
      header:
        'on line 7 (Date (2081/82), Value Date, Description, Cheque/Reference No, Withdrawal Amount (NPR), Deposit Amount (NPR), Running Balance (NPR))',
      column: 'Description',
      example: 'Description',
      line: 7,
      names: [
        'OPENING BALANCE',
        'FONEPAY QR/9756038350856888/BHAT-BHATENI SUPERMARKET',
        'POS/BIG MART/BANESHWOR',
        'SALARY CREDIT JUL',
        'NEA BILL PAYMENT',
      ],
    },
    {
      name: 'global-ime.csv',
      header:
        'on line 6 (Transaction Date, Description / Narration of the Transaction, Cheque Number, Withdrawal Amount in Nepalese Rupees (NPR), Deposit Amount in Nepalese Rupees (NPR), Available Balance after Transaction)',
      column: 'Description / Narration of the Transaction',
      example: "'Description / Narration of the Transaction'",
      line: 6,
      names: [
        'BALANCE BROUGHT FORWARD',
        'QR PAYMENT TO HIMALAYAN JAVA COFFEE, THAMEL',
        'ATM WITHDRAWAL GIBL NEW ROAD',
        'FONEPAY 9756038350851234 KHALTI TOPUP',
      ],
    },
    {
      name: 'global-ime-nepali.tsv',
      header: 'on line 6 (मिति, विवरण, चेक नं, डेबिट, क्रेडिट, मौज्दात)',
      column: 'विवरण',
      example: "'विवरण'",
      line: 6,
      names: ['सुरुको मौज्दात', 'भाटभटेनी सुपरमार्केट, कोटेश्वर', 'हिमालयन जाभा कफी', 'तलब'],
    },
  ];

  describe.each(MODES)('as %s', (_mode, tty) => {
    it.each(STATEMENTS)(
      '$name is refused before anything is sent (exit 2), naming --column and the header row',
      async ({ name, header, example }) => {
        const path = statement(name);
        const r = await resolve(['--file', path], { tty, service: new FakeService() });
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(unwrapped(r.stderr)).toBe(
          `error: ${path} looks like CSV with a header row ${header}: give --column NAME to take one column\nExample: svc merchants resolve --file ${path} --column ${example}\n${HEADING}\n${NO_HEADER}\n`,
        );
        expect(r.requests).toEqual([]);
      },
    );

    it.each(STATEMENTS)(
      '$name with --column: the heading is skipped, and said so on stderr; only the column is sent',
      async ({ name, column, line, names }) => {
        const path = statement(name);
        const r = await resolve(['--file', path, '--column', column, '-o', 'ndjson'], {
          tty,
          service: resolving(1),
        });
        expect(r.code, r.stderr).toBe(0);
        expect(withoutSummary(r.stderr, tty)).toBe(
          `Reading ${path} from its header row, line ${line}: the ${line - 1} lines above it are skipped.\n`,
        );
        expect(r.requests[0]!.json).toEqual({ names });
        expect(JSON.stringify(r.requests[0]!.json)).not.toContain('0123456789012345');
      },
    );

    it('a statement copied as text, with no header row, is refused by its account line', async () => {
      const path = statement('pdf-copy.txt');
      const r = await resolve(['--file', path], { tty });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(unwrapped(r.stderr)).toBe(
        `error: ${path} looks like a bank statement (line 3 gives an account number): give --column NAME to take one column of its table\n` +
          "NAME is the header of the column of narrations or merchant names; the lines above the header row (the bank's heading) are skipped.\n" +
          `${NO_HEADER}\n`,
      );
      expect(r.requests).toEqual([]);
    });

    it('from standard input too, and with --dry-run: nothing sent, nothing billed', async () => {
      const piped = await resolve(['--file', '-'], {
        tty,
        stdin: readFileSync(statement('nabil.txt'), 'utf8'),
      });
      expect(piped.code).toBe(2);
      expect(unwrapped(piped.stderr).split('\n')[0]).toMatch(
        /^error: standard input looks like CSV with a header row on line 7 \(Date \(2081\/82\), /,
      );
      const planned = await resolve(['--file', statement('nic-asia.csv'), '--dry-run'], { tty });
      expect(planned.code).toBe(2);
      expect(planned.stdout).toBe('');
    });

    it('--each-line numbers the records as an editor numbers the lines of the file, the heading included', async () => {
      const r = await resolve(
        [
          '--file',
          statement('nabil.txt'),
          '--column',
          'Description',
          '--each-line',
          '-o',
          'ndjson',
        ],
        { tty, service: resolving(1) },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(ndjson(r.stdout).map((x) => [(x as Result & { line: number }).line, x.input])).toEqual(
        [
          [8, 'OPENING BALANCE'],
          [9, 'FONEPAY QR/9756038350856888/BHAT-BHATENI SUPERMARKET'],
          [10, 'POS/BIG MART/BANESHWOR'],
          [11, 'SALARY CREDIT JUL'],
          [12, 'NEA BILL PAYMENT'],
        ],
      );
      // Said once, though the file is read three times.
      expect(withoutSummary(r.stderr, tty)).toBe(
        `Reading ${statement('nabil.txt')} from its header row, line 7: the 6 lines above it are skipped.\n`,
      );
    });

    it('a list of names and terminals, names with a comma and in Nepali, is read one lookup a line', async () => {
      const text = `Bhat-Bhateni Supermarket, Koteshwor\nHimalayan Java Pvt Ltd\n${T1}\nभाटभटेनी सुपरमार्केट, कोटेश्वर\nBig Mart, Baneshwor\n\nCafe de Patan, Lalitpur\n`;
      const r = await resolve(['--file', file(text), '-o', 'ndjson'], {
        tty,
        service: resolving(1),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.requests[0]!.json).toEqual({
        terminals: [T1],
        names: [
          'Bhat-Bhateni Supermarket, Koteshwor',
          'Himalayan Java Pvt Ltd',
          'भाटभटेनी सुपरमार्केट, कोटेश्वर',
          'Big Mart, Baneshwor',
          'Cafe de Patan, Lalitpur',
        ],
      });
    });
  });
});

// ---- many lookups ---------------------------------------------------------------------------

describe('more than 1000 lookups', () => {
  it.each(MODES)(
    'as %s, 2,500 distinct lookups go as 3 calls of at most 1000, each once, merged into one reply in input order',
    async (_mode, tty) => {
      const r = await resolve(['--file', file(MANY.text), '--json'], {
        tty,
        service: resolving(3),
      });
      expect(r.code, r.stderr).toBe(0);
      if (!tty) expect(r.stderr).toBe('');
      const sizes = r.requests.map((q) => lookupsOf(q).length);
      expect(sizes).toEqual([1000, 1000, 500]);
      // Each call holds the next lookups of the input, in order; every distinct lookup is sent
      // once.
      expect(r.requests.map((q) => lookupsOf(q).sort())).toEqual(
        [0, 1000, 2000].map((from) => MANY.distinct.slice(from, from + 1000).sort()),
      );
      const reply = JSON.parse(r.stdout);
      expect(Object.keys(reply)).toEqual(['data', 'meta']);
      expect(reply.data.results).toEqual(MANY_RESULTS);
      expect(reply.data.count).toBe(2500);
      expect(reply.data.matched).toBe(MANY_RESULTS.filter((x) => x.matched).length);
      expect(reply.meta).toEqual(META);
    },
  );

  it.each(MODES)(
    'as %s, the table, ndjson, csv and --json of the same lookups agree',
    async (_mode, tty) => {
      const text = MANY.text.split('\r\n').slice(0, 1600).join('\n');
      const run = (format: string[], columns?: number) =>
        resolve(['--file', '-', ...format], { tty, columns, stdin: text, service: resolving(2) });
      const [json, nd, csv, table] = [
        await run(['--json']),
        await run(['-o', 'ndjson']),
        await run(['-o', 'csv']),
        await run([], 200),
      ];
      for (const r of [json, nd, csv, table]) expect(r.code, r.stderr).toBe(0);
      const results = JSON.parse(json.stdout).data.results as Result[];
      expect(results.length).toBeGreaterThan(1000);
      expect(ndjson(nd.stdout)).toEqual(results);
      const rows = parseCsv<Record<string, string>>(csv.stdout, { columns: true });
      expect(rows).toEqual(
        results.map((x) => ({
          input: x.input,
          type: x.type,
          matched: String(x.matched),
          terminal: x.terminal ?? '',
          merchant: x.merchant ?? '',
          mcc: x.mcc ?? '',
          category: x.category ?? '',
          city: x.city ?? '',
        })),
      );
      const lines = plain(table.stdout).trimEnd().split('\n');
      if (tty) {
        expect(lines[0]).toMatch(/^INPUT +TERMINAL +MERCHANT +MCC +CATEGORY +CITY +MATCHED$/);
        // Column widths come from the first call's results: a longer value later is cut with an
        // ellipsis.
        const rows = lines.slice(1, -1);
        const inputs = rows.map((line) => line.split(/ {2,}/)[0]!);
        expect(inputs).toHaveLength(results.length);
        inputs.forEach((cell, i) =>
          expect(
            cell === results[i]!.input ||
              (cell.endsWith('…') && results[i]!.input.startsWith(cell.slice(0, -1))),
            cell,
          ).toBe(true),
        );
        expect(inputs.slice(0, 1000)).toEqual(results.slice(0, 1000).map((x) => x.input));
        expect(rows.map((line) => line.trimEnd().split(' ').at(-1))).toEqual(
          results.map((x) => (x.matched ? 'yes' : 'no')),
        );
        // The table ends with one line that sums the run up.
        const given = text.split('\n').filter((line) => line.trim() !== '').length;
        const matched = results.filter((x) => x.matched).length;
        expect(lines.at(-1)).toBe(
          `${count(results.length)} lookups, ${count(matched)} matched, ${count(results.length - matched)} not found, ${count(given - results.length)} duplicates, 2 calls in 0.0s`,
        );
        expect(table.stdout).toMatch(/\u001b\[/);
        // On a narrower terminal the free-text columns give up room, cut with an ellipsis.
        const narrow = screenLines(plain((await run([], 80)).stdout));
        for (const line of narrow) expect([...line].length, line).toBeLessThanOrEqual(80);
        expect(narrow.some((line) => line.includes('…'))).toBe(true);
      } else {
        expect(lines[0]).toBe('INPUT\tTERMINAL\tMERCHANT\tMCC\tCATEGORY\tCITY\tMATCHED');
        expect(lines.slice(1).map((line) => line.split('\t'))).toEqual(
          results.map((x) => [
            x.input,
            x.terminal ?? '',
            x.merchant ?? '',
            x.mcc ?? '',
            x.category ?? '',
            x.city ?? '',
            x.matched ? 'yes' : 'no',
          ]),
        );
        expect(table.stdout).not.toMatch(/\u001b\[/);
      }
    },
  );

  it.each([
    ['the default of 4', [], 4],
    ['--concurrency 2', ['--concurrency', '2'], 2],
    ['--concurrency 1', ['--concurrency', '1'], 1],
  ] as const)(
    'runs %s calls at once; results still come out in input order when later calls answer first',
    async (_name, flags, most) => {
      const lookups = Array.from({ length: 5500 }, (_, i) =>
        String(9_100_000_000_000_000n + BigInt(i)),
      );
      const held = new HeldReplies();
      // From stdin in one piece: every call can start at once (from a file, a call starts once its
      // lines are read).
      const r = await resolve(['--file', '-', '-o', 'ndjson', ...flags], {
        stdin: lookups.join('\n'),
        service: resolving(6, held.hold),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(held.mostAtOnce).toBe(most);
      expect(ndjson(r.stdout).map((x) => x.input)).toEqual(lookups);
    },
  );

  it('on a terminal, says how many billing units a run of more than 10 calls uses, and shows progress on stderr', async () => {
    const lookups = Array.from({ length: 10_500 }, (_, i) =>
      String(3_000_000_000_000_000n + BigInt(i)),
    );
    // A person writing the results to a file: stdout is no terminal, stderr is.
    const r = await resolve(['--file', file(lookups.join('\n')), '-o', 'csv'], {
      tty: true,
      stdoutTTY: false,
      service: resolving(11),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'Resolving 10,500 lookups in 11 calls: this uses 11 billing units.\n',
    );
    expect(r.stderr).toMatch(/\/10,500 lookups · \d+\/11 calls/);
    expect(r.stdout.trimEnd().split('\r\n')).toHaveLength(10_501);
  });

  it('for a script, the same run says nothing on stderr', async () => {
    const lookups = Array.from({ length: 10_500 }, (_, i) =>
      String(3_000_000_000_000_000n + BigInt(i)),
    );
    const r = await resolve(['--file', file(lookups.join('\n')), '-o', 'csv'], {
      service: resolving(11),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.trimEnd().split('\r\n')).toHaveLength(10_501);
  });
});

// ---- the table for people -------------------------------------------------------------------

describe('the table for a person at a terminal', () => {
  const UNAVAILABLE = {
    status: 503,
    body: {
      error_type: 'API_ERROR',
      error_code: 'API_ERROR',
      error_message: 'The service is unavailable.',
    },
  };
  const ANSI = /\u001b\[[0-9;]*m/g;
  /** Columns a line takes on the terminal (every character here takes one). */
  const width = (line: string) => [...line.replace(ANSI, '')].length;
  const matchedOf = (results: Result[]) => results.filter((x) => x.matched).length;
  const manyMatched = matchedOf(MANY_RESULTS);
  /** The line that sums the run up: at 60 columns, without the duplicates, for room. */
  const manySummary = `2,500 lookups, ${count(manyMatched)} matched, ${count(2500 - manyMatched)} not found, ${count(MANY.given - 2500)} duplicates, 3 calls in 0.0s`;
  const narrowSummary = `2,500 lookups, ${count(manyMatched)} matched, ${count(2500 - manyMatched)} not found, 3 calls in 0.0s`;

  it.each([80, 60])(
    'at %i columns: the streamed table of svc, no line wider than the terminal, and one line that sums the run up',
    async (columns) => {
      const r = await resolve(['--file', file(MANY.text)], {
        tty: true,
        columns,
        service: resolving(3),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\u001b\[/);
      const lines = screenLines(plain(r.stdout));
      for (const line of r.stdout.trimEnd().split('\n'))
        expect(width(line), line).toBeLessThanOrEqual(columns);
      // Every terminal number whole on a line of its own table row or card.
      for (const x of MANY_RESULTS.filter((x) => x.type === 'terminal').slice(0, 50))
        expect(
          lines.some((line) => line.includes(x.input)),
          x.input,
        ).toBe(true);
      expect(lines.at(-1)).toBe(columns === 80 ? manySummary : narrowSummary);
      expect(lines.filter((line) => / lookups, /.test(line))).toHaveLength(1);
      if (columns === 80)
        expect(lines[0]).toMatch(/^INPUT +TERMINAL +MERCHANT +MCC +CATEGORY +CITY +MATCHED$/);
    },
  );

  it('sums up the whole run with --unmatched too, and after "No results to show." when nothing is left to show', async () => {
    const unmatched = await resolve(['--file', file(MANY.text), '--unmatched'], {
      tty: true,
      service: resolving(3),
    });
    expect(unmatched.code, unmatched.stderr).toBe(0);
    const lines = screenLines(plain(unmatched.stdout));
    expect(lines).toHaveLength(1 + (2500 - manyMatched) + 1);
    expect(lines.at(-1)).toBe(manySummary);
    const none = await resolve([T1, T1, '--unmatched'], { tty: true, service: resolving(1) });
    expect(screenLines(plain(none.stdout))).toEqual([
      'No results to show.',
      '1 lookup, 1 matched, 0 not found, 1 duplicate, 1 call in 0.0s',
    ]);
  });

  it('wraps the line between words on a narrow terminal', async () => {
    const r = await resolve(['--file', file(MANY.text)], {
      tty: true,
      columns: 30,
      service: resolving(3),
    });
    const tail = screenLines(plain(r.stdout)).slice(-3);
    for (const line of tail) expect(width(line), line).toBeLessThanOrEqual(30);
    // No room for what may be left out, and the rest wrapped between words.
    expect(tail.join(' ')).toContain(
      `2,500 lookups, ${count(manyMatched)} matched, 3 calls in 0.0s`,
    );
  });

  it('after a run that stopped, says what was answered before it did; the rest goes to the unresolved file', async () => {
    const out = join(folder(), 'left.txt');
    const service = new FakeService()
      .expect('POST', RESOLVE, answer)
      .expect('POST', RESOLVE, UNAVAILABLE);
    const r = await resolve(
      ['--file', file(MANY.text), '--retries', '0', '--concurrency', '1', '--failed-out', out],
      { tty: true, service },
    );
    expect(r.code).toBe(8);
    const first = MANY_RESULTS.slice(0, 1000);
    expect(screenLines(plain(r.stdout)).at(-1)).toBe(
      `1,000 lookups answered before the run stopped: ${count(matchedOf(first))} matched, ${count(1000 - matchedOf(first))} not found`,
    );
    expect(readFileSync(out, 'utf8')).toBe(MANY.distinct.slice(1000).join('\n') + '\n');
  });

  it('is no part of a pipe, nor of --json, ndjson or CSV on a terminal', async () => {
    const piped = await resolve([T1, T2], { service: resolving(1) });
    expect(piped.stdout).not.toMatch(/lookups:/);
    for (const format of [['--json'], ['-o', 'ndjson'], ['-o', 'csv']]) {
      const r = await resolve([T1, T2, ...format], { tty: true, service: resolving(1) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/lookups:/);
    }
  });
});

// ---- reading twice --------------------------------------------------------------------------

describe('a person’s input is counted first, then read again for the calls', () => {
  const UNAVAILABLE = {
    status: 503,
    body: {
      error_type: 'API_ERROR',
      error_code: 'API_ERROR',
      error_message: 'The service is unavailable.',
    },
  };

  /** Runs with TMPDIR at a folder of its own: where a copy of standard input would be. */
  async function withTemporaryFolder<T>(run: (folder: string) => Promise<T>): Promise<T> {
    const temporary = folder('tmp-');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = temporary;
    try {
      return await run(temporary);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  }

  it('standard input is kept in a private copy for the second reading: a run that stops lists the whole rest, and nothing is left behind', async () => {
    await withTemporaryFolder(async (temporary) => {
      const out = join(folder(), 'left.txt');
      const service = new FakeService()
        .expect('POST', RESOLVE, answer)
        .expect('POST', RESOLVE, UNAVAILABLE);
      const r = await resolve(
        ['--file', '-', '-o', 'csv', '--retries', '0', '--concurrency', '1', '--failed-out', out],
        { tty: true, stdoutTTY: false, stdin: MANY.text, service },
      );
      expect(r.code).toBe(8);
      expect(r.stderr).toContain('2,500');
      const done = parseCsv<Record<string, string>>(r.stdout, { columns: true });
      expect(done.map((x) => x.input)).toEqual(MANY.distinct.slice(0, 1000));
      expect(readFileSync(out, 'utf8')).toBe(MANY.distinct.slice(1000).join('\n') + '\n');
      expect(readdirSync(temporary)).toEqual([]);
    });
  });

  it.runIf(process.platform !== 'win32')(
    'so is a pipe given as --file (it cannot be read twice)',
    async () => {
      const fifo = join(folder(), 'lookups.fifo');
      execFileSync('mkfifo', [fifo]);
      // The writer waits for svc to open the pipe; it writes off the main thread.
      const writing = writeFile(fifo, MANY.text);
      const r = await resolve(['--file', fifo, '-o', 'ndjson'], {
        tty: true,
        stdoutTTY: false,
        service: resolving(3),
      });
      await writing;
      expect(r.code, r.stderr).toBe(0);
      expect(ndjson(r.stdout)).toEqual(MANY_RESULTS);
    },
  );
});

// ---- a run that stops -----------------------------------------------------------------------

describe('a run that stops leaves nothing lost', () => {
  const UNAVAILABLE = {
    status: 503,
    body: {
      error_type: 'API_ERROR',
      error_code: 'API_ERROR',
      error_message: 'The service is unavailable.',
    },
  };

  it.each(MODES)(
    'as %s, a call failing after its retries: results so far written, the rest in the unresolved file, exit 8; running that file finishes the job',
    async (_mode, tty) => {
      const dir = folder();
      const input = file(MANY.text);
      // The first call goes through, the second fails; the third is never sent.
      const service = new FakeService()
        .expect('POST', RESOLVE, answer)
        .expect('POST', RESOLVE, UNAVAILABLE);
      const first = await inFolder(dir, () =>
        resolve(['--file', input, '-o', 'csv', '--retries', '0', '--concurrency', '1'], {
          tty,
          service,
        }),
      );
      expect(first.code).toBe(8);
      const done = parseCsv<Record<string, string>>(first.stdout, { columns: true });
      expect(done.map((x) => x.input)).toEqual(MANY.distinct.slice(0, 1000));
      // The clock of the run names the file.
      const path = join(dir, 'svc-unresolved-20260522-100000.txt');
      expect(readdirSync(dir)).toEqual(['svc-unresolved-20260522-100000.txt']);
      expect(readFileSync(path, 'utf8')).toBe(MANY.distinct.slice(1000).join('\n') + '\n');
      if (tty) {
        // On a terminal the notes wrap between words: read as one line.
        const said = words(first.stderr);
        expect(said).toContain(
          `1,500 of 2,500 lookups were not resolved; they are listed in ${path} `,
        );
        expect(said).toContain(`Run again with --file ${path} to finish the job. `);
        expect(said).toContain('error: API_ERROR: The service is unavailable. ');
      } else {
        // -o csv for a script: the note and the error are one JSON line each, as
        // docs/reference/exit-codes.md has errors.
        expect(jsonLines(first.stderr)).toEqual([
          { unresolved: 1500, lookups: 2500, failed_out: path },
          UNAVAILABLE.body,
        ]);
      }
      expect(first.stderr).not.toMatch(/\n\s+at /);

      const second = await inFolder(dir, () =>
        resolve(['--file', path, '-o', 'csv'], { tty, service: resolving(2) }),
      );
      expect(second.code, second.stderr).toBe(0);
      const rest = parseCsv<Record<string, string>>(second.stdout, { columns: true });
      expect([...done, ...rest].map((x) => x.input)).toEqual(MANY.distinct);
    },
  );

  it('a default unresolved file is never overwritten: a second one gets a number', async () => {
    const dir = folder();
    for (let run = 0; run < 2; run++) {
      const r = await inFolder(dir, () =>
        resolve(['--file', file(`${T1}\n`), '--retries', '0'], {
          service: resolving(1, () => UNAVAILABLE),
        }),
      );
      expect(r.code).toBe(8);
    }
    expect(readdirSync(dir).sort()).toEqual([
      'svc-unresolved-20260522-100000-2.txt',
      'svc-unresolved-20260522-100000.txt',
    ]);
  });

  it('with calls in parallel, every result the run has is written, in order, and --failed-out lists the rest; machine output keeps stderr JSON', async () => {
    const dir = folder();
    const out = join(dir, 'left.txt');
    // All three calls are in flight together; the second fails.
    const held = new HeldReplies(
      (request) =>
        lookupsOf(request).includes(MANY.distinct[1000]!) ? UNAVAILABLE : answer(request),
      3,
    );
    const r = await inFolder(dir, () =>
      resolve(['--file', '-', '--json', '--retries', '0', '--failed-out', out], {
        stdin: MANY.text,
        service: resolving(3, held.hold),
      }),
    );
    expect(r.code).toBe(8);
    expect(held.mostAtOnce).toBe(3);
    const reply = JSON.parse(r.stdout);
    expect(reply.data.results.map((x: Result) => x.input)).toEqual([
      ...MANY.distinct.slice(0, 1000),
      ...MANY.distinct.slice(2000),
    ]);
    expect(reply.data.count).toBe(1500);
    expect(readFileSync(out, 'utf8')).toBe(MANY.distinct.slice(1000, 2000).join('\n') + '\n');
    const lines = r.stderr
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toEqual([{ unresolved: 1000, lookups: 2500, failed_out: out }, UNAVAILABLE.body]);
    expect(readdirSync(dir)).toEqual(['left.txt']);
  });

  it.each(MODES)(
    'as %s, reading a CSV column first, then failing: the same unresolved file',
    async (_mode, tty) => {
      const dir = folder();
      const csv = file(
        'narration\n' + MANY.distinct.map((v) => `"${v}"`).join('\n') + '\n',
        'narration.csv',
      );
      const out = join(dir, 'left.txt');
      const limited = {
        status: 429,
        body: {
          error_type: 'RATE_LIMIT_ERROR',
          error_code: 'RATE_LIMITED',
          error_message: 'Slow down.',
        },
      };
      const r = await resolve(
        [
          '--file',
          csv,
          '--column',
          'narration',
          '--retries',
          '0',
          '--concurrency',
          '1',
          '--failed-out',
          out,
        ],
        { tty, service: resolving(1, () => limited) },
      );
      expect(r.code).toBe(7);
      expect(r.stdout).toBe('');
      expect(words(r.stderr)).toContain(
        `2,500 of 2,500 lookups were not resolved; they are listed in ${out} `,
      );
      expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toEqual(MANY.distinct);
    },
  );

  it.each(MODES)(
    'as %s, a connection that fails (exit 9) also leaves the unresolved file',
    async (_mode, tty) => {
      const out = join(folder(), 'left.txt');
      const reset = () => {
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      };
      const r = await resolve(
        ['--file', file(`${T1}\nCafe\n`), '--retries', '0', '--failed-out', out],
        { tty, service: resolving(1, reset) },
      );
      expect(r.code).toBe(9);
      expect(r.stderr).toMatch(/^error: connection to svc\.test was reset$/m);
      expect(readFileSync(out, 'utf8')).toBe(`${T1}\nCafe\n`);
    },
  );

  it('a reply whose results do not match the lookups: exit 10, and the lookups are kept', async () => {
    const out = join(folder(), 'left.txt');
    const wrong = (request: SeenRequest): FakeReply => ({
      body: {
        data: {
          results: lookupsOf(request)
            .slice(1)
            .map((t) => resultOf(t, 'terminal')),
        },
        meta: META,
      },
    });
    const r = await resolve(['--file', file(`${T1}\n${T2}\n`), '--failed-out', out], {
      service: resolving(1, wrong),
    });
    expect(r.code).toBe(10);
    expect(unwrapped(r.stderr)).toMatch(
      /^error: unexpected reply to POST \/v1\/merchants\/resolve: no result for the terminal "9756038350856888"$/m,
    );
    expect(readFileSync(out, 'utf8')).toBe(`${T1}\n${T2}\n`);
  });

  it('Ctrl-C during a call: exit 130, and every lookup not resolved is listed (for a script with -o csv, in JSON lines)', async () => {
    const out = join(folder(), 'left.txt');
    const controller = new AbortController();
    const interrupted = (request: SeenRequest) => {
      controller.abort();
      return answer(request);
    };
    const r = await resolve(
      ['--file', file(MANY.text), '--concurrency', '1', '--failed-out', out, '-o', 'csv'],
      { signal: controller.signal, service: resolving(1, interrupted) },
    );
    expect(r.code).toBe(130);
    const written =
      r.stdout === ''
        ? []
        : parseCsv<Record<string, string>>(r.stdout, { columns: true }).map((x) => x.input);
    const left = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect([...written, ...left]).toEqual(MANY.distinct);
    expect(jsonLines(r.stderr)).toEqual([
      { unresolved: left.length, lookups: 2500, failed_out: out },
      { error_code: 'INTERRUPTED', error_message: 'interrupted' },
    ]);
  });

  /**
   * Runs with os.tmpdir() at a folder of the test's own, so what it plants there meets no other
   * run.
   */
  async function withTemporaryFolder<T>(dir: string, run: () => Promise<T>): Promise<T> {
    const before = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      return await run();
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  }

  const DEFAULT_NAME = 'svc-unresolved-20260522-100000.txt';
  /** A terminal wide enough that no path in a message is wrapped. */
  const WIDE = 400;
  const mode = (path: string) => statSync(path).mode & 0o777;

  it.each(MODES)(
    "as %s, a working folder that cannot be written in: the list goes to a new folder of svc's own in the temporary folder (0700), the file is 0600, and stderr says where",
    async (_mode, tty) => {
      const temporary = folder('tmp-');
      // /proc takes no new file, whoever runs the test.
      const r = await withTemporaryFolder(temporary, () =>
        inFolder('/proc', () =>
          resolve(
            ['--file', file(MANY.text), '--retries', '0', '--concurrency', '1', '-o', 'csv'],
            { tty, columns: WIDE, service: resolving(1, () => UNAVAILABLE) },
          ),
        ),
      );
      expect(r.code).toBe(8);
      const [own, ...others] = readdirSync(temporary);
      expect(others).toEqual([]);
      expect(own).toMatch(/^svc-unresolved-[A-Za-z0-9]{6}$/);
      const saved = join(temporary, own!, DEFAULT_NAME);
      expect(readdirSync(join(temporary, own!))).toEqual([DEFAULT_NAME]);
      expect(mode(join(temporary, own!))).toBe(0o700);
      expect(mode(saved)).toBe(0o600);
      expect(readFileSync(saved, 'utf8')).toBe(MANY.distinct.join('\n') + '\n');
      expect(words(r.stderr)).toContain(
        `warning: the folder /proc takes no new file: the list of lookups not resolved went to the temporary folder, as ${saved} `,
      );
      // -o csv: for a script the count and the list's place are a JSON line, as the error after
      // them.
      if (tty)
        expect(words(r.stderr)).toContain(
          `2,500 of 2,500 lookups were not resolved; they are listed in ${saved} `,
        );
      else
        expect(r.stderr).toContain(
          `${JSON.stringify({ unresolved: 2500, lookups: 2500, failed_out: saved })}\n`,
        );
    },
  );

  it("names another user took first in the temporary folder (the list's name, its numbered names, a link to a file of theirs) lose no list and are left as they were", async () => {
    const temporary = folder('tmp-');
    const theirs = join(temporary, 'theirs.txt');
    writeFileSync(theirs, 'theirs\n');
    symlinkSync(theirs, join(temporary, DEFAULT_NAME));
    for (let n = 2; n <= 100; n++)
      writeFileSync(join(temporary, DEFAULT_NAME.replace('.txt', `-${n}.txt`)), 'taken\n');
    const planted = readdirSync(temporary).sort();
    const r = await withTemporaryFolder(temporary, () =>
      inFolder('/proc', () =>
        resolve(['--file', file(`${T1}\nCafe\n`), '--retries', '0', '-o', 'csv'], {
          service: resolving(1, () => UNAVAILABLE),
        }),
      ),
    );
    expect(r.code).toBe(8);
    expect(r.stderr).not.toMatch(/could not save/);
    const own = readdirSync(temporary).filter((name) => !planted.includes(name));
    expect(own).toHaveLength(1);
    const saved = join(temporary, own[0]!, DEFAULT_NAME);
    expect(readFileSync(saved, 'utf8')).toBe(`${T1}\nCafe\n`);
    expect(r.stderr).toContain(`"failed_out":${JSON.stringify(saved)}}\n`);
    expect(readFileSync(theirs, 'utf8')).toBe('theirs\n');
    expect(readFileSync(join(temporary, DEFAULT_NAME.replace('.txt', '-2.txt')), 'utf8')).toBe(
      'taken\n',
    );
  });

  it.each(MODES)(
    'as %s, a link planted at the default name in the working folder is not written through: the list takes the next name, 0600',
    async (_mode, tty) => {
      const dir = folder();
      const victim = join(folder('victim-'), 'victim.txt');
      writeFileSync(victim, 'precious\n');
      symlinkSync(victim, join(dir, DEFAULT_NAME));
      const r = await inFolder(dir, () =>
        resolve(['--file', file(`${T1}\nCafe\n`), '--retries', '0'], {
          tty,
          columns: WIDE,
          service: resolving(1, () => UNAVAILABLE),
        }),
      );
      expect(r.code).toBe(8);
      expect(readFileSync(victim, 'utf8')).toBe('precious\n');
      const saved = join(dir, DEFAULT_NAME.replace('.txt', '-2.txt'));
      expect(readFileSync(saved, 'utf8')).toBe(`${T1}\nCafe\n`);
      expect(lstatSync(saved).isFile()).toBe(true);
      expect(mode(saved)).toBe(0o600);
      expect(words(r.stderr)).toContain(`they are listed in ${saved} `);
    },
  );

  it.each(MODES)(
    'as %s, every numbered name taken in the working folder: the list still goes there, under a name nobody could foresee',
    async (_mode, tty) => {
      const dir = folder();
      writeFileSync(join(dir, DEFAULT_NAME), 'taken\n');
      for (let n = 2; n <= 100; n++)
        writeFileSync(join(dir, DEFAULT_NAME.replace('.txt', `-${n}.txt`)), 'taken\n');
      const planted = readdirSync(dir);
      const r = await inFolder(dir, () =>
        resolve(['--file', file(`${T1}\nCafe\n`), '--retries', '0'], {
          tty,
          columns: WIDE,
          service: resolving(1, () => UNAVAILABLE),
        }),
      );
      expect(r.code).toBe(8);
      expect(r.stderr).not.toMatch(/could not save/);
      const own = readdirSync(dir).filter((name) => !planted.includes(name));
      expect(own).toEqual([
        expect.stringMatching(/^svc-unresolved-20260522-100000-[0-9a-f]{16}\.txt$/),
      ]);
      const saved = join(dir, own[0]!);
      expect(readFileSync(saved, 'utf8')).toBe(`${T1}\nCafe\n`);
      expect(mode(saved)).toBe(0o600);
      expect(words(r.stderr)).toContain(`they are listed in ${saved} `);
      expect(planted.every((name) => readFileSync(join(dir, name), 'utf8') === 'taken\n')).toBe(
        true,
      );
    },
  );

  it('a list that cannot be saved anywhere is counted whole, lookups of calls never made (and not yet read) included', async () => {
    const many =
      Array.from({ length: 20_000 }, (_, i) => `1${String(i).padStart(15, '0')}`).join('\n') + '\n';
    const r = await resolve(
      [
        '--file',
        file(many),
        '--retries',
        '0',
        '--concurrency',
        '1',
        '--failed-out',
        '/dev/full',
        '-o',
        'csv',
      ],
      { service: resolving(1, () => UNAVAILABLE) },
    );
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(
      /^error: could not save the 20,000 unresolved lookups to \/dev\/full: /m,
    );
  });

  it('--failed-out on a device with no space left is one clear error, and the device stays a device', async () => {
    const r = await resolve(
      [
        '--file',
        file('1000000000000001\n1000000000000002\n1000000000000003\n'),
        '--retries',
        '0',
        '--failed-out',
        '/dev/full',
        '-o',
        'csv',
      ],
      {
        service: resolving(1, () => UNAVAILABLE),
      },
    );
    expect(r.code).toBe(8);
    expect(r.stderr).toMatch(
      /^error: could not save the 3 unresolved lookups to \/dev\/full: .*(no space|ENOSPC)/im,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });
});

// ---- errors ---------------------------------------------------------------------------------

describe('the service saying no', () => {
  const CASES: [string, FakeReply | (() => never), number, RegExp][] = [
    [
      'an unknown key',
      {
        status: 401,
        body: envelope('AUTHENTICATION_ERROR', 'INVALID_API_KEY', 'Unknown API key.'),
      },
      3,
      /^error: INVALID_API_KEY: Unknown API key\.$/m,
    ],
    [
      'a READ_ONLY key',
      {
        status: 403,
        body: envelope(
          'PERMISSION_ERROR',
          'INSUFFICIENT_SCOPE',
          'This key cannot resolve merchants.',
        ),
      },
      4,
      /^error: INSUFFICIENT_SCOPE: /m,
    ],
    [
      'a refused body',
      {
        status: 400,
        body: envelope('INVALID_REQUEST_ERROR', 'INVALID_REQUEST', 'At most 1000 lookups.'),
      },
      6,
      /^error: INVALID_REQUEST: /m,
    ],
    [
      'a rate limit',
      { status: 429, body: envelope('RATE_LIMIT_ERROR', 'RATE_LIMITED', 'Slow down.') },
      7,
      /^error: RATE_LIMITED: /m,
    ],
    [
      'a service failure',
      { status: 500, body: envelope('API_ERROR', 'API_ERROR', 'Boom.') },
      8,
      /^error: API_ERROR: Boom\.$/m,
    ],
    [
      'a proxy page',
      { status: 502, raw: '<html>Bad gateway</html>', headers: { 'content-type': 'text/html' } },
      8,
      /^error: HTTP_502: /m,
    ],
    [
      'a refused connection',
      () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
      9,
      /^error: connection refused by svc\.test/m,
    ],
    ['a body that is not JSON', { raw: 'OK' }, 10, /^error: /m],
    [
      'a reply without data.results',
      { body: { data: { count: 1 } } },
      10,
      /data\.results" is missing; merging needs the list data\.results/,
    ],
    [
      'results without input',
      { body: { data: { results: [{ matched: true }] } } },
      10,
      /data\.results\[0\] has no "input"/,
    ],
  ];

  describe.each(MODES)('as %s', (_mode, tty) => {
    it.each(CASES)('%s: exit %#', async (_name, reply, code, message) => {
      const dir = folder();
      const r = await inFolder(dir, () =>
        resolve([T1, '--retries', '0'], {
          tty,
          service: resolving(1, typeof reply === 'function' ? reply : () => reply),
        }),
      );
      expect(r.code, r.stderr).toBe(code);
      expect(r.stdout).toBe('');
      expect(unwrapped(r.stderr)).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      // Lookups from the command line need no unresolved file: the command line is the list.
      expect(readdirSync(dir)).toEqual([]);
    });
  });

  it.each(MODES)(
    "as %s, with --json an error is one JSON line on a script's stderr, the error line on a person's",
    async (_mode, tty) => {
      const body = {
        error_type: 'PERMISSION_ERROR',
        error_code: 'INSUFFICIENT_SCOPE',
        error_message: 'This key cannot resolve merchants.',
      };
      const r = await resolve([T1, '--json'], {
        tty,
        service: resolving(1, () => ({ status: 403, body })),
      });
      expect(r.code).toBe(4);
      expect(r.stdout).toBe('');
      if (tty)
        expect(r.stderr.split('\n')[0]).toBe(
          'error: INSUFFICIENT_SCOPE: This key cannot resolve merchants.',
        );
      else expect(jsonLines(r.stderr)).toEqual([body]);
    },
  );

  it.each(MODES)(
    'as %s, a 503 is retried with backoff on the test clock, with the same idempotency key',
    async (_mode, tty) => {
      const service = new FakeService()
        .expect('POST', RESOLVE, { status: 503, body: { error_code: 'API_ERROR' } })
        .expect('POST', RESOLVE, answer);
      const r = await resolve([T1, '-o', 'ndjson'], { tty, service });
      expect(r.code, r.stderr).toBe(0);
      expect(r.waits).toHaveLength(1);
      expect(r.requests[0]!.headers['idempotency-key']).toBe(
        r.requests[1]!.headers['idempotency-key'],
      );
    },
  );

  it.each(MODES)(
    'as %s, no key configured: exit 3, naming svc login and SVC_API_KEY, no request',
    async (_mode, tty) => {
      const r = await resolve([T1], { tty, env: { SVC_API_KEY: undefined } });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/svc login/);
      expect(r.stderr).toMatch(/SVC_API_KEY/);
      expect(r.requests).toEqual([]);
    },
  );
});

describe('refuses bad input before any request (exit 2)', () => {
  const cases = (): [string, string[], RegExp][] => [
    [
      'nothing',
      [],
      /^error: nothing to resolve: give terminal numbers, --name NAME or --file PATH\nExample: svc merchants resolve --file terminals\.txt\n$/,
    ],
    [
      'a short number',
      ['12345'],
      /^error: "12345" is not a terminal number \(16 or more digits\)\nTo look up a merchant name, use --name "12345"\.\n$/,
    ],
    ['an empty name', ['--name', ' '], /--name is empty/],
    [
      'a name of two lines',
      ['--name', 'Cafe\nBar'],
      /--name: "Cafe Bar" spans several lines; a lookup must be one line/,
    ],
    ['a name too long', ['--name', 'x'.repeat(1025)], /--name: more than 1024 bytes/],
    [
      '--concurrency 17',
      [T1, '--concurrency', '17'],
      /--concurrency takes a whole number from 1 to 16, not "17"/,
    ],
    [
      '--concurrency 0',
      [T1, '--concurrency', '0'],
      /--concurrency takes a whole number from 1 to 16, not "0"/,
    ],
    ['--column without --file', [T1, '--column', 'x'], /--column needs --file/],
    [
      'a missing file',
      ['--file', '/nonexistent/lookups.txt'],
      /cannot read --file \/nonexistent\/lookups\.txt: no such file/,
    ],
    ['a folder as --file', ['--file', scratchDir()], /cannot read --file .*: .*(directory|folder)/],
    [
      '--failed-out in a missing folder',
      [T1, '--failed-out', '/nonexistent/dir/out.txt'],
      /--failed-out \/nonexistent\/dir\/out\.txt: the folder \/nonexistent\/dir does not exist/,
    ],
    [
      '--failed-out a folder',
      [T1, '--failed-out', scratchDir()],
      /--failed-out .*: it is a directory/,
    ],
    [
      'a file of blank lines',
      ['--file', file('\n  \n\r\n')],
      /^error: nothing to resolve: .*\n.* holds no lookups \(blank lines are skipped\)\.\n$/,
    ],
    [
      'a CSV without the column',
      ['--file', file('date,amount\n2026-01-01,5\n', 'no-column.csv'), '--column', 'narration'],
      /--column narration: the header row of .* has no such column \(it has "date", "amount"\)/,
    ],
  ];

  describe.each(MODES)('as %s', (_mode, tty) => {
    it.each(cases())('%s', async (_name, args, message) => {
      const r = await resolve(args, { tty });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(unwrapped(r.stderr)).toMatch(message);
      expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.requests).toEqual([]);
    });

    it('a line longer than 1 KiB (a 20 MB one here) is refused with its number, before any call', async () => {
      const long = file(`${T1}\nCafe\n${'x'.repeat(20_000_000)}\n`, 'long-line.txt');
      const r = await resolve(['--file', long, '-o', 'csv'], { tty });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const message = `${long}, line 3: more than 1024 bytes, the most a lookup (a terminal number or a merchant name) may have`;
      // -o csv: a script reads the error as one JSON line.
      if (tty) expect(unwrapped(r.stderr)).toBe(`error: ${message}\n`);
      else expect(JSON.parse(r.stderr)).toEqual({ error_code: 'USAGE', error_message: message });
      expect(r.requests).toEqual([]);
    });
  });

  it.runIf(existsSync('/proc/self/fd'))(
    'a run refused after its --file was opened leaves the file closed',
    async () => {
      /**
       * The descriptors of this process open on `path`, once its closing (I/O, no timer) has had
       * its turns.
       */
      const openOn = async (path: string) => {
        const held = () =>
          readdirSync('/proc/self/fd').filter((fd) => {
            try {
              return readlinkSync(`/proc/self/fd/${fd}`) === path;
            } catch {
              return false;
            }
          });
        for (let turn = 0; turn < 500 && held().length > 0; turn++)
          await new Promise((done) => setImmediate(done));
        return held();
      };
      const noColumn = file('date,amount\n2026-01-01,5\n', 'open-no-column.csv');
      for (const tty of [false, true]) {
        expect((await resolve(['--file', noColumn, '--column', 'narration'], { tty })).code).toBe(
          2,
        );
        expect(await openOn(noColumn)).toEqual([]);
      }
      // No key: found once a script's file is open, to start the calls while it is read.
      const noKey = file(`${T1}\n`, 'open-no-key.txt');
      expect((await resolve(['--file', noKey], { env: { SVC_API_KEY: undefined } })).code).toBe(3);
      expect(await openOn(noKey)).toEqual([]);
    },
  );

  it('stdin of blank lines holds no lookups either', async () => {
    const r = await resolve(['--file', '-'], { stdin: '\n\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\nstandard input holds no lookups/);
  });
});

// ---- a record for each line (--each-line) ---------------------------------------------------

describe('--each-line: a record for each line of the input', () => {
  const UNAVAILABLE = {
    status: 503,
    body: {
      error_type: 'API_ERROR',
      error_code: 'API_ERROR',
      error_message: 'The service is unavailable.',
    },
  };
  type LineResult = Result & { line: number };
  /**
   * The record of each line that holds a lookup: its number from 1 and the result of its lookup.
   */
  const byLine = (
    lines: readonly string[],
    keep: (value: string) => boolean = () => true,
  ): LineResult[] =>
    lines.flatMap((text, i) => {
      const value = text.trim();
      return value === '' || !keep(value)
        ? []
        : [{ line: i + 1, ...resultOf(value, typeOf(value)) }];
    });
  // A byte-order mark, CRLF and lone CR line ends, spaces, blank lines, repeats (lines 6 and 8).
  const TEXT = `\uFEFF${T2}\r\n  Cafe Pvt Ltd \r\n\r\n123456789012345\r${T1}\n${T2}\n   \nCafe Pvt Ltd\n${UNKNOWN}`;
  const LINES = [T2, 'Cafe Pvt Ltd', '', '123456789012345', T1, T2, '', 'Cafe Pvt Ltd', UNKNOWN];
  const MANY_LINES = MANY.text.split('\r\n');

  it.each(MODES)(
    'as %s, -o ndjson: each line that holds a lookup, in order, duplicates repeated, numbered as an editor numbers lines; each lookup sent once',
    async (_mode, tty) => {
      const r = await resolve(['--file', file(TEXT), '--each-line', '-o', 'ndjson'], {
        tty,
        service: resolving(1),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(withoutSummary(r.stderr, tty)).toBe('');
      expect(r.requests[0]!.json).toEqual({
        terminals: [T2, T1, UNKNOWN],
        names: ['Cafe Pvt Ltd', '123456789012345'],
      });
      const records = ndjson(r.stdout) as LineResult[];
      expect(records).toEqual(byLine(LINES));
      expect(records.map((x) => x.line)).toEqual([1, 2, 4, 5, 6, 8, 9]);
      // The line comes first, for a reader that joins on it.
      expect(Object.keys(records[0]!)[0]).toBe('line');
    },
  );

  it.each(MODES)(
    'as %s, -o csv: a line column first, every cell through the CSV encoder (a formula is kept text)',
    async (_mode, tty) => {
      const formula = '=HYPERLINK("http://evil.test","Cafe")';
      const text = `${T1}\n${formula}\n${T1}\n`;
      const r = await resolve(['--file', file(text), '--each-line', '-o', 'csv'], {
        tty,
        service: resolving(1),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.split('\r\n')[0]).toBe(
        'line,input,type,matched,terminal,merchant,mcc,category,city',
      );
      const rows = parseCsv<Record<string, string>>(r.stdout, { columns: true });
      expect(rows.map((x) => [x.line, x.input, x.merchant])).toEqual([
        ['1', T1, 'Merchant 6888'],
        ['2', `'${formula}`, ''],
        ['3', T1, 'Merchant 6888'],
      ]);
    },
  );

  it.each(MODES)(
    'as %s, --json: the merged reply of the documented shape, data.results a result per line (each with its line), count and matched counting them',
    async (_mode, tty) => {
      const r = await resolve(['--file', file(TEXT), '--each-line', '--json'], {
        tty,
        service: resolving(1),
      });
      expect(r.code, r.stderr).toBe(0);
      const records = byLine(LINES);
      expect(JSON.parse(plain(r.stdout))).toEqual({
        data: {
          results: records,
          count: records.length,
          matched: records.filter((x) => x.matched).length,
        },
        meta: META,
      });
    },
  );

  it('in a pipe, the table is a LINE column, then the columns of every result, tab-separated', async () => {
    const r = await resolve(['--file', file(TEXT), '--each-line'], { service: resolving(1) });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('LINE\tINPUT\tTERMINAL\tMERCHANT\tMCC\tCATEGORY\tCITY\tMATCHED');
    expect(lines.slice(1).map((line) => line.split('\t'))).toEqual(
      byLine(LINES).map((x) => [
        String(x.line),
        x.input,
        x.terminal ?? '',
        x.merchant ?? '',
        x.mcc ?? '',
        x.category ?? '',
        x.city ?? '',
        x.matched ? 'yes' : 'no',
      ]),
    );
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it.each([80, 60])(
    'on a terminal of %i columns: a LINE column (or cards), every line number shown, no line wider than the terminal, and the line that sums the run up',
    async (columns) => {
      const r = await resolve(['--file', file(MANY.text), '--each-line'], {
        tty: true,
        columns,
        service: resolving(3),
      });
      expect(r.code, r.stderr).toBe(0);
      for (const line of r.stdout.trimEnd().split('\n'))
        expect([...plain(line)].length, line).toBeLessThanOrEqual(columns);
      const screen = screenLines(plain(r.stdout));
      if (columns === 80)
        expect(screen[0]).toMatch(
          /^LINE +INPUT +TERMINAL +MERCHANT +MCC +CATEGORY +CITY +MATCHED$/,
        );
      const records = byLine(MANY_LINES);
      // Every record's row (or card) starts with its line number, in order.
      const numbers = screen
        .filter((line) => /^(LINE\s+)?\d+(\s|$)/.test(line))
        .map((line) => Number(/\d+/.exec(line)![0]));
      expect(numbers).toEqual(records.map((x) => x.line));
      const matched = MANY_RESULTS.filter((x) => x.matched).length;
      expect(screen.at(-1)).toBe(
        columns === 80
          ? `2,500 lookups, ${count(matched)} matched, ${count(2500 - matched)} not found, ${count(MANY.given - 2500)} duplicates, 3 calls in 0.0s`
          : `2,500 lookups, ${count(matched)} matched, ${count(2500 - matched)} not found, 3 calls in 0.0s`,
      );
    },
  );

  it.each(MODES)(
    'as %s, --column: a record for each CSV record with a lookup, numbered by the line it starts on (the header row is line 1, quoted line breaks count)',
    async (_mode, tty) => {
      const csv = [
        'date,memo,narration,amount\r\n', // line 1
        '2026-10-01,"two\r\nlines",Cafe Pvt Ltd,120\r\n', // lines 2-3
        '\r\n', // line 4
        `2026-10-02,,${T1},450\r\n`, // line 5
        `2026-10-03,"a\rb\rc",${T1},5\r\n`, // lines 6-8
        '2026-10-04,x,,7\r\n', // line 9: no lookup
        '2026-10-05,"y",Nowhere Known Shop,9', // line 10
      ].join('');
      const r = await resolve(
        ['--file', file(csv, 'memo.csv'), '--column', 'narration', '--each-line', '-o', 'ndjson'],
        { tty, service: resolving(1) },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(ndjson(r.stdout)).toEqual([
        { line: 2, ...resultOf('Cafe Pvt Ltd', 'name') },
        { line: 5, ...resultOf(T1, 'terminal') },
        { line: 6, ...resultOf(T1, 'terminal') },
        { line: 10, ...resultOf('Nowhere Known Shop', 'name') },
      ]);
    },
  );

  it.each(MODES)(
    'as %s, from standard input, read three times (counted, sent, written line by line) through a private copy',
    async (_mode, tty) => {
      const r = await resolve(['--file', '-', '--each-line', '-o', 'ndjson'], {
        tty,
        stdin: TEXT,
        service: resolving(1),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(ndjson(r.stdout)).toEqual(byLine(LINES));
    },
  );

  it('2,500 distinct lookups on 2,917 lines, calls answered out of order: a record for every line, in order', async () => {
    // All three calls held until the last arrives, then answered last first.
    const held = new HeldReplies(answer, 3);
    const r = await resolve(['--file', '-', '--each-line', '-o', 'ndjson'], {
      stdin: MANY.text,
      service: resolving(3, held.hold),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(held.mostAtOnce).toBe(3);
    expect(r.requests.map((q) => lookupsOf(q).length)).toEqual([1000, 1000, 500]);
    const records = ndjson(r.stdout);
    expect(records).toEqual(byLine(MANY_LINES));
    expect(records).toHaveLength(MANY.given);
  });

  it.each(MODES)(
    'as %s, --unmatched keeps the lines whose lookup matched nothing',
    async (_mode, tty) => {
      const r = await resolve(
        ['--file', file(TEXT), '--each-line', '--unmatched', '-o', 'ndjson'],
        { tty, service: resolving(1) },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(ndjson(r.stdout)).toEqual(byLine(LINES).filter((x) => !x.matched));
    },
  );

  it.each(MODES)('as %s, a key given as a lookup is masked in every record', async (_mode, tty) => {
    for (const format of [['-o', 'csv'], ['-o', 'ndjson'], []]) {
      // The resolve helper fails the test wherever the key shows in full.
      const r = await resolve(['--file', file(`${T1}\n${KEY}\n`), '--each-line', ...format], {
        tty,
        service: resolving(1),
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/svc_sk_test_(…|\.\.\.)/);
    }
  });

  /** The last line of MANY that holds a lookup. */
  const LAST_LINE = byLine(MANY_LINES).at(-1)!.line;
  /**
   * The results a run kept, as its stderr names them: a file of svc's data folder, its own (0600).
   */
  const keptPath = (stderr: string) => {
    const path =
      /kept in (\S+\.jsonl)/.exec(words(stderr))?.[1] ??
      (jsonLines(stderr) as { kept?: string }[]).find((line) => line.kept)?.kept;
    expect(path, stderr).toMatch(
      new RegExp(
        `^${join(scratchDir(), 'data', 'merchants')}/resolve-\\d{8}-\\d{6}-[0-9a-f]{8}\\.jsonl$`,
      ),
    );
    expect(statSync(path!).mode & 0o777).toBe(0o600);
    return path!;
  };
  /**
   * A run whose second call fails: the results of the first are kept, the lookups not resolved
   * listed in a folder of the test's.
   */
  const failingHalfWay = (
    args: string[] = ['--failed-out', join(folder(), 'left.txt')],
    options: InProcessOptions = {},
  ) => {
    const service = new FakeService()
      .expect('POST', RESOLVE, answer)
      .expect('POST', RESOLVE, UNAVAILABLE);
    return resolve(
      [
        '--file',
        file(MANY.text),
        '--each-line',
        '-o',
        'csv',
        '--retries',
        '0',
        '--concurrency',
        '1',
        ...args,
      ],
      { service, ...options },
    );
  };

  it.each(MODES)(
    'as %s, a call failing half-way: a record for each line whose lookup was resolved, the rest in the unresolved file, the results kept for --resume, exit 8',
    async (_mode, tty) => {
      const out = join(folder(), 'left.txt');
      const r = await failingHalfWay(['--failed-out', out], { tty });
      expect(r.code).toBe(8);
      const done = new Set(MANY.distinct.slice(0, 1000));
      const rows = parseCsv<Record<string, string>>(r.stdout, { columns: true });
      expect(rows.map((x) => [Number(x.line), x.input])).toEqual(
        byLine(MANY_LINES, (value) => done.has(value)).map((x) => [x.line, x.input]),
      );
      expect(readFileSync(out, 'utf8')).toBe(MANY.distinct.slice(1000).join('\n') + '\n');
      const kept = keptPath(r.stderr);
      if (tty) {
        expect(words(r.stderr)).toContain(
          `1,500 of 2,500 lookups were not resolved; they are listed in ${out} `,
        );
        expect(words(r.stderr)).toContain(
          `1 of 3 calls were resolved (1,000 of 2,500 lookups); their results are kept in ${kept}. `,
        );
        expect(words(r.stderr)).toContain(
          `Run the same command again with --resume ${kept} to write every record, sending only the lookups not resolved. `,
        );
        // Finishing with the list of lookups would number its records by the lines of the list.
        expect(words(r.stderr)).not.toContain('Run again with --file');
      } else {
        expect(jsonLines(r.stderr)).toEqual([
          { unresolved: 1500, lookups: 2500, failed_out: out },
          { calls_resolved: 1, calls: 3, all_written: true, written_through_line: LAST_LINE, kept },
          UNAVAILABLE.body,
        ]);
      }
    },
  );

  it.each(MODES)(
    'as %s, the same command with --resume sends only the lookups not resolved, writes every record, and removes the kept results',
    async (_mode, tty) => {
      const kept = keptPath((await failingHalfWay()).stderr);
      const service = resolving(2);
      const r = await resolve(
        ['--file', file(MANY.text), '--each-line', '-o', 'csv', '--resume', kept],
        { tty, service },
      );
      expect(r.code, r.stderr).toBe(0);
      // A person sees the progress of the two calls.
      if (!tty) expect(r.stderr).toBe('');
      expect(r.requests.flatMap(lookupsOf).sort()).toEqual(MANY.distinct.slice(1000).sort());
      const rows = parseCsv<Record<string, string>>(r.stdout, { columns: true });
      expect(rows.map((x) => [Number(x.line), x.input, x.matched])).toEqual(
        byLine(MANY_LINES).map((x) => [x.line, x.input, String(x.matched)]),
      );
      expect(existsSync(kept)).toBe(false);
    },
  );

  it('Ctrl-C while the records are written: every record is still written (they are paid for), exit 130, and stderr says so', async () => {
    const controller = new AbortController();
    const r = await resolve(['--file', file(MANY.text), '--each-line', '-o', 'ndjson'], {
      service: resolving(3),
      signal: controller.signal,
      onStdout: () => controller.abort(),
    });
    expect(r.code).toBe(130);
    expect(ndjson(r.stdout)).toEqual(byLine(MANY_LINES));
    expect(jsonLines(r.stderr)).toEqual([
      {
        calls_resolved: 3,
        calls: 3,
        all_written: true,
        written_through_line: LAST_LINE,
        kept: null,
      },
      { error_code: 'INTERRUPTED', error_message: 'interrupted' },
    ]);
  });

  it.each(MODES)(
    'as %s, svc ended as the records are written (a second Ctrl-C): it keeps the results and says up to which line the records were written; --resume then writes every record without a call',
    async (_mode, tty) => {
      const { sayLastWords } = await import('../../src/core/last-words.js');
      // Three readings of 64 KiB: the records are written a reading at a time, other events let in
      // between.
      const text = MANY.text.repeat(3);
      const lines = text.split('\r\n');
      const controller = new AbortController();
      let stderr = '';
      let stdout = '';
      let said: { words: string; written: string } | undefined;
      const onStdout = (piece: string) => {
        stdout += piece;
        if (controller.signal.aborted) return;
        controller.abort();
        // What the entry says as it ends svc (cli.ts): from a signal or a timer, not in the middle
        // of a write.
        setImmediate(() => {
          const before = stderr.length;
          sayLastWords();
          said = { words: stderr.slice(before), written: stdout };
        });
      };
      const r = await resolve(['--file', file(text), '--each-line', '-o', 'ndjson'], {
        tty,
        service: resolving(3),
        signal: controller.signal,
        onStdout,
        onStderr: (piece) => (stderr += piece),
      });
      expect(r.code).toBe(130);
      // Every line up to the last whose record had left svc, and not every line.
      const through = (ndjson(plain(said!.written)) as LineResult[]).at(-1)!.line;
      expect(through).toBeLessThan(byLine(lines).at(-1)!.line);
      const kept = keptPath(said!.words);
      if (tty) {
        expect(words(said!.words)).toBe(
          `svc stopped while writing the records: those of lines 1 to ${count(through)} were written, those after it not in full. ` +
            `The results of every lookup are kept in ${kept}. ` +
            `Run the same command again with --resume ${kept} to write every record, without calling the service. `,
        );
      } else {
        expect(jsonLines(said!.words)).toEqual([
          { calls_resolved: 3, calls: 3, all_written: false, written_through_line: through, kept },
        ]);
      }
      const again = await resolve(
        ['--file', file(text), '--each-line', '-o', 'ndjson', '--resume', kept],
        { tty },
      );
      expect(again.code, again.stderr).toBe(0);
      expect(ndjson(plain(again.stdout))).toEqual(byLine(lines));
      expect(again.requests).toEqual([]);
      expect(existsSync(kept)).toBe(false);
    },
  );

  it('--resume with another input is refused before any call (exit 2), the results left kept', async () => {
    const kept = keptPath((await failingHalfWay()).stderr);
    const changed = await resolve([
      '--file',
      file(MANY.text + 'One More Shop\r\n'),
      '--each-line',
      '--resume',
      kept,
    ]);
    expect(changed.code).toBe(2);
    expect(changed.stdout).toBe('');
    expect(unwrapped(changed.stderr).split('\n')[0]).toMatch(
      new RegExp(
        `^error: --resume ${kept} holds the results of another input \\(.*lookups-\\d+\\.txt, as it was then\\)$`,
      ),
    );
    expect(unwrapped(changed.stderr).split('\n')[1]).toBe(
      'Give the --file (and --column) of the run that kept them, unchanged, or run without --resume.',
    );
    expect(changed.requests).toEqual([]);
    expect(existsSync(kept)).toBe(true);
  });

  it('results kept for other lookups (the same input, each result changed) are refused before any call (exit 2)', async () => {
    const kept = keptPath((await failingHalfWay()).stderr);
    // Another input of the same length: the first kept call no longer answers its lookups.
    writeFileSync(kept, readFileSync(kept, 'utf8').replace(/"input":"9/g, '"input":"8'));
    const r = await resolve(['--file', file(MANY.text), '--each-line', '--resume', kept]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'error: the results given with --resume are not those of these lookups',
    );
    expect(r.requests).toEqual([]);
  });

  it.each([
    [
      'a file of something else',
      'line one\nline two\n',
      'not a file of results kept by svc merchants resolve --each-line',
    ],
    ['an empty file', '', 'not a file of results kept by svc merchants resolve --each-line'],
    [
      'kept results cut short',
      'cut',
      'the file is damaged (its results do not add up to its size)',
    ],
  ])('--resume with %s: exit 2, nothing sent', async (_what, text, why) => {
    let path = file(text, `kept-${++files}.jsonl`);
    if (text === 'cut') {
      path = keptPath((await failingHalfWay()).stderr);
      writeFileSync(path, readFileSync(path, 'utf8').slice(0, -100));
    }
    const r = await resolve(['--file', file(MANY.text), '--each-line', '--resume', path]);
    expect(r.code).toBe(2);
    expect(unwrapped(r.stderr)).toBe(`error: --resume ${path}: ${why}\n`);
    expect(r.requests).toEqual([]);
  });

  it('--resume needs --each-line, and is no --dry-run (exit 2)', async () => {
    const alone = await resolve(['--file', file(TEXT), '--resume', 'kept.jsonl']);
    expect(alone.code).toBe(2);
    expect(alone.stderr.split('\n')[0]).toBe(
      'error: --resume needs --each-line: it takes the results an --each-line run kept',
    );
    const dry = await resolve([
      '--file',
      file(TEXT),
      '--each-line',
      '--dry-run',
      '--resume',
      'kept.jsonl',
    ]);
    expect(dry.code).toBe(2);
    expect(dry.stderr.split('\n')[0]).toBe('error: --resume conflicts with --dry-run');
  });

  it('with calls in parallel and the second failing, the lines of the first and third calls get their records', async () => {
    const out = join(folder(), 'left.txt');
    const held = new HeldReplies(
      (request) =>
        lookupsOf(request).includes(MANY.distinct[1000]!) ? UNAVAILABLE : answer(request),
      3,
    );
    const r = await resolve(
      ['--file', '-', '--each-line', '--json', '--retries', '0', '--failed-out', out],
      { stdin: MANY.text, service: resolving(3, held.hold) },
    );
    expect(r.code).toBe(8);
    const failed = new Set(MANY.distinct.slice(1000, 2000));
    const records = byLine(MANY_LINES, (value) => !failed.has(value));
    const reply = JSON.parse(r.stdout);
    expect(reply.data.results).toEqual(records);
    expect(reply.data.count).toBe(records.length);
    expect(readFileSync(out, 'utf8')).toBe([...failed].join('\n') + '\n');
  });

  it('Ctrl-C during a call: the lines of the lookups resolved still get their records, the rest is listed, exit 130', async () => {
    const out = join(folder(), 'left.txt');
    const controller = new AbortController();
    const interrupted = (request: SeenRequest) => {
      controller.abort();
      return answer(request);
    };
    const r = await resolve(
      [
        '--file',
        file(MANY.text),
        '--each-line',
        '--concurrency',
        '1',
        '--failed-out',
        out,
        '-o',
        'csv',
      ],
      { signal: controller.signal, service: resolving(1, interrupted) },
    );
    expect(r.code).toBe(130);
    const done = new Set(MANY.distinct.slice(0, 1000));
    const rows = parseCsv<Record<string, string>>(r.stdout, { columns: true });
    expect(rows.map((x) => Number(x.line))).toEqual(
      byLine(MANY_LINES, (value) => done.has(value)).map((x) => x.line),
    );
    expect(readFileSync(out, 'utf8')).toBe(MANY.distinct.slice(1000).join('\n') + '\n');
    const kept = keptPath(r.stderr);
    expect(jsonLines(r.stderr)).toEqual([
      { unresolved: 1500, lookups: 2500, failed_out: out },
      { calls_resolved: 1, calls: 3, all_written: true, written_through_line: LAST_LINE, kept },
      { error_code: 'INTERRUPTED', error_message: 'interrupted' },
    ]);
  });

  it.each(MODES)(
    'as %s, a temporary folder that takes no file: one clear error before any call (exit 1)',
    async (_mode, tty) => {
      const before = process.env.TMPDIR;
      process.env.TMPDIR = '/nonexistent/svc-tmp';
      try {
        const r = await resolve(['--file', file(TEXT), '--each-line'], { tty, columns: 400 });
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr.split('\n')[0]).toMatch(
          /^error: cannot keep the results for --each-line in the temporary folder: .*no such/i,
        );
        expect(unwrapped(r.stderr).split('\n')[1]).toBe(
          'Set TMPDIR to a folder with room (the results take about 250 bytes a distinct lookup).',
        );
        expect(r.requests).toEqual([]);
      } finally {
        if (before === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = before;
      }
    },
  );

  it.each(MODES)(
    'as %s, needs --file, and takes no lookups from arguments or --name (exit 2, nothing sent)',
    async (_mode, tty) => {
      const alone = await resolve([T1, '--each-line'], { tty });
      expect(alone.code).toBe(2);
      expect(alone.stdout).toBe('');
      expect(alone.stderr.split('\n')[0]).toBe(
        'error: --each-line needs --file: it writes a record for each line of the file',
      );
      const mixed = await resolve(['--file', file(TEXT), '--name', 'Cafe', '--each-line'], { tty });
      expect(mixed.code).toBe(2);
      expect(unwrapped(mixed.stderr).split('\n')[0]).toBe(
        'error: --each-line writes a record for each line of --file: give every lookup in the file, none as an argument or --name',
      );
    },
  );
});
