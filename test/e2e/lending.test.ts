// The lending commands against `svc mock`, run as a script would: `reports transactions|income|
// balance|liabilities|score|verify|underwrite`, `enrich`, `consents create|list|revoke|data`,
// `connect exchange`, `grants data` and `decisions record|list|outcome`. For each: the request the
// mock received, --json as received (the mock's own raw reply read a second time), a few cells of
// the table, the refusals made before any request, the mock's refusals (scope, organisation, token)
// and tokens kept out of every trace and error. Then a lender's day from a sandbox report to the
// outcome of the loan, and a Connect flow from the request to the grant's data. Layouts, odd
// replies and every format are tested in-process: test/commands/lending.test.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { type RecordedRequest, type Result, useWorld } from './harness.js';

const COMPLETE = 'rpt_e8699f830adc84b8'; // Himalaya Microfinance: Ram Bahadur Shrestha, NABIL, salaried
const OTHER_ORG = 'rpt_9de47370f0a1202e'; // Sagarmatha Lending's
const LOAN = ['--principal', '500000', '--tenor-months', '36', '--annual-rate', '12.5'];
const CSV =
  'date,description,credit,debit,balance\n2026-03-25,SALARY LEAPFROG TECHNOLOGY MAR 2026,72000,,145200\n2026-03-26,EMI NABIL BANK HOME LOAN,,21000,124200\n';

const world = useWorld();
let files: string;

beforeAll(() => {
  files = world.tempDir('svc-lending-');
});

function file(name: string, content: string): string {
  const path = join(files, name);
  writeFileSync(path, content);
  return path;
}

/** The one request svc sent (requests to the mock's own pages left out). */
async function only(): Promise<RecordedRequest> {
  const requests = (await world.requests()).filter((r) => r.path.startsWith('/v1/'));
  expect(requests.map((r) => `${r.method} ${r.path}`)).toHaveLength(1);
  return requests[0]!;
}

const bodyOf = (request: RecordedRequest): unknown =>
  request.body === null ? null : JSON.parse(request.body);

/**
 * The mock's reply to a request made here, as text: what svc must print re-indented, and nothing
 * else.
 */
async function raw(
  method: string,
  path: string,
  headers: Record<string, string> = { authorization: `Bearer ${world.key().key}` },
  json?: unknown,
): Promise<string> {
  const reply = await fetch(world.mock.url + path, {
    method,
    headers: { ...headers, ...(json !== undefined && { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  expect(reply.status, path).toBeLessThan(300);
  return reply.text();
}

/** --json: the reply as received, pretty-printed with 2 spaces, one document. */
function expectAsReceived(result: Result, rawReply: string): void {
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe(JSON.stringify(JSON.parse(rawReply), null, 2) + '\n');
}

/** The value of one field of a FIELD/VALUE list in a pipe. */
function field(stdout: string, name: string): string | undefined {
  return stdout
    .split('\n')
    .find((line) => line.startsWith(name + '\t'))
    ?.split('\t')[1];
}

/** The rows of the table under a heading (or the first table), header first, split on tabs. */
function table(stdout: string, heading?: string): string[][] {
  const blocks = stdout.trimEnd().split('\n\n');
  const block =
    heading === undefined
      ? blocks[0]!
      : blocks.find((b) => b.startsWith(heading + '\n'))!.slice(heading.length + 1);
  return block.split('\n').map((line) => line.split('\t'));
}

/** A failure as a script sees it: the exit code, nothing on stdout, the error first on stderr. */
function expectFailure(result: Result, exit: number, code: string): void {
  expect(result.code, result.stderr).toBe(exit);
  expect(result.stdout).toBe('');
  // First, but for the lines of a --debug trace.
  expect(result.stderr.split('\n').find((line) => !line.startsWith('debug: '))).toMatch(
    new RegExp(`^error: ${code}: `),
  );
}

describe('the product views of a report', () => {
  it('transactions sends every filter and lists the matching transactions', async () => {
    const r = await world.svc([
      'reports',
      'transactions',
      COMPLETE,
      '--category',
      'salary',
      '--direction',
      'credit',
      '--since',
      '2025-08-01',
      '--until',
      '2025-12-31',
      '--limit',
      '3',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(await only()).toMatchObject({
      method: 'GET',
      path: `/v1/reports/${COMPLETE}/transactions`,
      query: {
        category: 'salary',
        direction: 'credit',
        since: '2025-08-01',
        until: '2025-12-31',
        limit: '3',
      },
      body: null,
    });
    const [header, ...rows] = table(r.stdout);
    expect(header).toEqual([
      'DATE',
      'DESCRIPTION',
      'DEBIT',
      'CREDIT',
      'BALANCE',
      'CATEGORY',
      'ID',
      'CONFIDENCE',
    ]);
    expect(rows.map((row) => [row[0], row[1]!.slice(0, 26), row[2], row[3], row[5]])).toEqual([
      ['2025-08-10', 'SALARY LEAPFROG TECHNOLOGY', '', '125000', 'salary'],
      ['2025-09-10', 'SALARY LEAPFROG TECHNOLOGY', '', '125000', 'salary'],
      ['2025-10-10', 'SALARY LEAPFROG TECHNOLOGY', '', '125000', 'salary'],
    ]);
  });

  it('transactions --json is the reply as received, --merchant-category sent as merchant_category', async () => {
    const r = await world.svc([
      'reports',
      'transactions',
      COMPLETE,
      '--merchant-category',
      'groceries',
      '--direction',
      'debit',
      '--json',
    ]);
    expect(await only()).toMatchObject({
      method: 'GET',
      query: { merchant_category: 'groceries', direction: 'debit' },
    });
    expectAsReceived(
      r,
      await raw(
        'GET',
        `/v1/reports/${COMPLETE}/transactions?merchant_category=groceries&direction=debit`,
      ),
    );
    expect(JSON.parse(r.stdout).count).toBeGreaterThan(0);
  });

  // The views of one report, each read as received, then as a table: its key cells are the reply's
  // values, as sent.
  const VIEWS = [
    {
      view: 'income',
      cells: (body: any) => [
        ['salary_detected', 'yes'],
        ['salary_amount', '125000'],
        ['salary_regularity', body.salary_regularity],
        ['income_stability_score', String(body.income_stability_score)],
      ],
      table: 'Monthly credits',
    },
    {
      view: 'balance',
      cells: (body: any) => [
        ['currency', 'NPR'],
        ['period', `${body.period.from} → ${body.period.to}`],
        ['trend', body.trend],
      ],
      table: undefined,
    },
    {
      view: 'liabilities',
      cells: (body: any) => [
        ['monthly_emi_total', '42350'],
        ['emi_load_pct', String(body.emi_load_pct)],
        ['bounce_count', String(body.bounce_count)],
      ],
      table: 'Lenders',
    },
    {
      view: 'score',
      cells: (body: any) => [
        ['score', String(body.score)],
        ['band', body.band],
      ],
      table: 'Factors',
    },
    { view: 'verify', cells: (body: any) => [['verdict', body.verdict]], table: 'Checks' },
  ] as const;

  it.each(VIEWS)(
    '$view: GET …/$view, --json as received, the table shows its values',
    async ({ view, cells, table: heading }) => {
      const json = await world.svc(['reports', view, COMPLETE, '--json']);
      expect(await only()).toMatchObject({
        method: 'GET',
        path: `/v1/reports/${COMPLETE}/${view}`,
        query: {},
        body: null,
      });
      const reply = await raw('GET', `/v1/reports/${COMPLETE}/${view}`);
      expectAsReceived(json, reply);
      const body = JSON.parse(reply);

      const r = await world.svc(['reports', view, COMPLETE]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      for (const [name, value] of cells(body)) expect(field(r.stdout, name), name).toBe(value);
      if (heading) {
        const listed = {
          'Monthly credits': body.monthly_credits,
          Lenders: body.lenders,
          Factors: body.factors,
          Checks: body.checks,
        }[heading];
        expect(table(r.stdout, heading).slice(1)).toHaveLength(listed.length);
      }
    },
  );

  it('underwrite posts the loan and shows the verdict first; --json is the reply as received', async () => {
    const args = [
      'reports',
      'underwrite',
      COMPLETE,
      ...LOAN,
      '--applicant-name',
      'Ram Bahadur Shrestha',
      '--foir-ceiling',
      '0.45',
    ];
    const sent = {
      applicant_name: 'Ram Bahadur Shrestha',
      foir_ceiling: 0.45,
      loan: { principal: 500000, tenor_months: 36, annual_rate_pct: 12.5 },
    };
    const r = await world.svc(args);
    expect(r.code, r.stderr).toBe(0);
    const request = await only();
    expect(request).toMatchObject({
      method: 'POST',
      path: `/v1/reports/${COMPLETE}/underwriting`,
      query: {},
    });
    expect(bodyOf(request)).toEqual(sent);
    // The reply's names are the mock's own (no document shows them): the verdict leads, the rest
    // follows as received.
    expect(r.stdout.split('\n').slice(0, 2)).toEqual([
      'FIELD\tVALUE',
      expect.stringMatching(/^verdict\t(approve|review|decline)$/),
    ]);
    expect(field(r.stdout, 'loan.principal')).toBe('500000');
    expect(field(r.stdout, 'name_match.result')).toBe('match');

    await world.reset();
    const json = await world.svc([...args, '--json']);
    expectAsReceived(
      json,
      await raw('POST', `/v1/reports/${COMPLETE}/underwriting`, undefined, bodyOf(await only())),
    );
    expect(JSON.parse(json.stdout).verdict).toBe(field(r.stdout, 'verdict'));
  });
});

describe('enrich', () => {
  it('posts the transactions of a CSV file and lists them with their categories', async () => {
    const r = await world.svc(['enrich', '--file', file('statement.csv', CSV)]);
    expect(r.code, r.stderr).toBe(0);
    const request = await only();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/enrich', query: {} });
    const sent = {
      transactions: [
        {
          date: '2026-03-25',
          description: 'SALARY LEAPFROG TECHNOLOGY MAR 2026',
          credit: 72000,
          balance: 145200,
        },
        {
          date: '2026-03-26',
          description: 'EMI NABIL BANK HOME LOAN',
          debit: 21000,
          balance: 124200,
        },
      ],
    };
    expect(bodyOf(request)).toEqual(sent);
    expect(r.stdout.split('\n')[0]).toBe('Transactions (2)');
    const rows = table(r.stdout.split('\n').slice(1).join('\n'));
    expect(rows[0]).toEqual([
      'DATE',
      'DESCRIPTION',
      'CREDIT',
      'DEBIT',
      'BALANCE',
      'CATEGORY',
      'CONFIDENCE',
    ]);
    expect(rows.slice(1).map((row) => row.slice(0, 6))).toEqual([
      ['2026-03-25', 'SALARY LEAPFROG TECHNOLOGY MAR 2026', '72000', '', '145200', 'salary'],
      ['2026-03-26', 'EMI NABIL BANK HOME LOAN', '', '21000', '124200', 'loan_repayment'],
    ]);

    // The same transactions from stdin, as JSON: the reply as received.
    await world.reset();
    const json = await world.svc(['enrich', '--file', '-', '--json'], {
      input: JSON.stringify(sent.transactions),
    });
    const again = await only();
    expect(bodyOf(again)).toEqual(sent);
    // The mock gives each transaction back as sent, its keys in their order: the same body, sent
    // here.
    expectAsReceived(json, await raw('POST', '/v1/enrich', undefined, bodyOf(again)));
  });
});

describe('checks made before any request (exit 2)', () => {
  it('each command refuses a bad id, number, date, choice, file or a missing token, and sends nothing', async () => {
    const bad = file(
      'bad.csv',
      'date,description,credit,debit,balance\n2026-02-30,SALARY,72000,,145200\n',
    );
    const runs: string[][] = [
      ['reports', 'transactions', COMPLETE, '--limit', '1001'],
      ['reports', 'income', '../usage'],
      ['reports', 'balance', 'a b'],
      ['reports', 'liabilities', ''],
      ['reports', 'score', '..'],
      ['reports', 'verify', 'a?b'],
      [
        'reports',
        'underwrite',
        COMPLETE,
        '--principal',
        '0',
        '--tenor-months',
        '36',
        '--annual-rate',
        '12.5',
      ],
      ['enrich', '--file', bad],
      ['consents', 'create', COMPLETE, '--scopes', 'identity,balance'],
      ['consents', 'list', 'extra'],
      ['consents', 'revoke', 'cns_1/revoke'],
      ['consents', 'data', 'cns_0123456789abcdef'],
      ['connect', 'exchange', ' '],
      ['grants', 'data', 'grt_0123456789abcdef'],
      ['decisions', 'record', '--client-reference-id', 'loan-1', '--decision', 'approve'],
      ['decisions', 'list', '--limit', '201'],
      ['decisions', 'outcome', '--client-reference-id', 'loan-1', '--outcome', 'paid'],
    ];
    const results = await Promise.all(runs.map((args) => world.svc(args)));
    results.forEach((r, i) => {
      expect(r.code, `svc ${runs[i]!.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: /);
    });
    expect(await world.requests()).toEqual([]);
  });
});

describe('what the mock refuses', () => {
  it("another organisation's report is not found (exit 5) by every view", async () => {
    const runs = [
      ['reports', 'transactions', OTHER_ORG],
      ...['income', 'balance', 'liabilities', 'score', 'verify'].map((view) => [
        'reports',
        view,
        OTHER_ORG,
      ]),
      ['reports', 'underwrite', OTHER_ORG, ...LOAN],
    ];
    const results = await Promise.all(runs.map((args) => world.svc(args)));
    for (const r of results) expectFailure(r, 5, 'REPORT_NOT_FOUND');
    const requests = await world.requests();
    expect(requests.map((r) => r.status)).toEqual(runs.map(() => 404));
    expect(requests.map((r) => r.path).sort()).toEqual(
      ['transactions', 'income', 'balance', 'liabilities', 'score', 'verify', 'underwriting']
        .map((view) => `/v1/reports/${OTHER_ORG}/${view}`)
        .sort(),
    );
  });

  it('a READ_ONLY key reads the views but may not enrich, share, exchange, underwrite or decide (exit 4)', async () => {
    const env = { SVC_API_KEY: world.key(0, 'test', 'READ_ONLY').key };
    const refused = [
      ['reports', 'underwrite', COMPLETE, ...LOAN],
      ['enrich', '--file', file('one.csv', CSV)],
      ['consents', 'create', COMPLETE, '--scopes', 'identity'],
      ['consents', 'list'],
      ['consents', 'revoke', 'cns_0123456789abcdef'],
      ['connect', 'exchange', 'cpt_0123456789abcdef0123456789abcdef'],
      ['decisions', 'record', '--client-reference-id', 'loan-ro', '--decision', 'review'],
      ['decisions', 'list'],
      ['decisions', 'outcome', '--client-reference-id', 'loan-ro', '--outcome', 'repaid'],
    ];
    const [score, ...results] = await Promise.all([
      world.svc(['reports', 'score', COMPLETE], { env }),
      ...refused.map((args) => world.svc(args, { env })),
    ]);
    expect(score.code, score.stderr).toBe(0);
    results.forEach((r, i) => {
      expect(r.code, `svc ${refused[i]!.join(' ')}`).toBe(4);
      expectFailure(r, 4, 'INSUFFICIENT_SCOPE');
    });
    expect((await world.requests()).filter((r) => r.status === 403)).toHaveLength(refused.length);
  });
});

describe('consents: shared with a token, read with it alone, revoked', () => {
  it('create prints the token once, list never; data reads with the token alone; revoke closes it', async () => {
    // create: the token on stdout, a warning on stderr, and the token nowhere in the --debug trace.
    const created = await world.svc([
      'consents',
      'create',
      COMPLETE,
      '--scopes',
      'identity,income,identity',
      '--grantee-label',
      'Nabil Bank loan desk',
      '--expires-in-days',
      '7',
      '--debug',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const request = await only();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/consents', query: {} });
    expect(bodyOf(request)).toEqual({
      report_id: COMPLETE,
      scopes: ['identity', 'income'],
      grantee_label: 'Nabil Bank loan desk',
      expires_in_days: 7,
    });
    const id = field(created.stdout, 'id')!;
    const token = field(created.stdout, 'token')!;
    expect(id).toMatch(/^cns_[0-9a-f]{16}$/);
    expect(token).toMatch(/^cst_[0-9a-f]{32}$/);
    expect(field(created.stdout, 'data_url')).toBe(
      `${world.mock.url}/v1/consents/${id}/data?token=${token}`,
    );
    expect(field(created.stdout, 'scopes')).toBe('identity, income');
    expect(created.stderr).toMatch(/^debug: → POST /m);
    expect(created.stderr).toMatch(
      /^warning: this token gives whoever holds it the report's data \(identity, income\).*shown this once/m,
    );
    expect(created.stderr).not.toContain(token);
    expect(created.stderr).not.toContain(token.slice(4, 20));

    // --json: the reply as received (its keys in the documented order), the warning still on
    // stderr.
    const second = await world.svc([
      'consents',
      'create',
      COMPLETE,
      '--scopes',
      'verify',
      '--json',
    ]);
    expect(second.code, second.stderr).toBe(0);
    const made = JSON.parse(second.stdout) as Record<string, unknown>;
    expect(second.stdout).toBe(JSON.stringify(made, null, 2) + '\n');
    expect(Object.keys(made)).toEqual(['id', 'token', 'data_url', 'scopes', 'expires_at']);
    expect(made.data_url).toBe(
      `${world.mock.url}/v1/consents/${String(made.id)}/data?token=${String(made.token)}`,
    );
    expect(second.stderr).toMatch(
      /^warning: this token gives whoever holds it the report's data \(verify\)/,
    );

    // list: both consents, active, and never a token; read a second time, as received.
    await world.reset();
    const listed = await world.svc(['consents', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(await only()).toMatchObject({
      method: 'GET',
      path: '/v1/consents',
      query: {},
      body: null,
    });
    const [header = [], ...rows] = table(listed.stdout);
    const row = rows.find((cells) => cells.includes(id))!;
    expect(row[header.indexOf('STATUS')]).toBe('active');
    expect(row[header.indexOf('GRANTEE LABEL')]).toBe('Nabil Bank loan desk');
    expect(row[header.indexOf('SCOPES')]).toBe('identity, income');
    expect(listed.stdout).not.toContain(token);
    expect(listed.stdout).not.toContain(made.token);
    const listedJson = await world.svc(['consents', 'list', '--json']);
    expectAsReceived(listedJson, await raw('GET', '/v1/consents'));
    const records = JSON.parse(listedJson.stdout).data as Array<Record<string, unknown>>;
    expect(records.find((r) => r.id === made.id)).toMatchObject({
      report_id: COMPLETE,
      scopes: ['verify'],
      expires_at: made.expires_at,
      status: 'active',
    });

    // data: the token in the query, no Authorization header though a key is configured, the token
    // masked in the trace.
    await world.reset();
    const data = await world.svc(['consents', 'data', id, '--debug'], {
      env: { SVC_CONSENT_TOKEN: token },
    });
    expect(data.code, data.stderr).toBe(0);
    const read = await only();
    // The mock's log masks the token as svc would: its last four characters.
    expect(read).toMatchObject({
      method: 'GET',
      path: `/v1/consents/${id}/data`,
      query: { token: `…${token.slice(-4)}` },
      body: null,
    });
    expect(read.headers.authorization).toBeUndefined();
    expect(data.stdout.split('\n').slice(0, 2)).toEqual([
      'FIELD\tVALUE',
      'scopes\tidentity, income',
    ]);
    expect(data.stdout).toMatch(/^Identity\nFIELD\tVALUE\n/m);
    expect(data.stdout).toMatch(/^account_holder\tRam Bahadur Shrestha$/m);
    expect(data.stdout).toMatch(/^Income\nFIELD\tVALUE\n/m);
    expect(data.stderr).toMatch(
      new RegExp(`^debug: ← 200 GET \\S+/v1/consents/${id}/data\\?token=…${token.slice(-4)} `, 'm'),
    );
    expect(data.stderr).not.toContain(token);

    // --json with no key and no config at all: only the base URL. The reply as received.
    const bare = await world.bare(['consents', 'data', id, '--token', token, '--json'], {
      env: { SVC_BASE_URL: world.mock.url },
    });
    expectAsReceived(bare, await raw('GET', `/v1/consents/${id}/data?token=${token}`, {}));

    // A wrong token: 401 INVALID_CONSENT_TOKEN, exit 3, and neither token in the error.
    const wrong = `${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`;
    const refused = await world.svc(['consents', 'data', id, '--token-stdin'], { input: wrong });
    expectFailure(refused, 3, 'INVALID_CONSENT_TOKEN');
    expect(refused.stderr).not.toContain(wrong);

    // revoke: the consent record, revoked; the token then opens nothing (403 consent_inactive, exit
    // 4).
    await world.reset();
    const revokedJson = await world.svc(['consents', 'revoke', id, '--json']);
    expect(revokedJson.code, revokedJson.stderr).toBe(0);
    expect(await only()).toMatchObject({
      method: 'POST',
      path: `/v1/consents/${id}/revoke`,
      query: {},
      body: null,
    });
    const record = JSON.parse(revokedJson.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({
      id,
      status: 'revoked',
      report_id: COMPLETE,
      scopes: ['identity', 'income'],
    });
    // Revoking again changes nothing: the same record, as a table, its state first.
    const revoked = await world.svc(['consents', 'revoke', id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout.split('\n').slice(0, 3)).toEqual([
      'FIELD\tVALUE',
      'status\trevoked',
      `id\t${id}`,
    ]);
    // A table gives the time in the local zone (UTC here), to the minute.
    const revokedAt = String(record.revoked_at);
    expect(field(revoked.stdout, 'revoked_at')).toBe(
      `${revokedAt.slice(0, 10)} ${revokedAt.slice(11, 16)} UTC`,
    );
    const closed = await world.svc(['consents', 'data', id, '--debug'], {
      env: { SVC_CONSENT_TOKEN: token },
    });
    expectFailure(closed, 4, 'consent_inactive');
    expect(closed.stderr).not.toContain(token);
  });
});

describe('a Connect flow: request, approval, exchange, the grant read', () => {
  /**
   * A flow started with svc and approved as the end user's browser would (without one): its public
   * token.
   */
  async function approvedFlow(): Promise<string> {
    const started = await world.svc([
      'connect',
      '--scopes',
      'identity',
      '--redirect-uri',
      'http://127.0.0.1:9/cb',
      '--json',
    ]);
    expect(started.code, started.stderr).toBe(0);
    const page = (await (await fetch(JSON.parse(started.stdout).connect_url)).json()) as {
      approve_url: string;
    };
    // The approval answers 303 to the redirect address, the public token in its query (and its
    // body).
    const approval = await fetch(page.approve_url, { method: 'POST', redirect: 'manual' });
    expect(approval.status).toBe(303);
    const publicToken = new URL(approval.headers.get('location')!).searchParams.get(
      'public_token',
    )!;
    expect(await approval.json()).toMatchObject({ public_token: publicToken });
    expect(publicToken).toMatch(/^cpt_[0-9a-f]{32}$/);
    return publicToken;
  }

  it('exchanges the public token once and reads the grant with the access token in a header only', async () => {
    const publicToken = await approvedFlow();
    await world.reset();
    const exchanged = await world.svc(['connect', 'exchange', publicToken, '--debug']);
    expect(exchanged.code, exchanged.stderr).toBe(0);
    const request = await only();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/connect/exchange', query: {} });
    expect(bodyOf(request)).toEqual({ public_token: publicToken });
    const grant = field(exchanged.stdout, 'grant_id')!;
    const accessToken = field(exchanged.stdout, 'access_token')!;
    expect(grant).toMatch(/^grt_[0-9a-f]{16}$/);
    expect(accessToken).toMatch(/^cat_[0-9a-f]{32}$/);
    expect(field(exchanged.stdout, 'scopes')).toBe('identity');
    expect(exchanged.stderr).toMatch(/^warning: this access token .*shown this once/m);
    expect(exchanged.stderr).not.toContain(publicToken);
    expect(exchanged.stderr).not.toContain(accessToken);

    // Single use: the second exchange is refused (400 INVALID_PUBLIC_TOKEN, exit 6), the token
    // masked.
    const again = await world.svc(['connect', 'exchange', publicToken, '--debug']);
    expectFailure(again, 6, 'INVALID_PUBLIC_TOKEN');
    expect(again.stderr).not.toContain(publicToken);

    // grants data: SVC_ACCESS_TOKEN travels in X-Svc-Access-Token, never in the URL or the trace.
    await world.reset();
    const data = await world.svc(['grants', 'data', grant, '--debug'], {
      env: { SVC_ACCESS_TOKEN: accessToken },
    });
    expect(data.code, data.stderr).toBe(0);
    const read = await only();
    expect(read).toMatchObject({
      method: 'GET',
      path: `/v1/grants/${grant}/data`,
      query: {},
      body: null,
    });
    // The mock's log keeps the last four characters of a secret header.
    expect(read.headers['x-svc-access-token']).toBe(`…${accessToken.slice(-4)}`);
    expect(read.headers.authorization).toBe(`Bearer svc_sk_test_…${world.key().key.slice(-4)}`);
    expect(data.stdout).toMatch(/^scopes\tidentity$/m);
    expect(data.stdout).toMatch(/^account_holder\tRam Bahadur Shrestha$/m);
    expect(data.stderr).toMatch(/^debug: → GET \S+\/v1\/grants\/grt_[0-9a-f]{16}\/data key=/m);
    expect(data.stderr).not.toContain(accessToken);

    // --json, read with a READ_ONLY key of the organisation: the reply as received.
    const readOnly = world.key(0, 'test', 'READ_ONLY').key;
    const json = await world.svc(['grants', 'data', grant, '--json'], {
      env: { SVC_ACCESS_TOKEN: accessToken, SVC_API_KEY: readOnly },
    });
    expectAsReceived(
      json,
      await raw('GET', `/v1/grants/${grant}/data`, {
        authorization: `Bearer ${readOnly}`,
        'x-svc-access-token': accessToken,
      }),
    );

    // A wrong access token: 401 INVALID_ACCESS_TOKEN, exit 3, the token given masked.
    const wrong = `cat_${'0'.repeat(32)}`;
    const refused = await world.svc(['grants', 'data', grant], {
      env: { SVC_ACCESS_TOKEN: wrong },
    });
    expectFailure(refused, 3, 'INVALID_ACCESS_TOKEN');
    expect(refused.stderr).not.toContain(wrong);
  });

  it('exchange --json: the reply as received, its access token reading its grant', async () => {
    const publicToken = await approvedFlow();
    const exchanged = await world.svc(['connect', 'exchange', publicToken, '--json']);
    expect(exchanged.code, exchanged.stderr).toBe(0);
    const grant = JSON.parse(exchanged.stdout) as {
      access_token: string;
      grant_id: string;
      scopes: string[];
    };
    expect(exchanged.stdout).toBe(JSON.stringify(grant, null, 2) + '\n');
    expect(Object.keys(grant)).toEqual(['access_token', 'grant_id', 'scopes']);
    expect(grant.scopes).toEqual(['identity']);
    expect(exchanged.stderr).toMatch(/^warning: this access token /);
    expect(exchanged.stderr).not.toContain(grant.access_token);
    // A second read: the grant's data opens with that token.
    const data = JSON.parse(
      await raw('GET', `/v1/grants/${grant.grant_id}/data`, {
        authorization: `Bearer ${world.key().key}`,
        'x-svc-access-token': grant.access_token,
      }),
    );
    expect(data.scopes).toEqual(grant.scopes);
  });
});

describe("a lender's day", () => {
  it('sandbox report → income → score → underwrite → decision → outcome → the decisions listed', async () => {
    const created = await world.svc(['sandbox', 'create', '--scenario', 'salaried', '--quiet']);
    expect(created.code, created.stderr).toBe(0);
    const report = created.stdout.trim();
    expect(report).toMatch(/^rpt_[0-9a-f]{16}$/);

    const income = await world.svc(['reports', 'income', report]);
    expect(income.code, income.stderr).toBe(0);
    expect(field(income.stdout, 'salary_detected')).toBe('yes');
    expect(field(income.stdout, 'salary_regularity')).toBe('monthly');

    const score = await world.svc(['reports', 'score', report, '--json']);
    expect(score.code, score.stderr).toBe(0);
    const { score: points, band } = JSON.parse(score.stdout) as { score: number; band: string };
    expect(points).toBeGreaterThanOrEqual(0);
    expect(points).toBeLessThanOrEqual(1000);

    const underwriting = await world.svc([
      'reports',
      'underwrite',
      report,
      '--principal',
      '300000',
      '--tenor-months',
      '24',
      '--annual-rate',
      '11',
      '--json',
    ]);
    expect(underwriting.code, underwriting.stderr).toBe(0);
    const assessed = JSON.parse(underwriting.stdout) as {
      verdict: string;
      score: { score: number; band: string };
    };
    expect(assessed.score).toMatchObject({ score: points, band });
    const decision = (
      { approve: 'approved', review: 'review', decline: 'declined' } as Record<string, string>
    )[assessed.verdict]!;
    expect(decision).toBeDefined();

    await world.reset();
    const recorded = await world.svc([
      'decisions',
      'record',
      '--client-reference-id',
      'loan-e2e-1001',
      '--decision',
      decision,
      '--report-id',
      report,
      '--rationale',
      `verdict ${assessed.verdict}, score ${points}`,
      '--amount',
      '300000',
      '--json',
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const request = await only();
    expect(request).toMatchObject({ method: 'POST', path: '/v1/decisions', query: {} });
    expect(bodyOf(request)).toEqual({
      client_reference_id: 'loan-e2e-1001',
      decision,
      report_id: report,
      decision_rationale: `verdict ${assessed.verdict}, score ${points}`,
      amount: 300000,
    });
    const record = JSON.parse(recorded.stdout) as { id: string; outcome: unknown };
    expect(record).toMatchObject({
      client_reference_id: 'loan-e2e-1001',
      decision,
      report_id: report,
      amount: 300000,
      outcome: null,
    });

    await world.reset();
    const outcome = await world.svc([
      'decisions',
      'outcome',
      '--client-reference-id',
      'loan-e2e-1001',
      '--outcome',
      'delinquent',
      '--detail',
      '90+ DPD',
    ]);
    expect(outcome.code, outcome.stderr).toBe(0);
    const posted = await only();
    expect(posted).toMatchObject({ method: 'POST', path: '/v1/outcomes', query: {} });
    expect(bodyOf(posted)).toEqual({
      client_reference_id: 'loan-e2e-1001',
      outcome: 'delinquent',
      detail: '90+ DPD',
    });
    expect(outcome.stdout.split('\n').slice(0, 2)).toEqual(['FIELD\tVALUE', 'outcome\tdelinquent']);
    expect(field(outcome.stdout, 'decision_id')).toBe(record.id);
    expect(field(outcome.stdout, 'detail')).toBe('90+ DPD');

    // The list: the decision with its outcome, as a table and as received.
    await world.reset();
    const listed = await world.svc([
      'decisions',
      'list',
      '--outcome',
      'delinquent',
      '--limit',
      '5',
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(await only()).toMatchObject({
      method: 'GET',
      path: '/v1/decisions',
      query: { outcome: 'delinquent', limit: '5' },
      body: null,
    });
    // The decisions alone on stdout, one table; the reply's other fields (the mock's has_more) on
    // stderr.
    expect(listed.stderr).toBe('has_more: no\n');
    expect(listed.stdout).not.toContain('\n\n');
    const [header = [], ...rows] = table(listed.stdout);
    expect(header.slice(0, 3)).toEqual(['DECISION', 'OUTCOME', 'ID']);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(0, 3)).toEqual([decision, 'delinquent', record.id]);
    expect(rows[0]![header.indexOf('OUTCOME DETAIL')]).toBe('90+ DPD');
    const json = await world.svc([
      'decisions',
      'list',
      '--outcome',
      'delinquent',
      '--limit',
      '5',
      '--json',
    ]);
    expectAsReceived(json, await raw('GET', '/v1/decisions?outcome=delinquent&limit=5'));
    expect(JSON.parse(json.stdout).data[0]).toEqual({
      ...record,
      outcome: 'delinquent',
      outcome_detail: '90+ DPD',
      outcome_recorded_at: expect.any(String),
    });

    // One decision per application: a second one is refused (409 DECISION_EXISTS, exit 6).
    const twice = await world.svc([
      'decisions',
      'record',
      '--client-reference-id',
      'loan-e2e-1001',
      '--decision',
      'declined',
    ]);
    expectFailure(twice, 6, 'DECISION_EXISTS');

    // Another application, its decision as a table and its outcome as received (read a second time
    // from the list).
    const table2 = await world.svc([
      'decisions',
      'record',
      '--client-reference-id',
      'loan-e2e-1002',
      '--decision',
      'review',
    ]);
    expect(table2.code, table2.stderr).toBe(0);
    expect(table2.stdout.split('\n').slice(0, 3)).toEqual([
      'FIELD\tVALUE',
      'decision\treview',
      'outcome\t',
    ]);
    expect(field(table2.stdout, 'client_reference_id')).toBe('loan-e2e-1002');
    expect(field(table2.stdout, 'report_id')).toBe('');
    const repaid = await world.svc([
      'decisions',
      'outcome',
      '--client-reference-id',
      'loan-e2e-1002',
      '--outcome',
      'repaid',
      '--json',
    ]);
    expect(repaid.code, repaid.stderr).toBe(0);
    const out = JSON.parse(repaid.stdout) as {
      decision_id: string;
      detail: unknown;
      recorded_at: string;
    };
    expect(repaid.stdout).toBe(JSON.stringify(out, null, 2) + '\n');
    expect(out).toMatchObject({
      client_reference_id: 'loan-e2e-1002',
      outcome: 'repaid',
      detail: null,
      decision_id: field(table2.stdout, 'id'),
    });
    const [later] = JSON.parse(await raw('GET', '/v1/decisions?outcome=repaid')).data as Array<
      Record<string, unknown>
    >;
    expect(later).toMatchObject({
      id: out.decision_id,
      outcome: 'repaid',
      outcome_detail: null,
      outcome_recorded_at: out.recorded_at,
    });
  });
});
