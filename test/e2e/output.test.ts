// Output as people and scripts see it (docs/reference/output.md and exit-codes.md): JSON exactly as
// received, tables in a pipe and on a terminal, colour rules, ndjson, CSV, amounts, a closed
// stdout, quiet stderr in a pipe, and control characters from the service kept off the terminal.
// `world.svc` runs svc in this process over its real transport (useWorld({ inProcess: true }));
// what only a real process shows (a closed pipe, a terminal, signals) spawns the built binary.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import {
  ANSI,
  baseEnv,
  inTerminal,
  intoHead,
  type Result,
  ROOT,
  SVC,
  svcCommand,
  TINY_PDF,
  useWorld,
} from './harness.js';

const RAM = 'rpt_e8699f830adc84b8'; // complete, NABIL, Ram Bahadur Shrestha
const WEEKLY = 'rpt_8074807054f108e7'; // complete, weekly streams in and out
const BOX = /[─│┌┐└┘├┤┬┴┼]/;

const world = useWorld({ inProcess: true });
let url: string;
let key: string;

beforeAll(() => {
  url = world.mock.url;
  key = world.key().key;
});

/** The reply body of a GET made directly, with the same key svc uses. */
async function direct(path: string): Promise<string> {
  const reply = await fetch(`${url}${path}`, {
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json' },
  });
  expect(reply.status).toBe(200);
  return reply.text();
}

interface Summary {
  report_id: string;
  status: string;
  bank_code: string;
  created_at: string;
  [field: string]: unknown;
}

const summary = (id: string, bank = 'NABIL'): Summary => ({
  report_id: id,
  status: 'complete',
  bank_code: bank,
  created_at: '2026-03-04T05:06:07Z',
});

/** The next GET /v1/reports answers 200 with this raw body. */
async function listReplies(body: string): Promise<void> {
  await world.fault({
    method: 'GET',
    path: '/v1/reports',
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body,
  });
}

const env = () => ({ SVC_BASE_URL: url, SVC_API_KEY: key });
const terminal = (args: string, extra: Record<string, string | undefined> = {}) =>
  inTerminal(`${svcCommand} ${args}`, { configDir: world.dir, env: { ...env(), ...extra } });

/** A strict RFC 4180 reader: quoted fields, doubled quotes, CRLF (or LF) record ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  const endField = () => {
    row.push(field);
    field = '';
    wasQuoted = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
        wasQuoted = true;
      } else field += c;
      continue;
    }
    if (c === '"') {
      if (field !== '' || wasQuoted) throw new Error(`stray quote at ${i}`);
      quoted = true;
    } else if (c === ',') endField();
    else if (c === '\r' && text[i + 1] === '\n') {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else if (c === '\n') {
      endField();
      rows.push(row);
      row = [];
    } else {
      if (wasQuoted) throw new Error(`text after a closing quote at ${i}`);
      field += c;
    }
  }
  if (quoted) throw new Error('unterminated quoted field');
  if (field !== '' || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

/** How a JSON scalar reads in CSV: as its JSON text, null as empty. */
const csvText = (value: unknown) => (value === null || value === undefined ? '' : String(value));

describe('--json', () => {
  it.each([
    ['/v1/reports', ['reports', 'list']],
    [`/v1/reports/${RAM}/counterparties`, ['reports', 'counterparties', RAM]],
  ])(
    'stdout is the reply body of %s re-indented with 2 spaces, and nothing else',
    async (path, args) => {
      const result = await world.svc([...args, '--json']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      const body = await direct(path);
      expect(result.stdout.replace(/\n$/, '')).toBe(JSON.stringify(JSON.parse(body), null, 2));
    },
  );

  it('-o json is the same as --json', async () => {
    const [a, b] = [
      await world.svc(['reports', 'list', '--json']),
      await world.svc(['reports', 'list', '-o', 'json']),
    ];
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });

  it('numbers keep their digits: 125000.50 and a 20-digit integer', async () => {
    const report = JSON.stringify(summary(RAM)).slice(0, -1);
    const raw = `{"data":[${report},"amount":125000.50,"count":12345678901234567890,"tiny":1.0e-7}]}`;
    await listReplies(raw);
    const result = await world.svc(['reports', 'list', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('"amount": 125000.50');
    expect(result.stdout).toContain('"count": 12345678901234567890');
    expect(result.stdout).toContain('"tiny": 1.0e-7');
    // Same document otherwise, and 2-space indentation.
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(raw));
    expect(result.stdout).toMatch(/^\{\n {2}"data": \[\n {4}\{\n {6}"report_id": /);
  });

  it('keys keep the order of the reply', async () => {
    const raw =
      '{"zeta":1,"data":[{"status":"complete","report_id":"rpt_0000000000000001","created_at":"2026-03-04T05:06:07Z","bank_code":"EBL"}],"alpha":2}';
    await listReplies(raw);
    const result = await world.svc(['reports', 'list', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const keys = [...result.stdout.matchAll(/"(\w+)":/g)].map((m) => m[1]);
    expect(keys).toEqual([
      'zeta',
      'data',
      'status',
      'report_id',
      'created_at',
      'bank_code',
      'alpha',
    ]);
  });
});

describe('tables in a pipe', () => {
  it('tab-separated: one header line, then one line per report; no ANSI, no box drawing', async () => {
    const result = await world.svc(['reports', 'list']);
    expect(result.code, result.stderr).toBe(0);
    const {
      data,
      has_more: hasMore,
      ...rest
    } = JSON.parse(await direct('/v1/reports')) as { data: Summary[]; has_more: boolean } & Record<
      string,
      unknown
    >;
    // The reports table and nothing else, no blank line: the mock's `has_more` (no document shows
    // it) is said on stderr, as a way to the rest when there is more.
    expect(rest).toEqual({});
    expect(result.stderr).toBe(
      hasMore
        ? `More reports exist than the ${data.length} listed: --limit 100 lists up to 100, --status complete|processing|failed narrows the list.\n`
        : '',
    );
    const out = result.stdout.replace(/\n$/, '').split('\n');
    expect(out[0]).toBe('ID\tSTATUS\tBANK\tCREATED');
    expect(out).toHaveLength(1 + data.length);
    out.slice(1).forEach((line, i) => {
      const cells = line.split('\t');
      expect(cells).toHaveLength(4);
      expect(cells[0]).toBe(data[i]!.report_id);
      expect(cells[1]).toBe(data[i]!.status);
      expect(cells[2]).toBe(data[i]!.bank_code);
    });
    expect(result.stdout).not.toMatch(/\u001b/);
    expect(result.stdout).not.toMatch(BOX);
  });

  it('a reply of the documented shape alone is one table: one header line, then one line per report', async () => {
    const data = [summary('rpt_0000000000000001'), summary('rpt_0000000000000002', 'NIC_ASIA')];
    await listReplies(JSON.stringify({ data }));
    const result = await world.svc(['reports', 'list']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        'ID\tSTATUS\tBANK\tCREATED',
        ...data.map((r) => `${r.report_id}\tcomplete\t${r.bank_code}\t2026-03-04 05:06 UTC`),
      ].join('\n') + '\n',
    );
  });

  it("amounts are the service's own in a pipe's table (formatted for people on a terminal only) and untouched in --json", async () => {
    // The report's opening and closing balances (statement block), as the service sent them.
    const table = await world.svc(['reports', 'get', RAM]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^opening_balance\t88566\.46$/m);
    expect(table.stdout).toMatch(/^closing_balance\t241986\.21$/m);

    const json = await world.svc(['reports', 'get', RAM, '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).statement).toMatchObject({
      currency: 'NPR',
      opening_balance: 88566.46,
      closing_balance: 241986.21,
    });
    expect(json.stdout).toContain('"closing_balance": 241986.21');
    expect(json.stdout).not.toContain('2,41,986.21');
  });

  it('control characters from the service are not printed', async () => {
    await listReplies(
      JSON.stringify({ data: [summary('rpt_0000000000000001', 'EVIL\u001b[2JBANK\u0007')] }),
    );
    const result = await world.svc(['reports', 'list']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).not.toContain('\u0007');
    expect(result.stdout).toContain('EVIL');
    expect(result.stdout).toContain('BANK');
    expect(result.stdout.split('\n')).toHaveLength(3); // header, the row, the final newline
  });
});

describe('on a terminal', () => {
  it('tables have box drawing and colour', async () => {
    const result = await terminal('reports list');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(BOX);
    expect(result.stdout).toMatch(ANSI);
    expect(result.stdout).toContain(RAM);
  });

  it.each([
    ['NO_COLOR=1', '', { NO_COLOR: '1' }],
    ['--no-color', '--no-color', {}],
    ['CLICOLOR=0', '', { CLICOLOR: '0' }],
    ['NO_COLOR=1 FORCE_COLOR=1', '', { NO_COLOR: '1', FORCE_COLOR: '1' }],
    ['--no-color FORCE_COLOR=1', '--no-color', { FORCE_COLOR: '1' }],
  ])('%s: no colour', async (_name, flag, extra) => {
    const result = await terminal(`reports list ${flag}`, extra);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain(RAM);
    expect(result.stdout).toMatch(BOX);
    expect(result.stdout).not.toMatch(ANSI);
  });

  it('amounts are formatted in the boxed table too', async () => {
    const result = await terminal(`reports get ${RAM}`);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/Opening balance.*NPR 88,566\.46/);
    expect(result.stdout).toMatch(/Closing balance.*NPR 2,41,986\.21/);
    // On a terminal, and only there, a hint says where the transactions are.
    expect(result.stdout).toMatch(
      /\d+ transactions in this reply: -o csv or -o ndjson writes them one per line\./,
    );
  });

  it('control characters from the service do not reach the terminal', async () => {
    await listReplies(
      JSON.stringify({ data: [summary('rpt_0000000000000001', 'EVIL\u001b[2JBANK')] }),
    );
    const result = await terminal('reports list');
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('EVIL');
    expect(result.stdout).not.toContain('\u001b[2J');
  });
});

describe('colour in a pipe', () => {
  it.each<{ name: string; extra: Record<string, string>; coloured: boolean }>([
    { name: 'FORCE_COLOR=1', extra: { FORCE_COLOR: '1' }, coloured: true },
    { name: 'CLICOLOR_FORCE=1', extra: { CLICOLOR_FORCE: '1' }, coloured: true },
    { name: 'nothing set', extra: {}, coloured: false },
    { name: 'FORCE_COLOR=0', extra: { FORCE_COLOR: '0' }, coloured: false },
    {
      name: 'NO_COLOR=1 FORCE_COLOR=1',
      extra: { NO_COLOR: '1', FORCE_COLOR: '1' },
      coloured: false,
    },
    {
      name: 'NO_COLOR=1 CLICOLOR_FORCE=1',
      extra: { NO_COLOR: '1', CLICOLOR_FORCE: '1' },
      coloured: false,
    },
  ])('$name → coloured: $coloured', async ({ extra, coloured }) => {
    const result = await world.svc(['reports', 'list'], { env: extra });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(RAM);
    if (coloured) expect(result.stdout).toMatch(ANSI);
    else expect(result.stdout).not.toMatch(ANSI);
  });

  it('--no-color wins over FORCE_COLOR', async () => {
    const result = await world.svc(['reports', 'list', '--no-color'], {
      env: { FORCE_COLOR: '1' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(ANSI);
  });
});

describe('-o ndjson and -o csv', () => {
  it('ndjson: one compact JSON object per line, each equal to data[i]', async () => {
    const result = await world.svc(['reports', 'list', '-o', 'ndjson']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const { data } = JSON.parse(await direct('/v1/reports')) as { data: Summary[] };
    expect(result.stdout.endsWith('\n')).toBe(true);
    const out = result.stdout.slice(0, -1).split('\n');
    expect(out).toHaveLength(data.length);
    out.forEach((line, i) => {
      const item = JSON.parse(line) as unknown;
      expect(item).toEqual(data[i]);
      expect(line).toBe(JSON.stringify(item));
    });
  });

  it('csv of reports list: header row first, values equal the JSON values, CRLF line ends', async () => {
    const result = await world.svc(['reports', 'list', '-o', 'csv']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/\r\n$/);
    expect(result.stdout.replace(/\r\n/g, '')).not.toContain('\n');
    const { data } = JSON.parse(await direct('/v1/reports')) as { data: Summary[] };
    const [header, ...rows] = parseCsv(result.stdout);
    expect(header).toContain('report_id');
    expect(rows).toHaveLength(data.length);
    rows.forEach((row, i) => {
      expect(row).toHaveLength(header!.length);
      header!.forEach((column, c) => {
        if (column in data[i]!) expect(row[c]).toBe(csvText(data[i]![column]));
      });
    });
    expect(header!.filter((column) => column in data[0]!).length).toBeGreaterThanOrEqual(3);
  });

  it('csv of recurring streams: a row per stream, its list first, then the view’s own values and the stream’s, equal to the JSON reply', async () => {
    // A view that holds lists writes one record per item of them (§4a), and no cell holds JSON.
    const result = await world.svc(['reports', 'recurring', WEEKLY, '-o', 'csv']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const body = JSON.parse(await direct(`/v1/reports/${WEEKLY}/recurring`)) as Record<
      string,
      unknown
    >;
    const lists = ['inflow_streams', 'outflow_streams'];
    const own = Object.keys(body).filter((key) => !lists.includes(key));
    const [header, ...rows] = parseCsv(result.stdout);
    expect(header!.slice(0, 1 + own.length)).toEqual(['list', ...own]);
    const streams = lists.flatMap((list) =>
      (body[list] as Record<string, unknown>[]).map((stream) => ({ list, stream })),
    );
    expect(rows).toHaveLength(streams.length);
    rows.forEach((row, i) => {
      const { list, stream } = streams[i]!;
      const record: Record<string, unknown> = {
        list,
        ...Object.fromEntries(own.map((key) => [key, body[key]])),
        ...stream,
      };
      header!.forEach((column, c) =>
        expect(row[c], column).toBe(column in record ? csvText(record[column]) : ''),
      );
      for (const cell of row) expect(cell).not.toMatch(/^[[{]/);
    });
    // The streams are all there: the weekly ones in and out among them.
    expect(streams.filter(({ stream }) => stream.cadence === 'weekly')).toHaveLength(2);
  });

  it('csv quotes a value with a comma or a quote, doubling the quote', async () => {
    await listReplies(
      JSON.stringify({
        data: [summary('rpt_0000000000000001', 'A,"B"'), summary('rpt_0000000000000002', 'plain')],
      }),
    );
    const result = await world.svc(['reports', 'list', '-o', 'csv']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"A,""B"""');
    const [header, ...rows] = parseCsv(result.stdout);
    const bank = header!.indexOf('bank_code');
    expect(bank).toBeGreaterThanOrEqual(0);
    expect(rows.map((row) => row[bank])).toEqual(['A,"B"', 'plain']);
  });

  it('csv keeps a value with a line break (LF or CRLF) inside quotes, equal to the JSON value', async () => {
    await listReplies(
      JSON.stringify({
        data: [
          summary('rpt_0000000000000001', 'line\nbreak'),
          summary('rpt_0000000000000002', 'crlf\r\nbreak'),
        ],
      }),
    );
    const result = await world.svc(['reports', 'list', '-o', 'csv']);
    expect(result.code, result.stderr).toBe(0);
    const [header, ...rows] = parseCsv(result.stdout);
    const bank = header!.indexOf('bank_code');
    expect(rows.map((row) => row[bank])).toEqual(['line\nbreak', 'crlf\r\nbreak']);
  });
});

describe('a closed stdout', () => {
  /** A valid reports list of about 2.5 MB, far beyond a pipe's buffer. */
  const bigList = () =>
    JSON.stringify({
      data: Array.from({ length: 25_000 }, (_, i) =>
        summary(`rpt_${i.toString(16).padStart(16, '0')}`),
      ),
    });

  it.each([[['--json']], [[]], [['-o', 'ndjson']]])(
    'svc reports list %j | head -c 1: exit 0, nothing on stderr',
    async (flags) => {
      await listReplies(bigList());
      const result = await intoHead(['reports', 'list', ...flags], {
        ...baseEnv(world.dir),
        ...env(),
      });
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe('0');
      expect(result.stderr).toBe('');
      // The reply really was the big one.
      expect((await world.requests()).filter((r) => r.path === '/v1/reports')).toHaveLength(1);
    },
  );

  it.each([[['--version']], [['--help']], [['__complete', 'profiles']]])(
    'svc %j with its reader gone before it writes: exit 0, nothing on stderr',
    async (args) => {
      // These paths write to the file descriptor directly: the reader is gone ~70 ms before that.
      // A config file with a profile, so that the completion has something to write.
      const home = world.tempDir();
      mkdirSync(join(home, 'config'));
      writeFileSync(
        join(home, 'config', 'config.json'),
        JSON.stringify({ current_profile: 'default', profiles: { default: {}, staging: {} } }),
      );
      const result = await new Promise<Result>((resolve, reject) => {
        const child = spawn(process.execPath, [SVC, ...args], {
          env: baseEnv(home),
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child.stdout.destroy();
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ stdout: '', stderr, code }));
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
    },
  );

  it('the read side destroyed after the first chunk: exit 0, nothing on stderr', async () => {
    await listReplies(bigList());
    const result = await new Promise<Result & { chunks: number }>((resolve, reject) => {
      const child = spawn(process.execPath, [SVC, 'reports', 'list', '--json'], {
        env: { ...baseEnv(world.dir), ...env() },
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let chunks = 0;
      let stderr = '';
      child.stdout.once('data', () => {
        chunks++;
        child.stdout.destroy();
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ stdout: '', stderr, code, chunks });
      });
    });
    expect(result.chunks).toBe(1);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });
});

describe('stderr in a pipe', () => {
  it('svc parse FILE --wait: no spinner or progress on stderr', async () => {
    const pdf = join(world.dir, 'statement.pdf');
    writeFileSync(pdf, TINY_PDF);
    const result = await world.svc(['parse', pdf, '--wait']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('complete');
    const paths = (await world.requests()).map((r) => `${r.method} ${r.path}`);
    expect(paths[0]).toBe('POST /v1/parse');
    expect(paths.slice(1).every((p) => p.startsWith('GET /v1/reports/rpt_'))).toBe(true);
    expect(paths.length).toBeGreaterThanOrEqual(2);
  });

  it('svc parse FILE --async: nothing on stderr', async () => {
    const pdf = join(world.dir, 'statement.pdf');
    writeFileSync(pdf, TINY_PDF);
    const result = await world.svc(['parse', pdf, '--async']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/rpt_[0-9a-f]+/);
  });
});
