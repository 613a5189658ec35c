// The §6 rows of the report, parse, statement and usage commands, run as a script would.
import { chmodSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from './harness.js';

const COMPLETE = 'rpt_e8699f830adc84b8'; // Ram Bahadur Shrestha, NABIL
const NO_NAME = 'rpt_b0b9312a63cd30df';
const NO_SWIFT = 'rpt_cf64fb98339608ee';
const PROCESSING = 'rpt_5f037950f28b8944';
const FAILED = 'rpt_83bf1b6bfc2499c2';
const OTHER_ORG = 'rpt_9de47370f0a1202e';

const world = useWorld();
let files: string;

beforeAll(() => {
  files = world.tempDir('svc-files-');
});

function file(name: string, content: string | Buffer): string {
  const path = join(files, name);
  writeFileSync(path, content);
  return path;
}

async function expectNoRequest(): Promise<void> {
  expect(await world.requests()).toEqual([]);
}

interface Block {
  heading?: string;
  header: string[];
  rows: string[][];
}

/** The tables of a view in a pipe: parted by a blank line, each under its heading when there are several. */
function blocks(stdout: string): Block[] {
  return stdout
    .trimEnd()
    .split('\n\n')
    .map((block) => {
      const lines = block.split('\n');
      const heading = lines[0]!.includes('\t') ? undefined : lines.shift();
      const [header, ...rows] = lines.map((line) => line.split('\t'));
      return { heading, header: header!, rows };
    });
}

/** A value as the generic view writes it in a cell. */
const cell = (value: unknown) => (value === null ? '' : value === true ? 'yes' : value === false ? 'no' : String(value));

/** The parts of a reply the generic view shows: its scalars as FIELD/VALUE, each list of objects as a table under its name. */
function expectShownAsReceived(parts: Block[], body: Record<string, unknown>): void {
  const scalars = Object.entries(body).filter(([, value]) => value === null || typeof value !== 'object');
  expect(parts[0]).toEqual({ heading: undefined, header: ['FIELD', 'VALUE'], rows: scalars.map(([name, value]) => [name, cell(value)]) });
  const lists = Object.entries(body).filter((entry): entry is [string, Record<string, unknown>[]] => Array.isArray(entry[1]) && entry[1].length > 0);
  expect(parts.slice(1).map((part) => part.heading)).toEqual(lists.map(([name]) => name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, ' ')));
  lists.forEach(([, items], i) => {
    expect(parts[i + 1]!.header).toEqual(Object.keys(items[0]!).map((key) => key.replace(/_/g, ' ').toUpperCase()));
    expect(parts[i + 1]!.rows).toEqual(items.map((item) => Object.values(item).map(cell)));
  });
}

describe('reports list', () => {
  it('sends limit and status and prints one row per report', async () => {
    const r = await world.svc(['reports', 'list', '--limit', '5', '--status', 'complete']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    // The reports, then the mock's own `has_more` (no document shows it) as a field list.
    const [reports, ...rest] = r.stdout.split('\n\n');
    const lines = reports!.trimEnd().split('\n');
    expect(lines[0]).toBe('ID\tSTATUS\tBANK\tCREATED');
    expect(lines).toHaveLength(6);
    for (const line of lines.slice(1)) expect(line.split('\t')[1]).toBe('complete');
    expect(rest).toEqual(['FIELD\tVALUE\nhas_more\tyes\n']);
    const [request] = await world.requests();
    expect(request).toMatchObject({ method: 'GET', path: '/v1/reports', query: { limit: '5', status: 'complete' } });
  });

  it.each([['0'], ['101'], ['ten'], ['-1'], ['1.5']])('refuses --limit %s before any request', async (limit) => {
    const r = await world.svc(['reports', 'list', '--limit', limit]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: .*--limit/);
    await expectNoRequest();
  });

  it('refuses an unknown --status before any request', async () => {
    const r = await world.svc(['reports', 'list', '--status', 'done']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*status/);
    await expectNoRequest();
  });

  it('reads the reply as JSON for jq', async () => {
    const r = await world.svc(['reports', 'list', '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data[0]).toHaveProperty('report_id');
  });
});

describe('reports get', () => {
  it('shows one report', async () => {
    const r = await world.svc(['reports', 'get', COMPLETE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^report_id\trpt_e8699f830adc84b8$/m);
    expect(r.stdout).toMatch(/^status\tcomplete$/m);
    // The statement block of the documented full report.
    expect(r.stdout).toMatch(/^bank\tNabil Bank \(NABIL\)$/m);
    expect(r.stdout).toMatch(/^period\t\d{4}-\d{2}-\d{2} → \d{4}-\d{2}-\d{2}$/m);
    expect(r.stdout).toMatch(/^opening_balance\tNPR [\d,]+\.\d{2}$/m);
    expect(r.stdout).toMatch(/^transactions\t\d+$/m);
    // Then the parts whose contents no document shows, as they come.
    expect(r.stdout).toMatch(/^signals\.\w+\t/m);
    for (const heading of ['Monthly summary', 'Categories', 'Merchant categories']) expect(r.stdout).toMatch(new RegExp(`^${heading}\n`, 'm'));
    expect((await world.requests())[0]).toMatchObject({ method: 'GET', path: `/v1/reports/${COMPLETE}` });

    // Its records are its transactions, as received.
    const body = JSON.parse((await world.svc(['reports', 'get', COMPLETE, '--json'])).stdout) as { transactions: unknown[] };
    const ndjson = await world.svc(['reports', 'get', COMPLETE, '-o', 'ndjson']);
    expect(ndjson.code).toBe(0);
    expect(ndjson.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))).toEqual(body.transactions);
    // A hint for people, on a terminal only: a pipe gets the fields and tables alone.
    expect(r.stdout).not.toContain('transactions in this reply');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/\t/);
  });

  it('shows why a failed report failed', async () => {
    const r = await world.svc(['reports', 'get', FAILED]);
    expect(r.code).toBe(0);
    // The failed report's `error` is the mock's own shape: shown as its dotted fields.
    expect(r.stdout).toMatch(/^status\tfailed$/m);
    expect(r.stdout).toMatch(/^error\.error_code\tDOCUMENT_PARSE_FAILED$/m);
    expect(r.stdout).toMatch(/^error\.error_message\t\S.*$/m);
  });

  it("answers 404 for another organisation's report (exit 5)", async () => {
    const r = await world.svc(['reports', 'get', OTHER_ORG]);
    expect(r.code).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toMatch(/^error: REPORT_NOT_FOUND: /);
    expect(r.stderr).toMatch(/Request ID: req_[0-9a-f]+/);
  });

  it.each([['a/b'], ['a?b'], ['a#b'], ['a b'], ['a\tb'], [''], [' ']])('refuses the id %j before any request', async (id) => {
    const r = await world.svc(['reports', 'get', id]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: the report id/);
    await expectNoRequest();
  });

  it('URL-encodes the id as a path segment', async () => {
    const r = await world.svc(['reports', 'get', 'rpt_%41']);
    expect(r.code).toBe(5);
    expect((await world.requests())[0]!.path).toBe('/v1/reports/rpt_%2541');
  });
});

describe('name match', () => {
  it('posts the claimed name and shows score, band and reasons', async () => {
    const r = await world.svc(['reports', 'match', COMPLETE, '--name', 'Shrestha Ram Bahadur']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^result\tmatch$/m);
    expect(r.stdout).toMatch(/^match_score\t\d+ \/ 100$/m);
    expect(r.stdout).toMatch(/^reasons\t.*order/mi);
    const [request] = await world.requests();
    expect(request).toMatchObject({ method: 'POST', path: `/v1/reports/${COMPLETE}/identity/match` });
    expect(JSON.parse(request!.body!)).toEqual({ name: 'Shrestha Ram Bahadur' });
  });

  it('is also `svc match`, and --json gives the reply', async () => {
    const r = await world.svc(['match', COMPLETE, '--name', 'Hari Prasad Koirala', '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.result).toBe('no_match');
    expect(body.statement_name).toBe('Ram Bahadur Shrestha');
    expect(Array.isArray(body.reasons)).toBe(true);
  });

  it('gives no_data when the statement has no name', async () => {
    const r = await world.svc(['match', NO_NAME, '--name', 'Ram Bahadur Shrestha', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'no_data', statement_name: null });
  });

  it('refuses a missing or empty --name before any request', async () => {
    for (const args of [['match', COMPLETE], ['match', COMPLETE, '--name', '  ']]) {
      const r = await world.svc(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error: .*name/);
    }
    await expectNoRequest();
  });

  it('says a report still processing is not ready (exit 6)', async () => {
    const r = await world.svc(['match', PROCESSING, '--name', 'Ram']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^error: REPORT_NOT_READY: /);
  });
});

describe('lending views', () => {
  it('auth shows the verified numbers, and `svc auth` is the same', async () => {
    const a = await world.svc(['reports', 'auth', COMPLETE]);
    const b = await world.svc(['auth', COMPLETE]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/^swift_bic\tNARBNPKA/m);
    expect(a.stdout).toMatch(/^verification_status\tconnect_verified$/m);
  });

  it('auth explains a missing SWIFT/BIC', async () => {
    const r = await world.svc(['auth', NO_SWIFT, '--json']);
    const body = JSON.parse(r.stdout);
    expect(body.swift_bic).toBeNull();
    expect(body.swift_note).toMatch(/Class-A/i);
    const table = await world.svc(['auth', NO_SWIFT]);
    expect(table.stdout).toMatch(/^swift_note\t.*Class/m);
  });

  it('identity shows holder, account, bank, currency and period', async () => {
    const r = await world.svc(['reports', 'identity', COMPLETE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^account_holder\tRam Bahadur Shrestha$/m);
    expect(r.stdout).toMatch(/^account_number\t\d+$/m);
    expect(r.stdout).toMatch(/^bank\tNabil Bank \(NABIL\)$/m);
    expect(r.stdout).toMatch(/^currency\tNPR$/m);
    expect(r.stdout).toMatch(/^period\t\d{4}-\d{2}-\d{2} → \d{4}-\d{2}-\d{2}$/m);
  });

  it('counterparties shows every type and the top names, as received (its field names are not documented)', async () => {
    const r = await world.svc(['reports', 'counterparties', COMPLETE]);
    expect(r.code).toBe(0);
    const body = JSON.parse((await world.svc(['reports', 'counterparties', COMPLETE, '--json'])).stdout) as Record<string, unknown>;
    const parts = blocks(r.stdout);
    expectShownAsReceived(parts, body);
    const byType = parts.find((part) => part.rows.some((row) => row[0] === 'institution'))!;
    expect(byType.rows.map((row) => row[0]).sort()).toEqual(['cash', 'individual', 'institution', 'merchant', 'self', 'wallet']);
    expect(parts.map((part) => part.heading)).toEqual(expect.arrayContaining(['Top people', 'Top merchants']));
    expect(r.stdout).toMatch(/^Krishna Prasad Joshi\tindividual\t/m);
  });

  it('recurring shows cadence, average, status, active and next date; `svc recurring` is the same', async () => {
    const a = await world.svc(['reports', 'recurring', COMPLETE]);
    const b = await world.svc(['recurring', COMPLETE]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const body = JSON.parse((await world.svc(['recurring', COMPLETE, '--json'])).stdout) as Record<string, unknown>;
    const parts = blocks(a.stdout);
    expectShownAsReceived(parts, body);
    const [inflow, outflow] = [parts.find((p) => p.heading === 'Inflow streams')!, parts.find((p) => p.heading === 'Outflow streams')!];
    for (const streams of [inflow, outflow]) {
      expect(streams.header).toEqual(['COUNTERPARTY', 'CATEGORY', 'CADENCE', 'AVERAGE AMOUNT', 'OCCURRENCES', 'STATUS', 'IS ACTIVE', 'LAST DATE', 'NEXT DATE']);
      expect(streams.rows.length).toBeGreaterThan(0);
      expect(streams.rows.every((row) => /^(MATURE|EARLY_DETECTION)$/.test(row[5]!) && /^(yes|no)$/.test(row[6]!))).toBe(true);
    }
    expect(inflow.rows.some((row) => row[1] === 'salary' && row[2] === 'monthly')).toBe(true);
  });

  it.each([['auth'], ['identity'], ['counterparties'], ['recurring']])('%s of a failed report is rejected (exit 6)', async (view) => {
    const r = await world.svc(['reports', view, FAILED]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^error: DOCUMENT_PARSE_FAILED: /);
  });

  it.each([['auth'], ['identity'], ['counterparties'], ['recurring']])('%s of another organisation is not found (exit 5)', async (view) => {
    const r = await world.svc(['reports', view, OTHER_ORG]);
    expect(r.code).toBe(5);
  });
});

describe('parse', () => {
  const pdf = () => file('statement.pdf', '%PDF-1.4\nAccount Holder: Sita Kumari Thapa\n%%EOF\n');

  it('uploads a PDF as multipart and shows the parsed report', async () => {
    const r = await world.svc(['parse', pdf(), '--bank', 'NABIL']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^status\tcomplete$/m);
    expect(r.stdout).toMatch(/^bank\tNabil Bank \(NABIL\)$/m);
    const id = /^report_id\t(rpt_[0-9a-f]+)$/m.exec(r.stdout)![1]!;
    const [request] = await world.requests();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/parse' });
    expect(request!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    // The full report names no holder; the identity view of the new report gives the file's.
    const identity = await world.svc(['reports', 'identity', id]);
    expect(identity.stdout).toMatch(/^account_holder\tSita Kumari Thapa$/m);
  });

  it('--async returns at once with a processing report and where to poll it', async () => {
    const r = await world.svc(['parse', pdf(), '--async', '--json']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body).toMatchObject({ status: 'processing', poll_url: `/v1/reports/${body.report_id}` });
  });

  it('--wait polls until the report is complete', async () => {
    const r = await world.svc(['parse', pdf(), '--wait', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const body = JSON.parse(r.stdout);
    expect(body.status).toBe('complete');
    const paths = (await world.requests()).map((q) => `${q.method} ${q.path}`);
    expect(paths[0]).toBe('POST /v1/parse');
    expect(paths.slice(1).every((p) => p === `GET /v1/reports/${body.report_id}`)).toBe(true);
    expect(paths.length).toBeGreaterThan(1);
  });

  it('--wait on a document that fails prints the report and exits 6', async () => {
    const bad = file('bad.pdf', '%PDF-1.4\nSVC-MOCK-FAIL\n');
    const r = await world.svc(['parse', bad, '--wait']);
    expect(r.code).toBe(6);
    expect(r.stdout).toMatch(/^status\tfailed$/m);
    expect(r.stderr).toMatch(/^error: report rpt_[0-9a-f]+ failed: DOCUMENT_PARSE_FAILED/);
  });

  it('--wait gives up after --wait-timeout with exit 9', async () => {
    await world.fault({ method: 'GET', path: '/v1/reports/', times: 50, json: { report_id: 'rpt_x', status: 'processing', bank_code: 'NABIL', created_at: '2026-11-21T00:00:00Z' }, status: 200 });
    const r = await world.svc(['parse', pdf(), '--wait', '--wait-timeout', '1']);
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/still processing/);
  });

  it('a READ_ONLY key may not parse (exit 4)', async () => {
    const r = await world.svc(['parse', pdf()], { env: { SVC_API_KEY: world.key(0, 'test', 'READ_ONLY').key } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^error: INSUFFICIENT_SCOPE: /);
  });

  it('refuses a missing, unreadable, empty, non-document or oversized file before any request', async () => {
    const unreadable = file('secret.pdf', '%PDF-1.4\n');
    chmodSync(unreadable, 0o000);
    const big = file('big.pdf', '%PDF-1.4\n');
    truncateSync(big, 20 * 1024 * 1024 + 1);
    const cases: Array<[string, RegExp]> = [
      [join(files, 'missing.pdf'), /no such file/],
      [file('empty.pdf', ''), /empty/],
      [file('notes.txt', 'hello, not a statement'), /not a PDF, JPEG or PNG/],
      [file('fake.pdf', 'GIF89a....'), /not a PDF, JPEG or PNG/],
      [big, /20 MB/],
      [files, /folder/],
    ];
    if (process.getuid?.() !== 0) cases.push([unreadable, /permission denied/]);
    for (const [path, message] of cases) {
      const r = await world.svc(['parse', path]);
      expect(r.code, path).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    }
    await expectNoRequest();
  });

  it('accepts JPEG and PNG by their first bytes', async () => {
    const jpeg = file('scan.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]));
    const png = file('scan.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
    for (const path of [jpeg, png]) {
      const r = await world.svc(['parse', path, '--async']);
      expect(r.code, path).toBe(0);
    }
  });
});

describe('statements list', () => {
  it('lists issued statements with hash and verify URL', async () => {
    const r = await world.svc(['statements', 'list', '--json']);
    expect(r.code).toBe(0);
    const { statements } = JSON.parse(r.stdout);
    expect(statements.length).toBeGreaterThan(0);
    for (const s of statements) {
      expect(s.content_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(s.verify_url).toMatch(/^http/);
    }
  });

  it('filters by status', async () => {
    const r = await world.svc(['statements', 'list', '--status', 'revoked', '-o', 'ndjson']);
    expect(r.code).toBe(0);
    const items = r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((s) => s.status === 'revoked')).toBe(true);
    expect((await world.requests())[0]!.query).toEqual({ status: 'revoked' });
  });

  it('refuses an unknown --status before any request', async () => {
    const r = await world.svc(['statements', 'list', '--status', 'valid']);
    expect(r.code).toBe(2);
    await expectNoRequest();
  });
});

describe('usage', () => {
  it('shows each quota with used, limit and what is left', async () => {
    const r = await world.svc(['usage']);
    expect(r.code).toBe(0);
    const body = JSON.parse((await world.svc(['usage', '--json'])).stdout);
    const count = (n: number) => n.toLocaleString('en-IN');
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(header).toBe('FIELD\tVALUE');
    // The documented counters, then the mock's own (the Data API and merchant lookups) as received.
    expect(rows.slice(0, 5)).toEqual([
      `plan\t${body.plan}`,
      `used\t${count(body.used)} of ${count(body.quota)} (${Math.round((body.used / body.quota) * 100)}%)`,
      `remaining\t${count(body.remaining)}`,
      `period\t${body.period}`,
      expect.stringMatching(new RegExp(`^resets_at\\t${body.resets_at.slice(0, 10)} 00:00 UTC \\(in \\d+ days?\\)$`)),
    ]);
    expect(body.remaining).toBe(body.quota - body.used);
    expect(rows.slice(5)).toEqual([
      `data_api.quota\t${body.data_api.quota}`,
      `data_api.used\t${body.data_api.used}`,
      `data_api.remaining\t${body.data_api.remaining}`,
      `merchant_resolve.used\t${body.merchant_resolve.used}`,
    ]);
  });

  it('counts a parse', async () => {
    const before = JSON.parse((await world.svc(['usage', '--json'])).stdout);
    await world.svc(['parse', file('count.pdf', '%PDF-1.4\n')]);
    const after = JSON.parse((await world.svc(['usage', '--json'])).stdout);
    expect(after.used).toBe(before.used + 1);
    expect(after.remaining).toBe(before.remaining - 1);
  });
});
