// `svc reports list|get|match|auth|identity|counterparties|recurring` and the shortcuts
// `svc match|auth|recurring`, in-process, as a person at a terminal and as a script: the request
// each sends, --json as received, the table for each, ndjson and CSV, the checks made before any
// request, the exit code of each API failure, and replies of a shape the command does not expect.
import { describe, expect, it } from 'vitest';

import { envelope, expectRefused } from '../support/errors.js';
import { documented } from '../support/fixtures.js';
import {
  ANSI,
  asErrorLine,
  BOX,
  expectFailure,
  type FakeReply,
  FakeService,
  KEY,
  MODES,
  plain,
  svc,
  unwrapped,
  UUID,
} from '../support/in-process.js';
import { jsonLines } from '../support/json-lines.js';

/** The documented full report (the service's documentation, GET /v1/reports/{id}): id cl_abc123. */
const REPORT = documented('report');
const ID = 'cl_abc123';
/** The documented identity view. */
const IDENTITY = documented('identity');
const ERROR_FLAT = documented('error-flat');
const ERROR_NESTED = documented('error-nested');
const NEWER_TRANSACTION = documented('transaction-newer');

/** `GET /v1/reports`: the spec's `data` = [{report_id, status, bank_code, created_at}]. */
const LIST = {
  data: [
    {
      report_id: 'cl_abc123',
      status: 'complete',
      bank_code: 'NABIL',
      created_at: '2026-05-20T08:30:00Z',
    },
    {
      report_id: 'cl_def456',
      status: 'processing',
      bank_code: 'NIC_ASIA',
      created_at: '2026-05-21T09:15:00Z',
    },
    {
      report_id: 'cl_ghi789',
      status: 'failed',
      bank_code: 'NMB',
      created_at: '2026-05-22T07:00:00Z',
    },
  ],
};

/** The name-match result of the spec: match_score, result, statement_name, reasons. */
const MATCH = {
  match_score: 92,
  result: 'match',
  statement_name: 'RAM PRASAD SHARMA',
  reasons: ['Same words in another order', 'Initials match'],
};

// The auth, counterparties and recurring views: the documents name only `swift_note` and
// `verification_status` of them, so these are the names `svc mock` answers with.
const AUTH = {
  report_id: ID,
  account_holder: 'RAM PRASAD SHARMA',
  account_number: '09810017508391',
  bank_code: 'NABIL',
  bank_name: 'Nabil Bank',
  swift_bic: 'NARBNPKA',
  swift_note: null,
  verification_status: 'statement_parsed',
};
const AUTH_NO_SWIFT = {
  ...AUTH,
  bank_code: 'GARIMA',
  bank_name: 'Garima Bikas Bank',
  swift_bic: null,
  swift_note:
    'Garima Bikas Bank is a Class-B development bank; only Class-A commercial banks in Nepal hold a SWIFT/BIC.',
};
const COUNTERPARTIES = {
  report_id: ID,
  currency: 'NPR',
  total_inflow: 898676.55,
  total_outflow: 745256.8,
  by_type: [
    { type: 'merchant', inflow: 0, outflow: 100727.8, inflow_count: 0, outflow_count: 24 },
    { type: 'individual', inflow: 27658, outflow: 184014, inflow_count: 5, outflow_count: 8 },
  ],
  top_people: [
    {
      name: 'Krishna Prasad Joshi',
      type: 'individual',
      inflow: 0,
      outflow: 168000,
      transaction_count: 6,
    },
  ],
  top_merchants: [
    {
      name: 'Bhat-Bhateni Supermarket',
      type: 'merchant',
      inflow: 0,
      outflow: 42000.5,
      transaction_count: 9,
    },
  ],
};
const RECURRING = {
  report_id: ID,
  currency: 'NPR',
  inflow_streams: [
    {
      counterparty: 'Leapfrog Technology Pvt Ltd',
      category: 'salary',
      cadence: 'monthly',
      average_amount: 125000,
      occurrences: 6,
      status: 'MATURE',
      is_active: true,
      last_date: '2026-01-10',
      next_date: '2026-02-10',
    },
  ],
  outflow_streams: [
    {
      counterparty: 'Krishna Prasad Joshi',
      category: 'rent',
      cadence: 'monthly',
      average_amount: 28000,
      occurrences: 6,
      status: 'MATURE',
      is_active: true,
      last_date: '2025-12-18',
      next_date: '2026-01-18',
    },
    {
      counterparty: 'Netflix',
      category: 'subscription',
      cadence: 'monthly',
      average_amount: 1199,
      occurrences: 2,
      status: 'EARLY_DETECTION',
      is_active: false,
      last_date: '2025-11-02',
      next_date: null,
    },
  ],
};

const answering = (method: string, path: string, reply: FakeReply) =>
  new FakeService().expect(method, path, reply);

/** Text as one line: a terminal wraps what stderr says to its width. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * What `reports list` says on stderr when the reply has more reports than it holds, and no flag was
 * given.
 */
const MORE_REPORTS =
  'More reports exist than the 2 listed: --limit 100 lists up to 100, --status complete|processing|failed narrows the list.';

/** The blocks of a pipe table: parted by a blank line, each line split on tabs. */
function blocks(stdout: string): string[][][] {
  return stdout
    .replace(/\n+$/, '')
    .split('\n\n')
    .map((block) => block.split('\n').map((line) => line.split('\t')));
}

interface Command {
  name: string;
  argv: string[];
  method: 'GET' | 'POST';
  path: string;
  body: unknown;
}

/**
 * Every command of this file, with the request it sends and a reply of its documented (or mock)
 * shape.
 */
const COMMANDS: Command[] = [
  {
    name: 'reports list',
    argv: ['reports', 'list'],
    method: 'GET',
    path: '/v1/reports',
    body: LIST,
  },
  {
    name: 'reports get',
    argv: ['reports', 'get', ID],
    method: 'GET',
    path: `/v1/reports/${ID}`,
    body: REPORT,
  },
  {
    name: 'reports match',
    argv: ['reports', 'match', ID, '--name', 'Ram Prasad Sharma'],
    method: 'POST',
    path: `/v1/reports/${ID}/identity/match`,
    body: MATCH,
  },
  {
    name: 'match',
    argv: ['match', ID, '--name', 'Ram Prasad Sharma'],
    method: 'POST',
    path: `/v1/reports/${ID}/identity/match`,
    body: MATCH,
  },
  {
    name: 'reports auth',
    argv: ['reports', 'auth', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/auth`,
    body: AUTH,
  },
  { name: 'auth', argv: ['auth', ID], method: 'GET', path: `/v1/reports/${ID}/auth`, body: AUTH },
  {
    name: 'reports identity',
    argv: ['reports', 'identity', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/identity`,
    body: IDENTITY,
  },
  {
    name: 'reports counterparties',
    argv: ['reports', 'counterparties', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/counterparties`,
    body: COUNTERPARTIES,
  },
  {
    name: 'reports recurring',
    argv: ['reports', 'recurring', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/recurring`,
    body: RECURRING,
  },
  {
    name: 'recurring',
    argv: ['recurring', ID],
    method: 'GET',
    path: `/v1/reports/${ID}/recurring`,
    body: RECURRING,
  },
];

/** The commands that take a report id, and where the id sits in their arguments. */
const BY_ID = COMMANDS.filter((c) => c.argv.includes(ID));
const withId = (command: Command, id: string) => command.argv.map((arg) => (arg === ID ? id : arg));
const pathWithId = (command: Command, segment: string) =>
  command.path.replace(`/${ID}`, `/${segment}`);

describe('every command', () => {
  describe.each(COMMANDS)('svc $name', (command) => {
    it('sends its request with the key, asking for JSON', async () => {
      const { requests, code } = await svc([...command.argv, '--json'], {
        service: answering(command.method, command.path, { body: command.body }),
      });
      expect(code).toBe(0);
      expect(requests).toHaveLength(1);
      const [request] = requests;
      expect(request!.url.origin).toBe('https://svc.test');
      expect(request!.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request!.headers.accept).toBe('application/json');
      expect(request!.headers['user-agent']).toMatch(/^svc\/\S+ node\/\d+\.\d+\.\d+$/);
      if (command.method === 'GET') {
        expect(request!.body).toBeUndefined();
        expect(request!.headers).not.toHaveProperty('idempotency-key');
        expect(request!.headers).not.toHaveProperty('content-type');
      } else {
        expect(request!.headers['content-type']).toBe('application/json');
        expect(request!.headers['idempotency-key']).toMatch(UUID);
      }
    });

    it.each(MODES)('--json prints the body exactly as received, for $mode', async ({ tty }) => {
      // Key order, number spelling and an unknown field are kept: the raw text is re-indented, not
      // re-made.
      const raw = JSON.stringify(command.body).replace(
        /^\{/,
        '{"zeta_first":1.50,"big":12345678901234567890,',
      );
      const result = await svc([...command.argv, '--json'], {
        tty,
        service: answering(command.method, command.path, { raw }),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(plain(result.stdout)).toMatch(
        /^\{\n {2}"zeta_first": 1\.50,\n {2}"big": 12345678901234567890,\n/,
      );
      expect(JSON.parse(plain(result.stdout))).toEqual(JSON.parse(raw));
      // Coloured as gh colours JSON on a terminal, never in a pipe.
      if (tty) expect(result.stdout).toMatch(ANSI);
      else expect(result.stdout).not.toMatch(ANSI);
      // -o json is the same.
      const same = await svc([...command.argv, '-o', 'json'], {
        tty,
        service: answering(command.method, command.path, { raw }),
      });
      expect(same.stdout).toBe(result.stdout);
    });

    it.each(MODES)(
      'a table carries no colour and no box when NO_COLOR is set, for $mode',
      async ({ tty }) => {
        const result = await svc(command.argv, {
          tty,
          env: { NO_COLOR: '1' },
          service: answering(command.method, command.path, { body: command.body }),
        });
        expect(result.code).toBe(0);
        expect(result.stdout).not.toMatch(ANSI);
        expect(result.stdout).not.toBe('');
      },
    );

    it('a table for a script has no colour, no box drawing and no title', async () => {
      const result = await svc(command.argv, {
        service: answering(command.method, command.path, { body: command.body }),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).not.toMatch(ANSI);
      expect(result.stdout).not.toMatch(BOX);
      // Every block starts with its header line (tab-separated), or a heading when there are
      // several.
      expect(result.stdout.split('\n')[0]).toContain('\t');
      expect(result.stdout).not.toMatch(/of cl_abc123/);
    });

    it('a body that is not JSON is an unexpected reply (exit 10)', async () => {
      const result = await svc(command.argv, {
        service: answering(command.method, command.path, {
          raw: '<html>maintenance</html>',
          headers: { 'content-type': 'text/html' },
        }),
      });
      expectFailure(
        result,
        10,
        /^error: (GET|POST) \/v1\/reports\S* answered 200 with a body that is not JSON: "<html>maintenance<\/html>"$/,
      );
    });
  });
});

interface Failure {
  what: string;
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  exit: number;
  line: string;
  /** Retried (GET and POST alike): three attempts, these waits between them. */
  waits?: number[];
}

const FAILURES: Failure[] = [
  {
    what: '401 (flat envelope)',
    status: 401,
    body: ERROR_FLAT,
    exit: 3,
    line: 'error: INVALID_API_KEY: Unknown API key.',
  },
  {
    what: '401 (nested envelope)',
    status: 401,
    body: ERROR_NESTED,
    exit: 3,
    line: 'error: INVALID_API_KEY: Key does not exist.',
  },
  {
    what: '403',
    status: 403,
    body: envelope('PERMISSION_ERROR', 'INSUFFICIENT_SCOPE', 'This key may not do that.'),
    exit: 4,
    line: 'error: INSUFFICIENT_SCOPE: This key may not do that.',
  },
  {
    what: '404',
    status: 404,
    body: envelope('INVALID_REQUEST_ERROR', 'REPORT_NOT_FOUND', 'No report cl_abc123.'),
    exit: 5,
    line: 'error: REPORT_NOT_FOUND: No report cl_abc123.',
  },
  {
    what: '409 (report still processing)',
    status: 409,
    body: envelope('INVALID_REQUEST_ERROR', 'REPORT_NOT_READY', 'The report is still processing.'),
    exit: 6,
    line: 'error: REPORT_NOT_READY: The report is still processing.',
  },
  {
    what: '400 (failed report)',
    status: 400,
    body: envelope(
      'INVALID_REQUEST_ERROR',
      'DOCUMENT_PARSE_FAILED',
      'The document could not be parsed.',
    ),
    exit: 6,
    line: 'error: DOCUMENT_PARSE_FAILED: The document could not be parsed.',
  },
  {
    what: '422',
    status: 422,
    body: envelope('INVALID_REQUEST_ERROR', 'INVALID_REQUEST', 'Something is off.'),
    exit: 6,
    line: 'error: INVALID_REQUEST: Something is off.',
  },
  {
    what: '429 after retries',
    status: 429,
    body: envelope('RATE_LIMIT_ERROR', 'RATE_LIMITED', 'Slow down.'),
    headers: { 'retry-after': '3' },
    exit: 7,
    line: 'error: RATE_LIMITED: Slow down.',
    waits: [3000, 3000],
  },
  {
    what: '503 after retries',
    status: 503,
    body: envelope('API_ERROR', 'API_ERROR', 'Try again later.'),
    exit: 8,
    line: 'error: API_ERROR: Try again later.',
    waits: [375, 750],
  },
  {
    what: '502 with an HTML page, after retries',
    status: 502,
    body: {},
    exit: 8,
    line: 'error: HTTP_502: 502 Bad Gateway, after 3 attempts: a gateway or proxy in front of the service got no valid reply from it (the body is no error from the service: "<html>bad gateway</html>")',
    waits: [375, 750],
  },
];

function failing(command: Command, failure: Failure): FakeService {
  const service = new FakeService();
  const reply: FakeReply =
    failure.status === 502
      ? { status: 502, raw: '<html>bad gateway</html>', headers: { 'content-type': 'text/html' } }
      : { status: failure.status, body: failure.body, headers: failure.headers };
  for (let i = 0; i < (failure.waits ? 3 : 1); i++)
    service.expect(command.method, command.path, reply);
  return service;
}

describe('API failures', () => {
  const cases = COMMANDS.flatMap((command) =>
    FAILURES.flatMap((failure) => MODES.map(({ mode, tty }) => ({ command, failure, mode, tty }))),
  );

  it.each(cases)(
    'svc $command.name, $failure.what → exit $failure.exit, for $mode',
    async ({ command, failure, tty }) => {
      const result = await svc(command.argv, { tty, service: failing(command, failure) });
      expectFailure(result, failure.exit, failure.line);
      expect(result.waits).toEqual(failure.waits ?? []);
      if (typeof failure.body.request_id === 'string')
        expect(result.stderr).toContain(`Request ID: ${failure.body.request_id}`);
      if (command.method === 'POST' && failure.waits) {
        // One request, retried under one Idempotency-Key.
        const keys = result.requests.map((r) => r.headers['idempotency-key']);
        expect(keys[0]).toMatch(UUID);
        expect(new Set(keys).size).toBe(1);
      }
    },
  );

  it.each(COMMANDS)(
    'svc $name --json: stderr is the error envelope as one compact line',
    async (command) => {
      const failure = FAILURES[2]!;
      const result = await svc([...command.argv, '--json'], { service: failing(command, failure) });
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(JSON.stringify(failure.body) + '\n');
    },
  );

  it('a 401 without a suggested action hints at svc login; the documented one gives its own advice and docs', async () => {
    const bare = await svc(['reports', 'list'], {
      service: answering('GET', '/v1/reports', {
        status: 401,
        body: envelope('AUTHENTICATION_ERROR', 'INVALID_API_KEY', 'Unknown API key.'),
      }),
    });
    expect(bare.stderr).toContain('svc login');
    const documentedOne = await svc(['reports', 'list'], {
      service: answering('GET', '/v1/reports', { status: 401, body: ERROR_FLAT }),
    });
    expect(documentedOne.stderr.split('\n').slice(0, 4)).toEqual([
      'error: INVALID_API_KEY: Unknown API key.',
      'Check your API key in the Authorization header.',
      'Docs: {docs_url}/concepts/errors#invalid_api_key',
      'Request ID: req_8f3c9b2e4a1d4f7c9e0b1a2c3d4e5f60',
    ]);
  });

  it('a 500 is not retried (exit 8 at once)', async () => {
    const result = await svc(['reports', 'get', ID], {
      service: answering('GET', `/v1/reports/${ID}`, {
        status: 500,
        body: envelope('API_ERROR', 'API_ERROR', 'Boom.'),
      }),
    });
    expectFailure(result, 8, 'error: API_ERROR: Boom.');
    expect(result.waits).toEqual([]);
  });

  it('a 503 then a success: the reply of the retry is shown', async () => {
    const service = new FakeService()
      .expect('GET', `/v1/reports/${ID}/identity`, {
        status: 503,
        body: envelope('API_ERROR', 'API_ERROR', 'Busy.'),
        headers: { 'retry-after': '2' },
      })
      .expect('GET', `/v1/reports/${ID}/identity`, { body: IDENTITY });
    const result = await svc(['reports', 'identity', ID], { service });
    expect(result.code).toBe(0);
    expect(result.waits).toEqual([2000]);
    expect(result.stdout).toMatch(/^account_holder\tRAM PRASAD SHARMA$/m);
  });
});

describe('report ids are checked before any request', () => {
  const BAD_IDS: Array<[string, RegExp]> = [
    ['..', /^error: the report id "\.\." is not an id/],
    ['.', /^error: the report id "\." is not an id/],
    ['a/b', /^error: the report id "a\/b" must not contain \/ \\ \? # or white space$/],
    ['../usage', /^error: the report id "\.\.\/usage" must not contain/],
    ['a?b', /^error: the report id "a\?b" must not contain/],
    ['a#b', /^error: the report id "a#b" must not contain/],
    ['a b', /^error: the report id "a b" must not contain/],
    ['a\tb', /^error: the report id "a b" must not contain/],
    ['a\nb', /^error: the report id "a b" must not contain/],
    [' ', /^error: the report id " " must not contain/],
    ['', /^error: the report id is empty$/],
  ];
  const cases = BY_ID.flatMap((command) =>
    BAD_IDS.flatMap(([id, message]) =>
      MODES.map(({ mode, tty }) => ({ command, id, message, mode, tty })),
    ),
  );

  it.each(cases)(
    'svc $command.name refuses the id $id (exit 2), for $mode',
    async ({ command, id, message, tty }) => {
      expectRefused(await svc(withId(command, id), { tty }), message);
    },
  );

  it.each(BY_ID)('svc $name sends the id as one URL-encoded path segment', async (command) => {
    for (const [id, segment] of [
      ['rpt_%41', 'rpt_%2541'],
      ['rapport_é', 'rapport_%C3%A9'],
      ['a+b:c', 'a%2Bb%3Ac'],
    ]) {
      const result = await svc([...withId(command, id!), '--json'], {
        service: answering(command.method, pathWithId(command, segment!), { body: command.body }),
      });
      expect(result.code, result.stderr).toBe(0);
    }
  });
});

describe('svc reports list', () => {
  const list = (path: string, body: unknown = LIST) => answering('GET', path, { body });

  it('sends --limit and --status as the query, and nothing when they are absent', async () => {
    expect(
      (
        await svc(['reports', 'list', '--limit', '5', '--status', 'complete'], {
          service: list('/v1/reports?limit=5&status=complete'),
        })
      ).code,
    ).toBe(0);
    expect(
      (
        await svc(['reports', 'list', '--status', 'failed', '--limit', '100'], {
          service: list('/v1/reports?limit=100&status=failed'),
        })
      ).code,
    ).toBe(0);
    expect(
      (await svc(['reports', 'list', '--limit', '1'], { service: list('/v1/reports?limit=1') }))
        .code,
    ).toBe(0);
    expect(
      (
        await svc(['reports', 'list', '--status', 'processing'], {
          service: list('/v1/reports?status=processing'),
        })
      ).code,
    ).toBe(0);
    expect((await svc(['reports', 'list'], { service: list('/v1/reports') })).code).toBe(0);
  });

  it('gives a script one header line, then one tab-separated line per report', async () => {
    const result = await svc(['reports', 'list'], { service: list('/v1/reports') });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'ID\tSTATUS\tBANK\tCREATED',
        'cl_abc123\tcomplete\tNABIL\t2026-05-20 08:30 UTC',
        'cl_def456\tprocessing\tNIC_ASIA\t2026-05-21 09:15 UTC',
        'cl_ghi789\tfailed\tNMB\t2026-05-22 07:00 UTC',
      ].join('\n') + '\n',
    );
  });

  it('shows a person a boxed table with a coloured header and states', async () => {
    const result = await svc(['reports', 'list'], { tty: true, service: list('/v1/reports') });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(plain(result.stdout)).toBe(
      [
        '┌───────────┬────────────┬──────────┬───────────────────────────────────┐',
        '│ ID        │ STATUS     │ BANK     │ CREATED                           │',
        '├───────────┼────────────┼──────────┼───────────────────────────────────┤',
        '│ cl_abc123 │ complete   │ NABIL    │ 2026-05-20 08:30 UTC (2 days ago) │',
        '│ cl_def456 │ processing │ NIC_ASIA │ 2026-05-21 09:15 UTC (1 day ago)  │',
        '│ cl_ghi789 │ failed     │ NMB      │ 2026-05-22 07:00 UTC (3 h ago)    │',
        '└───────────┴────────────┴──────────┴───────────────────────────────────┘',
      ].join('\n') + '\n',
    );
    expect(result.stdout).toContain('\u001b[32mcomplete\u001b[39m');
    expect(result.stdout).toContain('\u001b[33mprocessing\u001b[39m');
    expect(result.stdout).toContain('\u001b[31mfailed\u001b[39m');
    expect(result.stdout).toMatch(/\u001b\[1m\u001b\[36mID\u001b\[39m\u001b\[22m/);
  });

  it.each(MODES)(
    'reads bank_code inside a `statement` too, and shows fields no document names, for $mode',
    async ({ tty }) => {
      const body = {
        data: [
          {
            report_id: 'cl_1',
            status: 'complete',
            statement: { bank_code: 'KUMARI' },
            created_at: '2026-05-20T08:30:00Z',
            pages: 3,
          },
          { report_id: 'cl_2', status: 'weird', bank_code: 'NMB' },
        ],
        has_more: true,
      };
      const result = await svc(['reports', 'list'], { tty, service: list('/v1/reports', body) });
      expect(result.code).toBe(0);
      // has_more is said on stderr with the way to the rest, on a terminal (wrapped to its width)
      // and in a pipe alike.
      expect(oneLine(result.stderr)).toBe(MORE_REPORTS);
      if (tty) {
        const screen = plain(result.stdout);
        expect(screen).toMatch(
          /│ cl_1 +│ complete +│ KUMARI +│ 2026-05-20 08:30 UTC \(2 days ago\) +│ +3 │/,
        );
        expect(screen).toMatch(/│ cl_2 +│ weird +│ NMB +│ +│ +│/);
        expect(screen).not.toMatch(/has_more/);
        expect(screen).not.toMatch(/undefined|null|NaN|\[object Object\]/);
      } else {
        expect(blocks(result.stdout)).toEqual([
          [
            ['ID', 'STATUS', 'BANK', 'CREATED', 'PAGES'],
            ['cl_1', 'complete', 'KUMARI', '2026-05-20 08:30 UTC', '3'],
            ['cl_2', 'weird', 'NMB', '', ''],
          ],
        ]);
      }
    },
  );

  it.each(MODES)(
    'a script gets the reports alone on stdout, the reply’s other fields as lines on stderr; a person sees them under the table, for $mode',
    async ({ tty }) => {
      const body = {
        data: LIST.data.slice(0, 1),
        has_more: false,
        next_cursor: null,
        object: 'list',
        page: { size: 1, truncated: true },
      };
      const result = await svc(['reports', 'list'], { tty, service: list('/v1/reports', body) });
      expect(result.code).toBe(0);
      if (tty) {
        expect(result.stderr).toBe('');
        const screen = plain(result.stdout);
        expect(screen).toMatch(/│ cl_abc123 │ complete │ NABIL +│/);
        expect(screen).toMatch(/^Object +list$/m);
        expect(screen).toMatch(/^Page truncated +yes$/m);
      } else {
        expect(result.stdout).toBe(
          'ID\tSTATUS\tBANK\tCREATED\ncl_abc123\tcomplete\tNABIL\t2026-05-20 08:30 UTC\n',
        );
        // No value says nothing; has_more false is the list being whole.
        expect(result.stderr).toBe('object: list\npage.size: 1\npage.truncated: yes\n');
      }
    },
  );

  it.each([
    [
      ['--limit', '5'],
      '/v1/reports?limit=5',
      'More reports exist than the 3 listed: --limit 100 lists up to 100, --status complete|processing|failed narrows the list.',
    ],
    [
      ['--status', 'failed'],
      '/v1/reports?status=failed',
      'More failed reports exist than the 3 listed: --limit 100 lists up to 100.',
    ],
    [
      ['--limit', '100'],
      '/v1/reports?limit=100',
      'More reports exist than the 3 listed: --status complete|processing|failed narrows the list.',
    ],
    [
      ['--limit', '5', '--status', 'complete'],
      '/v1/reports?limit=5&status=complete',
      'More complete reports exist than the 3 listed: --limit 100 lists up to 100.',
    ],
    [
      ['--limit', '100', '--status', 'complete'],
      '/v1/reports?limit=100&status=complete',
      'More complete reports exist than the 3 listed; --limit 100 is the most one request returns, and the service documents no way to page past it.',
    ],
  ])(
    'has_more says on stderr how to see more (%j), as a person and as a script, in every output but --json',
    async (flags, path, hint) => {
      const body = { ...LIST, has_more: true };
      for (const tty of [true, false]) {
        for (const format of [[], ['-o', 'csv'], ['-o', 'ndjson']]) {
          const result = await svc(['reports', 'list', ...flags, ...format], {
            tty,
            service: list(path, body),
          });
          expect(result.code).toBe(0);
          expect(oneLine(result.stderr)).toBe(hint);
          if (!tty) expect(result.stderr).toBe(`${hint}\n`);
          expect(plain(result.stdout)).toContain('cl_ghi789');
          expect(result.stdout).not.toMatch(/has_more|More reports/);
        }
        // --json carries has_more itself.
        const json = await svc(['reports', 'list', ...flags, '--json'], {
          tty,
          service: list(path, body),
        });
        expect(json.stderr).toBe('');
        expect(JSON.parse(plain(json.stdout))).toEqual(body);
      }
    },
  );

  it.each(MODES)(
    'a report’s bank name beside its code is one BANK column, not two, for $mode',
    async ({ tty }) => {
      const body = {
        data: [
          {
            report_id: 'cl_1',
            status: 'complete',
            bank_code: 'NABIL',
            bank: 'Nabil Bank',
            created_at: '2026-05-20T08:30:00Z',
          },
          {
            report_id: 'cl_2',
            status: 'complete',
            bank_code: 'NMB',
            created_at: '2026-05-21T09:15:00Z',
          },
          {
            report_id: 'cl_3',
            status: 'complete',
            statement: { bank: 'Kumari Bank', bank_code: 'KUMARI' },
            created_at: '2026-05-21T09:15:00Z',
          },
        ],
      };
      const result = await svc(['reports', 'list'], { tty, service: list('/v1/reports', body) });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      const text = plain(result.stdout);
      expect(text.match(/BANK/g)).toHaveLength(1);
      if (tty) {
        expect(text).toMatch(/│ cl_1 +│ complete +│ Nabil Bank \(NABIL\) +│/);
        expect(text).toMatch(/│ cl_3 +│ complete +│ Kumari Bank \(KUMARI\) +│/);
      } else {
        expect(result.stdout.split('\n').map((line) => line.split('\t')[2])).toEqual([
          'BANK',
          'Nabil Bank (NABIL)',
          'NMB',
          'Kumari Bank (KUMARI)',
          undefined,
        ]);
      }
    },
  );

  it.each([
    ['complete', 'No complete reports.'],
    [undefined, 'No reports yet. Upload a statement with `svc parse FILE`.'],
  ])(
    'an empty list (--status %s) tells a person so, and gives a script the header alone',
    async (status, message) => {
      const args = status ? ['reports', 'list', '--status', status] : ['reports', 'list'];
      const path = status ? `/v1/reports?status=${status}` : '/v1/reports';
      const person = await svc(args, { tty: true, service: list(path, { data: [] }) });
      expect(person.code).toBe(0);
      expect(plain(person.stdout)).toBe(message + '\n');
      const script = await svc(args, { service: list(path, { data: [] }) });
      expect(script.stdout).toBe('ID\tSTATUS\tBANK\tCREATED\n');
    },
  );

  it.each(MODES)(
    '-o ndjson writes each report of data as one compact line, as received, for $mode',
    async ({ tty }) => {
      const raw =
        '{"data":[{"report_id":"cl_1","amount":125000.50,"status":"complete"},{"report_id":"cl_2","extra":{"a":[1,2]}}],"has_more":false}';
      const result = await svc(['reports', 'list', '-o', 'ndjson'], {
        tty,
        service: answering('GET', '/v1/reports', { raw }),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        '{"report_id":"cl_1","amount":125000.50,"status":"complete"}\n{"report_id":"cl_2","extra":{"a":[1,2]}}\n',
      );
    },
  );

  it.each(MODES)(
    '-o csv: a header row of every key, one row per report, CRLF ends, quoting as RFC 4180, for $mode',
    async ({ tty }) => {
      const body = {
        data: [
          ...LIST.data.slice(0, 2),
          {
            report_id: 'cl_3',
            status: 'complete',
            bank_code: 'A,"B"',
            note: 'line\nbreak',
            tags: ['x'],
          },
        ],
      };
      const result = await svc(['reports', 'list', '-o', 'csv'], {
        tty,
        service: list('/v1/reports', body),
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(
        [
          'report_id,status,bank_code,created_at,note,tags',
          'cl_abc123,complete,NABIL,2026-05-20T08:30:00Z,,',
          'cl_def456,processing,NIC_ASIA,2026-05-21T09:15:00Z,,',
          'cl_3,complete,"A,""B""",,"line\nbreak",x',
        ].join('\r\n') + '\r\n',
      );
      expect(result.stdout).not.toMatch(ANSI);
    },
  );

  it('control characters from the service do not reach the table', async () => {
    const body = {
      data: [
        {
          report_id: 'cl_1',
          status: 'complete',
          bank_code: 'EVIL\u001b[2JBANK\u0007',
          created_at: '2026-05-20T08:30:00Z',
        },
      ],
    };
    for (const tty of [true, false]) {
      const result = await svc(['reports', 'list'], { tty, service: list('/v1/reports', body) });
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain('\u001b[2J');
      expect(result.stdout).not.toContain('\u0007');
      expect(plain(result.stdout)).toMatch(/EVIL.*BANK/);
    }
  });

  const BAD_LIMITS = ['0', '101', 'ten', '-1', '1.5', '', ' 5', '1e2'];
  it.each(BAD_LIMITS.flatMap((limit) => MODES.map(({ mode, tty }) => ({ limit, mode, tty }))))(
    'refuses --limit $limit before any request (exit 2), for $mode',
    async ({ limit, tty }) => {
      expectRefused(await svc(['reports', 'list', `--limit=${limit}`], { tty }), /--limit/);
    },
  );

  it.each(
    ['done', 'COMPLETE', '', 'complete,failed'].flatMap((status) =>
      MODES.map(({ mode, tty }) => ({ status, mode, tty })),
    ),
  )('refuses --status $status before any request (exit 2), for $mode', async ({ status, tty }) => {
    expectRefused(await svc(['reports', 'list', `--status=${status}`], { tty }), /status/);
  });

  it.each([
    [
      'data is an object',
      { data: { report_id: 'cl_1' } },
      /"data" should be a list, but it is an object/,
    ],
    ['data is missing', { reports: [] }, /"data" should be a list, but it is missing/],
    ['the reply is a list', [LIST.data[0]], /should be an object, but it is a list/],
    ['data is null', { data: null }, /"data" should be a list/],
  ])(
    'a reply where %s is exit 10 for a table, ndjson and csv, but --json prints it',
    async (_what, body, message) => {
      for (const format of [[], ['-o', 'ndjson'], ['-o', 'csv']]) {
        for (const tty of [true, false]) {
          const result = await svc(['reports', 'list', ...format], {
            tty,
            service: list('/v1/reports', body),
          });
          expectFailure(result, 10, /^error: unexpected reply to GET \/v1\/reports: /);
          expect(asErrorLine(unwrapped(result.stderr).split('\n')[0]!)).toMatch(message);
        }
      }
      const json = await svc(['reports', 'list', '--json'], { service: list('/v1/reports', body) });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual(body);
    },
  );

  it('items that are not objects are still shown, one row each', async () => {
    const result = await svc(['reports', 'list'], {
      service: list('/v1/reports', { data: ['cl_x', 7, null] }),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'ID\tSTATUS\tBANK\tCREATED\tVALUE\n\t\t\t\tcl_x\n\t\t\t\t7\n\t\t\t\t\n',
    );
    expect(result.stdout).not.toMatch(/undefined|NaN|\[object Object\]/);
  });
});

describe('svc reports get', () => {
  const get = (body: unknown, id = ID) => answering('GET', `/v1/reports/${id}`, { body });

  it('gives a script the statement block as FIELD/VALUE lines, then what else the report carries', async () => {
    const result = await svc(['reports', 'get', ID], { service: get(REPORT) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        'FIELD\tVALUE',
        'report_id\tcl_abc123',
        'status\tcomplete',
        'bank\tNabil Bank (NABIL)',
        'period\t2026-01-01 → 2026-03-31',
        'opening_balance\t73200',
        'closing_balance\t145200',
        'transactions\t12',
        'created_at\t2026-05-27 10:23 UTC',
        'data_source\tPARSED_STATEMENT',
        'tamper_verifiable\tyes',
        'signals\t',
        'monthly_summary\t',
        'categories\t',
        'merchant_categories.groceries.count\t12',
        'merchant_categories.groceries.total\t8420',
      ].join('\n') + '\n',
    );
    // The hint about transactions is for people only.
    expect(result.stdout).not.toContain('transactions in this reply');
  });

  it('gives a script what a report carries that no document shows: a signal per dotted line, each list of objects as a table under its heading, the table last', async () => {
    const body = {
      ...REPORT,
      signals: { salary_detected: true, cash_withdrawal_ratio: 0.081 },
      monthly_summary: [{ month: '2026-03', total_credits: 480891, transaction_count: 12 }],
      categories: [{ category: 'salary', total: 72000 }],
      merchant_categories: [{ mcc: '5411', name: 'groceries', count: 12 }],
    };
    const result = await svc(['reports', 'get', ID], { service: get(body) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^signals\.salary_detected\tyes$/m);
    expect(result.stdout).toMatch(/^signals\.cash_withdrawal_ratio\t0\.081$/m);
    for (const heading of ['Monthly summary', 'Categories', 'Merchant categories'])
      expect(result.stdout).toMatch(new RegExp(`^${heading}\n`, 'm'));
    expect(result.stdout).toMatch(
      /^Merchant categories\nMCC\tNAME\tCOUNT\n5411\tgroceries\t12\n$/m,
    );
    expect(result.stdout).not.toContain('transactions in this reply');
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(/\t/);
  });

  it('shows a person the fields by name, amounts with lakh grouping, and where the transactions are', async () => {
    const result = await svc(['reports', 'get', ID], { tty: true, service: get(REPORT) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = plain(result.stdout)
      .trimEnd()
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' '));
    expect(lines).toEqual([
      'Report cl_abc123',
      'Status complete',
      'Bank Nabil Bank (NABIL)',
      'Period 2026-01-01 → 2026-03-31',
      'Opening balance NPR 73,200.00',
      'Closing balance NPR 1,45,200.00',
      'Transactions 12',
      'Created 2026-05-27 10:23 UTC (in 5 days)',
      'Data source PARSED_STATEMENT',
      'Tamper-verifiable yes',
      'Monthly summary none',
      'Merchant categories groceries count 12',
      'Merchant categories groceries total NPR 8,420.00',
      '1 transactions in this reply: -o csv or -o ndjson writes them one per line.',
    ]);
    expect(result.stdout).toContain('\u001b[32mcomplete\u001b[39m');
  });

  it.each(MODES)(
    'reads bank_code at the top, statement_period, and a failed report’s error, for $mode',
    async ({ tty }) => {
      const failed = {
        report_id: 'cl_bad',
        status: 'failed',
        bank_code: 'NMB',
        created_at: '2026-05-21T09:15:00Z',
        statement_period: { from: '2026-02-01', to: '2026-02-28' },
        error: {
          error_code: 'DOCUMENT_PARSE_FAILED',
          error_message: 'The document could not be parsed.',
        },
      };
      const result = await svc(['reports', 'get', 'cl_bad'], {
        tty,
        service: get(failed, 'cl_bad'),
      });
      expect(result.code).toBe(0);
      const text = tty ? plain(result.stdout).replace(/ {2,}/g, '\t') : result.stdout;
      expect(text).toMatch(/^(status|Status)\tfailed$/m);
      expect(text).toMatch(/^(bank|Bank)\tNMB$/m);
      expect(text).toMatch(/^(period|Period)\t2026-02-01 → 2026-02-28$/m);
      expect(text).toMatch(/^(error\.error_code|Error code)\tDOCUMENT_PARSE_FAILED$/m);
      expect(text).toMatch(
        /^(error\.error_message|Error message)\tThe document could not be parsed\.$/m,
      );
      if (tty) expect(result.stdout).toContain('\u001b[31mfailed\u001b[39m');
    },
  );

  it.each(MODES)(
    'a bank name at the top beside bank_code is the one Bank field, not a second, for $mode',
    async ({ tty }) => {
      const flat = {
        report_id: 'cl_new',
        status: 'processing',
        bank_code: 'NABIL',
        bank: 'Nabil Bank',
        created_at: '2026-05-21T09:15:00Z',
      };
      const result = await svc(['reports', 'get', 'cl_new'], { tty, service: get(flat, 'cl_new') });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      const text = tty ? plain(result.stdout).replace(/ {2,}/g, '\t') : result.stdout;
      expect(text.match(/^(bank|Bank)\t.*$/gim)).toEqual([
        tty ? 'Bank\tNabil Bank (NABIL)' : 'bank\tNabil Bank (NABIL)',
      ]);
    },
  );

  it.each(MODES)(
    '-o ndjson writes the transactions, of either shape, as received, for $mode',
    async ({ tty }) => {
      const body = {
        ...REPORT,
        transactions: [...(REPORT.transactions as unknown[]), NEWER_TRANSACTION],
      };
      const result = await svc(['reports', 'get', ID, '-o', 'ndjson'], { tty, service: get(body) });
      expect(result.code).toBe(0);
      expect(jsonLines(result.stdout)).toEqual(body.transactions);
    },
  );

  it.each(MODES)(
    '-o csv writes the transactions: the union of both shapes’ keys, the newer shape’s category and counterparties in dotted columns, for $mode',
    async ({ tty }) => {
      const body = {
        ...REPORT,
        transactions: [...(REPORT.transactions as unknown[]), NEWER_TRANSACTION],
      };
      const result = await svc(['reports', 'get', ID, '-o', 'csv'], { tty, service: get(body) });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      const [header, older, newer, end] = result.stdout.split('\r\n');
      // The documented fields first, a field of one shape beside its like in the other
      // (docs/reference/output.md, "CSV").
      expect(header!.split(',')).toEqual([
        'transaction_id',
        'date',
        'description',
        'name',
        'debit',
        'credit',
        'amount',
        'iso_currency_code',
        'balance',
        'category',
        'personal_finance_category.primary',
        'personal_finance_category.detailed',
        'merchant',
        'merchant_name',
        'merchantTerminal',
        'payment_terminal_id',
        'mcc',
        'merchantCategory',
        'counterparties.0.type',
        'counterparties.0.name',
        'counterparties.0.confidence_level',
        'payment_channel',
        'pending',
      ]);
      expect(older).toBe(
        ',2026-03-03,"MPAY 2222020006840462,492738040,MOB",,1250,,,,143950,merchant_payment,,,…,,2222020006840462,,5411,groceries,,,,,',
      );
      expect(newer).toBe(
        'txn_0001,2026-03-03,,…,,,1250,NPR,143950,,…,…,,…,,2222020006840462,5411,,merchant,…,…,…,false',
      );
      expect(end).toBe('');
    },
  );

  it.each(MODES)(
    '-o csv of the transactions keeps every digit of their numbers, for $mode',
    async ({ tty }) => {
      const raw =
        '{"report_id":"cl_abc123","transactions":[{"transaction_id":"txn_1","amount":12345678901234567890,"balance":1e400,"personal_finance_category":{"primary":"INCOME","detailed":"INCOME_WAGES"}}]}';
      const result = await svc(['reports', 'get', ID, '-o', 'csv'], {
        tty,
        service: answering('GET', `/v1/reports/${ID}`, { raw }),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        'transaction_id,amount,balance,personal_finance_category.primary,personal_finance_category.detailed\r\ntxn_1,12345678901234567890,1e400,INCOME,INCOME_WAGES\r\n',
      );
    },
  );

  it('-o ndjson of a report without transactions is the reply as one record', async () => {
    const { transactions: _none, ...body } = REPORT;
    const result = await svc(['reports', 'get', ID, '-o', 'ndjson'], { service: get(body) });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(JSON.stringify(body) + '\n');
  });

  it.each([
    ['a list', [1, 'a'], /^(value|Value)\t1, a$/m],
    ['a text', 'ready', /^(value|Value)\tready$/m],
    [
      'a statement that is text and transactions that are an object',
      { report_id: ID, statement: 'Nabil', transactions: {} },
      /^(statement\.value|Statement value)\tNabil$/m,
    ],
  ])('a reply that is %s is shown as it comes, not refused (exit 0)', async (_what, body, line) => {
    for (const tty of [true, false]) {
      const result = await svc(['reports', 'get', ID], { tty, service: get(body) });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      const text = tty ? plain(result.stdout).replace(/ {2,}/g, '\t') : result.stdout;
      expect(text).toMatch(line);
      expect(text).not.toMatch(/undefined|null|NaN|\[object Object\]/);
    }
  });
});

describe('svc reports match (and svc match)', () => {
  const matching = (body: unknown = MATCH, check?: (json: unknown) => boolean) =>
    new FakeService().expect(
      'POST',
      (r) => r.path === `/v1/reports/${ID}/identity/match` && (!check || check(r.json)),
      { body },
    );

  it('posts the claimed name, trimmed, as the JSON body {"name": …}', async () => {
    const result = await svc(
      ['reports', 'match', ID, '--name', '  Ram Prasad  Sharma ', '--json'],
      { service: matching() },
    );
    expect(result.code).toBe(0);
    expect(result.requests[0]!.body).toBe('{"name":"Ram Prasad  Sharma"}');
  });

  it('svc match is the same command as svc reports match, for a person and for a script', async () => {
    for (const tty of [true, false]) {
      const a = await svc(['reports', 'match', ID, '--name', 'Ram Prasad Sharma'], {
        tty,
        service: matching(),
      });
      const b = await svc(['match', ID, '--name', 'Ram Prasad Sharma'], {
        tty,
        service: matching(),
      });
      expect(a.code).toBe(0);
      expect(b.stdout).toBe(a.stdout);
      expect(b.requests[0]!.json).toEqual(a.requests[0]!.json);
      expect(b.requests[0]!.headers['idempotency-key']).not.toBe(
        a.requests[0]!.headers['idempotency-key'],
      );
    }
  });

  it('gives a script score, result, both names and the reasons as FIELD/VALUE lines', async () => {
    const result = await svc(['match', ID, '--name', 'Ram Prasad Sharma'], { service: matching() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'FIELD\tVALUE',
        'match_score\t92 / 100',
        'result\tmatch',
        'claimed_name\tRam Prasad Sharma',
        'statement_name\tRAM PRASAD SHARMA',
        'reasons\t• Same words in another order • Initials match',
      ].join('\n') + '\n',
    );
  });

  it('shows a person the score, the coloured band and one reason per line', async () => {
    const result = await svc(['match', ID, '--name', 'Ram Prasad Sharma'], {
      tty: true,
      service: matching(),
    });
    expect(result.code).toBe(0);
    expect(plain(result.stdout)).toBe(
      [
        'Score           92 / 100',
        'Result          match',
        'Claimed name    Ram Prasad Sharma',
        'Statement name  RAM PRASAD SHARMA',
        'Reasons         • Same words in another order',
        '                • Initials match',
      ].join('\n') + '\n',
    );
    expect(result.stdout).toContain('\u001b[32mmatch\u001b[39m');
  });

  it.each([
    ['partial_match', '\u001b[33mpartial_match\u001b[39m'],
    ['no_match', '\u001b[31mno_match\u001b[39m'],
    ['no_data', '\u001b[2mno_data\u001b[22m'],
  ])('colours the band %s for a person, and a script gets it plain', async (band, coloured) => {
    const body = { match_score: 0, result: band, statement_name: null, reasons: [] };
    const person = await svc(['match', ID, '--name', 'Hari'], {
      tty: true,
      service: matching(body),
    });
    expect(person.stdout).toContain(coloured);
    expect(plain(person.stdout)).not.toMatch(/Statement name|null/);
    const script = await svc(['match', ID, '--name', 'Hari'], { service: matching(body) });
    expect(script.stdout).toMatch(new RegExp(`^result\\t${band}$`, 'm'));
    expect(script.stdout).toMatch(/^statement_name\t$/m);
    expect(script.stdout).toMatch(/^reasons\t$/m);
  });

  it.each(MODES)(
    '-o ndjson and -o csv: the reply, which documents no list, is one record; CSV joins the reasons, for $mode',
    async ({ tty }) => {
      const ndjson = await svc(['match', ID, '--name', 'Ram', '-o', 'ndjson'], {
        tty,
        service: matching(),
      });
      expect(ndjson.stdout).toBe(JSON.stringify(MATCH) + '\n');
      const csv = await svc(['match', ID, '--name', 'Ram', '-o', 'csv'], {
        tty,
        service: matching(),
      });
      expect(csv.code).toBe(0);
      expect(csv.stderr).toBe('');
      expect(csv.stdout).toBe(
        'match_score,result,statement_name,reasons\r\n92,match,RAM PRASAD SHARMA,Same words in another order; Initials match\r\n',
      );
    },
  );

  it.each(
    [
      [['match', ID], /--name/],
      [['match', ID, '--name', ''], /--name is empty/],
      [['match', ID, '--name', '   '], /--name is empty/],
      [['reports', 'match', ID], /--name/],
      [['match', '--name', 'Ram'], /id/],
    ].flatMap(([argv, message]) =>
      MODES.map(({ mode, tty }) => ({
        argv: argv as string[],
        message: message as RegExp,
        mode,
        tty,
      })),
    ),
  )('refuses svc $argv before any request (exit 2), for $mode', async ({ argv, message, tty }) => {
    expectRefused(await svc(argv, { tty }), message);
  });

  it('a reply of another shape is shown, not refused: unknown fields as they come', async () => {
    const body = { match_score: 'high', result: 'match', reasons: 'one reason', confidence: 0.9 };
    const result = await svc(['match', ID, '--name', 'Ram'], { service: matching(body) });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^reasons\t• one reason$/m);
    expect(result.stdout).toMatch(/^confidence\t0\.9$/m);
    expect(result.stdout).toMatch(/^match_score\t$/m);
  });
});

describe('svc reports auth (and svc auth)', () => {
  const auth = (body: unknown = AUTH) => answering('GET', `/v1/reports/${ID}/auth`, { body });

  it('gives a script holder, account, bank, SWIFT/BIC, note and verification as FIELD/VALUE lines', async () => {
    const result = await svc(['reports', 'auth', ID], { service: auth() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'FIELD\tVALUE',
        'account_holder\tRAM PRASAD SHARMA',
        'account_number\t09810017508391',
        'bank\tNabil Bank (NABIL)',
        'swift_bic\tNARBNPKA',
        'swift_note\t',
        'verification_status\tstatement_parsed',
        'report_id\tcl_abc123',
      ].join('\n') + '\n',
    );
  });

  it('shows a person the verified numbers by name', async () => {
    const result = await svc(['auth', ID], { tty: true, service: auth() });
    expect(result.code).toBe(0);
    expect(plain(result.stdout)).toBe(
      [
        'Account holder  RAM PRASAD SHARMA',
        'Account number  09810017508391',
        'Bank            Nabil Bank (NABIL)',
        'SWIFT/BIC       NARBNPKA',
        'Verification    statement_parsed',
        'Report ID       cl_abc123',
      ].join('\n') + '\n',
    );
  });

  it('svc auth is the same command as svc reports auth, for a person and for a script', async () => {
    for (const tty of [true, false]) {
      const a = await svc(['reports', 'auth', ID], { tty, service: auth() });
      const b = await svc(['auth', ID], { tty, service: auth() });
      expect(a.code).toBe(0);
      expect(b.stdout).toBe(a.stdout);
    }
  });

  it('explains a missing SWIFT/BIC with the service’s swift_note, for a person and a script; --json keeps the null', async () => {
    const script = await svc(['auth', ID], { service: auth(AUTH_NO_SWIFT) });
    expect(script.stdout).toMatch(/^swift_bic\tnone$/m);
    expect(script.stdout).toMatch(
      /^swift_note\tGarima Bikas Bank is a Class-B development bank; only Class-A commercial banks in Nepal hold a SWIFT\/BIC\.$/m,
    );
    expect(script.stdout).toMatch(/^bank\tGarima Bikas Bank \(GARIMA\)$/m);
    const person = plain(
      (await svc(['auth', ID], { tty: true, service: auth(AUTH_NO_SWIFT) })).stdout,
    );
    expect(person).toMatch(/^SWIFT\/BIC {7}none$/m);
    expect(person).toMatch(/^SWIFT note {6}Garima Bikas Bank is a Class-B/m);
    const json = JSON.parse(
      (await svc(['auth', ID, '--json'], { service: auth(AUTH_NO_SWIFT) })).stdout,
    );
    expect(json.swift_bic).toBeNull();
    expect(json.swift_note).toMatch(/Class-A/);
  });

  it.each(MODES)('-o csv and -o ndjson: the reply as one record, for $mode', async ({ tty }) => {
    const csv = await svc(['auth', ID, '-o', 'csv'], { tty, service: auth() });
    expect(csv.stdout).toBe(
      'report_id,account_holder,account_number,bank_code,bank_name,swift_bic,swift_note,verification_status\r\n' +
        'cl_abc123,RAM PRASAD SHARMA,09810017508391,NABIL,Nabil Bank,NARBNPKA,,statement_parsed\r\n',
    );
    const ndjson = await svc(['auth', ID, '-o', 'ndjson'], { tty, service: auth() });
    expect(ndjson.stdout).toBe(JSON.stringify(AUTH) + '\n');
  });

  it.each(MODES)('-o csv: what a reply nests, in dotted columns, for $mode', async ({ tty }) => {
    const csv = await svc(['auth', ID, '-o', 'csv'], {
      tty,
      service: auth({ ...AUTH, account: { type: 'savings', branch: 'Thamel' } }),
    });
    expect(csv.code).toBe(0);
    expect(csv.stderr).toBe('');
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'report_id,account_holder,account_number,bank_code,bank_name,swift_bic,swift_note,verification_status,account.type,account.branch',
    );
    expect(csv.stdout.split('\r\n')[1]).toMatch(/,statement_parsed,savings,Thamel$/);
  });

  it('reads other names of the SWIFT/BIC and the bank', async () => {
    const result = await svc(['auth', ID], {
      service: auth({
        account_holder: 'SITA THAPA',
        bank: 'NMB Bank',
        bic: 'NMBBNPKA',
        verification_status: 'connect_verified',
      }),
    });
    expect(result.stdout).toMatch(/^swift_bic\tNMBBNPKA$/m);
    expect(result.stdout).toMatch(/^bank\tNMB Bank$/m);
    expect(result.stdout).toMatch(/^verification_status\tconnect_verified$/m);
  });
});

describe('svc reports identity', () => {
  const identity = (body: unknown = IDENTITY) =>
    answering('GET', `/v1/reports/${ID}/identity`, { body });

  it('gives a script holder, account, bank, currency and period as FIELD/VALUE lines', async () => {
    const result = await svc(['reports', 'identity', ID], { service: identity() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'FIELD\tVALUE',
        'account_holder\tRAM PRASAD SHARMA',
        'account_number\t09810017508391',
        'bank\tNabil Bank (NABIL)',
        'currency\tNPR',
        'period\t2026-01-01 → 2026-03-31',
      ].join('\n') + '\n',
    );
  });

  it('shows a person the same facts by name', async () => {
    const result = await svc(['reports', 'identity', ID], { tty: true, service: identity() });
    expect(result.code).toBe(0);
    expect(plain(result.stdout)).toBe(
      [
        'Account holder  RAM PRASAD SHARMA',
        'Account number  09810017508391',
        'Bank            Nabil Bank (NABIL)',
        'Currency        NPR',
        'Period          2026-01-01 → 2026-03-31',
      ].join('\n') + '\n',
    );
  });

  it.each(MODES)(
    'reads statement_period, and shows fields no document names, for $mode',
    async ({ tty }) => {
      const { period, ...rest } = IDENTITY;
      const body = {
        ...rest,
        statement_period: period,
        branch: 'Kathmandu',
        nominees: [{ name: 'Sita' }],
      };
      const result = await svc(['reports', 'identity', ID], { tty, service: identity(body) });
      expect(result.code).toBe(0);
      const text = tty ? plain(result.stdout).replace(/ {2,}/g, '\t') : result.stdout;
      expect(text).toMatch(/^(period|Period)\t2026-01-01 → 2026-03-31$/m);
      expect(text).toMatch(/^(branch|Branch)\tKathmandu$/m);
      if (tty)
        expect(plain(result.stdout)).toMatch(/^Nominees\n┌─+┐\n│ NAME +│\n├─+┤\n│ Sita +│\n└─+┘$/m);
      else expect(result.stdout).toMatch(/\n\nNominees\nNAME\nSita\n$/);
    },
  );

  it.each(MODES)(
    'a field that is absent is blank, never "undefined", for $mode',
    async ({ tty }) => {
      const result = await svc(['reports', 'identity', ID], {
        tty,
        service: identity({ account_holder: 'RAM PRASAD SHARMA' }),
      });
      expect(result.code).toBe(0);
      expect(result.stdout).not.toMatch(/undefined|null|NaN|\?/);
      if (tty) expect(plain(result.stdout)).toBe('Account holder  RAM PRASAD SHARMA\n');
      else
        expect(result.stdout).toBe(
          'FIELD\tVALUE\naccount_holder\tRAM PRASAD SHARMA\naccount_number\t\nbank\t\ncurrency\t\nperiod\t\n',
        );
    },
  );

  it('-o ndjson: the reply as one record', async () => {
    const result = await svc(['reports', 'identity', ID, '-o', 'ndjson'], { service: identity() });
    expect(result.stdout).toBe(JSON.stringify(IDENTITY) + '\n');
  });

  it.each(MODES)(
    '-o csv: the reply as one record, the period as period.from and period.to, for $mode',
    async ({ tty }) => {
      const result = await svc(['reports', 'identity', ID, '-o', 'csv'], {
        tty,
        service: identity(),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        'bank,bank_code,account_holder,account_number,currency,period.from,period.to\r\nNabil Bank,NABIL,RAM PRASAD SHARMA,09810017508391,NPR,2026-01-01,2026-03-31\r\n',
      );
    },
  );
});

describe('svc reports counterparties', () => {
  const counterparties = (body: unknown = COUNTERPARTIES) =>
    answering('GET', `/v1/reports/${ID}/counterparties`, { body });

  it('gives a script the scalars as FIELD/VALUE, then each list under its heading, as received', async () => {
    const result = await svc(['reports', 'counterparties', ID], { service: counterparties() });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'FIELD\tVALUE',
        'report_id\tcl_abc123',
        'currency\tNPR',
        'total_inflow\t898676.55',
        'total_outflow\t745256.8',
        '',
        'By type',
        'TYPE\tINFLOW\tOUTFLOW\tINFLOW COUNT\tOUTFLOW COUNT',
        'merchant\t0\t100727.8\t0\t24',
        'individual\t27658\t184014\t5\t8',
        '',
        'Top people',
        'NAME\tTYPE\tINFLOW\tOUTFLOW\tTRANSACTION COUNT',
        'Krishna Prasad Joshi\tindividual\t0\t168000\t6',
        '',
        'Top merchants',
        'NAME\tTYPE\tINFLOW\tOUTFLOW\tTRANSACTION COUNT',
        'Bhat-Bhateni Supermarket\tmerchant\t0\t42000.5\t9',
      ].join('\n') + '\n',
    );
  });

  it('shows a person a title, the scalars, and a boxed table under each heading', async () => {
    const result = await svc(['reports', 'counterparties', ID], {
      tty: true,
      service: counterparties(),
    });
    expect(result.code).toBe(0);
    const screen = plain(result.stdout);
    expect(screen.split('\n')[0]).toBe('Counterparties of cl_abc123');
    // Money as every view shows it: the currency in a field, grouped in lakhs with two decimals.
    expect(screen).toMatch(/^Total inflow +NPR 8,98,676\.55$/m);
    expect(screen).toMatch(/│ individual │ +27,658\.00 │ +1,84,014\.00 │ +5 │ +8 │/);
    for (const heading of ['By type', 'Top people', 'Top merchants'])
      expect(screen).toMatch(new RegExp(`^${heading}\n┌`, 'm'));
    expect(screen).toMatch(/│ Krishna Prasad Joshi │ individual │/);
    expect(result.stdout).toMatch(/\u001b\[1mCounterparties of cl_abc123\u001b\[22m/);
  });

  it('an empty reply says so to a person', async () => {
    const result = await svc(['reports', 'counterparties', ID], {
      tty: true,
      service: counterparties({}),
    });
    expect(result.code).toBe(0);
    expect(plain(result.stdout)).toBe(
      'Counterparties of cl_abc123\nThe reply names no counterparties.\n',
    );
  });

  it.each(MODES)(
    '-o csv: one row per item of each list, the list named first, then the view’s own values, for $mode',
    async ({ tty }) => {
      const result = await svc(['reports', 'counterparties', ID, '-o', 'csv'], {
        tty,
        service: counterparties(),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.split('\r\n')).toEqual([
        'list,report_id,currency,total_inflow,total_outflow,type,inflow,outflow,inflow_count,outflow_count,name,transaction_count',
        'by_type,cl_abc123,NPR,898676.55,745256.8,merchant,0,100727.8,0,24,,',
        'by_type,cl_abc123,NPR,898676.55,745256.8,individual,27658,184014,5,8,,',
        'top_people,cl_abc123,NPR,898676.55,745256.8,individual,0,168000,,,Krishna Prasad Joshi,6',
        'top_merchants,cl_abc123,NPR,898676.55,745256.8,merchant,0,42000.5,,,Bhat-Bhateni Supermarket,9',
        '',
      ]);
    },
  );

  it.each(MODES)(
    '-o ndjson: the same records, one a line, numbers as received, for $mode',
    async ({ tty }) => {
      const raw =
        '{"report_id":"cl_abc123","total_inflow":12345678901234567890,"top_people":[{"name":"Krishna Prasad Joshi","outflow":1e400},{"name":"Sita","outflow":125000.50}]}';
      const result = await svc(['reports', 'counterparties', ID, '-o', 'ndjson'], {
        tty,
        service: answering('GET', `/v1/reports/${ID}/counterparties`, { raw }),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe(
        '{"list":"top_people","report_id":"cl_abc123","total_inflow":12345678901234567890,"name":"Krishna Prasad Joshi","outflow":1e400}\n' +
          '{"list":"top_people","report_id":"cl_abc123","total_inflow":12345678901234567890,"name":"Sita","outflow":125000.50}\n',
      );
      const csv = await svc(['reports', 'counterparties', ID, '-o', 'csv'], {
        tty,
        service: answering('GET', `/v1/reports/${ID}/counterparties`, { raw }),
      });
      expect(csv.code).toBe(0);
      expect(csv.stderr).toBe('');
      expect(csv.stdout).toBe(
        'list,report_id,total_inflow,name,outflow\r\ntop_people,cl_abc123,12345678901234567890,Krishna Prasad Joshi,1e400\r\ntop_people,cl_abc123,12345678901234567890,Sita,125000.50\r\n',
      );
    },
  );

  it('a reply that is a top-level list: -o ndjson writes its items', async () => {
    const body = COUNTERPARTIES.by_type;
    const result = await svc(['reports', 'counterparties', ID, '-o', 'ndjson'], {
      service: counterparties(body),
    });
    expect(result.stdout).toBe(body.map((item) => JSON.stringify(item)).join('\n') + '\n');
  });
});

describe('svc reports recurring (and svc recurring)', () => {
  const recurring = (body: unknown = RECURRING) =>
    answering('GET', `/v1/reports/${ID}/recurring`, { body });

  it('gives a script each stream list as a table: cadence, average, status, active, next date', async () => {
    const result = await svc(['recurring', ID], { service: recurring() });
    expect(result.code).toBe(0);
    expect(blocks(result.stdout)).toEqual([
      [
        ['FIELD', 'VALUE'],
        ['report_id', 'cl_abc123'],
        ['currency', 'NPR'],
      ],
      [
        ['Inflow streams'],
        [
          'COUNTERPARTY',
          'CATEGORY',
          'CADENCE',
          'AVERAGE AMOUNT',
          'OCCURRENCES',
          'STATUS',
          'IS ACTIVE',
          'LAST DATE',
          'NEXT DATE',
        ],
        [
          'Leapfrog Technology Pvt Ltd',
          'salary',
          'monthly',
          '125000',
          '6',
          'MATURE',
          'yes',
          '2026-01-10',
          '2026-02-10',
        ],
      ],
      [
        ['Outflow streams'],
        [
          'COUNTERPARTY',
          'CATEGORY',
          'CADENCE',
          'AVERAGE AMOUNT',
          'OCCURRENCES',
          'STATUS',
          'IS ACTIVE',
          'LAST DATE',
          'NEXT DATE',
        ],
        [
          'Krishna Prasad Joshi',
          'rent',
          'monthly',
          '28000',
          '6',
          'MATURE',
          'yes',
          '2025-12-18',
          '2026-01-18',
        ],
        [
          'Netflix',
          'subscription',
          'monthly',
          '1199',
          '2',
          'EARLY_DETECTION',
          'no',
          '2025-11-02',
          '',
        ],
      ],
    ]);
  });

  it('shows a person a title and a boxed table per stream list', async () => {
    const result = await svc(['reports', 'recurring', ID], {
      tty: true,
      columns: 160,
      service: recurring(),
    });
    expect(result.code).toBe(0);
    const screen = plain(result.stdout);
    expect(screen.split('\n')[0]).toBe('Recurring streams of cl_abc123');
    expect(screen).toMatch(/^Inflow streams\n┌/m);
    expect(screen).toMatch(/^Outflow streams\n┌/m);
    expect(screen).toMatch(
      /│ Netflix +│ subscription +│ monthly +│ +1,199\.00 │ +2 │ EARLY_DETECTION │ no +│ 2025-11-02 │ +│/,
    );
  });

  it('svc recurring is the same command as svc reports recurring, for a person and for a script', async () => {
    for (const tty of [true, false]) {
      const a = await svc(['reports', 'recurring', ID], { tty, service: recurring() });
      const b = await svc(['recurring', ID], { tty, service: recurring() });
      expect(a.code).toBe(0);
      expect(b.stdout).toBe(a.stdout);
    }
  });

  it('an empty reply says so to a person; an empty list is a blank field for a script', async () => {
    const person = await svc(['recurring', ID], { tty: true, service: recurring({}) });
    expect(plain(person.stdout)).toBe(
      'Recurring streams of cl_abc123\nNo recurring streams were found in this statement.\n',
    );
    const script = await svc(['recurring', ID], {
      service: recurring({ inflow_streams: [], outflow_streams: [] }),
    });
    expect(script.stdout).toBe('FIELD\tVALUE\ninflow_streams\t\noutflow_streams\t\n');
  });

  it.each(MODES)(
    '-o csv: one row per stream, its list (inflow or outflow) first, for $mode',
    async ({ tty }) => {
      const result = await svc(['recurring', ID, '-o', 'csv'], { tty, service: recurring() });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.split('\r\n')).toEqual([
        'list,report_id,currency,counterparty,category,cadence,average_amount,occurrences,status,is_active,last_date,next_date',
        'inflow_streams,cl_abc123,NPR,Leapfrog Technology Pvt Ltd,salary,monthly,125000,6,MATURE,true,2026-01-10,2026-02-10',
        'outflow_streams,cl_abc123,NPR,Krishna Prasad Joshi,rent,monthly,28000,6,MATURE,true,2025-12-18,2026-01-18',
        'outflow_streams,cl_abc123,NPR,Netflix,subscription,monthly,1199,2,EARLY_DETECTION,false,2025-11-02,',
        '',
      ]);
    },
  );

  it.each(MODES)(
    '-o ndjson: the same records, each stream with its list, for $mode',
    async ({ tty }) => {
      const result = await svc(['recurring', ID, '-o', 'ndjson'], { tty, service: recurring() });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      const own = { report_id: ID, currency: 'NPR' };
      expect(jsonLines(result.stdout)).toEqual([
        ...RECURRING.inflow_streams.map((stream) => ({
          list: 'inflow_streams',
          ...own,
          ...stream,
        })),
        ...RECURRING.outflow_streams.map((stream) => ({
          list: 'outflow_streams',
          ...own,
          ...stream,
        })),
      ]);
    },
  );

  it.each(MODES)(
    '-o csv of a reply whose lists are empty is the reply as one record, for $mode',
    async ({ tty }) => {
      const result = await svc(['recurring', ID, '-o', 'csv'], {
        tty,
        service: recurring({ report_id: ID, inflow_streams: [], outflow_streams: [] }),
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout).toBe('report_id,inflow_streams,outflow_streams\r\ncl_abc123,,\r\n');
    },
  );
});

describe('list items whose known fields are of another type', () => {
  it('show those fields as they came, in columns of their own', async () => {
    const body = {
      data: [
        {
          report_id: 'r1',
          status: { code: 'complete' },
          bank_code: ['NABIL'],
          created_at: '2026-05-20T08:30:00Z',
        },
      ],
    };
    const result = await svc(['reports', 'list'], {
      service: new FakeService().expect('GET', '/v1/reports', { body }),
    });
    expect(result.code, result.stderr).toBe(0);
    const [header, row] = result.stdout.trimEnd().split('\n');
    expect(header).toBe('ID\tSTATUS\tBANK\tCREATED\tSTATUS.CODE\tBANK CODE');
    expect(row).toMatch(/^r1\t\t\t2026-05-20 08:30 \S+\tcomplete\tNABIL$/);
  });
});
