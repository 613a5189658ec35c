// The lending commands in-process, as a person at a terminal and as a script: `reports
// transactions|income|balance|liabilities|score|verify|underwrite`, `enrich`, `consents
// create|list|revoke|data`, `connect exchange`, `grants data` and `decisions record|list|outcome`.
// The request each sends, --json as received, the table for each (boxed for a person, tab-separated
// for a script), -o csv and -o ndjson where a command has records, the checks made before any
// request, replies of a shape the command does not expect, and tokens kept out of traces and
// errors. Replies are the documented samples (test/fixtures/documented/) where the documents show
// one, and the mock's own shapes where they say "not shown".
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { envelope, expectRefused } from '../support/errors.js';
import { documented } from '../support/fixtures.js';
import {
  ANSI,
  BOX,
  expectFailure,
  type FakeReply,
  FakeService,
  type InProcessResult,
  KEY,
  MODES,
  plain,
  scratchDir,
  type SeenRequest,
  svc,
  unwrapped,
  UUID,
} from '../support/in-process.js';
import { jsonLines } from '../support/json-lines.js';

const ID = 'rpt_9f2c41d07ab35e18';
const CONSENT_ID = 'cns_4b1d2e9a0c3f5e71';
const GRANT_ID = 'grt_7c3e91a0d2b45f68';
const TOKEN = 'cst_5e1f0c2d9a8b7e6f5e1f0c2d9a8b7e6f';
const ACCESS_TOKEN = 'cat_0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const PUBLIC_TOKEN = 'cpt_9f8e7d6c5b4a39281706f5e4d3c2b1a0';

// Documented replies (the service's documentation), placeholders filled where a test reads them.
const TRANSACTIONS = documented('transactions');
const INCOME = documented('income');
const BALANCE = documented('balance');
const LIABILITIES = documented('liabilities');
const SCORE = {
  ...documented('score'),
  band: 'good',
  factors: [
    ...documented('score').factors,
    { factor: 'salary', impact: 80, detail: 'Salary detected, monthly.' },
  ],
};
const VERIFY = {
  ...documented('verify'),
  checks: [
    ...documented('verify').checks,
    { check: 'dates_within_period', passed: false, severity: 'medium' },
  ],
};
const ENRICH = documented('enrich');
const IDENTITY = documented('identity');
const CONSENT = {
  ...documented('consent-create'),
  id: CONSENT_ID,
  token: TOKEN,
  data_url: `https://svc.test/v1/consents/${CONSENT_ID}/data?token=${TOKEN}`,
};
const CONSENT_DATA = {
  ...documented('consent-data'),
  data: { identity: IDENTITY, income: INCOME },
};
const EXCHANGE = {
  ...documented('connect-exchange'),
  access_token: ACCESS_TOKEN,
  grant_id: GRANT_ID,
};
const GRANT_DATA = { ...documented('grant-data'), data: { identity: IDENTITY } };

// Replies whose shape the documents leave "not shown": the mock's (src/mock/fixtures/README.md).
const UNDERWRITING = {
  report_id: ID,
  currency: 'NPR',
  verdict: 'review',
  reasons: ['The EMI fits the FOIR ceiling but leaves little after living costs.'],
  loan: { principal: 500000, tenor_months: 36, annual_rate_pct: 12.5, emi: 16726.81 },
  foir: { ceiling: 0.5, current: 0.34, with_loan: 0.47 },
  affordability: { status: 'stretched', headroom: 3303.32 },
  risk_flags: ['short_history'],
};
const CONSENT_RECORD = {
  id: CONSENT_ID,
  report_id: ID,
  scopes: ['identity', 'income'],
  grantee_label: 'Nabil Bank loan desk',
  status: 'active',
  created_at: '2026-05-20T08:30:00Z',
  expires_at: '2026-06-19T08:30:00Z',
  revoked_at: null,
  reads: 2,
  last_read_at: '2026-05-21T09:00:00Z',
};
const CONSENTS = { data: [CONSENT_RECORD] };
const REVOKED = { ...CONSENT_RECORD, status: 'revoked', revoked_at: '2026-05-22T10:00:00Z' };
const DECISION = {
  id: 'dec_1290c180a87fc690',
  client_reference_id: 'loan-1001',
  decision: 'approved',
  report_id: ID,
  decision_rationale: 'FOIR 32%, steady salary',
  amount: 250000,
  created_at: '2026-05-22T10:00:00Z',
  outcome: null,
  outcome_detail: null,
  outcome_recorded_at: null,
};
const DECISIONS = {
  data: [
    {
      ...DECISION,
      outcome: 'delinquent',
      outcome_detail: '90+ DPD',
      outcome_recorded_at: '2026-05-22T11:00:00Z',
    },
  ],
  has_more: false,
};
const OUTCOME = {
  id: 'out_9cc8b1e29732e12a',
  client_reference_id: 'loan-1001',
  decision_id: DECISION.id,
  outcome: 'delinquent',
  detail: '90+ DPD',
  recorded_at: '2026-05-22T11:00:00Z',
};

const ENRICH_CSV =
  'date,description,credit,debit,balance\n2026-03-25,SALARY LEAPFROG MAR 2026,72000,,145200\n2026-03-26,EMI NABIL BANK HOME LOAN,,21000,124200\n';
const ENRICH_SENT = {
  transactions: [
    { date: '2026-03-25', description: 'SALARY LEAPFROG MAR 2026', credit: 72000, balance: 145200 },
    { date: '2026-03-26', description: 'EMI NABIL BANK HOME LOAN', debit: 21000, balance: 124200 },
  ],
};

const BLANKS = /undefined|null|NaN|\[object Object\]/;

interface Command {
  name: string;
  argv: string[];
  method: 'GET' | 'POST';
  path: string;
  /** The query, exactly (svc writes its parameters in name order). */
  query?: Record<string, string>;
  /** The JSON body sent; undefined: none. */
  sent?: unknown;
  reply: unknown;
  stdin?: string;
  env?: Record<string, string | undefined>;
  /** The command hands a secret over: a warning on stderr with the reply. */
  handsOver?: boolean;
}

const LOAN = ['--principal', '500000', '--tenor-months', '36', '--annual-rate', '12.5'];

/**
 * Every command of this file, with the request it sends and a reply of its documented (or mock)
 * shape.
 */
const COMMANDS: Command[] = [
  {
    name: 'reports transactions',
    argv: [
      'reports',
      'transactions',
      ID,
      '--category',
      'salary',
      '--merchant-category',
      'dining',
      '--direction',
      'credit',
      '--since',
      '2026-01-01',
      '--until',
      '2026-03-31',
      '--limit',
      '100',
    ],
    method: 'GET',
    path: `/v1/reports/${ID}/transactions`,
    query: {
      category: 'salary',
      merchant_category: 'dining',
      direction: 'credit',
      since: '2026-01-01',
      until: '2026-03-31',
      limit: '100',
    },
    reply: TRANSACTIONS,
  },
  {
    name: 'reports income',
    argv: ['reports', 'income', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/income`,
    reply: INCOME,
  },
  {
    name: 'reports balance',
    argv: ['reports', 'balance', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/balance`,
    reply: BALANCE,
  },
  {
    name: 'reports liabilities',
    argv: ['reports', 'liabilities', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/liabilities`,
    reply: LIABILITIES,
  },
  {
    name: 'reports score',
    argv: ['reports', 'score', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/score`,
    reply: SCORE,
  },
  {
    name: 'reports verify',
    argv: ['reports', 'verify', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/verify`,
    reply: VERIFY,
  },
  {
    name: 'reports underwrite',
    argv: [
      'reports',
      'underwrite',
      ID,
      ...LOAN,
      '--applicant-name',
      'Ram Prasad Sharma',
      '--foir-ceiling',
      '0.4',
    ],
    method: 'POST',
    path: `/v1/reports/${ID}/underwriting`,
    sent: {
      applicant_name: 'Ram Prasad Sharma',
      foir_ceiling: 0.4,
      loan: { principal: 500000, tenor_months: 36, annual_rate_pct: 12.5 },
    },
    reply: UNDERWRITING,
  },
  {
    name: 'enrich',
    argv: ['enrich', '--file', '-'],
    method: 'POST',
    path: '/v1/enrich',
    sent: ENRICH_SENT,
    reply: ENRICH,
    stdin: ENRICH_CSV,
  },
  {
    name: 'consents create',
    argv: [
      'consents',
      'create',
      ID,
      '--scopes',
      'identity,income',
      '--grantee-label',
      'Nabil Bank loan desk',
      '--expires-in-days',
      '30',
    ],
    method: 'POST',
    path: '/v1/consents',
    sent: {
      report_id: ID,
      scopes: ['identity', 'income'],
      grantee_label: 'Nabil Bank loan desk',
      expires_in_days: 30,
    },
    reply: CONSENT,
    handsOver: true,
  },
  {
    name: 'consents list',
    argv: ['consents', 'list'],
    method: 'GET',
    path: '/v1/consents',
    reply: CONSENTS,
  },
  {
    name: 'consents revoke',
    argv: ['consents', 'revoke', CONSENT_ID],
    method: 'POST',
    path: `/v1/consents/${CONSENT_ID}/revoke`,
    reply: REVOKED,
  },
  // The grantee's read: no key, no config but the base URL.
  {
    name: 'consents data',
    argv: ['consents', 'data', CONSENT_ID],
    method: 'GET',
    path: `/v1/consents/${CONSENT_ID}/data`,
    query: { token: TOKEN },
    reply: CONSENT_DATA,
    env: { SVC_API_KEY: undefined, SVC_CONSENT_TOKEN: TOKEN },
  },
  {
    name: 'connect exchange',
    argv: ['connect', 'exchange', PUBLIC_TOKEN],
    method: 'POST',
    path: '/v1/connect/exchange',
    sent: { public_token: PUBLIC_TOKEN },
    reply: EXCHANGE,
    handsOver: true,
  },
  {
    name: 'grants data',
    argv: ['grants', 'data', GRANT_ID],
    method: 'GET',
    path: `/v1/grants/${GRANT_ID}/data`,
    reply: GRANT_DATA,
    env: { SVC_ACCESS_TOKEN: ACCESS_TOKEN },
  },
  {
    name: 'decisions record',
    argv: [
      'decisions',
      'record',
      '--client-reference-id',
      'loan-1001',
      '--decision',
      'approved',
      '--report-id',
      ID,
      '--rationale',
      'FOIR 32%, steady salary',
      '--amount',
      '250000',
    ],
    method: 'POST',
    path: '/v1/decisions',
    sent: {
      client_reference_id: 'loan-1001',
      decision: 'approved',
      report_id: ID,
      decision_rationale: 'FOIR 32%, steady salary',
      amount: 250000,
    },
    reply: DECISION,
  },
  {
    name: 'decisions list',
    argv: ['decisions', 'list', '--outcome', 'delinquent', '--limit', '20'],
    method: 'GET',
    path: '/v1/decisions',
    query: { outcome: 'delinquent', limit: '20' },
    reply: DECISIONS,
  },
  {
    name: 'decisions outcome',
    argv: [
      'decisions',
      'outcome',
      '--client-reference-id',
      'loan-1001',
      '--outcome',
      'delinquent',
      '--detail',
      '90+ DPD',
    ],
    method: 'POST',
    path: '/v1/outcomes',
    sent: { client_reference_id: 'loan-1001', outcome: 'delinquent', detail: '90+ DPD' },
    reply: OUTCOME,
  },
];

const command = (name: string) => COMMANDS.find((c) => c.name === name)!;

/** The query of a request, by name; a name given twice is kept twice. */
const queryOf = (request: SeenRequest) =>
  [...request.url.searchParams].sort(([a], [b]) => (a < b ? -1 : 1));
const expectedQuery = (c: Command) =>
  Object.entries(c.query ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));

/** The request of a command: its path, and its query in any order. */
const requestOf = (c: Command) => (request: SeenRequest) =>
  request.url.pathname === c.path &&
  JSON.stringify(queryOf(request)) === JSON.stringify(expectedQuery(c));

/** A terminal wide enough for every boxed table of this file. */
const WIDE = 160;

/** Runs a command of the table with a reply of its own (the documented one by default). */
function run(
  c: Command,
  options: {
    tty?: boolean;
    reply?: FakeReply;
    argv?: string[];
    env?: Record<string, string | undefined>;
    stdin?: string;
    columns?: number;
  } = {},
): Promise<InProcessResult> {
  const service = new FakeService().expect(
    c.method,
    requestOf(c),
    options.reply ?? { body: c.reply },
  );
  return svc(options.argv ?? c.argv, {
    tty: options.tty,
    service,
    env: { ...c.env, ...options.env },
    stdin: options.stdin ?? c.stdin,
    columns: options.columns ?? WIDE,
  });
}

const lines = (...text: string[]) => text.join('\n') + '\n';

describe('every command', () => {
  describe.each(COMMANDS)('svc $name', (c) => {
    it('sends exactly its request', async () => {
      const { code, requests, stderr } = await run(c, { argv: [...c.argv, '--json'] });
      expect(code, stderr).toBe(0);
      expect(requests).toHaveLength(1);
      const [request] = requests as [SeenRequest];
      expect(request.method).toBe(c.method);
      expect(request.url.pathname).toBe(c.path);
      expect(queryOf(request)).toEqual(expectedQuery(c));
      expect(request.url.origin).toBe('https://svc.test');
      expect(request.headers.accept).toBe('application/json');
      // The consent's grantee reads with the token alone: no Authorization header at all.
      if (c.name === 'consents data') expect(request.headers).not.toHaveProperty('authorization');
      else expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      // The grant's access token travels in its header only.
      if (c.name === 'grants data')
        expect(request.headers['x-svc-access-token']).toBe(ACCESS_TOKEN);
      else expect(request.headers).not.toHaveProperty('x-svc-access-token');
      expect(request.path).not.toContain(ACCESS_TOKEN);
      if (c.sent === undefined) {
        expect(request.body).toBeUndefined();
        expect(request.headers).not.toHaveProperty('content-type');
      } else {
        expect(request.json).toEqual(c.sent);
        expect(request.headers['content-type']).toBe('application/json');
      }
      if (c.method === 'POST') expect(request.headers['idempotency-key']).toMatch(UUID);
      else expect(request.headers).not.toHaveProperty('idempotency-key');
    });

    it.each(MODES)('--json prints the body exactly as received, for $mode', async ({ tty }) => {
      // Key order, number spelling and an unknown field are kept: the raw text is re-indented, not
      // re-made.
      const raw = JSON.stringify(c.reply).replace(
        /^\{/,
        '{"zeta_first":1.50,"big":12345678901234567890,',
      );
      const result = await run(c, { tty, argv: [...c.argv, '--json'], reply: { raw } });
      expect(result.code, result.stderr).toBe(0);
      expect(plain(result.stdout)).toMatch(
        /^\{\n {2}"zeta_first": 1\.50,\n {2}"big": 12345678901234567890,\n/,
      );
      expect(JSON.parse(plain(result.stdout))).toEqual(JSON.parse(raw));
      // Coloured as gh colours JSON on a terminal, never in a pipe.
      if (tty) expect(result.stdout).toMatch(ANSI);
      else expect(result.stdout).not.toMatch(ANSI);
      // A secret handed over is shown this once, with a warning on stderr; nothing else is written
      // there.
      if (c.handsOver) expect(result.stderr).toMatch(/^warning: .*shown this once/);
      else expect(result.stderr).toBe('');
      const same = await run(c, { tty, argv: [...c.argv, '-o', 'json'], reply: { raw } });
      expect(same.stdout).toBe(result.stdout);
    });

    it.each(MODES)(
      'a table for $mode: colour and boxes for a person, tab-separated lines for a script, never a blank word',
      async ({ tty }) => {
        const result = await run(c, { tty });
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).not.toBe('');
        expect(plain(result.stdout)).not.toMatch(BLANKS);
        if (tty) {
          expect(result.stdout).toMatch(ANSI);
        } else {
          expect(result.stdout).not.toMatch(ANSI);
          expect(result.stdout).not.toMatch(BOX);
        }
        const noColour = await run(c, { tty, env: { NO_COLOR: '1' } });
        expect(noColour.stdout).not.toMatch(ANSI);
      },
    );

    it('a body that is not JSON is an unexpected reply (exit 10)', async () => {
      const result = await run(c, {
        reply: { raw: '<html>maintenance</html>', headers: { 'content-type': 'text/html' } },
      });
      expectFailure(
        result,
        10,
        /^error: (GET|POST) \/v1\/\S+ answered 200 with a body that is not JSON: "<html>maintenance<\/html>"$/,
      );
    });

    it.each(MODES)('403 is exit 4 and 404 exit 5, for $mode', async ({ tty }) => {
      const forbidden = await run(c, {
        tty,
        reply: {
          status: 403,
          body: envelope(
            'PERMISSION_ERROR',
            'INSUFFICIENT_SCOPE',
            'This operation needs an API key with the FULL scope.',
          ),
        },
      });
      expectFailure(
        forbidden,
        4,
        'error: INSUFFICIENT_SCOPE: This operation needs an API key with the FULL scope.',
      );
      const missing = await run(c, {
        tty,
        reply: {
          status: 404,
          body: envelope(
            'INVALID_REQUEST_ERROR',
            'REPORT_NOT_FOUND',
            `No report with id '${ID}' exists for this organization.`,
          ),
        },
      });
      expectFailure(
        missing,
        5,
        `error: REPORT_NOT_FOUND: No report with id '${ID}' exists for this organization.`,
      );
    });
  });
});

describe('the tables of the report views', () => {
  it('transactions: for a script, one header line and a line per transaction', async () => {
    const result = await run(command('reports transactions'));
    expect(result.stdout).toBe(
      lines(
        'DATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY\tID\tCONFIDENCE',
        '2026-03-25\tSALARY …\t\t72000\t145200\tsalary\ttxn_0001\t0.95',
      ),
    );
  });

  it('transactions: for a person, a titled boxed table of the default columns, the count (the reply counts 12) and the filters under it; -o wide every column', async () => {
    const service = new FakeService().expect(
      'GET',
      `/v1/reports/${ID}/transactions?direction=credit`,
      { body: TRANSACTIONS },
    );
    const person = await svc(['reports', 'transactions', ID, '--direction', 'credit'], {
      tty: true,
      service,
      columns: 120,
    });
    expect(person.code, person.stderr).toBe(0);
    const screen = plain(person.stdout).split('\n');
    expect(screen[0]).toBe(`Transactions of ${ID}`);
    expect(screen).toContainEqual(
      expect.stringMatching(
        /^│ DATE +│ DESCRIPTION +│ DEBIT \(NPR\) │ CREDIT \(NPR\) │ BALANCE \(NPR\) │$/,
      ),
    );
    expect(screen).toContainEqual(
      expect.stringMatching(/^│ 2026-03-25 │ SALARY … +│ +│ +72,000\.00 │ +1,45,200\.00 │$/),
    );
    expect(screen.slice(-3)).toEqual([
      '1 transaction shown; the reply counts 12.',
      'Filters: credits only.',
      '',
    ]);
    expect(person.stdout).toContain('\u001b[1m\u001b[36mDATE\u001b[39m\u001b[22m');
    const again = new FakeService().expect(
      'GET',
      `/v1/reports/${ID}/transactions?direction=credit`,
      { body: TRANSACTIONS },
    );
    const wide = await svc(['reports', 'transactions', ID, '--direction', 'credit', '-o', 'wide'], {
      tty: true,
      service: again,
      columns: 120,
    });
    expect(wide.code, wide.stderr).toBe(0);
    const all = plain(wide.stdout).split('\n');
    expect(all).toContainEqual(
      expect.stringMatching(
        /^│ DATE +│ DESCRIPTION +│ DEBIT \(NPR\) │ CREDIT \(NPR\) │ BALANCE \(NPR\) │ CATEGORY │ ID +│ CONFIDENCE │$/,
      ),
    );
    expect(all).toContainEqual(
      expect.stringMatching(
        /^│ 2026-03-25 │ SALARY … +│ +│ +72,000\.00 │ +1,45,200\.00 │ salary +│ txn_0001 │ +95% │$/,
      ),
    );
  });

  it.each(MODES)(
    'transactions: -o csv and -o ndjson write one record per transaction, as received, for $mode',
    async ({ tty }) => {
      const c = command('reports transactions');
      const raw = JSON.stringify({
        count: 2,
        transactions: [
          ...TRANSACTIONS.transactions,
          {
            id: 'txn_0002',
            date: '2026-03-26',
            description: 'EMI, "NMB"',
            debit: 21000.5,
            credit: null,
            balance: 124200,
            category: 'loan_repayment',
            confidence: 0.9,
            tags: ['emi'],
          },
        ],
      });
      const csv = await run(c, { tty, argv: [...c.argv, '-o', 'csv'], reply: { raw } });
      expect(csv.code).toBe(0);
      expect(csv.stdout).toBe(
        'id,date,description,debit,credit,balance,category,confidence,tags\r\n' +
          'txn_0001,2026-03-25,SALARY …,,72000,145200,salary,0.95,\r\n' +
          'txn_0002,2026-03-26,"EMI, ""NMB""",21000.5,,124200,loan_repayment,0.9,emi\r\n',
      );
      const ndjson = await run(c, { tty, argv: [...c.argv, '-o', 'ndjson'], reply: { raw } });
      expect(jsonLines(ndjson.stdout)).toEqual(JSON.parse(raw).transactions);
      expect(ndjson.stdout).not.toMatch(ANSI);
    },
  );

  it('income: for a script, the facts as FIELD/VALUE, then the monthly credits and the income transactions', async () => {
    const result = await run(command('reports income'));
    expect(result.stdout).toBe(
      lines(
        'FIELD\tVALUE',
        'salary_detected\tyes',
        'salary_amount\t72000',
        'salary_regularity\tmonthly',
        'salary_day_of_month\t25',
        'income_stability_score\t87',
        'remittance_detected\tno',
        'avg_monthly_credit\t85000',
        '',
        'Monthly credits',
        'MONTH\tCREDITS',
        '2026-03\t85000',
        '',
        'Income transactions',
        'DATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY',
      ),
    );
  });

  it('income: for a person, a titled list of facts and a boxed table; no income transactions said in words', async () => {
    const result = await run(command('reports income'), { tty: true });
    const screen = plain(result.stdout);
    expect(screen.split('\n').slice(0, 8)).toEqual([
      `Income of ${ID}`,
      'Salary detected         yes',
      'Salary                  NPR 72,000.00',
      'Salary regularity       monthly',
      'Salary day              25th of the month',
      'Income stability        87 / 100',
      'Remittance              no',
      'Average monthly credit  NPR 85,000.00',
    ]);
    expect(screen).toMatch(
      /^Monthly credits\n┌─+┬─+┐\n│ MONTH +│ CREDITS \(NPR\) │\n├─+┼─+┤\n│ 2026-03 │ +85,000\.00 │\n└/m,
    );
    expect(screen).toMatch(/^Income transactions\nNo income transactions\.\n$/m);
    // The regularity in green: monthly is good news.
    expect(result.stdout).toContain('\u001b[32mmonthly\u001b[39m');
  });

  it('income --chart draws the monthly credits for a person, and is refused with --json (exit 2)', async () => {
    const body = {
      ...INCOME,
      monthly_credits: [
        { month: '2026-01', total_credits: 70000 },
        { month: '2026-02', total_credits: 90000 },
        { month: '2026-03', total_credits: 85000 },
      ],
    };
    const chart = await run(command('reports income'), {
      tty: true,
      argv: ['reports', 'income', ID, '--chart'],
      reply: { body },
    });
    expect(chart.code, chart.stderr).toBe(0);
    expect(plain(chart.stdout).split('\n')[0]).toBe(
      `Monthly credits of ${ID} · 2026-01 to 2026-03`,
    );
    // With --json, the error is a JSON line on stderr.
    const refused = await svc(['reports', 'income', ID, '--chart', '--json']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('--chart draws for people and cannot be combined with --json');
    expect(refused.requests).toEqual([]);
  });

  it('income --chart: a plateau of 58,400 is drawn on the grid line nearest to it, not one line up', async () => {
    const credits = [37309.85, 90939.26, 58400, 58400, 119041.89, 58400, 58400];
    const body = {
      ...INCOME,
      monthly_credits: credits.map((total_credits, i) => ({
        month: `2026-0${i + 4}`,
        total_credits,
      })),
    };
    const chart = await run(command('reports income'), {
      tty: true,
      columns: 80,
      argv: ['reports', 'income', ID, '--chart'],
      reply: { body },
    });
    expect(chart.code, chart.stderr).toBe(0);
    // Each grid line: the amount it is labelled with, and the length of its longest level stretch.
    const grid = plain(chart.stdout)
      .split('\n')
      .flatMap((line) => {
        const row = /^\s*(\S+)[┤┼](.*)$/.exec(line);
        return row
          ? [
              {
                label: Number(row[1]!.replace(/[^\d.]/g, '')),
                level: Math.max(0, ...(row[2]!.match(/─+/g) ?? []).map((run) => run.length)),
              },
            ]
          : [];
      });
    const plateau = grid.reduce((best, row) => (row.level > best.level ? row : best));
    const nearest = grid.reduce((best, row) =>
      Math.abs(row.label - 58400) < Math.abs(best.label - 58400) ? row : best,
    );
    expect(plateau.label).toBe(nearest.label);
  });

  it('balance: for a script and for a person', async () => {
    const script = await run(command('reports balance'));
    expect(script.stdout).toBe(
      lines(
        'FIELD\tVALUE',
        'period\t2026-01-01 → 2026-03-31',
        'currency\tNPR',
        'opening_balance\t73200',
        'closing_balance\t145200',
        'avg_daily_balance\t12450.3',
        'trend\tgrowing',
      ),
    );
    const person = await run(command('reports balance'), { tty: true });
    expect(plain(person.stdout)).toBe(
      lines(
        `Balance of ${ID}`,
        'Period                 2026-01-01 → 2026-03-31',
        'Currency               NPR',
        'Opening balance        NPR 73,200.00',
        'Closing balance        NPR 1,45,200.00',
        'Average daily balance  NPR 12,450.30',
        'Trend                  growing',
      ),
    );
    expect(person.stdout).toContain('\u001b[32mgrowing\u001b[39m');
  });

  it('liabilities: for a script and for a person', async () => {
    const script = await run(command('reports liabilities'));
    expect(script.stdout).toBe(
      lines(
        'FIELD\tVALUE',
        'monthly_emi_total\t21000',
        'emi_load_pct\t24.5',
        'bounce_count\t0',
        '',
        'Lenders',
        'LENDER\tTOTAL\tPAYMENTS\tMONTHLY AVG',
        'NMB Bank\t63000\t3\t21000',
        '',
        'Liability transactions',
        'DATE\tDESCRIPTION\tDEBIT\tCREDIT\tBALANCE\tCATEGORY',
      ),
    );
    const person = plain((await run(command('reports liabilities'), { tty: true })).stdout);
    expect(person).toMatch(
      /^Liabilities of rpt_9f2c41d07ab35e18\nMonthly EMI total  NPR 21,000\.00\nEMI load           24\.5%\nBounces            0\n/,
    );
    expect(person).toMatch(
      /│ LENDER +│ TOTAL \(NPR\) │ PAYMENTS │ MONTHLY AVG \(NPR\) │\n.*\n│ NMB Bank │ +63,000\.00 │ +3 │ +21,000\.00 │/,
    );
    expect(person).toContain('No liability transactions.');
  });

  it('score: the factors by the size of their impact, signed; the score in the colour of its band', async () => {
    const script = await run(command('reports score'));
    expect(script.stdout).toBe(
      lines(
        'FIELD\tVALUE',
        'score\t782',
        'band\tgood',
        '',
        'Factors',
        'FACTOR\tIMPACT\tDETAIL',
        'salary\t80\tSalary detected, monthly.',
        '…\t-35\t…',
      ),
    );
    const person = await run(command('reports score'), { tty: true });
    expect(plain(person.stdout)).toBe(
      lines(
        `Score of ${ID}`,
        'Score  782 / 1000',
        'Band   good',
        '',
        'Factors',
        '┌────────┬────────┬───────────────────────────┐',
        '│ FACTOR │ IMPACT │ DETAIL                    │',
        '├────────┼────────┼───────────────────────────┤',
        '│ Salary │    +80 │ Salary detected, monthly. │',
        '│ …      │    -35 │ …                         │',
        '└────────┴────────┴───────────────────────────┘',
      ),
    );
    expect(person.stdout).toContain('\u001b[32m782 / 1000\u001b[39m');
    expect(person.stdout).toContain('\u001b[31m-35\u001b[39m');
  });

  it('verify: each check passed or failed; a person is told how many failed', async () => {
    const script = await run(command('reports verify'));
    expect(script.stdout).toBe(
      lines(
        'FIELD\tVALUE',
        'verdict\tauthentic',
        'confidence\t0.97',
        '',
        'Checks',
        'CHECK\tRESULT\tSEVERITY',
        'balance_chain_integrity\tpass\thigh',
        'dates_within_period\tfail\tmedium',
      ),
    );
    const person = await run(command('reports verify'), { tty: true });
    const screen = plain(person.stdout);
    expect(screen).toMatch(
      /^Verification of rpt_9f2c41d07ab35e18\nVerdict {5}authentic\nConfidence {2}97%\n/,
    );
    expect(screen).toMatch(/│ Dates within period +│ fail +│ medium +│/);
    expect(screen.trimEnd().split('\n').at(-1)).toBe('1 of 2 checks failed.');
    expect(person.stdout).toContain('\u001b[31mfail\u001b[39m');
  });

  it('underwrite: the reply as it comes (its names are not documented), the verdict first; a person sees the loan in the title', async () => {
    const script = await run(command('reports underwrite'));
    expect(script.stdout).toBe(
      lines(
        'FIELD\tVALUE',
        'verdict\treview',
        `report_id\t${ID}`,
        'currency\tNPR',
        'reasons\tThe EMI fits the FOIR ceiling but leaves little after living costs.',
        'loan.principal\t500000',
        'loan.tenor_months\t36',
        'loan.annual_rate_pct\t12.5',
        'loan.emi\t16726.81',
        'foir.ceiling\t0.5',
        'foir.current\t0.34',
        'foir.with_loan\t0.47',
        'affordability.status\tstretched',
        'affordability.headroom\t3303.32',
        'risk_flags\tshort_history',
      ),
    );
    const person = await run(command('reports underwrite'), { tty: true });
    const screen = plain(person.stdout).split('\n');
    expect(screen[0]).toBe(`Underwriting of ${ID}: NPR 5,00,000.00 over 36 months at 12.5% a year`);
    expect(screen[1]).toMatch(/^Verdict +review$/);
    expect(person.stdout).toContain('\u001b[33mreview\u001b[39m');
  });
});

describe('the tables of enrich, consents, Connect, grants and decisions', () => {
  it.each(MODES)(
    'enrich: the transactions with their categories, then the rest of the reply, for $mode',
    async ({ tty }) => {
      const result = await run(command('enrich'), { tty });
      if (tty) {
        const screen = plain(result.stdout);
        expect(screen).toMatch(/^Transactions \(1\)\n┌/);
        // A transaction's date, description and amounts: the category and confidence with -o wide.
        expect(screen).toMatch(/│ 2026-03-25 │ SALARY … +│ 72,000\.00 │ +│ 1,45,200\.00 │\n/);
      } else {
        expect(result.stdout).toBe(
          lines(
            'Transactions (1)',
            'DATE\tDESCRIPTION\tCREDIT\tDEBIT\tBALANCE\tCATEGORY\tCONFIDENCE',
            '2026-03-25\tSALARY …\t72000\t\t145200\tsalary\t0.95',
            '',
            'FIELD\tVALUE',
            'signals\t',
            'monthly_summary\t',
            'categories\t',
          ),
        );
      }
    },
  );

  it.each(MODES)(
    'enrich: -o csv and -o ndjson write one record per transaction, for $mode',
    async ({ tty }) => {
      const c = command('enrich');
      const body = {
        ...ENRICH,
        count: 2,
        transactions: [
          ...ENRICH.transactions,
          {
            date: '2026-03-26',
            description: 'EMI NABIL BANK HOME LOAN',
            debit: 21000,
            balance: 124200,
            category: 'loan_repayment',
            confidence: 0.9,
          },
        ],
      };
      const csv = await run(c, { tty, argv: [...c.argv, '-o', 'csv'], reply: { body } });
      expect(csv.code).toBe(0);
      // The documented fields first, in their order, whichever record has them
      // (docs/reference/output.md, "CSV").
      expect(csv.stdout).toBe(
        'date,description,credit,debit,balance,category,confidence\r\n' +
          '2026-03-25,SALARY …,72000,,145200,salary,0.95\r\n' +
          '2026-03-26,EMI NABIL BANK HOME LOAN,,21000,124200,loan_repayment,0.9\r\n',
      );
      const ndjson = await run(c, { tty, argv: [...c.argv, '-o', 'ndjson'], reply: { body } });
      expect(ndjson.stdout).toBe(body.transactions.map((t) => JSON.stringify(t)).join('\n') + '\n');
    },
  );

  it.each(MODES)(
    'enrich: -o csv writes what a transaction nests in dotted columns, for $mode',
    async ({ tty }) => {
      const c = command('enrich');
      const body = {
        ...ENRICH,
        transactions: [
          { ...ENRICH.transactions[0], merchant: { name: 'Leapfrog', tags: ['payroll', 'it'] } },
        ],
      };
      const csv = await run(c, { tty, argv: [...c.argv, '-o', 'csv'], reply: { body } });
      expect(csv.code).toBe(0);
      expect(csv.stderr).toBe('');
      expect(csv.stdout).toBe(
        'date,description,credit,balance,category,confidence,merchant.name,merchant.tags\r\n2026-03-25,SALARY …,72000,145200,salary,0.95,Leapfrog,payroll; it\r\n',
      );
    },
  );

  it.each(MODES)(
    'consents create: the consent and its token, shown once, with a warning on stderr, for $mode',
    async ({ tty }) => {
      const result = await run(command('consents create'), { tty, columns: 240 });
      expect(result.code).toBe(0);
      if (tty) {
        expect(plain(result.stdout)).toBe(
          lines(
            `Consent   ${CONSENT_ID}`,
            `Token     ${TOKEN}`,
            `Data URL  ${CONSENT.data_url}`,
            'Scopes    identity, income',
            'Expires   2026-06-13 09:30 UTC (in 22 days)',
          ),
        );
      } else {
        expect(result.stdout).toBe(
          lines(
            'FIELD\tVALUE',
            `id\t${CONSENT_ID}`,
            `token\t${TOKEN}`,
            `data_url\t${CONSENT.data_url}`,
            'scopes\tidentity, income',
            'expires_at\t2026-06-13 09:30 UTC',
          ),
        );
      }
      expect(result.stderr).toBe(
        lines(
          "warning: this token gives whoever holds it the report's data (identity, income) until it expires or is revoked; it is shown this once, so keep it and share it only with the grantee",
          `Revoke it with \`svc consents revoke ${CONSENT_ID}\`; the grantee reads the data with \`SVC_CONSENT_TOKEN=TOKEN svc consents data ${CONSENT_ID}\`.`,
        ),
      );
    },
  );

  it('consents create at 80 columns: the warning and the hint wrap between words, nothing in them lost', async () => {
    const wide = await run(command('consents create'), { tty: true, columns: 240 });
    const narrow = await run(command('consents create'), { tty: true, columns: 80 });
    const shown = narrow.stderr.trimEnd().split('\n');
    expect(shown.length).toBeGreaterThan(2);
    for (const line of shown) expect([...line].length, line).toBeLessThanOrEqual(80);
    expect(shown.join(' ')).toBe(wide.stderr.trimEnd().split('\n').join(' '));
    // A script's stderr keeps one line a message, whatever the width.
    const piped = await run(command('consents create'), { tty: false, columns: 80 });
    expect(piped.stderr.trimEnd().split('\n')).toHaveLength(2);
  });

  it.each(MODES)(
    'consents list: one row per consent, its state first, for $mode',
    async ({ tty }) => {
      const result = await run(command('consents list'), { tty });
      if (tty) {
        // A boxed table, the state first.
        const screen = plain(result.stdout);
        for (const value of ['active', CONSENT_ID, 'identity, income', 'Nabil Bank loan desk'])
          expect(screen).toContain(value);
        // -o wide: every field, times in the local zone (TZ=UTC here), an expiry with how far off
        // it is.
        const c = command('consents list');
        const wide = plain((await run(c, { tty, argv: [...c.argv, '-o', 'wide'] })).stdout);
        expect(wide).toContain('2026-06-19 08:30 UTC (in 28 days)');
        expect(screen.indexOf('STATUS')).toBeLessThan(screen.indexOf('GRANTEE LABEL'));
        expect(screen.indexOf('active')).toBeLessThan(screen.indexOf(CONSENT_ID));
      } else {
        expect(result.stdout).toBe(
          lines(
            'STATUS\tID\tREPORT ID\tSCOPES\tGRANTEE LABEL\tCREATED AT\tEXPIRES AT\tREVOKED AT\tREADS\tLAST READ AT',
            `active\t${CONSENT_ID}\t${ID}\tidentity, income\tNabil Bank loan desk\t2026-05-20 08:30 UTC\t2026-06-19 08:30 UTC\t\t2\t2026-05-21 09:00 UTC`,
          ),
        );
      }
    },
  );

  it.each([
    ['consents list', 'Consents'],
    ['decisions list', 'Decisions'],
  ])(
    '%s: a person reads "%s" over the list, not the name of the key that holds it',
    async (name, title) => {
      for (const columns of [WIDE, 60]) {
        const result = await run(command(name), { tty: true, columns });
        expect(result.code).toBe(0);
        const screen = plain(result.stdout);
        expect(screen).toMatch(new RegExp(`^${title}$`, 'm'));
        expect(screen).not.toMatch(/^Data$/m);
      }
    },
  );

  it.each(MODES)(
    'consents list: -o ndjson and -o csv write one record per consent, for $mode',
    async ({ tty }) => {
      const c = command('consents list');
      const ndjson = await run(c, { tty, argv: [...c.argv, '-o', 'ndjson'] });
      expect(ndjson.stdout).toBe(JSON.stringify(CONSENT_RECORD) + '\n');
      const csv = await run(c, { tty, argv: [...c.argv, '-o', 'csv'] });
      // The fields a consent is created with first (docs/reference/output.md, "CSV"), the scopes
      // joined with ;.
      expect(csv.stdout.split('\r\n')[0]).toBe(
        'id,report_id,scopes,grantee_label,expires_at,status,created_at,revoked_at,reads,last_read_at',
      );
      expect(csv.stdout.split('\r\n')[1]).toBe(
        `${CONSENT_ID},${ID},identity; income,Nabil Bank loan desk,2026-06-19T08:30:00Z,active,2026-05-20T08:30:00Z,,2,2026-05-21T09:00:00Z`,
      );
    },
  );

  it.each(MODES)(
    'consents list: no consents is said in words to a person, for $mode',
    async ({ tty }) => {
      const result = await run(command('consents list'), { tty, reply: { body: { data: [] } } });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      if (tty) expect(plain(result.stdout)).toBe('No consents.\n');
      // No item: a script still gets the header line of the fields a consent is created with, as -o
      // csv writes it.
      else expect(result.stdout).toBe('ID\tREPORT ID\tSCOPES\tGRANTEE LABEL\tEXPIRES AT\n');
    },
  );

  it.each(MODES)(
    'decisions list: an empty page is one line to a person, has_more false included; a script gets the header line, for $mode',
    async ({ tty }) => {
      const result = await run(command('decisions list'), {
        tty,
        reply: { body: { data: [], has_more: false } },
      });
      expect(result.code).toBe(0);
      if (tty) {
        expect(plain(result.stdout)).toBe('No decisions.\n');
        expect(result.stderr).toBe('');
      } else {
        expect(result.stdout).toBe(
          'CLIENT REFERENCE ID\tDECISION\tREPORT ID\tDECISION RATIONALE\tAMOUNT\tOUTCOME\n',
        );
        expect(result.stderr).toBe('has_more: no\n');
      }
    },
  );

  it.each(MODES)(
    'consents list: a script gets one line per consent and nothing else on stdout; the reply’s other fields go to stderr, for $mode',
    async ({ tty }) => {
      const consent = {
        id: CONSENT_ID,
        report_id: ID,
        scopes: ['identity', 'income'],
        status: 'active',
        expires_at: '2026-06-21T10:00:00Z',
      };
      const result = await run(command('consents list'), {
        tty,
        reply: { body: { data: [consent], total: 1, has_more: true } },
      });
      expect(result.code).toBe(0);
      if (tty) {
        expect(result.stderr).toBe('');
        const screen = plain(result.stdout);
        expect(screen).toMatch(/^Total +1$/m);
        expect(screen).toMatch(/^Has more +yes$/m);
        expect(screen).toContain(CONSENT_ID);
      } else {
        expect(result.stdout).toBe(
          lines(
            'STATUS\tID\tREPORT ID\tSCOPES\tEXPIRES AT',
            `active\t${CONSENT_ID}\t${ID}\tidentity, income\t2026-06-21 10:00 UTC`,
          ),
        );
        expect(result.stderr).toBe('total: 1\nhas_more: yes\n');
      }
    },
  );

  it.each(MODES)(
    'consents revoke: the consent record, its state first; an empty reply says it is done, for $mode',
    async ({ tty }) => {
      const result = await run(command('consents revoke'), { tty });
      if (tty)
        expect(plain(result.stdout)).toMatch(new RegExp(`^Status +revoked\nID +${CONSENT_ID}\n`));
      else
        expect(result.stdout.split('\n').slice(0, 3)).toEqual([
          'FIELD\tVALUE',
          'status\trevoked',
          `id\t${CONSENT_ID}`,
        ]);
      const empty = await run(command('consents revoke'), { tty, reply: { body: {} } });
      expect(plain(empty.stdout)).toBe(`Consent ${CONSENT_ID} revoked.\n`);
    },
  );

  it.each(MODES)(
    'consents data: the scopes, then one section per scope, for $mode',
    async ({ tty }) => {
      const result = await run(command('consents data'), { tty });
      expect(result.code, result.stderr).toBe(0);
      if (tty) {
        const screen = plain(result.stdout);
        expect(screen).toMatch(
          new RegExp(`^Data of consent ${CONSENT_ID}\nScopes  identity, income\n\nIdentity\n`),
        );
        expect(screen).toMatch(/^Account holder +RAM PRASAD SHARMA$/m);
        expect(screen).toMatch(/^Income\nSalary detected +yes\n/m);
        expect(screen).toMatch(/^Income › Monthly credits\n┌/m);
      } else {
        const blocks = result.stdout.trimEnd().split('\n\n');
        expect(blocks[0]).toBe('FIELD\tVALUE\nscopes\tidentity, income');
        expect(blocks[1]).toBe(
          [
            'Identity',
            'FIELD\tVALUE',
            'bank\tNabil Bank',
            'bank_code\tNABIL',
            'account_holder\tRAM PRASAD SHARMA',
            'account_number\t09810017508391',
            'currency\tNPR',
            'period.from\t2026-01-01',
            'period.to\t2026-03-31',
          ].join('\n'),
        );
        expect(blocks[2]).toMatch(
          /^Income\nFIELD\tVALUE\nsalary_detected\tyes\nsalary_amount\t72000\n/,
        );
        expect(blocks[3]).toBe('Income › Monthly credits\nMONTH\tTOTAL CREDITS\n2026-03\t85000');
      }
    },
  );

  it.each(MODES)(
    'connect exchange: the grant and its access token, shown once, with a warning on stderr, for $mode',
    async ({ tty }) => {
      const result = await run(command('connect exchange'), { tty });
      if (tty)
        expect(plain(result.stdout)).toBe(
          lines(
            `Grant         ${GRANT_ID}`,
            'Scopes        identity',
            `Access token  ${ACCESS_TOKEN}`,
          ),
        );
      else
        expect(result.stdout).toBe(
          lines(
            'FIELD\tVALUE',
            `grant_id\t${GRANT_ID}`,
            'scopes\tidentity',
            `access_token\t${ACCESS_TOKEN}`,
          ),
        );
      expect(result.stderr).toBe(
        lines(
          'warning: this access token reads the data the end user granted, with your API key; it is shown this once, so keep it like a key',
          `Pass it as SVC_ACCESS_TOKEN: SVC_ACCESS_TOKEN=<the access token> svc grants data ${GRANT_ID}`,
        ),
      );
    },
  );

  it.each(MODES)(
    'grants data: the scopes, then one section per scope, for $mode',
    async ({ tty }) => {
      const result = await run(command('grants data'), { tty });
      if (tty)
        expect(plain(result.stdout)).toMatch(
          new RegExp(
            `^Data of grant ${GRANT_ID}\nScopes  identity\n\nIdentity\nBank +Nabil Bank\n`,
          ),
        );
      else
        expect(result.stdout).toMatch(
          /^FIELD\tVALUE\nscopes\tidentity\n\nIdentity\nFIELD\tVALUE\nbank\tNabil Bank\n/,
        );
    },
  );

  it.each(MODES)(
    'decisions record and outcome: the record, what was decided first; an empty reply says it is done, for $mode',
    async ({ tty }) => {
      const record = await run(command('decisions record'), { tty });
      const outcome = await run(command('decisions outcome'), { tty });
      if (tty) {
        expect(plain(record.stdout).split('\n').slice(0, 2)).toEqual([
          'Decision             approved',
          `ID                   ${DECISION.id}`,
        ]);
        expect(plain(outcome.stdout).split('\n')[0]).toBe('Outcome              delinquent');
      } else {
        expect(record.stdout.split('\n').slice(0, 4)).toEqual([
          'FIELD\tVALUE',
          'decision\tapproved',
          'outcome\t',
          `id\t${DECISION.id}`,
        ]);
        expect(outcome.stdout).toBe(
          lines(
            'FIELD\tVALUE',
            'outcome\tdelinquent',
            `id\t${OUTCOME.id}`,
            'client_reference_id\tloan-1001',
            `decision_id\t${DECISION.id}`,
            'detail\t90+ DPD',
            'recorded_at\t2026-05-22 11:00 UTC',
          ),
        );
      }
      expect(
        plain((await run(command('decisions record'), { tty, reply: { body: {} } })).stdout),
      ).toBe('Decision recorded for loan-1001.\n');
      expect(
        plain((await run(command('decisions outcome'), { tty, reply: { body: {} } })).stdout),
      ).toBe('Outcome recorded for loan-1001.\n');
    },
  );

  it.each(MODES)(
    'decisions list: one row per decision, decision and outcome first; -o ndjson and -o csv one record each, for $mode',
    async ({ tty }) => {
      const c = command('decisions list');
      const result = await run(c, { tty });
      if (tty) {
        // A boxed table of the fields a decision is recorded with and its outcome, decision and
        // outcome first.
        const screen = plain(result.stdout);
        for (const value of [
          'approved',
          'delinquent',
          'loan-1001',
          'FOIR 32%, steady salary',
          '2,50,000.00',
        ])
          expect(screen).toContain(value);
        expect(screen.indexOf('DECISION')).toBeLessThan(screen.indexOf('OUTCOME'));
        expect(screen.indexOf('approved')).toBeLessThan(screen.indexOf('loan-1001'));
        // -o wide: every field.
        const wide = plain((await run(c, { tty, argv: [...c.argv, '-o', 'wide'] })).stdout);
        for (const value of [
          'approved',
          'delinquent',
          DECISION.id,
          'FOIR 32%, steady salary',
          '90+ DPD',
        ])
          expect(wide).toContain(value);
      } else {
        // The decisions alone on stdout; the reply's other fields on stderr.
        expect(result.stderr).toBe('has_more: no\n');
        expect(result.stdout).toBe(
          lines(
            'DECISION\tOUTCOME\tID\tCLIENT REFERENCE ID\tREPORT ID\tDECISION RATIONALE\tAMOUNT\tCREATED AT\tOUTCOME DETAIL\tOUTCOME RECORDED AT',
            `approved\tdelinquent\t${DECISION.id}\tloan-1001\t${ID}\tFOIR 32%, steady salary\t250000\t2026-05-22 10:00 UTC\t90+ DPD\t2026-05-22 11:00 UTC`,
          ),
        );
      }
      const ndjson = await run(c, { tty, argv: [...c.argv, '-o', 'ndjson'] });
      expect(ndjson.stdout).toBe(JSON.stringify(DECISIONS.data[0]) + '\n');
      const csv = await run(c, { tty, argv: [...c.argv, '-o', 'csv'] });
      // The fields a decision is recorded with first (docs/reference/output.md, "CSV"), then the
      // others in the reply's order.
      expect(csv.stdout.split('\r\n')).toEqual([
        'client_reference_id,decision,report_id,decision_rationale,amount,outcome,id,created_at,outcome_detail,outcome_recorded_at',
        `loan-1001,approved,${ID},"FOIR 32%, steady salary",250000,delinquent,${DECISION.id},2026-05-22T10:00:00Z,90+ DPD,2026-05-22T11:00:00Z`,
        '',
      ]);
    },
  );
});

describe('-o csv and -o ndjson of the views that hold lists: one record per item, its list named first', () => {
  /** Runs the command with `-o csv` and `-o ndjson`: both succeed with nothing on stderr. */
  async function records(
    c: Command,
    tty: boolean,
    reply?: FakeReply,
  ): Promise<{ csv: string[]; ndjson: unknown[] }> {
    const csv = await run(c, { tty, argv: [...c.argv, '-o', 'csv'], reply });
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stderr).toBe('');
    const ndjson = await run(c, { tty, argv: [...c.argv, '-o', 'ndjson'], reply });
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(ndjson.stderr).toBe('');
    return {
      csv: csv.stdout.split('\r\n'),
      ndjson: jsonLines(ndjson.stdout),
    };
  }

  const FACTS = {
    salary_detected: true,
    salary_amount: 72000,
    salary_regularity: 'monthly',
    salary_day_of_month: 25,
    avg_monthly_credit: 85000,
    income_stability_score: 87,
    remittance_detected: false,
  };

  it.each(MODES)(
    'income: a row per month of credits and per income transaction, each with the income’s facts, for $mode',
    async ({ tty }) => {
      const body = { ...INCOME, income_transactions: TRANSACTIONS.transactions };
      const { csv, ndjson } = await records(command('reports income'), tty, { body });
      expect(csv).toEqual([
        'list,salary_detected,salary_amount,salary_regularity,salary_day_of_month,avg_monthly_credit,income_stability_score,remittance_detected,month,total_credits,id,date,description,debit,credit,balance,category,confidence',
        'monthly_credits,true,72000,monthly,25,85000,87,false,2026-03,85000,,,,,,,,',
        'income_transactions,true,72000,monthly,25,85000,87,false,,,txn_0001,2026-03-25,SALARY …,,72000,145200,salary,0.95',
        '',
      ]);
      expect(ndjson).toEqual([
        { list: 'monthly_credits', ...FACTS, ...INCOME.monthly_credits[0] },
        { list: 'income_transactions', ...FACTS, ...TRANSACTIONS.transactions[0] },
      ]);
    },
  );

  it.each(MODES)(
    'liabilities: a row per lender, with the EMI total, load and bounces, for $mode',
    async ({ tty }) => {
      const { csv, ndjson } = await records(command('reports liabilities'), tty);
      expect(csv).toEqual([
        'list,monthly_emi_total,emi_load_pct,bounce_count,lender,total,count,monthly_avg',
        'lenders,21000,24.5,0,NMB Bank,63000,3,21000',
        '',
      ]);
      expect(ndjson).toEqual([
        {
          list: 'lenders',
          monthly_emi_total: 21000,
          emi_load_pct: 24.5,
          bounce_count: 0,
          ...LIABILITIES.lenders[0],
        },
      ]);
    },
  );

  it.each(MODES)(
    'score: a row per factor, in the reply’s order, with the score and its band, for $mode',
    async ({ tty }) => {
      const { csv, ndjson } = await records(command('reports score'), tty);
      expect(csv).toEqual([
        'list,score,band,factor,impact,detail',
        'factors,782,good,…,-35,…',
        'factors,782,good,salary,80,"Salary detected, monthly."',
        '',
      ]);
      expect(ndjson).toEqual(
        SCORE.factors.map((factor: unknown) => ({
          list: 'factors',
          score: 782,
          band: 'good',
          ...(factor as object),
        })),
      );
    },
  );

  it.each(MODES)(
    'verify: a row per check, with the verdict and the confidence, for $mode',
    async ({ tty }) => {
      const { csv } = await records(command('reports verify'), tty);
      expect(csv).toEqual([
        'list,verdict,confidence,check,passed,severity',
        'checks,authentic,0.97,balance_chain_integrity,true,high',
        'checks,authentic,0.97,dates_within_period,false,medium',
        '',
      ]);
    },
  );

  it.each(MODES)(
    'score: numbers keep every digit, in CSV and in NDJSON, for $mode',
    async ({ tty }) => {
      const raw =
        '{"score": 782.0, "band": "good", "factors": [{"factor": "salary", "impact": 12345678901234567890}, {"factor": "emi_load", "impact": -1e400}]}';
      const { csv } = await records(command('reports score'), tty, { raw });
      expect(csv).toEqual([
        'list,score,band,factor,impact',
        'factors,782.0,good,salary,12345678901234567890',
        'factors,782.0,good,emi_load,-1e400',
        '',
      ]);
      const ndjson = await run(command('reports score'), {
        tty,
        argv: [...command('reports score').argv, '-o', 'ndjson'],
        reply: { raw },
      });
      expect(ndjson.stdout).toBe(
        '{"list":"factors","score":782.0,"band":"good","factor":"salary","impact":12345678901234567890}\n{"list":"factors","score":782.0,"band":"good","factor":"emi_load","impact":-1e400}\n',
      );
    },
  );

  it.each(MODES)(
    'a view whose lists are empty is one record, its nested values in dotted columns, for $mode',
    async ({ tty }) => {
      const { csv, ndjson } = await records(command('reports score'), tty, {
        body: { score: 500, band: 'fair', factors: [], model: { version: 2 } },
      });
      expect(csv).toEqual(['score,band,factors,model.version', '500,fair,,2', '']);
      expect(ndjson).toEqual([{ score: 500, band: 'fair', factors: [], model: { version: 2 } }]);
    },
  );

  it.each(MODES)(
    'consents data: a row per item of each scope’s lists, named by its path, with the scopes and that scope’s facts, for $mode',
    async ({ tty }) => {
      const { csv, ndjson } = await records(command('consents data'), tty);
      expect(csv).toEqual([
        'list,scopes,data.income.salary_detected,data.income.salary_amount,data.income.salary_regularity,data.income.salary_day_of_month,data.income.avg_monthly_credit,data.income.income_stability_score,data.income.remittance_detected,month,total_credits',
        'data.income.monthly_credits,identity; income,true,72000,monthly,25,85000,87,false,2026-03,85000',
        '',
      ]);
      expect(ndjson).toEqual([
        {
          list: 'data.income.monthly_credits',
          scopes: ['identity', 'income'],
          ...Object.fromEntries(Object.entries(FACTS).map(([k, v]) => [`data.income.${k}`, v])),
          ...INCOME.monthly_credits[0],
        },
      ]);
    },
  );

  it.each(MODES)(
    'grants data holding no list: the reply as one record, nested values in dotted columns, for $mode',
    async ({ tty }) => {
      const { csv, ndjson } = await records(command('grants data'), tty);
      expect(csv).toEqual([
        'scopes,data.identity.bank,data.identity.bank_code,data.identity.account_holder,data.identity.account_number,data.identity.currency,data.identity.period.from,data.identity.period.to',
        'identity,Nabil Bank,NABIL,RAM PRASAD SHARMA,09810017508391,NPR,2026-01-01,2026-03-31',
        '',
      ]);
      expect(ndjson).toEqual([GRANT_DATA]);
    },
  );
});

describe('-o csv of the views of one record: nested values in dotted columns, lists of scalars joined, never JSON in a cell', () => {
  /** `-o csv` of a command: exit 0, and stderr as the command writes it beside its reply. */
  async function csvOf(c: Command, tty: boolean, reply?: FakeReply): Promise<string[]> {
    const result = await run(c, { tty, argv: [...c.argv, '-o', 'csv'], reply });
    expect(result.code, result.stderr).toBe(0);
    if (c.handsOver) expect(result.stderr).toMatch(/^warning: this (access )?token /);
    else expect(result.stderr).toBe('');
    return result.stdout.split('\r\n');
  }

  it.each(MODES)('balance: the period as period.from and period.to, for $mode', async ({ tty }) => {
    expect(await csvOf(command('reports balance'), tty)).toEqual([
      'currency,period.from,period.to,opening_balance,closing_balance,avg_daily_balance,trend',
      'NPR,2026-01-01,2026-03-31,73200,145200,12450.3,growing',
      '',
    ]);
  });

  it.each(MODES)(
    'underwrite: the loan, FOIR and affordability in dotted columns, the reasons and risk flags joined, for $mode',
    async ({ tty }) => {
      expect(await csvOf(command('reports underwrite'), tty)).toEqual([
        'report_id,currency,verdict,reasons,loan.principal,loan.tenor_months,loan.annual_rate_pct,loan.emi,foir.ceiling,foir.current,foir.with_loan,affordability.status,affordability.headroom,risk_flags',
        `${ID},NPR,review,The EMI fits the FOIR ceiling but leaves little after living costs.,500000,36,12.5,16726.81,0.5,0.34,0.47,stretched,3303.32,short_history`,
        '',
      ]);
    },
  );

  it.each(MODES)(
    'consents create, revoke and connect exchange: the scopes joined, for $mode',
    async ({ tty }) => {
      expect(await csvOf(command('consents create'), tty)).toEqual([
        'id,token,data_url,scopes,expires_at',
        `${CONSENT_ID},${TOKEN},${CONSENT.data_url},identity; income,2026-06-13T09:30:00Z`,
        '',
      ]);
      expect((await csvOf(command('consents revoke'), tty))[1]).toBe(
        `${CONSENT_ID},${ID},identity; income,Nabil Bank loan desk,revoked,2026-05-20T08:30:00Z,2026-06-19T08:30:00Z,2026-05-22T10:00:00Z,2,2026-05-21T09:00:00Z`,
      );
      expect(await csvOf(command('connect exchange'), tty)).toEqual([
        'access_token,grant_id,scopes',
        `${ACCESS_TOKEN},${GRANT_ID},identity`,
        '',
      ]);
    },
  );

  it.each(MODES)(
    'decisions record and outcome: what a reply nests, in dotted columns, for $mode',
    async ({ tty }) => {
      const body = { ...DECISION, links: { self: '/v1/decisions/dec_1', report: null } };
      expect((await csvOf(command('decisions record'), tty, { body }))[0]).toBe(
        `${Object.keys(DECISION).join(',')},links.self,links.report`,
      );
      const raw =
        '{"id": "out_1", "outcome": "delinquent", "decision": {"id": "dec_1", "amounts": [250000.00, 12345678901234567890]}}';
      expect(await csvOf(command('decisions outcome'), tty, { raw })).toEqual([
        'id,outcome,decision.id,decision.amounts',
        'out_1,delinquent,dec_1,250000.00; 12345678901234567890',
        '',
      ]);
    },
  );
});

describe('replies of a shape the command does not expect', () => {
  it.each(MODES)(
    'transactions: absent fields are blank cells, unknown ones columns of their own, the newer shape read too, for $mode',
    async ({ tty }) => {
      const body = {
        count: 3,
        page: 1,
        transactions: [
          {
            id: 'txn_0001',
            date: '2026-03-25',
            description: 'SALARY',
            credit: 72000,
            category: 'salary',
            merchant_city: 'Kathmandu',
          },
          { id: 'txn_0002', date: '2026-03-26' },
          {
            transaction_id: 'txn_0003',
            date: '2026-03-27',
            name: 'BHAT-BHATENI',
            amount: 1250,
            balance: 143950,
            merchant_name: 'Bhat-Bhateni',
            personal_finance_category: {
              primary: 'FOOD_AND_DRINK',
              detailed: 'FOOD_AND_DRINK_GROCERIES',
            },
          },
        ],
      };
      const result = await run(command('reports transactions'), { tty, reply: { body } });
      expect(result.code, result.stderr).toBe(0);
      expect(plain(result.stdout)).not.toMatch(BLANKS);
      if (tty) {
        // The default columns, the newer shape's name and amount in them; -o wide every field.
        expect(plain(result.stdout)).toMatch(
          /│ 2026-03-27 │ BHAT-BHATENI +│ +│ +│ +1,250\.00 │ +1,43,950\.00 │/,
        );
        expect(plain(result.stdout)).not.toMatch(/Kathmandu/);
        const c = command('reports transactions');
        const wide = plain(
          (await run(c, { tty, argv: [...c.argv, '-o', 'wide'], reply: { body } })).stdout,
        );
        expect(wide).toMatch(/Kathmandu/);
        expect(wide).toMatch(/FOOD_AND_DRINK_GROCE/);
      } else {
        expect(result.stdout).toBe(
          lines(
            'DATE\tDESCRIPTION\tDEBIT\tCREDIT\tAMOUNT\tBALANCE\tCATEGORY\tMERCHANT\tID\tMERCHANT CITY\tPERSONAL FINANCE CATEGORY.DETAILED',
            '2026-03-25\tSALARY\t\t72000\t\t\tsalary\t\ttxn_0001\tKathmandu\t',
            '2026-03-26\t\t\t\t\t\t\t\ttxn_0002\t\t',
            '2026-03-27\tBHAT-BHATENI\t\t\t1250\t143950\tFOOD_AND_DRINK\tBhat-Bhateni\ttxn_0003\t\tFOOD_AND_DRINK_GROCERIES',
          ),
        );
        // The reply's other fields go to stderr; the count, equal to the list, says nothing more.
        expect(result.stderr).toBe('page: 1\n');
      }
    },
  );

  it.each(MODES)(
    'transactions: a count larger than the list is said on stderr to a script, under the table to a person, for $mode',
    async ({ tty }) => {
      const body = {
        count: 120,
        transactions: [
          {
            id: 'txn_0001',
            date: '2026-03-25',
            description: 'SALARY',
            credit: 72000,
            balance: 145200,
            category: 'salary',
          },
        ],
      };
      const result = await run(command('reports transactions'), { tty, reply: { body } });
      expect(result.code, result.stderr).toBe(0);
      if (tty) {
        expect(result.stderr).toBe('');
        expect(plain(result.stdout)).toMatch(/^1 transaction shown; the reply counts 120\.$/m);
      } else {
        expect(result.stdout.trimEnd().split('\n')).toHaveLength(2);
        expect(result.stderr).toBe('1 transaction shown; the reply counts 120.\n');
      }
    },
  );

  it.each(MODES)(
    'transactions and enrich: a list that is missing or no list is an unexpected reply (exit 10) in every format but --json, for $mode',
    async ({ tty }) => {
      for (const name of ['reports transactions', 'enrich']) {
        const c = command(name);
        for (const [body, found] of [
          [{ count: 1, transactions: { id: 'txn_0001' } }, 'it is an object'],
          [{ count: 0 }, 'it is missing'],
          [{ count: 1, transactions: 'txn_0001' }, 'it is a text'],
        ] as const) {
          for (const format of [[], ['-o', 'csv'], ['-o', 'ndjson']]) {
            const result = await run(c, { tty, argv: [...c.argv, ...format], reply: { body } });
            expectFailure(
              result,
              10,
              new RegExp(
                `^error: unexpected reply to ${c.method} /v1/\\S+: "transactions" should be a list, but ${found}$`,
              ),
            );
          }
          const json = await run(c, { tty, argv: [...c.argv, '--json'], reply: { body } });
          expect(json.code).toBe(0);
          expect(JSON.parse(plain(json.stdout))).toEqual(body);
        }
        const list = await run(c, { tty, reply: { body: [] } });
        expectFailure(list, 10, /the body should be an object, but it is a list$/);
      }
    },
  );

  it.each(MODES)(
    'income: absent facts are blank, unknown fields and lists of another type still shown, for $mode',
    async ({ tty }) => {
      const body = {
        salary_detected: false,
        salary_amount: null,
        monthly_credits: 'not computed',
        currency: 'NPR',
        avg_monthly_credit: 3000,
        seasonal: { peak_month: '2026-03' },
      };
      const result = await run(command('reports income'), { tty, reply: { body } });
      expect(result.code, result.stderr).toBe(0);
      expect(plain(result.stdout)).not.toMatch(BLANKS);
      if (tty) {
        // A person's list leaves out the facts without a value.
        expect(plain(result.stdout)).toBe(
          lines(
            `Income of ${ID}`,
            'Salary detected         no',
            'Average monthly credit  NPR 3,000.00',
            'Monthly credits         not computed',
            'Currency                NPR',
            'Seasonal peak month     2026-03',
          ),
        );
      } else {
        expect(result.stdout).toBe(
          lines(
            'FIELD\tVALUE',
            'salary_detected\tno',
            'salary_amount\t',
            'salary_regularity\t',
            'salary_day_of_month\t',
            'income_stability_score\t',
            'remittance_detected\t',
            'avg_monthly_credit\t3000',
            'monthly_credits\tnot computed',
            'currency\tNPR',
            'seasonal.peak_month\t2026-03',
          ),
        );
      }
    },
  );

  it.each(MODES)(
    'balance: `statement_period` read as the period, a value of another type shown as it came, for $mode',
    async ({ tty }) => {
      const body = {
        currency: 'NPR',
        statement_period: { from: '2026-01-01', to: '2026-03-31' },
        opening_balance: 'n/a',
        closing_balance: 145200,
        trend: 'sideways',
        volatility: 0.3,
      };
      const result = await run(command('reports balance'), { tty, reply: { body } });
      expect(result.code).toBe(0);
      const text = plain(result.stdout);
      expect(text).not.toMatch(BLANKS);
      const row = (name: string, value: string) =>
        new RegExp(tty ? `^${name} +${value}$` : `^${name}\\t${value}$`, 'm');
      expect(text).toMatch(row(tty ? 'Period' : 'period', '2026-01-01 → 2026-03-31'));
      expect(text).toMatch(row(tty ? 'Opening balance' : 'opening_balance', 'n/a'));
      expect(text).toMatch(
        row(tty ? 'Closing balance' : 'closing_balance', tty ? 'NPR 1,45,200\\.00' : '145200'),
      );
      expect(text).toMatch(row(tty ? 'Trend' : 'trend', 'sideways'));
      expect(text).toMatch(row(tty ? 'Volatility' : 'volatility', '0\\.3'));
      if (!tty) expect(text).toMatch(/^avg_daily_balance\t$/m);
    },
  );

  it.each(MODES)(
    'liabilities, score, verify: absent item fields blank, unknown ones columns of their own, for $mode',
    async ({ tty }) => {
      const liabilities = await run(command('reports liabilities'), {
        tty,
        reply: { body: { ...LIABILITIES, lenders: [{ lender: 'NMB Bank', lender_type: 'bank' }] } },
      });
      const score = await run(command('reports score'), {
        tty,
        reply: {
          body: {
            score: 640,
            band: 'fair',
            model: 'v2',
            factors: [{ factor: 'emi_load', impact: 'high', weight: 2 }],
          },
        },
      });
      const verify = await run(command('reports verify'), {
        tty,
        reply: {
          body: { verdict: 'review', checks: [{ check: 'fonts_consistent', note: 'two fonts' }] },
        },
      });
      for (const result of [liabilities, score, verify]) {
        expect(result.code, result.stderr).toBe(0);
        expect(plain(result.stdout)).not.toMatch(BLANKS);
      }
      if (tty) {
        expect(plain(liabilities.stdout)).toMatch(
          /│ LENDER +│ TOTAL \(NPR\) │ PAYMENTS │ MONTHLY AVG \(NPR\) │ LENDER TYPE │\n├.*\n│ NMB Bank │ +│ +│ +│ bank +│/,
        );
        // No factor has a detail: no DETAIL column.
        expect(plain(score.stdout)).toMatch(
          /│ FACTOR +│ IMPACT │ WEIGHT │\n├.*\n│ EMI load │ +high │ +2 │/,
        );
        expect(plain(score.stdout)).toMatch(/^Model +v2$/m);
        expect(plain(verify.stdout)).toMatch(/│ Fonts consistent │ +│ +│ two fonts │/);
        expect(plain(verify.stdout)).not.toMatch(/Confidence/);
      } else {
        expect(liabilities.stdout).toContain(
          lines(
            'Lenders',
            'LENDER\tTOTAL\tPAYMENTS\tMONTHLY AVG\tLENDER TYPE',
            'NMB Bank\t\t\t\tbank',
          ),
        );
        expect(score.stdout).toBe(
          lines(
            'FIELD\tVALUE',
            'score\t640',
            'band\tfair',
            'model\tv2',
            '',
            'Factors',
            'FACTOR\tIMPACT\tWEIGHT',
            'emi_load\thigh\t2',
          ),
        );
        expect(verify.stdout).toBe(
          lines(
            'FIELD\tVALUE',
            'verdict\treview',
            'confidence\t',
            '',
            'Checks',
            'CHECK\tRESULT\tSEVERITY\tNOTE',
            'fonts_consistent\t\t\ttwo fonts',
          ),
        );
      }
    },
  );

  it.each(MODES)(
    'underwrite: a verdict that is no word keeps its place; a reply with none is shown whole, for $mode',
    async ({ tty }) => {
      const nested = await run(command('reports underwrite'), {
        tty,
        reply: { body: { verdict: { code: 'approve', reasons: ['fine'] }, foir: 0.3 } },
      });
      expect(nested.code).toBe(0);
      const text = plain(nested.stdout);
      expect(text).toMatch(tty ? /^Verdict code +approve$/m : /^verdict\.code\tapprove$/m);
      expect(text).toMatch(tty ? /^FOIR +30%$/m : /^foir\t0\.3$/m);
      const bare = await run(command('reports underwrite'), {
        tty,
        reply: { body: { decision: 'approve' } },
      });
      expect(plain(bare.stdout)).toMatch(
        tty ? /^Decision +approve$/m : /^FIELD\tVALUE\ndecision\tapprove\n$/,
      );
    },
  );

  it.each(MODES)(
    'enrich: absent fields blank, unknown ones columns of their own, the rest of the reply after, for $mode',
    async ({ tty }) => {
      const body = {
        count: 1,
        model: 'v3',
        transactions: [
          {
            date: '2026-03-26',
            description: 'EMI NABIL BANK',
            debit: 21000,
            merchant: 'Nabil Bank',
          },
        ],
      };
      const result = await run(command('enrich'), { tty, reply: { body } });
      expect(result.code).toBe(0);
      expect(plain(result.stdout)).not.toMatch(BLANKS);
      if (tty) {
        expect(plain(result.stdout)).toMatch(
          /│ 2026-03-26 │ EMI NABIL BANK │ +│ 21,000\.00 │ +│\n/,
        );
        expect(plain(result.stdout)).toMatch(/^Model +v3$/m);
        const c = command('enrich');
        const wide = plain(
          (await run(c, { tty, argv: [...c.argv, '-o', 'wide'], reply: { body } })).stdout,
        );
        expect(wide).toMatch(
          /│ 2026-03-26 │ EMI NABIL BANK │ +│ 21,000\.00 │ +│ +│ +│ Nabil Bank │/,
        );
      } else {
        expect(result.stdout).toBe(
          lines(
            'Transactions (1)',
            'DATE\tDESCRIPTION\tCREDIT\tDEBIT\tBALANCE\tCATEGORY\tCONFIDENCE\tMERCHANT',
            '2026-03-26\tEMI NABIL BANK\t\t21000\t\t\t\tNabil Bank',
            '',
            'FIELD\tVALUE',
            'model\tv3',
          ),
        );
      }
    },
  );

  it.each(MODES)(
    'consents create and connect exchange: a reply without the secret is shown with no warning, for $mode',
    async ({ tty }) => {
      const consent = await run(command('consents create'), {
        tty,
        reply: { body: { id: CONSENT_ID, status: 'pending_approval' } },
      });
      expect(consent.code).toBe(0);
      expect(consent.stderr).toBe('');
      expect(plain(consent.stdout)).toMatch(
        tty ? /^Status +pending_approval$/m : /^status\tpending_approval$/m,
      );
      if (!tty) expect(consent.stdout).toMatch(/^token\t$/m);
      const exchange = await run(command('connect exchange'), {
        tty,
        reply: {
          body: { grant_id: GRANT_ID, scopes: 'identity', expires_at: '2026-08-01T00:00:00Z' },
        },
      });
      expect(exchange.code).toBe(0);
      expect(exchange.stderr).toBe('');
      expect(plain(exchange.stdout)).toMatch(tty ? /^Scopes +identity$/m : /^scopes\tidentity$/m);
      expect(plain(exchange.stdout)).toMatch(
        tty
          ? /^Expires at +2026-08-01 00:00 UTC \(in 2 months\)$/m
          : /^expires_at\t2026-08-01 00:00 UTC$/m,
      );
    },
  );

  it.each(MODES)(
    'consents data and grants data: data that is no object is shown whole; a scope not listed still gets its section, for $mode',
    async ({ tty }) => {
      const flat = await run(command('consents data'), {
        tty,
        reply: { body: { scopes: ['identity'], data: 'withheld' } },
      });
      expect(flat.code).toBe(0);
      expect(plain(flat.stdout)).toMatch(tty ? /^Data +withheld$/m : /^data\twithheld$/m);
      const extra = await run(command('grants data'), {
        tty,
        reply: {
          body: {
            scopes: ['identity'],
            data: { identity: { account_holder: 'RAM' }, balance: { trend: 'growing' } },
          },
        },
      });
      expect(extra.code).toBe(0);
      expect(plain(extra.stdout)).toMatch(/^Balance\n/m);
      expect(plain(extra.stdout)).toMatch(tty ? /^Trend +growing$/m : /^trend\tgrowing$/m);
    },
  );

  it.each(MODES)(
    'decisions list: a top-level list, no decisions, and `data` of another type, for $mode',
    async ({ tty }) => {
      const c = command('decisions list');
      const top = await run(c, { tty, reply: { body: [{ id: 'dec_1', decision: 'review' }] } });
      expect(plain(top.stdout)).toMatch(
        tty ? /│ review +│ dec_1 │/ : /^DECISION\tID\nreview\tdec_1\n$/,
      );
      const none = await run(c, { tty, reply: { body: { data: [] } } });
      expect(none.code).toBe(0);
      if (tty) expect(plain(none.stdout)).toBe('No decisions.\n');
      const odd = await run(c, { tty, reply: { body: { data: 'none' } } });
      expect(plain(odd.stdout)).toMatch(tty ? /^Data +none$/m : /^FIELD\tVALUE\ndata\tnone\n$/);
      // Records: the reply as one record when it has no list.
      const ndjson = await run(c, {
        tty,
        argv: [...c.argv, '-o', 'ndjson'],
        reply: { body: { data: 'none' } },
      });
      expect(ndjson.stdout).toBe('{"data":"none"}\n');
    },
  );
});

describe('checks made before any request (exit 2)', () => {
  const CASES: Array<[string[], RegExp]> = [
    [
      ['reports', 'transactions', ID, '--limit', '0'],
      /^error: --limit takes a whole number from 1 to 1000, not "0"$/,
    ],
    [
      ['reports', 'transactions', ID, '--limit', '1001'],
      /^error: --limit takes a whole number from 1 to 1000/,
    ],
    [
      ['reports', 'transactions', ID, '--since', '2026-02-30'],
      /^error: --since 2026-02-30 is no date of the calendar/,
    ],
    [
      ['reports', 'transactions', ID, '--until', '2026-3-1'],
      /^error: --until takes a date written YYYY-MM-DD/,
    ],
    [
      ['reports', 'transactions', ID, '--since', '2026-03-01', '--until', '2026-02-01'],
      /^error: --since 2026-03-01 comes after --until 2026-02-01/,
    ],
    [['reports', 'transactions', ID, '--category', 'food'], /^error: .*--category.*\bfood\b/],
    [['reports', 'transactions', ID, '--direction', 'in'], /^error: .*--direction.*\bin\b/],
    [
      ['reports', 'transactions', ID, '--merchant-category', 'fast food'],
      /^error: --merchant-category takes one word/,
    ],
    [['reports', 'income', 'a/b'], /^error: the report id "a\/b" must not contain/],
    [['reports', 'balance', '..'], /^error: the report id "\.\." is not an id/],
    [['reports', 'liabilities', ''], /^error: the report id is empty$/],
    [['reports', 'score', 'a b'], /^error: the report id "a b" must not contain/],
    [['reports', 'verify', 'a#b'], /^error: the report id "a#b" must not contain/],
    [
      [
        'reports',
        'underwrite',
        ID,
        '--principal',
        '0',
        '--tenor-months',
        '36',
        '--annual-rate',
        '12',
      ],
      /^error: --principal takes the loan amount, a number above 0/,
    ],
    [
      [
        'reports',
        'underwrite',
        ID,
        '--principal',
        '5,00,000',
        '--tenor-months',
        '36',
        '--annual-rate',
        '12',
      ],
      /^error: --principal .*without grouping commas/,
    ],
    [
      [
        'reports',
        'underwrite',
        ID,
        '--principal',
        '500000',
        '--tenor-months',
        '601',
        '--annual-rate',
        '12',
      ],
      /^error: --tenor-months takes a whole number from 1 to 600/,
    ],
    [
      [
        'reports',
        'underwrite',
        ID,
        '--principal',
        '500000',
        '--tenor-months',
        '36',
        '--annual-rate',
        '101',
      ],
      /^error: --annual-rate takes the yearly interest rate in percent, from 0 to 100/,
    ],
    [
      ['reports', 'underwrite', ID, ...LOAN, '--foir-ceiling', '50'],
      /^error: --foir-ceiling .*\(for 50% write 0\.5\)$/,
    ],
    [
      ['reports', 'underwrite', ID, ...LOAN, '--foir-ceiling', '0'],
      /^error: --foir-ceiling takes a fraction above 0 and at most 1/,
    ],
    [
      ['reports', 'underwrite', ID, '--principal', '500000', '--tenor-months', '36'],
      /^error: .*--annual-rate\b/,
    ],
    [['enrich'], /^error: .*--file\b/],
    [
      ['enrich', '--file', '/nonexistent/transactions.csv'],
      /^error: cannot read --file \/nonexistent\/transactions\.csv: no such file/,
    ],
    [
      ['consents', 'create', ID, '--scopes', 'identity,balance'],
      /^error: --scopes takes scopes from identity, income, liabilities, verify, transactions, not "balance"$/,
    ],
    [['consents', 'create', ID, '--scopes', ','], /^error: --scopes is empty/],
    [
      ['consents', 'create', ID, '--scopes', 'income', '--expires-in-days', '366'],
      /^error: --expires-in-days takes a whole number from 1 to 365/,
    ],
    [
      ['consents', 'create', ID, '--scopes', 'income', '--grantee-label', ' '],
      /^error: --grantee-label is empty/,
    ],
    [
      ['consents', 'create', '../x', '--scopes', 'income'],
      /^error: the report id "\.\.\/x" must not contain/,
    ],
    [['consents', 'revoke', '..'], /^error: the consent id "\.\." is not an id/],
    [['consents', 'data', CONSENT_ID], /^error: .*--token\b/],
    [['consents', 'data', CONSENT_ID, '--token', ''], /^error: --token is empty$/],
    [
      ['consents', 'data', CONSENT_ID, '--token', 'cst_a\nb'],
      /^error: --token contains a control character/,
    ],
    [['connect', 'exchange', ' '], /^error: the public token is empty$/],
    [
      ['grants', 'data', GRANT_ID],
      /^error: no access token: pass --access-token or set SVC_ACCESS_TOKEN$/,
    ],
    [
      ['grants', 'data', 'a?b', '--access-token', ACCESS_TOKEN],
      /^error: the grant id "a\?b" must not contain/,
    ],
    [
      ['decisions', 'record', '--client-reference-id', 'loan-1', '--decision', 'approve'],
      /^error: --decision takes one of approved, review, declined, not "approve"$/,
    ],
    [
      ['decisions', 'record', '--client-reference-id', ' ', '--decision', 'approved'],
      /^error: --client-reference-id is empty/,
    ],
    [
      [
        'decisions',
        'record',
        '--client-reference-id',
        'loan-1',
        '--decision',
        'approved',
        '--amount',
        '-5',
      ],
      /^error: --amount takes a positive number, such as 250000, not "-5"$/,
    ],
    [
      [
        'decisions',
        'record',
        '--client-reference-id',
        'loan-1',
        '--decision',
        'approved',
        '--report-id',
        'a/b',
      ],
      /^error: the report id "a\/b" must not contain/,
    ],
    [['decisions', 'list', '--limit', '201'], /^error: --limit takes a whole number from 1 to 200/],
    [
      ['decisions', 'list', '--outcome', 'paid'],
      /^error: --outcome takes one of repaid, delinquent, defaulted, written_off, not "paid"$/,
    ],
    [
      ['decisions', 'outcome', '--client-reference-id', 'loan-1', '--outcome', 'paid'],
      /^error: --outcome takes one of repaid, delinquent, defaulted, written_off/,
    ],
    [['decisions', 'outcome', '--outcome', 'repaid'], /^error: .*--client-reference-id\b/],
  ];
  const cases = CASES.flatMap(([argv, message]) =>
    MODES.map(({ mode, tty }) => ({ argv, message, mode, tty })),
  );

  it.each(cases)('svc $argv refuses, for $mode', async ({ argv, message, tty }) => {
    expectRefused(await svc(argv, { tty }), message);
  });

  it('absent options are left out of the query and the body', async () => {
    const transactions = new FakeService().expect('GET', `/v1/reports/${ID}/transactions`, {
      body: TRANSACTIONS,
    });
    expect((await svc(['reports', 'transactions', ID], { service: transactions })).code).toBe(0);
    const list = new FakeService().expect('GET', '/v1/decisions', { body: DECISIONS });
    expect((await svc(['decisions', 'list'], { service: list })).code).toBe(0);
    const underwrite = await svc(['reports', 'underwrite', ID, ...LOAN, '--json'], {
      service: new FakeService().expect('POST', `/v1/reports/${ID}/underwriting`, {
        body: UNDERWRITING,
      }),
    });
    expect(underwrite.requests[0]!.json).toEqual({
      loan: { principal: 500000, tenor_months: 36, annual_rate_pct: 12.5 },
    });
    const consent = await svc(
      ['consents', 'create', ID, '--scopes', 'income, identity,income', '--json'],
      { service: new FakeService().expect('POST', '/v1/consents', { body: CONSENT }) },
    );
    expect(consent.requests[0]!.json).toEqual({ report_id: ID, scopes: ['income', 'identity'] });
    const decision = await svc(
      ['decisions', 'record', '--client-reference-id', 'loan-1', '--decision', 'review', '--json'],
      {
        service: new FakeService().expect('POST', '/v1/decisions', { body: DECISION }),
      },
    );
    expect(decision.requests[0]!.json).toEqual({
      client_reference_id: 'loan-1',
      decision: 'review',
    });
    const outcome = await svc(
      ['decisions', 'outcome', '--client-reference-id', 'loan-1', '--outcome', 'repaid', '--json'],
      {
        service: new FakeService().expect('POST', '/v1/outcomes', { body: OUTCOME }),
      },
    );
    expect(outcome.requests[0]!.json).toEqual({ client_reference_id: 'loan-1', outcome: 'repaid' });
  });
});

describe('enrich reads its transactions from a file or stdin', () => {
  const dir = () => {
    const path = join(scratchDir(), 'enrich');
    mkdirSync(path, { recursive: true });
    return path;
  };
  const write = (name: string, content: string) => {
    const path = join(dir(), name);
    writeFileSync(path, content);
    return path;
  };
  const enrich = (file: string, options: { stdin?: string; tty?: boolean } = {}) =>
    svc(['enrich', '--file', file, '--json'], {
      ...options,
      service: new FakeService().expect('POST', '/v1/enrich', { body: ENRICH }),
    });

  it.each(MODES)(
    'a CSV file (header row, columns in any order), a JSON list, a JSON object holding transactions, and stdin all send the same body, for $mode',
    async ({ tty }) => {
      const csv = write('transactions.csv', ENRICH_CSV);
      const reordered = write(
        'reordered.csv',
        '\uFEFFBalance,Date,Description,Debit,Credit\r\n145200,2026-03-25,SALARY LEAPFROG MAR 2026,,72000\r\n\r\n124200,2026-03-26,EMI NABIL BANK HOME LOAN,21000,\r\n',
      );
      const list = write('transactions.json', JSON.stringify(ENRICH_SENT.transactions));
      const object = write(
        'export.json',
        JSON.stringify(
          { exported_at: '2026-05-22', transactions: ENRICH_SENT.transactions },
          null,
          2,
        ),
      );
      for (const result of [
        await enrich(csv, { tty }),
        await enrich(reordered, { tty }),
        await enrich(list, { tty }),
        await enrich(object, { tty }),
        await enrich('-', { tty, stdin: ENRICH_CSV }),
        await enrich('-', { tty, stdin: JSON.stringify(ENRICH_SENT) }),
      ]) {
        expect(result.code, result.stderr).toBe(0);
        expect(result.requests[0]!.json).toEqual(ENRICH_SENT);
      }
    },
  );

  it('other fields of a JSON transaction go as given; a null credit or debit is left out', async () => {
    const file = write(
      'extra.json',
      JSON.stringify([
        {
          date: '2026-03-25',
          description: 'SALARY',
          credit: 72000,
          debit: null,
          balance: 145200,
          ref: 'R1',
        },
      ]),
    );
    const result = await enrich(file);
    expect(result.requests[0]!.json).toEqual({
      transactions: [
        { date: '2026-03-25', description: 'SALARY', credit: 72000, balance: 145200, ref: 'R1' },
      ],
    });
  });

  it.each(MODES)(
    'the first bad transaction is named by its CSV line or JSON index, and nothing is sent, for $mode',
    async ({ tty }) => {
      const cases: Array<[string, RegExp]> = [
        [
          write(
            'bad-date.csv',
            'date,description,credit,debit,balance\n2026-03-25,SALARY,72000,,145200\n2026-02-30,EMI,,21000,124200\n',
          ),
          /^error: \S+bad-date\.csv, line 3: date "2026-02-30" is not a date of the form YYYY-MM-DD$/,
        ],
        [
          write(
            'both.csv',
            'date,description,credit,debit,balance\n2026-03-25,SALARY,72000,5,145200\n',
          ),
          /^error: \S+both\.csv, line 2: both credit and debit are given/,
        ],
        [
          write(
            'amount.csv',
            'date,description,credit,debit,balance\n2026-03-25,SALARY,"72,000",,145200\n',
          ),
          /^error: \S+amount\.csv, line 2: credit "72,000" is not a number/,
        ],
        [
          write('header.csv', 'when,what,amount\n2026-03-25,SALARY,72000\n'),
          /^error: the header row of \S+header\.csv has no column "date", "description", "balance", "credit" or "debit"/,
        ],
        [
          write('empty.csv', 'date,description,credit,debit,balance\n'),
          /^error: \S+empty\.csv holds no transactions \(give 1 to 5000\)$/,
        ],
        [
          write(
            'index.json',
            JSON.stringify([
              ENRICH_SENT.transactions[0],
              { date: '2026-03-26', description: 'EMI', debit: '21000', balance: 1 },
            ]),
          ),
          /^error: \S+index\.json, index 1: debit should be a number, not a text/,
        ],
        [
          write('shape.json', '{"rows": []}'),
          /^error: \S+shape\.json: the JSON is neither a list of transactions nor an object holding "transactions"$/,
        ],
        [write('broken.json', '[{"date": '), /^error: cannot read \S+broken\.json as JSON: /],
        [
          write(
            'many.json',
            JSON.stringify(Array.from({ length: 5001 }, () => ENRICH_SENT.transactions[0])),
          ),
          /^error: \S+many\.json holds 5001 transactions; enrich takes at most 5000 per call$/,
        ],
      ];
      for (const [file, message] of cases)
        expectRefused(await svc(['enrich', '--file', file], { tty }), message);
      expectRefused(
        await svc(['enrich', '--file', '-'], {
          tty,
          stdin: 'date,description,credit,debit,balance\n2026-03-25,,72000,,145200\n',
        }),
        /^error: stdin, line 2: the description is empty$/,
      );
    },
  );
});

/** stderr without its warning lines: a flag holding a secret is warned about before the error. */
const withoutWarnings = (stderr: string): string =>
  stderr
    .split('\n')
    .filter((line) => !line.startsWith('warning: '))
    .join('\n');

describe('consents data, connect exchange, grants data: tokens are secrets', () => {
  const data = command('consents data');
  const grants = command('grants data');
  const exchange = command('connect exchange');

  it('consents data needs no key and no config, only the base URL; without one it is exit 2', async () => {
    const result = await run(data, {
      env: { SVC_API_KEY: undefined, SVC_CONFIG_DIR: join(scratchDir(), 'no-config') },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.requests[0]!.headers).not.toHaveProperty('authorization');
    // With a key configured, still none is sent.
    const keyed = await run(data, { env: { SVC_API_KEY: KEY } });
    expect(keyed.requests[0]!.headers).not.toHaveProperty('authorization');
    expectRefused(
      await svc(data.argv, {
        env: { SVC_BASE_URL: undefined, SVC_API_KEY: undefined, SVC_CONSENT_TOKEN: TOKEN },
      }),
      /^error: no base URL configured$/,
    );
  });

  it.each(MODES)(
    'consents data: the --debug trace masks the token in the query, for $mode',
    async ({ tty }) => {
      const result = await run(data, { tty, argv: [...data.argv, '--debug'] });
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(
        new RegExp(
          `^debug: → GET https://svc\\.test/v1/consents/${CONSENT_ID}/data\\?token=…7e6f key=none$`,
          'm',
        ),
      );
      expect(result.stderr).toMatch(
        new RegExp(
          `^debug: ← 200 GET https://svc\\.test/v1/consents/${CONSENT_ID}/data\\?token=…7e6f `,
          'm',
        ),
      );
      expect(result.stderr).not.toContain(TOKEN);
    },
  );

  it.each(MODES)(
    'consents data: a wrong token (401) is exit 3, a revoked consent (403 consent_inactive) exit 4, the token masked in both, for $mode',
    async ({ tty }) => {
      const wrong = await run(data, {
        tty,
        reply: {
          status: 401,
          body: envelope(
            'AUTHENTICATION_ERROR',
            'INVALID_CONSENT_TOKEN',
            `The token ${TOKEN} does not open this consent.`,
          ),
        },
      });
      expectFailure(
        wrong,
        3,
        'error: INVALID_CONSENT_TOKEN: The token …7e6f does not open this consent.',
      );
      expect(wrong.stderr).toContain(
        'This request sends no API key: the token alone opens the data.',
      );
      expect(wrong.stderr).not.toContain('svc login');
      const revoked = await run(data, {
        tty,
        reply: {
          status: 403,
          body: envelope(
            'PERMISSION_ERROR',
            'consent_inactive',
            `Consent '${CONSENT_ID}' was revoked.`,
            { suggested_action: `Ask the report owner for a new consent than ${TOKEN}.` },
          ),
        },
      });
      expectFailure(revoked, 4, `error: consent_inactive: Consent '${CONSENT_ID}' was revoked.`);
      for (const result of [wrong, revoked]) expect(result.stderr).not.toContain(TOKEN);
      // With --json, the envelope on a script's stderr, the error line on a person's: masked both
      // ways.
      const json = await run(data, {
        tty,
        argv: [...data.argv, '--json'],
        reply: {
          status: 401,
          body: envelope('AUTHENTICATION_ERROR', 'INVALID_CONSENT_TOKEN', `Bad ${TOKEN}.`),
        },
      });
      expect(json.code).toBe(3);
      expect(json.stderr).not.toContain(TOKEN);
      if (tty) expect(json.stderr.split('\n')[0]).toBe('error: INVALID_CONSENT_TOKEN: Bad …7e6f.');
      else expect(JSON.parse(json.stderr).error_code).toBe('INVALID_CONSENT_TOKEN');
    },
  );

  it.each(MODES)(
    'grants data: the access token from SVC_ACCESS_TOKEN or --access-token, in its header only, never in the trace or an error, for $mode',
    async ({ tty }) => {
      const traced = await run(grants, { tty, argv: [...grants.argv, '--debug'] });
      expect(traced.code).toBe(0);
      expect(traced.stderr).toMatch(
        new RegExp(
          `^debug: → GET https://svc\\.test/v1/grants/${GRANT_ID}/data key=svc_sk_test_…eeff$`,
          'm',
        ),
      );
      expect(traced.stderr).not.toContain(ACCESS_TOKEN);
      // The flag wins over the environment; an empty variable is no token.
      const other = 'cat_ffeeddccbbaa99887766554433221100';
      const flagged = await run(grants, { tty, argv: [...grants.argv, '--access-token', other] });
      expect(flagged.requests[0]!.headers['x-svc-access-token']).toBe(other);
      expectRefused(
        await svc(grants.argv, { tty, env: { SVC_ACCESS_TOKEN: '' } }),
        /^error: no access token/,
      );
      // A service echoing the token in its error: masked, whether it came from the environment or
      // the flag.
      const echo = (token: string): FakeReply => ({
        status: 401,
        body: envelope(
          'AUTHENTICATION_ERROR',
          'INVALID_ACCESS_TOKEN',
          `The access token ${token} does not open this grant.`,
        ),
      });
      const refused = await run(grants, { tty, reply: echo(ACCESS_TOKEN) });
      expectFailure(
        refused,
        3,
        'error: INVALID_ACCESS_TOKEN: The access token …e8f9 does not open this grant.',
      );
      expect(refused.stderr).not.toContain(ACCESS_TOKEN);
      // The advice names the access token, not the key.
      expect(unwrapped(refused.stderr)).toContain(
        'The service refused the access token (--access-token or SVC_ACCESS_TOKEN), not the key',
      );
      expect(refused.stderr).not.toMatch(/svc whoami|svc login/);
      const refusedFlag = await run(grants, {
        tty,
        argv: [...grants.argv, '--access-token', other, '--debug'],
        env: { SVC_ACCESS_TOKEN: undefined },
        reply: echo(other),
      });
      expectFailure(
        refusedFlag,
        3,
        'error: INVALID_ACCESS_TOKEN: The access token …1100 does not open this grant.',
        withoutWarnings,
      );
      expect(refusedFlag.stderr).toMatch(
        /^warning: --access-token is visible to other users of this machine; prefer SVC_ACCESS_TOKEN$/m,
      );
      expect(refusedFlag.stderr).not.toContain(other);
    },
  );

  it.each(MODES)(
    'consents data: the token from SVC_CONSENT_TOKEN, --token-stdin or --token (with a warning), never in full, for $mode',
    async ({ tty }) => {
      const bare = ['consents', 'data', CONSENT_ID];
      const fromEnv = await run(data, { tty, argv: [...bare, '--debug'] });
      expect(fromEnv.code, fromEnv.stderr).toBe(0);
      expect(fromEnv.stderr).not.toMatch(/warning/);
      expect(fromEnv.stderr).not.toContain(TOKEN);

      const piped = await run(data, {
        tty,
        argv: [...bare, '--token-stdin'],
        env: { SVC_CONSENT_TOKEN: undefined },
        stdin: `${TOKEN}\n`,
      });
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.requests[0]!.url.searchParams.get('token')).toBe(TOKEN);
      expect(piped.stderr).toBe('');

      const flagged = await run(data, {
        tty,
        argv: [...bare, '--token', TOKEN],
        env: { SVC_CONSENT_TOKEN: undefined },
      });
      expect(flagged.code, flagged.stderr).toBe(0);
      expect(flagged.stderr).toBe(
        'warning: --token is visible to other users of this machine; prefer SVC_CONSENT_TOKEN or --token-stdin\n',
      );
    },
  );

  it.each(MODES)(
    'consents data: no token, two of them, or a pipe of more than a token: exit 2, nothing sent, for $mode',
    async ({ tty }) => {
      const bare = ['consents', 'data', CONSENT_ID];
      const env = { SVC_CONSENT_TOKEN: undefined, SVC_API_KEY: undefined };
      expectRefused(
        await svc(bare, { tty, env }),
        /^error: no consent token: set SVC_CONSENT_TOKEN, or pass --token-stdin \(or --token/,
      );
      expectRefused(
        await svc([...bare, '--token', TOKEN, '--token-stdin'], { tty, env, stdin: TOKEN }),
        /^error: --token and --token-stdin both give the consent token/,
      );
      expectRefused(
        await svc([...bare, '--token-stdin'], { tty, env, stdin: '' }),
        /^error: --token-stdin read nothing from standard input$/,
      );
      expectRefused(
        await svc([...bare, '--token-stdin'], { tty, env, stdin: 'x'.repeat(64 * 1024) }),
        /^error: --token-stdin read more than 16 KiB from standard input/,
      );
    },
  );

  it.each(MODES)(
    'connect exchange: the public token and the access token never in the trace; a refused token masked in the error, for $mode',
    async ({ tty }) => {
      const traced = await run(exchange, { tty, argv: [...exchange.argv, '--debug'] });
      expect(traced.code).toBe(0);
      expect(traced.stdout).toContain(ACCESS_TOKEN);
      expect(traced.stderr).toMatch(
        /^debug: → POST https:\/\/svc\.test\/v1\/connect\/exchange key=svc_sk_test_…eeff$/m,
      );
      expect(traced.stderr).not.toContain(PUBLIC_TOKEN);
      expect(traced.stderr).not.toContain(ACCESS_TOKEN);
      const refused = await run(exchange, {
        tty,
        reply: {
          status: 400,
          body: envelope(
            'INVALID_REQUEST_ERROR',
            'INVALID_PUBLIC_TOKEN',
            `The public token ${PUBLIC_TOKEN} was already exchanged.`,
          ),
        },
      });
      expectFailure(
        refused,
        6,
        'error: INVALID_PUBLIC_TOKEN: The public token …b1a0 was already exchanged.',
      );
      expect(refused.stderr).not.toContain(PUBLIC_TOKEN);
    },
  );

  it.each(MODES)(
    'consents create: the token in the reply, once; not in the --debug trace or the notes, for $mode',
    async ({ tty }) => {
      const c = command('consents create');
      const result = await run(c, { tty, argv: [...c.argv, '--debug'] });
      expect(result.code).toBe(0);
      expect(plain(result.stdout)).toContain(TOKEN);
      expect(result.stderr).toMatch(/^debug: ← 200 POST https:\/\/svc\.test\/v1\/consents /m);
      expect(result.stderr).toMatch(/^warning: this token gives whoever holds it/m);
      expect(result.stderr).not.toContain(TOKEN);
    },
  );
});
