// The report, parse, statement and usage commands against `svc mock`, run as a script would: one
// round trip per command through the built binary, a real process and the real mock. What each
// command sends, prints and refuses, and how it maps every failure, is tested in-process
// (test/commands/reports.test.ts, parse.test.ts, statements.test.ts); the mock's own behaviour
// (scopes, organisations, failed and processing reports) in test/unit/mock-server.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from './harness.js';

const COMPLETE = 'rpt_e8699f830adc84b8'; // Ram Bahadur Shrestha, NABIL

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
    // The reports alone on stdout; the mock's own `has_more` (no document shows it) is said on stderr, with the way on.
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('ID\tSTATUS\tBANK\tCREATED');
    expect(lines).toHaveLength(6);
    for (const line of lines.slice(1)) expect(line.split('\t')[1]).toBe('complete');
    expect(r.stderr).toBe('More complete reports exist than the 5 listed: --limit 100 lists up to 100.\n');
    const [request] = await world.requests();
    expect(request).toMatchObject({ method: 'GET', path: '/v1/reports', query: { limit: '5', status: 'complete' } });
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
    // Amounts as the service sent them: no currency, no grouping.
    expect(r.stdout).toMatch(/^opening_balance\t-?\d+(\.\d+)?$/m);
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
      // In the local zone (TZ=UTC here); how far off it is only on a terminal, where gh says it too.
      `resets_at\t${body.resets_at.slice(0, 10)} 00:00 UTC`,
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
